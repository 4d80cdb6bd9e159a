from __future__ import annotations

from typing import List

import pytest
from flask import Flask

from clock import set_clock
from conftest import Vector, of_kind
from tailsync_webhooks.flask import tailsync_webhook, verified_webhook


def app_for(secrets: List[str], test_calls: str = "refuse") -> tuple[Flask, list]:
    app = Flask(__name__)
    seen: list = []

    @app.post("/webhooks/tailsync")
    @tailsync_webhook(lambda: secrets, test_calls=test_calls)  # type: ignore[arg-type]
    def receive():  # type: ignore[no-untyped-def]
        seen.append(verified_webhook().payload)
        return "", 204

    return app, seen


def test_a_flask_view_receives_the_real_event_callbacks(recorded: List[Vector], monkeypatch: pytest.MonkeyPatch) -> None:
    for cb in [v for v in recorded if v.kind != "test"]:
        set_clock(monkeypatch, cb.now)
        app, seen = app_for(cb.secrets)
        response = app.test_client().post("/webhooks/tailsync", data=cb.body, headers=cb.headers)
        assert response.status_code == 204
        assert len(seen) == 1


def test_a_flask_view_refuses_a_real_test_call_unless_it_accepts_them(recorded: List[Vector], monkeypatch: pytest.MonkeyPatch) -> None:
    cb = of_kind(recorded, "test")[0]
    set_clock(monkeypatch, cb.now)
    app, seen = app_for(cb.secrets)
    refused = app.test_client().post("/webhooks/tailsync", data=cb.body, headers=cb.headers)
    assert refused.status_code == 401
    assert refused.get_json()["code"] == "test-call"
    assert seen == []
    app, seen = app_for(cb.secrets, test_calls="accept")
    assert app.test_client().post("/webhooks/tailsync", data=cb.body, headers=cb.headers).status_code == 204
    assert len(seen) == 1


def test_a_flask_view_answers_401_with_the_step_and_never_runs(recorded: List[Vector], monkeypatch: pytest.MonkeyPatch) -> None:
    cb = of_kind(recorded, "event")[0]
    set_clock(monkeypatch, cb.now)
    app, seen = app_for(cb.secrets)
    tampered = app.test_client().post("/webhooks/tailsync", data=cb.body + b" ", headers=cb.headers)
    assert tampered.status_code == 401
    assert tampered.headers["WWW-Authenticate"] == "Token"
    assert tampered.get_json() == {"error": "payloadHash does not match the request body", "step": 6, "code": "payload-mismatch"}
    anonymous = app.test_client().post("/webhooks/tailsync", data=cb.body, headers={"Content-Type": "application/json"})
    assert anonymous.get_json()["step"] == 1
    assert seen == []
