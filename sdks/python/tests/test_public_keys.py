"""Ed25519 (``signatureScheme: "ed25519"``): the JWK Set, fetched and kept by RemoteKeySet."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Tuple

import pytest
from flask import Flask

from clock import set_clock
from conftest import load
from tailsync_webhooks import RemoteKeySet, WebhookVerificationError, jwk_thumbprint, jwks_url, token_key_id, verify_webhook
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
