"""``sign()``: a callback as tailsync signs it, for testing a receiver's own handler. Its output is
checked by this package's verifiers and, for HMAC, by the official ``standardwebhooks`` package."""
from __future__ import annotations

import base64
import json
import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from standardwebhooks.webhooks import Webhook, WebhookVerificationError as StandardWebhooksRefusal

from tailsync_webhooks import (
    WebhookVerificationError,
    jwk_thumbprint,
    secret_id,
    sign,
    standard_webhooks_secret,
    token_key_id,
    verify_standard_webhook,
    verify_webhook,
)

EVENT = {"eventId": "5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10", "eventName": "Product.RiskAssessmentExecuted", "domain": "acme", "data": {"score": 42, "note": "Zürich ✈"}}
SECRET = "a-shared-secret-of-the-subscription-" + "x" * 40


def test_hmac_callbacks_pass_our_verifiers_and_standardwebhooks() -> None:
    signed = sign(EVENT, secret=SECRET)
    assert json.loads(signed.body) == EVENT
    assert signed.headers["Webhook-Id"] == EVENT["eventId"]
    assert token_key_id(signed.headers["Authorization"]) == secret_id(SECRET)
    webhook = verify_webhook(signed.headers["Authorization"], signed.body, SECRET)
    assert webhook.payload == EVENT
    assert {k: webhook.claims[k] for k in ("iss", "sub", "evt")} == {"iss": "tailsync", "sub": "acme", "evt": "Product.RiskAssessmentExecuted"}
    assert verify_standard_webhook(signed.headers, signed.body, SECRET).webhook_id == EVENT["eventId"]
    lower = {k.lower(): v for k, v in signed.headers.items()}
    assert Webhook(standard_webhooks_secret(SECRET)).verify(signed.body, lower) == EVENT
    with pytest.raises(StandardWebhooksRefusal):
        Webhook(standard_webhooks_secret("another-secret")).verify(signed.body, lower)


def test_ed25519_callbacks_pass_against_the_public_jwk() -> None:
    private_key = Ed25519PrivateKey.generate()
    raw = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")}
    keys = {"keys": [{**jwk, "kid": jwk_thumbprint(jwk), "use": "sig"}]}
    signed = sign(json.dumps(EVENT), private_key=private_key)
    assert signed.headers["Webhook-Signature"].startswith("v1a,")
    assert token_key_id(signed.headers["Authorization"]) == jwk_thumbprint(jwk)
    assert verify_webhook(signed.headers["Authorization"], signed.body, public_keys=keys).payload == EVENT
    assert verify_standard_webhook(signed.headers, signed.body, public_keys=keys).payload == EVENT


def test_test_calls_are_refused_unless_accepted() -> None:
    signed = sign(EVENT, secret=SECRET, kind="test")
    assert signed.headers["Webhook-Id"].startswith("test_")
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(signed.headers["Authorization"], signed.body, SECRET)
    assert refused.value.code == "test-call"
    assert verify_webhook(signed.headers["Authorization"], signed.body, SECRET, test_calls="accept").claims["test"] is True


def test_signed_in_the_past_it_has_expired() -> None:
    signed = sign(EVENT, secret=SECRET, now=time.time() - 301)
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(signed.headers["Authorization"], signed.body, SECRET)
    assert refused.value.code == "expired"


def test_exactly_one_key() -> None:
    with pytest.raises(TypeError):
        sign(EVENT)
    with pytest.raises(TypeError):
        sign(EVENT, secret=SECRET, private_key=Ed25519PrivateKey.generate())
    with pytest.raises(TypeError):
        sign(EVENT, private_key="not a key")
