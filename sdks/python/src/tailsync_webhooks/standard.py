"""The Standard Webhooks check (https://www.standardwebhooks.com) of our callbacks."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Union

from .errors import StandardWebhookError
from .public_keys import PublicKeys, ed25519_keys, ed25519_verifies
from .secrets import Secrets, secret_list
from .call_kinds import TEST_WEBHOOK_ID_PREFIX, TestCalls, refuses_test_calls

#: Standard Webhooks' tolerance between the sender's and the receiver's clocks.
DEFAULT_TOLERANCE_SECONDS = 300
_TIMESTAMP = re.compile(r"^[0-9]{1,15}$")


@dataclass(frozen=True)
class StandardWebhook:
    """A callback whose Standard Webhooks signature matched."""

    webhook_id: str
    timestamp: int
    payload: Any


def verify_standard_webhook(
    headers: Mapping[str, str],
    raw_body: Union[bytes, bytearray, memoryview],
    secrets: Optional[Secrets] = None,
    *,
    public_keys: Optional[PublicKeys] = None,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
    test_calls: TestCalls = "refuse",
) -> StandardWebhook:
    """Checks ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` with our shared secret(s).

    Passes when any ``v1`` signature listed matches any secret (several are listed while a secret is
    rotated): HMAC-SHA256 of ``"<id>.<timestamp>.<body>"`` keyed by the secret's UTF-8 bytes. Raises
    StandardWebhookError (``code``: ``missing-headers``, ``invalid-timestamp``, ``invalid-signature``,
    ``invalid-json``, ``test-call``) otherwise; a Test call (id ``test_…``) is refused unless
    ``test_calls="accept"``. With ``public_keys`` (the domain's JWK Set, ``signatureScheme:
    "ed25519"``) instead of ``secrets``, any ``v1a`` signature by one of its keys passes.
    """
    if (secrets is None) == (public_keys is None):
        raise TypeError("pass exactly one of secrets and public_keys")
    keys = [s.encode("utf-8") for s in secret_list(secrets)] if secrets is not None else []
    ed_keys = ed25519_keys(public_keys) if public_keys is not None else []
    refuse_tests = refuses_test_calls(test_calls)
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        raise StandardWebhookError("missing-headers", "missing webhook-id, webhook-timestamp or webhook-signature")
    if not _TIMESTAMP.match(timestamp):
        raise StandardWebhookError("invalid-timestamp", "webhook-timestamp is not an integer")
    clock = time.time() if now is None else now
    if abs(clock - int(timestamp)) > tolerance_seconds:
        raise StandardWebhookError("invalid-timestamp", "webhook-timestamp is too far from now")
    body = bytes(raw_body)
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + body
    expected = [hmac.new(key, signed, hashlib.sha256).digest() for key in keys]
    matches = (lambda item: _matches(item, expected)) if secrets is not None else (lambda item: _matches_v1a(item, ed_keys, signed))
    if not any(matches(item) for item in signatures.split(" ")):
        raise StandardWebhookError("invalid-signature", "no matching signature")
    try:
        payload = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise StandardWebhookError("invalid-json", "request body is not valid JSON") from None
    if msg_id.startswith(TEST_WEBHOOK_ID_PREFIX) and refuse_tests:
        raise StandardWebhookError("test-call", 'a Test call, refused: pass test_calls="accept" to take it')
    return StandardWebhook(webhook_id=msg_id, timestamp=int(timestamp), payload=payload)


def _signature(item: str, version: str) -> Optional[bytes]:
    """The signature of one `<version>,<base64>` item of the header, if it is of `version` and decodes."""
    given_version, _, value = item.partition(",")
    if given_version != version:
        return None
    try:
        return base64.b64decode(value, validate=True)
    except (ValueError, binascii.Error):
        return None


def _matches(item: str, expected: list[bytes]) -> bool:
    given = _signature(item, "v1")
    return given is not None and any(hmac.compare_digest(e, given) for e in expected)


def _matches_v1a(item: str, keys: list, signed: bytes) -> bool:
    given = _signature(item, "v1a")
    return given is not None and ed25519_verifies(keys, signed, given)
