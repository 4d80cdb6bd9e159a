"""The receiver's seven steps (interface.md), framework-free, with the standard library only."""
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

from .errors import WebhookVerificationError
from .secrets import Secrets, secret_id, secret_list

_JWS_COMPACT = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$")
_SHA256_HEX = re.compile(r"^[0-9a-fA-F]{64}$")


@dataclass(frozen=True)
class VerifiedWebhook:
    """A callback that passed the seven steps."""

    payload: Any
    claims: Mapping[str, Any]
    #: The id (``kid``) of the secret that verified it.
    secret_id: str


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json_object(segment: str, step: int, what: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64url(segment).decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise WebhookVerificationError(step, f"the token's {what} is not base64url JSON") from None
    if not isinstance(value, dict):
        raise WebhookVerificationError(step, f"the token's {what} is not a JSON object")
    return value


def verify_webhook(
    authorization: Optional[str],
    raw_body: Union[bytes, bytearray, memoryview],
    secrets: Secrets,
    *,
    clock_tolerance_seconds: float = 0,
    now: Optional[float] = None,
) -> VerifiedWebhook:
    """Verifies one callback: the seven steps in order, stopping at the first that fails.

    ``authorization`` is the ``Authorization`` header, ``raw_body`` the body bytes exactly as
    received (never a re-serialised JSON). With several secrets, the one whose id is the token's
    ``kid`` is used (a token without a matching ``kid`` is tried with each). Raises
    WebhookVerificationError with the step; returns the parsed payload and the claims.
    """
    candidates = secret_list(secrets)
    if not isinstance(raw_body, (bytes, bytearray, memoryview)):
        raise TypeError("raw_body must be the raw request body bytes")
    body = bytes(raw_body)
    clock = time.time() if now is None else now

    # (1) Take the JWT from "Authorization: Token <JWT>".
    if not isinstance(authorization, str) or authorization.strip() == "":
        raise WebhookVerificationError(1, "missing Authorization header")
    parts = authorization.strip().split()
    if len(parts) != 2 or parts[0].lower() != "token":
        raise WebhookVerificationError(1, 'Authorization header must be "Token <JWT>"')
    token = parts[1]
    if not _JWS_COMPACT.match(token):
        raise WebhookVerificationError(1, "Authorization header does not carry a JWT")
    header_b64, claims_b64, signature_b64 = token.split(".")

    # (2) Verify the signature: HS256 only, keyed by the UTF-8 bytes of the shared secret.
    header = _json_object(header_b64, 2, "header")
    if header.get("alg") != "HS256":
        raise WebhookVerificationError(2, "only HS256 tokens are accepted")
    kid = header.get("kid")
    named = [s for s in candidates if isinstance(kid, str) and secret_id(s) == kid]
    try:
        signature = _b64url(signature_b64)
    except (ValueError, binascii.Error):
        raise WebhookVerificationError(2, "invalid signature") from None
    signed = f"{header_b64}.{claims_b64}".encode("ascii")
    verified_with = next(
        (s for s in (named or candidates) if hmac.compare_digest(hmac.new(s.encode("utf-8"), signed, hashlib.sha256).digest(), signature)),
        None,
    )
    if verified_with is None:
        raise WebhookVerificationError(2, "invalid signature")
    claims = _json_object(claims_b64, 2, "claims")

    # (3) Check the token has not expired.
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or isinstance(exp, bool):
        raise WebhookVerificationError(3, "token has no numeric exp claim")
    if clock >= exp + clock_tolerance_seconds:
        raise WebhookVerificationError(3, "token expired")
    nbf = claims.get("nbf")
    if isinstance(nbf, (int, float)) and clock + clock_tolerance_seconds < nbf:
        raise WebhookVerificationError(3, "token not yet valid")

    # (4) Read the payloadHash claim.
    expected = claims.get("payloadHash")
    if not isinstance(expected, str) or not _SHA256_HEX.match(expected):
        raise WebhookVerificationError(4, "payloadHash claim missing or not a hex SHA-256 digest")

    # (5) Hash the raw body, and (6) compare in constant time.
    actual = hashlib.sha256(body).digest()
    if not hmac.compare_digest(bytes.fromhex(expected), actual):
        raise WebhookVerificationError(6, "payloadHash does not match the request body")

    # (7) Only now parse the JSON payload (strict UTF-8).
    try:
        payload = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise WebhookVerificationError(7, "request body is not valid JSON") from None
    return VerifiedWebhook(payload=payload, claims=claims, secret_id=secret_id(verified_with))
