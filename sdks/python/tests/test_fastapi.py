from __future__ import annotations

from typing import List

import pytest
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient

from clock import set_clock
from conftest import Vector, of_kind
from tailsync_webhooks import VerifiedWebhook
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
