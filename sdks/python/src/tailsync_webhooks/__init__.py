"""Verify tailsync webhook callbacks (package ``tailsync-webhooks``).

``verify_webhook`` runs the interface's seven steps on the ``Authorization: Token <JWT>`` header;
``verify_standard_webhook`` checks the Standard Webhooks headers. Both refuse Test calls unless
told ``test_calls="accept"``. ``tailsync_webhooks.flask`` and ``tailsync_webhooks.fastapi`` hold
the framework helpers.
"""
from .errors import StandardWebhookError, WebhookVerificationError
from .secrets import Secrets, secret_id, standard_webhooks_secret
from .standard import StandardWebhook, verify_standard_webhook
from .call_kinds import TEST_WEBHOOK_ID_PREFIX, TestCalls
from .verify import VerifiedWebhook, verify_webhook

__all__ = [
    "Secrets",
    "StandardWebhook",
    "StandardWebhookError",
    "TEST_WEBHOOK_ID_PREFIX",
    "TestCalls",
    "VerifiedWebhook",
    "WebhookVerificationError",
    "secret_id",
    "standard_webhooks_secret",
    "verify_standard_webhook",
    "verify_webhook",
]
