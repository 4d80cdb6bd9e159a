"""Verify tailsync webhook callbacks (package ``tailsync-webhooks``).

``verify_webhook`` runs the interface's seven steps on the ``Authorization: Token <JWT>`` header;
``verify_standard_webhook`` checks the Standard Webhooks headers. With ``signatureScheme:
"ed25519"`` both take ``public_keys`` (the domain's JWK Set; ``RemoteKeySet`` fetches and keeps it,
``pip install "tailsync-webhooks[ed25519]"``) instead of ``secrets``. Both refuse Test calls unless
told ``test_calls="accept"``. ``tailsync_webhooks.flask`` and ``tailsync_webhooks.fastapi`` hold
the framework helpers. ``sign`` signs a payload as tailsync does, for testing a receiver's own
handler. ``parse_event`` turns a verified payload into a ``TailsyncEvent``, the typed union of the
event catalog (``tailsync_webhooks.events`` holds each event type's TypedDicts, generated from
tailsync's event-type registry).
"""
from .errors import StandardWebhookError, WebhookVerificationError
from .events import TAILSYNC_EVENT_NAMES, TailsyncEvent, TailsyncEventName
from .parse_event import parse_event
from .public_keys import PublicKeys, RemoteKeySet, StaleKeySetError, jwk_thumbprint, jwks_url, token_key_id
from .sign import CallbackKind, SignedWebhook, sign
from .secrets import Secrets, secret_id, standard_webhooks_secret
from .standard import StandardWebhook, verify_standard_webhook
from .call_kinds import TEST_WEBHOOK_ID_PREFIX, TestCalls
from .verify import VerifiedWebhook, verify_webhook

__all__ = [
    "CallbackKind",
    "PublicKeys",
    "RemoteKeySet",
    "StaleKeySetError",
    "jwk_thumbprint",
    "jwks_url",
    "parse_event",
    "token_key_id",
    "Secrets",
    "SignedWebhook",
    "StandardWebhook",
    "StandardWebhookError",
    "TEST_WEBHOOK_ID_PREFIX",
    "TestCalls",
    "TAILSYNC_EVENT_NAMES",
    "TailsyncEvent",
    "TailsyncEventName",
    "VerifiedWebhook",
    "WebhookVerificationError",
    "secret_id",
    "sign",
    "standard_webhooks_secret",
    "verify_standard_webhook",
    "verify_webhook",
]
