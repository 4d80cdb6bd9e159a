"""Verify tailsync webhook callbacks (package ``tailsync-webhooks``).

``verify_webhook`` runs the interface's seven steps on the ``Authorization: Token <JWT>`` header;
``verify_standard_webhook`` checks the Standard Webhooks headers; ``tailsync_webhooks.flask`` has a
decorator for Flask views.
"""
from .errors import StandardWebhookError, WebhookVerificationError
from .secrets import Secrets, secret_id, standard_webhooks_secret
from .standard import verify_standard_webhook
from .verify import VerifiedWebhook, verify_webhook

__all__ = [
    "Secrets",
    "StandardWebhookError",
    "VerifiedWebhook",
    "WebhookVerificationError",
    "secret_id",
    "standard_webhooks_secret",
    "verify_standard_webhook",
    "verify_webhook",
]
