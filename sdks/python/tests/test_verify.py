from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import List

import pytest

from conftest import Callback, of_kind
from tailsync_webhooks import VerifiedWebhook, WebhookVerificationError, secret_id, verify_webhook


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def forge(secret: str, claims: dict, header: dict | None = None) -> str:
    """A token signed with the secret (what a broken signer holding it could send)."""
    h = b64url(json.dumps(header or {"alg": "HS256", "typ": "JWT"}).encode())
    c = b64url(json.dumps(claims).encode())
    sig = hmac.new(secret.encode("utf-8"), f"{h}.{c}".encode(), hashlib.sha256).digest()
    return f"Token {h}.{c}.{b64url(sig)}"


def test_every_real_callback_passes_the_seven_steps(callbacks: List[Callback]) -> None:
    for cb in callbacks:
        result = verify_webhook(cb.headers["authorization"], cb.body, cb.secrets)
        assert isinstance(result, VerifiedWebhook)
        assert result.payload == json.loads(cb.body)
        assert result.secret_id == secret_id(cb.secrets[0])  # the JWT: always the current secret
        assert result.claims["iss"] == "tailsync"
        assert result.claims["payloadHash"] == hashlib.sha256(cb.body).hexdigest()


def test_event_claims_and_headers(callbacks: List[Callback]) -> None:
    for cb in of_kind(callbacks, "event"):
        result = verify_webhook(cb.headers["authorization"], cb.body, cb.secrets)
        assert result.claims["evt"] == "Product.RiskAssessmentExecuted"
        assert result.claims["sub"] == result.payload["domain"]
        assert cb.headers["webhook-id"] == result.payload["eventId"]
        assert result.claims["exp"] == result.claims["iat"] + 300
    for cb in of_kind(callbacks, "test"):
        assert cb.headers["webhook-id"].startswith("test_")


def test_picks_the_secret_by_kid_during_a_rotation(callbacks: List[Callback]) -> None:
    for cb in of_kind(callbacks, "rotated"):
        current, previous = cb.secrets
        assert verify_webhook(cb.headers["authorization"], cb.body, [previous, current]).secret_id == secret_id(current)
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(cb.headers["authorization"], cb.body, previous)
        assert refused.value.step == 2


@pytest.mark.parametrize(
    "mutate, step",
    [
        (lambda cb: (None, cb.body, cb.secrets), 1),
        (lambda cb: (cb.headers["authorization"].replace("Token", "Bearer"), cb.body, cb.secrets), 1),
        (lambda cb: ("Token not-a-jwt", cb.body, cb.secrets), 1),
        (lambda cb: (cb.headers["authorization"], cb.body, ["another secret entirely, long enough to be one of ours " * 2]), 2),
        (lambda cb: (cb.headers["authorization"][:-4] + "AAAA", cb.body, cb.secrets), 2),
        (lambda cb: (cb.headers["authorization"], cb.body + b" ", cb.secrets), 6),
        (lambda cb: (cb.headers["authorization"], json.dumps(json.loads(cb.body)).encode(), cb.secrets), 6),
    ],
)
def test_refuses_what_a_real_callback_becomes_when_tampered_with(callbacks: List[Callback], mutate, step: int) -> None:
    cb = of_kind(callbacks, "event")[0]
    authorization, body, secrets = mutate(cb)
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(authorization, body, secrets)
    assert refused.value.step == step


def test_refuses_an_expired_token_and_honours_the_clock_tolerance(callbacks: List[Callback]) -> None:
    cb = of_kind(callbacks, "event")[0]
    claims = verify_webhook(cb.headers["authorization"], cb.body, cb.secrets).claims
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(cb.headers["authorization"], cb.body, cb.secrets, now=claims["exp"])
    assert refused.value.step == 3
    assert verify_webhook(cb.headers["authorization"], cb.body, cb.secrets, now=claims["exp"], clock_tolerance_seconds=30)


def test_refuses_other_algorithms_and_tokens_without_the_claims(callbacks: List[Callback]) -> None:
    cb = of_kind(callbacks, "event")[0]
    secret = cb.secrets[0]
    claims = dict(verify_webhook(cb.headers["authorization"], cb.body, cb.secrets).claims)
    cases = [
        (forge(secret, claims, {"alg": "none"}), cb.body, 2),
        (forge(secret, claims, {"alg": "HS512"}), cb.body, 2),
        (forge(secret, {**claims, "exp": "soon"}), cb.body, 3),
        (forge(secret, {k: v for k, v in claims.items() if k != "payloadHash"}), cb.body, 4),
        (forge(secret, {**claims, "payloadHash": hashlib.sha256(b"{not json").hexdigest()}), b"{not json", 7),
    ]
    for authorization, body, step in cases:
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(authorization, body, secret)
        assert refused.value.step == step
