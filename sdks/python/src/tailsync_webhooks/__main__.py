"""``python -m tailsync_webhooks listen …``: the same as the ``tailsync-webhooks`` command."""
import sys

from .cli import main

sys.exit(main())
