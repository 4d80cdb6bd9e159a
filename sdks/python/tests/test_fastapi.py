from __future__ import annotations

import asyncio
import base64
from typing import Any, Dict, List, Tuple

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import Depends, FastAPI, Request
from fastapi.testclient import TestClient

from clock import set_clock
from conftest import Vector, of_kind
from test_public_keys import JwksServer
from tailsync_webhooks import RemoteKeySet, VerifiedWebhook, jwk_thumbprint, jwks_url, sign
from tailsync_webhooks.fastapi import tailsync_webhook


def app_for(secrets: List[str], test_calls: str = "refuse") -> tuple[TestClient, list]:
    app = FastAPI()
    seen: list = []
    verified = tailsync_webhook(lambda: secrets, test_calls=test_calls)  # type: ignore[arg-type]

    @app.post("/webhooks/tailsync", status_code=204)
    async def receive(webhook: VerifiedWebhook = Depends(verified)) -> None:
        seen.append(webhook.payload)

    return TestClient(app), seen


def test_a_fastapi_endpoint_receives_the_real_event_callbacks(recorded: List[Vector], monkeypatch: pytest.MonkeyPatch) -> None:
    for cb in [v for v in recorded if v.kind != "test"]:
        set_clock(monkeypatch, cb.now)
        client, seen = app_for(cb.secrets)
        assert client.post("/webhooks/tailsync", content=cb.body, headers=cb.headers).status_code == 204
        assert seen and seen[0]["eventId"] == cb.headers.get("webhook-id", cb.headers.get("Webhook-Id"))


def test_a_fastapi_endpoint_refuses_tampering_and_test_calls(recorded: List[Vector], monkeypatch: pytest.MonkeyPatch) -> None:
    event = of_kind(recorded, "event")[0]
    set_clock(monkeypatch, event.now)
    client, seen = app_for(event.secrets)
    tampered = client.post("/webhooks/tailsync", content=event.body + b" ", headers=event.headers)
    assert tampered.status_code == 401
    assert tampered.headers["www-authenticate"] == "Token"
    assert tampered.json() == {"detail": {"error": "payloadHash does not match the request body", "step": 6, "code": "payload-mismatch"}}
    test = of_kind(recorded, "test")[0]
    set_clock(monkeypatch, test.now)
    client, seen = app_for(test.secrets)
    assert client.post("/webhooks/tailsync", content=test.body, headers=test.headers).json()["detail"]["code"] == "test-call"
    assert seen == []
    client, seen = app_for(test.secrets, test_calls="accept")
    assert client.post("/webhooks/tailsync", content=test.body, headers=test.headers).status_code == 204
    assert len(seen) == 1


def test_the_key_set_is_fetched_without_blocking_the_event_loop() -> None:
    # A slow JWK Set endpoint (a real HTTP server): while the dependency waits for it, a task on the
    # same loop must keep ticking. Fetched with blocking I/O on the loop, it would not tick at all.
    jwks = JwksServer()
    try:
        jwks.delay_seconds = 0.5
        private_key = Ed25519PrivateKey.generate()
        raw = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        jwk = {"kty": "OKP", "crv": "Ed25519", "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")}
        jwks.keys = [{**jwk, "kid": jwk_thumbprint(jwk), "use": "sig"}]
        signed = sign({"eventId": "e-1", "eventName": "Product.RiskAssessmentExecuted", "domain": "acme", "data": {}}, private_key=private_key)
        dependency = tailsync_webhook(public_keys=RemoteKeySet(jwks_url(jwks.base, "acme")))

        async def receive() -> Dict[str, Any]:
            return {"type": "http.request", "body": signed.body, "more_body": False}

        request = Request({"type": "http", "method": "POST", "path": "/", "headers": [(k.lower().encode(), v.encode()) for k, v in signed.headers.items()]}, receive)

        async def both() -> Tuple[VerifiedWebhook, int]:
            ticks = 0
            verifying = asyncio.ensure_future(dependency(request))
            while not verifying.done():
                await asyncio.sleep(0.01)
                ticks += 1
            return verifying.result(), ticks

        webhook, ticks = asyncio.run(both())
        assert webhook.payload["eventId"] == "e-1"
        assert jwks.fetches == 1
        assert ticks >= 20, f"the event loop ticked {ticks} times during a 0.5 s fetch"
    finally:
        jwks.server.shutdown()
