"""``tailsync-webhooks listen``: follows a door (a fake one here, the real one in the e2e suite) and
forwards each event, in order, to a real local HTTP receiver; retries what the receiver did not take."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional

import pytest

from tailsync_webhooks.cli import main
from tailsync_webhooks.listen import DoorError, door_end, follow


def _event(event_id: str, read: int) -> Dict[str, Any]:
    return {
        "eventId": event_id, "eventName": "Product.RiskAssessmentExecuted", "occurredAt": "2026-01-01T00:00:00Z",
        "payload": '{"eventId":"%s"}' % event_id,
        "headers": {"content-type": "application/json", "webhook-id": event_id, "webhook-timestamp": str(read)},
    }


class FakeDoor:
    """Two pages ([a, b] then [c]); each read is stamped into the headers, so a page read again shows."""

    def __init__(self, fail_first: bool = False) -> None:
        self.calls: List[Optional[str]] = []
        self.fail_first = fail_first

    def page(self, after: Optional[str], limit: int = 100) -> Dict[str, Any]:
        self.calls.append(after)
        if self.fail_first and len(self.calls) == 1:
            raise DoorError(503, "busy")
        if after is None:
            return {"items": [_event("a", len(self.calls)), _event("b", len(self.calls))], "iterator": "p1", "done": False}
        if after == "p1":
            return {"items": [_event("c", len(self.calls))], "iterator": "p2", "done": True}
        return {"items": [], "iterator": after, "done": True}


@pytest.fixture
def receiver():
    """A local receiver answering each POST with the next of ``statuses`` (then 200)."""
    got: List[Dict[str, str]] = []
    statuses: List[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            got.append({"id": self.headers["webhook-id"], "timestamp": self.headers["webhook-timestamp"], "body": body})
            self.send_response(statuses.pop(0) if statuses else 200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", got, statuses
    server.shutdown()


def test_forwards_each_event_in_order_with_body_and_headers(receiver):
    url, got, _ = receiver
    assert follow(FakeDoor(), url, once=True) == "p2"
    assert got == [
        {"id": "a", "timestamp": "1", "body": '{"eventId":"a"}'},
        {"id": "b", "timestamp": "1", "body": '{"eventId":"b"}'},
        {"id": "c", "timestamp": "2", "body": '{"eventId":"c"}'},
    ]


def test_sends_again_freshly_signed_what_the_receiver_did_not_take_and_passes_a_4xx(receiver):
    url, got, statuses = receiver
    statuses.extend([200, 503, 400])
    door = FakeDoor(fail_first=True)
    pauses: List[str] = []
    follow(door, url, once=True, sleep=lambda _: None, on_pause=lambda reason, _: pauses.append(reason))
    assert [f"{g['id']}@{g['timestamp']}" for g in got] == ["a@2", "b@2", "b@3", "c@4"]
    assert door.calls == [None, None, None, "p1"]
    assert pauses == ["busy", "the receiver did not take an event"]


def test_stops_on_a_refusal_of_the_door():
    class Refusing:
        def page(self, after: Optional[str], limit: int = 100) -> Dict[str, Any]:
            raise DoorError(404, "no subscription")

    with pytest.raises(DoorError, match="no subscription"):
        follow(Refusing(), "http://127.0.0.1:9/hook", once=True)


def test_the_command_needs_a_receiver_and_credentials(monkeypatch, capsys):
    for name in ("TAILSYNC_TOKEN", "TAILSYNC_CLIENT_ID", "TAILSYNC_CLIENT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as missing:
        main(["listen", "--forward", "http://localhost:4000/hook"])
    assert missing.value.code == 2
    assert "TAILSYNC_CLIENT_ID" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["listen", "--forward", "localhost:4000"])


def test_door_end_reads_through_every_kept_event_in_the_largest_pages_and_forwards_none():
    door = FakeDoor()
    assert door_end(door) == ("p2", 3)
    assert door.calls == [None, "p1"]


def test_from_now_and_after_are_two_starts(monkeypatch, capsys):
    monkeypatch.setenv("TAILSYNC_TOKEN", "t")
    with pytest.raises(SystemExit) as both:
        main(["listen", "--forward", "http://localhost:4000/hook", "--from-now", "--after", "p1"])
    assert both.value.code == 2
    assert "--after" in capsys.readouterr().err
