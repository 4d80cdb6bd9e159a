from __future__ import annotations

from typing import List

from flask import Flask

from conftest import Callback, of_kind
from tailsync_webhooks.flask import tailsync_webhook, verified_webhook


def app_for(secrets: List[str]) -> tuple[Flask, list]:
    app = Flask(__name__)
    seen: list = []

    @app.post("/webhooks/tailsync")
    @tailsync_webhook(lambda: secrets)
    def receive():  # type: ignore[no-untyped-def]
        seen.append(verified_webhook().payload)
        return "", 204

    return app, seen


def test_a_flask_view_receives_the_real_callbacks(callbacks: List[Callback]) -> None:
    for cb in callbacks:
        app, seen = app_for(cb.secrets)
        response = app.test_client().post("/webhooks/tailsync", data=cb.body, headers=cb.headers)
        assert response.status_code == 204
        assert len(seen) == 1


def test_a_flask_view_answers_401_with_the_step_and_never_runs(callbacks: List[Callback]) -> None:
    cb = of_kind(callbacks, "event")[0]
    app, seen = app_for(cb.secrets)
    tampered = app.test_client().post("/webhooks/tailsync", data=cb.body + b" ", headers=cb.headers)
    assert tampered.status_code == 401
    assert tampered.headers["WWW-Authenticate"] == "Token"
    assert tampered.get_json() == {"error": "payloadHash does not match the request body", "step": 6}
    anonymous = app.test_client().post("/webhooks/tailsync", data=cb.body, headers={"Content-Type": "application/json"})
    assert anonymous.get_json()["step"] == 1
    assert seen == []
