"""``sign()``: a callback signed as tailsync's dispatcher signs it, so a receiver can test its own
handler without a running service. HMAC needs the standard library only; Ed25519 the extra."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, Literal, Optional, Union

from .call_kinds import TEST_WEBHOOK_ID_PREFIX
from .public_keys import jwk_thumbprint
from .secrets import secret_id

#: What a callback carries: an event, or a Test call (``POST /WebhookSubscriptions/Test``).
CallbackKind = Literal["event", "test"]

#: Lifetime of a callback token: ``exp`` = ``iat`` + this many seconds.
TOKEN_TTL_SECONDS = 300
USER_AGENT = "tailsync-webhooks/15.4.9707.25929"
_DEFAULT_EVENT_NAME = "Product.RiskAssessmentExecuted"


@dataclass(frozen=True)
class SignedWebhook:
    """Send ``body`` with ``headers`` to the handler under test."""

    body: bytes
    headers: Dict[str, str]


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _compact(text: Any) -> bytes:
    return json.dumps(text, separators=(",", ":")).encode("utf-8")


def sign(
    payload: Union[str, bytes, Any],
    *,
    secret: Optional[str] = None,
    private_key: Any = None,
    domain: Optional[str] = None,
    event_name: Optional[str] = None,
    kind: CallbackKind = "event",
    webhook_id: Optional[str] = None,
    attempt: int = 1,
    now: Optional[float] = None,
) -> SignedWebhook:
    """Signs ``payload`` (the exact JSON text, or a value sent as its JSON) as a callback.

    Pass ``secret`` (``signatureScheme: "hmac-sha256"``: an HS256 token and a ``v1`` signature) or
    ``private_key`` (``"ed25519"``: a ``cryptography`` Ed25519PrivateKey; an EdDSA token whose ``kid``
    is the public key's RFC 7638 thumbprint, and a ``v1a`` signature). ``domain``, ``event_name``
    and ``webhook_id`` default to the payload's ``domain``, ``eventName`` and ``eventId``;
    ``kind="test"`` makes a Test call (``test: true``, id ``test_<uuid>``); ``now`` (Unix seconds)
    is the signing time.

    >>> signed = sign({"eventId": "e1", "eventName": "Product.RiskAssessmentExecuted", "domain": "acme", "data": {}}, secret=secret)
    >>> client.post("/webhooks/tailsync", content=signed.body, headers=signed.headers)
    """
    if (secret is None) == (private_key is None):
        raise TypeError("pass exactly one of secret and private_key")
    if kind not in ("event", "test"):
        raise TypeError(f'kind must be "event" or "test", not {kind!r}')
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload) if isinstance(payload, (bytes, bytearray)) else _compact(payload)
    fields = _payload_fields(body)
    iat = int(time.time() if now is None else now)
    if webhook_id is None:
        webhook_id = f"{TEST_WEBHOOK_ID_PREFIX}{uuid.uuid4()}" if kind == "test" else fields.get("eventId") or str(uuid.uuid4())
    claims: Dict[str, Any] = {
        "payloadHash": hashlib.sha256(body).hexdigest(),
        "iat": iat,
        "exp": iat + TOKEN_TTL_SECONDS,
        "jti": str(uuid.uuid4()),
        "iss": "tailsync",
        "sub": domain or fields.get("domain") or "acme",
        "evt": event_name or fields.get("eventName") or _DEFAULT_EVENT_NAME,
    }
    if kind == "test":
        claims["test"] = True
    if secret is not None:
        if not isinstance(secret, str) or not secret:
            raise TypeError("secret must be a non-empty string")
        key = secret.encode("utf-8")
        algorithm, kid, version = "HS256", secret_id(secret), "v1"
        signature: Callable[[bytes], bytes] = lambda data: hmac.new(key, data, hashlib.sha256).digest()
    else:
        algorithm, kid, version = "EdDSA", _ed25519_kid(private_key), "v1a"
        signature = private_key.sign
    signing_input = _b64url(_compact({"alg": algorithm, "typ": "JWT", "kid": kid})) + "." + _b64url(_compact(claims))
    token = signing_input + "." + _b64url(signature(signing_input.encode("ascii")))
    standard = base64.b64encode(signature(f"{webhook_id}.{iat}.".encode("utf-8") + body)).decode("ascii")
    return SignedWebhook(body, {
        "Content-Type": "application/json",
        "Authorization": f"Token {token}",
        "User-Agent": USER_AGENT,
        "Webhook-Id": webhook_id,
        "Webhook-Attempt": str(attempt),
        "Webhook-Timestamp": str(iat),
        "Webhook-Signature": f"{version},{standard}",
    })


def _ed25519_kid(private_key: Any) -> str:
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    except ImportError as error:  # pragma: no cover - the extra is part of the test environment
        raise ImportError('Ed25519 signing needs cryptography: pip install "tailsync-webhooks[ed25519]"') from error
    if not isinstance(private_key, Ed25519PrivateKey):
        raise TypeError("private_key must be a cryptography Ed25519PrivateKey")
    raw = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return jwk_thumbprint({"kty": "OKP", "crv": "Ed25519", "x": _b64url(raw)})


def _payload_fields(body: bytes) -> Dict[str, str]:
    """The payload's own names for the token's claims, when it is the product's event envelope."""
    try:
        parsed = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}
    if not isinstance(parsed, dict):
        return {}
    return {name: parsed[name] for name in ("eventId", "eventName", "domain") if isinstance(parsed.get(name), str) and parsed[name]}
