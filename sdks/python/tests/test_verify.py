from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import List

import pytest

from conftest import Vector, lower, of_kind
from tailsync_webhooks import VerifiedWebhook, WebhookVerificationError, secret_id, verify_webhook


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def forge(secret: str, claims: dict, header: dict | None = None) -> str:
    """A token signed with the secret (what a broken signer holding it could send)."""
    h = b64url(json.dumps(header or {"alg": "HS256", "typ": "JWT"}).encode())
    c = b64url(json.dumps(claims).encode())
    sig = hmac.new(secret.encode("utf-8"), f"{h}.{c}".encode(), hashlib.sha256).digest()
    return f"Token {h}.{c}.{b64url(sig)}"


def test_every_real_event_callback_passes_the_seven_steps(recorded: List[Vector]) -> None:
    for cb in [v for v in recorded if v.kind != "test"]:
        result = verify_webhook(lower(cb.headers)["authorization"], cb.body, cb.secrets, now=cb.now)
        assert isinstance(result, VerifiedWebhook)
        assert result.payload == json.loads(cb.body)
        assert result.secret_id == secret_id(cb.secrets[0])  # the JWT: always the current secret
        assert result.claims["iss"] == "tailsync"
        assert result.claims["payloadHash"] == hashlib.sha256(cb.body).hexdigest()


def test_event_claims_and_headers(recorded: List[Vector]) -> None:
    for cb in of_kind(recorded, "event"):
        result = verify_webhook(lower(cb.headers)["authorization"], cb.body, cb.secrets, now=cb.now)
        assert result.claims["evt"] == "Product.RiskAssessmentExecuted"
        assert result.claims["sub"] == result.payload["domain"]
        assert lower(cb.headers)["webhook-id"] == result.payload["eventId"]
        assert result.claims["exp"] == result.claims["iat"] + 300
        assert "test" not in result.claims


def test_a_real_test_call_is_refused_unless_accepted(recorded: List[Vector]) -> None:
    for cb in of_kind(recorded, "test"):
        headers = lower(cb.headers)
        assert headers["webhook-id"].startswith("test_")
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(headers["authorization"], cb.body, cb.secrets, now=cb.now)
        assert (refused.value.step, refused.value.code) == (7, "test-call")
        accepted = verify_webhook(headers["authorization"], cb.body, cb.secrets, now=cb.now, test_calls="accept")
        assert accepted.claims["test"] is True


def test_picks_the_secret_by_kid_during_a_rotation(recorded: List[Vector]) -> None:
    for cb in of_kind(recorded, "rotated"):
        current, previous = cb.secrets
        authorization = lower(cb.headers)["authorization"]
        assert verify_webhook(authorization, cb.body, [previous, current], now=cb.now).secret_id == secret_id(current)
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(authorization, cb.body, previous, now=cb.now)
        assert (refused.value.step, refused.value.code) == (2, "invalid-signature")


@pytest.mark.parametrize(
    "mutate, step",
    [
        (lambda cb: (None, cb.body, cb.secrets), 1),
        (lambda cb: (lower(cb.headers)["authorization"].replace("Token", "Bearer"), cb.body, cb.secrets), 1),
        (lambda cb: ("Token not-a-jwt", cb.body, cb.secrets), 1),
        (lambda cb: (lower(cb.headers)["authorization"], cb.body, ["another secret entirely, long enough to be one of ours " * 2]), 2),
        (lambda cb: (lower(cb.headers)["authorization"][:-4] + "AAAA", cb.body, cb.secrets), 2),
        (lambda cb: (lower(cb.headers)["authorization"], cb.body + b" ", cb.secrets), 6),
        (lambda cb: (lower(cb.headers)["authorization"], json.dumps(json.loads(cb.body)).encode(), cb.secrets), 6),
    ],
)
def test_refuses_what_a_real_callback_becomes_when_tampered_with(recorded: List[Vector], mutate, step: int) -> None:
    cb = of_kind(recorded, "event")[0]
    authorization, body, secrets = mutate(cb)
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(authorization, body, secrets, now=cb.now)
    assert refused.value.step == step


def test_refuses_an_expired_token_and_honours_the_clock_tolerance(recorded: List[Vector]) -> None:
    cb = of_kind(recorded, "event")[0]
    authorization = lower(cb.headers)["authorization"]
    claims = verify_webhook(authorization, cb.body, cb.secrets, now=cb.now).claims
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(authorization, cb.body, cb.secrets, now=claims["exp"])
    assert (refused.value.step, refused.value.code) == (3, "expired")
    assert verify_webhook(authorization, cb.body, cb.secrets, now=claims["exp"], clock_tolerance_seconds=30)


def test_refuses_other_algorithms_and_tokens_without_the_claims(recorded: List[Vector]) -> None:
    cb = of_kind(recorded, "event")[0]
    secret = cb.secrets[0]
    claims = dict(verify_webhook(lower(cb.headers)["authorization"], cb.body, cb.secrets, now=cb.now).claims)
    cases = [
        (forge(secret, claims, {"alg": "none"}), cb.body, 2),
        (forge(secret, claims, {"alg": "HS512"}), cb.body, 2),
        (forge(secret, {**claims, "exp": "soon"}), cb.body, 3),
        (forge(secret, {k: v for k, v in claims.items() if k != "payloadHash"}), cb.body, 4),
        (forge(secret, {**claims, "payloadHash": hashlib.sha256(b"{not json").hexdigest()}), b"{not json", 7),
    ]
    for authorization, body, step in cases:
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(authorization, body, secret, now=cb.now)
        assert refused.value.step == step
