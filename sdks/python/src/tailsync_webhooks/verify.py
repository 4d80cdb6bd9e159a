"""The receiver's seven steps (the README's "Plain functions"), framework-free: HMAC with the standard library only,
Ed25519 (``signatureScheme: "ed25519"``) with the ``ed25519`` extra."""
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
from .public_keys import PublicKeys, ed25519_keys, ed25519_verifies
from .secrets import Secrets, secret_id, secret_list
from .call_kinds import TestCalls, refuses_test_calls

_JWS_COMPACT = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$")
_SHA256_HEX = re.compile(r"^[0-9a-fA-F]{64}$")
#: The refusal code of each step (the npm package and the shared test vectors use the same).
_CODES = {1: "missing-token", 2: "invalid-signature", 3: "expired", 4: "missing-payload-hash", 6: "payload-mismatch", 7: "invalid-json"}


def _refuse(step: int, reason: str) -> WebhookVerificationError:
    return WebhookVerificationError(step, _CODES[step], reason)


@dataclass(frozen=True)
class VerifiedWebhook:
    """A callback that passed the seven steps."""

    payload: Any
    claims: Mapping[str, Any]
    #: The id (``kid``) of the secret, or of the public key, that verified it.
    secret_id: str


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json_object(segment: str, step: int, what: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64url(segment).decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise _refuse(step, f"the token's {what} is not base64url JSON") from None
    if not isinstance(value, dict):
        raise _refuse(step, f"the token's {what} is not a JSON object")
    return value


def verify_webhook(
    authorization: Optional[str],
    raw_body: Union[bytes, bytearray, memoryview],
    secrets: Optional[Secrets] = None,
    *,
    public_keys: Optional[PublicKeys] = None,
    clock_tolerance_seconds: float = 0,
    now: Optional[float] = None,
    test_calls: TestCalls = "refuse",
) -> VerifiedWebhook:
    """Verifies one callback: the seven steps in order, stopping at the first that fails.

    ``authorization`` is the ``Authorization`` header, ``raw_body`` the body bytes exactly as
    received (never a re-serialised JSON). With several secrets, the one whose id is the token's
    ``kid`` is used (a token without a matching ``kid`` is tried with each). A Test call (``test:
    true`` in the token) is refused at step 7 with code ``test-call`` unless ``test_calls="accept"``.
    For ``signatureScheme: "ed25519"`` pass ``public_keys`` (the domain's JWK Set) instead of
    ``secrets``: the token must then be EdDSA, by the key its ``kid`` names.
    Raises WebhookVerificationError with the step and code; returns the parsed payload and claims.
    """
    refuse_tests = refuses_test_calls(test_calls)
    if (secrets is None) == (public_keys is None):
        raise TypeError("pass exactly one of secrets and public_keys")
    candidates = secret_list(secrets) if secrets is not None else []
    keys = ed25519_keys(public_keys) if public_keys is not None else []
    if not isinstance(raw_body, (bytes, bytearray, memoryview)):
        raise TypeError("raw_body must be the raw request body bytes")
    body = bytes(raw_body)
    clock = time.time() if now is None else now

    # (1) Take the JWT from "Authorization: Token <JWT>".
    if not isinstance(authorization, str) or authorization.strip() == "":
        raise _refuse(1, "missing Authorization header")
    parts = authorization.strip().split()
    if len(parts) != 2 or parts[0].lower() != "token":
        raise _refuse(1, 'Authorization header must be "Token <JWT>"')
    token = parts[1]
    if not _JWS_COMPACT.match(token):
        raise _refuse(1, "Authorization header does not carry a JWT")
    header_b64, claims_b64, signature_b64 = token.split(".")

    # (2) Verify the signature: HS256 keyed by the UTF-8 bytes of the shared secret, or EdDSA by the public key.
    header = _json_object(header_b64, 2, "header")
    algorithm = "HS256" if secrets is not None else "EdDSA"
    if header.get("alg") != algorithm:
        raise _refuse(2, f"only {algorithm} tokens are accepted, not the algorithm {json.dumps(header.get('alg'))}")
    kid = header.get("kid")
    try:
        signature = _b64url(signature_b64)
    except (ValueError, binascii.Error):
        raise _refuse(2, "invalid signature") from None
    signed = f"{header_b64}.{claims_b64}".encode("ascii")
    if secrets is not None:
        named = [s for s in candidates if isinstance(kid, str) and secret_id(s) == kid]
        verified_with = next(
            (s for s in (named or candidates) if hmac.compare_digest(hmac.new(s.encode("utf-8"), signed, hashlib.sha256).digest(), signature)),
            None,
        )
        if verified_with is None:
            raise _refuse(2, "invalid signature")
        key_id = secret_id(verified_with)
    else:
        # A kid the set does not hold is refused: fetch the set again (RemoteKeySet does) rather than try every key.
        named_keys = keys if not isinstance(kid, str) else [k for k in keys if k.kid == kid]
        if not named_keys:
            raise _refuse(2, f"no public key with kid {json.dumps(kid)} (fetch the JWK Set again)")
        if not ed25519_verifies(named_keys, signed, signature):
            raise _refuse(2, "invalid signature")
        key_id = kid if isinstance(kid, str) else ""
    claims = _json_object(claims_b64, 2, "claims")

    # (3) Check the token has not expired.
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or isinstance(exp, bool):
        raise _refuse(3, "token has no numeric exp claim")
    if clock >= exp + clock_tolerance_seconds:
        raise _refuse(3, "token expired")
    nbf = claims.get("nbf")
    if isinstance(nbf, (int, float)) and clock + clock_tolerance_seconds < nbf:
        raise _refuse(3, "token not yet valid")

    # (4) Read the payloadHash claim.
    expected = claims.get("payloadHash")
    if not isinstance(expected, str) or not _SHA256_HEX.match(expected):
        raise _refuse(4, "payloadHash claim missing or not a hex SHA-256 digest")

    # (5) Hash the raw body, and (6) compare in constant time.
    actual = hashlib.sha256(body).digest()
    if not hmac.compare_digest(bytes.fromhex(expected), actual):
        raise _refuse(6, "payloadHash does not match the request body")

    # (7) Only now parse the JSON payload (strict UTF-8).
    try:
        payload = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise _refuse(7, "request body is not valid JSON") from None
    if claims.get("test") is True and refuse_tests:
        raise WebhookVerificationError(7, "test-call", 'a Test call, refused: pass test_calls="accept" to take it')
    return VerifiedWebhook(payload=payload, claims=claims, secret_id=key_id)
