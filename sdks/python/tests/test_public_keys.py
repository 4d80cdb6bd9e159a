"""Ed25519 (``signatureScheme: "ed25519"``): the JWK Set, fetched and kept by RemoteKeySet."""
from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest
from flask import Flask

from clock import set_clock
from conftest import load
import tailsync_webhooks.public_keys
from tailsync_webhooks import RemoteKeySet, StaleKeySetError, WebhookVerificationError, jwk_thumbprint, jwks_url, token_key_id, verify_webhook
from tailsync_webhooks.flask import tailsync_webhook, verified_webhook

ED25519 = load("ed25519.json")
SIGNED_BY_A = next(v for v in ED25519 if v.name == "an event signed by the domain key")
SIGNED_BY_B = next(v for v in ED25519 if v.name.startswith("during a rotation"))


def authorization(vector: Any) -> str:
    return next(v for k, v in vector.headers.items() if k.lower() == "authorization")


class JwksServer:
    """A real HTTP server publishing a JWK Set, counting fetches (and answering after a delay, if set)."""

    def __init__(self) -> None:
        self.keys: List[Dict[str, Any]] = []
        self.fetches = 0
        self.delay_seconds = 0.0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                outer.fetches += 1
                time.sleep(outer.delay_seconds)
                body = json.dumps({"keys": outer.keys}).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/jwk-set+json")
                self.send_header("Cache-Control", "public, max-age=300")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def jwks() -> Iterator[JwksServer]:
    server = JwksServer()
    yield server
    server.server.shutdown()


def test_the_kids_are_rfc7638_thumbprints() -> None:
    for key in SIGNED_BY_B.public_keys["keys"]:  # type: ignore[index]
        assert key["kid"] == jwk_thumbprint(key)
    assert token_key_id(authorization(SIGNED_BY_A)) == SIGNED_BY_A.public_keys["keys"][0]["kid"]  # type: ignore[index]
    assert jwks_url("https://api.example.com/", "acme corp") == "https://api.example.com/.well-known/webhooks/jwks.json?domain=acme+corp"


def test_exactly_one_of_secrets_and_public_keys() -> None:
    with pytest.raises(TypeError):
        verify_webhook(authorization(SIGNED_BY_A), SIGNED_BY_A.body, now=SIGNED_BY_A.now)
    with pytest.raises(TypeError):
        verify_webhook(authorization(SIGNED_BY_A), SIGNED_BY_A.body, ["s"], public_keys=SIGNED_BY_A.public_keys, now=SIGNED_BY_A.now)


def test_remote_key_set_keeps_the_set_and_fetches_again_for_a_new_kid(jwks: JwksServer) -> None:
    rotating = SIGNED_BY_B.public_keys["keys"]  # type: ignore[index]
    jwks.keys = [rotating[0]]
    remote = RemoteKeySet(jwks_url(jwks.base, "acme"), refetch_after_seconds=0)
    for _ in range(2):
        verified = verify_webhook(authorization(SIGNED_BY_A), SIGNED_BY_A.body, public_keys=remote.keys(token_key_id(authorization(SIGNED_BY_A))), now=SIGNED_BY_A.now)
        assert verified.claims["sub"] == "acme"
    assert jwks.fetches == 1
    with pytest.raises(WebhookVerificationError) as refused:
        verify_webhook(authorization(SIGNED_BY_B), SIGNED_BY_B.body, public_keys=remote.keys(), now=SIGNED_BY_B.now)
    assert refused.value.code == "invalid-signature"
    jwks.keys = list(rotating)
    verified = verify_webhook(authorization(SIGNED_BY_B), SIGNED_BY_B.body, public_keys=remote.keys(token_key_id(authorization(SIGNED_BY_B))), now=SIGNED_BY_B.now)
    assert verified.secret_id == rotating[1]["kid"]
    assert jwks.fetches == 2


def test_remote_key_set_keeps_its_set_when_the_server_fails(jwks: JwksServer) -> None:
    jwks.keys = SIGNED_BY_A.public_keys["keys"]  # type: ignore[index]
    remote = RemoteKeySet(jwks_url(jwks.base, "acme"), max_age_seconds=0)
    first = remote.keys()
    jwks.server.shutdown()
    jwks.server.server_close()
    assert remote.keys() == first
    with pytest.raises(OSError):
        RemoteKeySet("http://127.0.0.1:9/.well-known/webhooks/jwks.json?domain=acme", timeout_seconds=0.5).keys()


def test_the_flask_helper_takes_a_remote_key_set(jwks: JwksServer, monkeypatch: pytest.MonkeyPatch) -> None:
    set_clock(monkeypatch, SIGNED_BY_A.now)
    jwks.keys = SIGNED_BY_A.public_keys["keys"]  # type: ignore[index]
    app = Flask(__name__)
    seen: List[Tuple[str, Any]] = []

    @app.post("/hook")
    @tailsync_webhook(public_keys=RemoteKeySet(jwks_url(jwks.base, "acme")))
    def hook() -> Any:
        seen.append(("ok", verified_webhook().payload))
        return "", 204

    client = app.test_client()
    ok = client.post("/hook", data=SIGNED_BY_A.body, headers=SIGNED_BY_A.headers)
    assert ok.status_code == 204
    assert seen == [("ok", json.loads(SIGNED_BY_A.body))]
    tampered = client.post("/hook", data=SIGNED_BY_A.body.replace(b"42", b"43"), headers=SIGNED_BY_A.headers)
    assert tampered.status_code == 401
    assert tampered.get_json()["code"] == "payload-mismatch"


class FakeService:
    """The JWK Set endpoint as an opener: answers ``keys``, or raises ``down``; counts fetches."""

    def __init__(self, keys: List[Dict[str, Any]]) -> None:
        self.keys = keys
        self.down: Optional[Exception] = None
        self.fetches = 0

    def __call__(self, request: Any, timeout: float) -> Any:
        self.fetches += 1
        if self.down is not None:
            raise self.down
        body = json.dumps({"keys": self.keys}).encode("utf-8")
        return contextlib.nullcontext(type("Response", (), {"read": lambda _self: body, "headers": {"Cache-Control": "public, max-age=300"}})())


class Monotonic:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


URL = "https://api.tailsync.example/.well-known/webhooks/jwks.json?domain=acme"


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> Tuple[Monotonic, FakeService, Dict[str, Any], Dict[str, Any]]:
    """A clock the test moves, the service answering key A, and the rotation's keys A and B."""
    a, b = SIGNED_BY_B.public_keys["keys"]  # type: ignore[index]
    clock = Monotonic()
    monkeypatch.setattr(tailsync_webhooks.public_keys, "time", clock)
    return clock, FakeService([a]), a, b


def test_remote_key_set_fetches_again_for_an_unknown_kid_at_most_once_a_minute(offline: Tuple[Monotonic, FakeService, Dict[str, Any], Dict[str, Any]]) -> None:
    clock, service, a, b = offline
    remote = RemoteKeySet(URL, opener=service)
    remote.keys(a["kid"])
    for i in range(20):
        remote.keys(f"made-up-{i}")
    assert service.fetches == 1
    clock.now += 60
    service.down = OSError("network down")
    assert remote.keys("made-up")["keys"] == [a]
    assert service.fetches == 2
    # A failed fetch counts too: no new try before another minute.
    clock.now += 30
    service.down = None
    service.keys = [a, b]
    assert remote.keys(b["kid"])["keys"] == [a]
    assert service.fetches == 2
    clock.now += 30
    assert remote.keys(b["kid"])["keys"] == [a, b]
    assert service.fetches == 3


def test_remote_key_set_stops_trusting_a_set_older_than_max_stale_seconds(offline: Tuple[Monotonic, FakeService, Dict[str, Any], Dict[str, Any]]) -> None:
    clock, service, a, b = offline
    remote = RemoteKeySet(URL, opener=service)
    remote.keys()
    service.down = OSError("network down")
    clock.now += 3599
    assert remote.keys()["keys"] == [a]
    clock.now += 1
    with pytest.raises(StaleKeySetError, match=r"fetched 3600 s ago and cannot be fetched again \(network down\): not trusted any more"):
        remote.keys()
    service.down = None
    service.keys = [b]
    assert remote.keys()["keys"] == [b]
    short = RemoteKeySet(URL, opener=service, max_stale_seconds=400)
    short.keys()
    service.down = OSError("network down")
    clock.now += 301
    assert short.keys()["keys"] == [b]
    clock.now += 100
    with pytest.raises(StaleKeySetError):
        short.keys()
