"""The Standard Webhooks check (https://www.standardwebhooks.com) of our callbacks."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from typing import Mapping, Optional, Union

from .errors import StandardWebhookError
from .secrets import Secrets, secret_list

#: Standard Webhooks' tolerance between the sender's and the receiver's clocks.
DEFAULT_TOLERANCE_SECONDS = 300


def verify_standard_webhook(
    headers: Mapping[str, str],
    raw_body: Union[bytes, bytearray, memoryview],
    secrets: Secrets,
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> None:
    """Checks ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` with our shared secret(s).

    Passes when any ``v1`` signature listed matches any secret (several are listed while a secret is
    rotated): HMAC-SHA256 of ``"<id>.<timestamp>.<body>"`` keyed by the secret's UTF-8 bytes. Raises
    StandardWebhookError otherwise, or when the timestamp is more than ``tolerance_seconds`` away.
    """
    keys = [s.encode("utf-8") for s in secret_list(secrets)]
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        raise StandardWebhookError("missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit():
        raise StandardWebhookError("webhook-timestamp is not an integer")
    clock = time.time() if now is None else now
    if abs(clock - int(timestamp)) > tolerance_seconds:
        raise StandardWebhookError("webhook-timestamp is too far from now")
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + bytes(raw_body)
    expected = [hmac.new(key, signed, hashlib.sha256).digest() for key in keys]
    for item in signatures.split(" "):
        version, _, value = item.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except (ValueError, binascii.Error):
            continue
        if any(hmac.compare_digest(e, given) for e in expected):
            return
    raise StandardWebhookError("no matching signature")
