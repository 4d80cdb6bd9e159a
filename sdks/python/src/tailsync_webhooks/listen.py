"""Webhooks on a laptop: follow the polling door and forward each event to a local receiver.

``tailsync-webhooks listen --forward http://localhost:4000/hook`` reads
``GET /WebhookSubscriptions/Events`` (the domain's events, oldest first, each with its callback's
signed headers) and POSTs each one, in order, to a receiver with no public URL, exactly as its
callback arrives, so the receiver verifies it with the subscription's secret or key. Standard
library only.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Set

#: The longest pause between two tries of a receiver (or of the door) that failed.
MAX_PAUSE_SECONDS = 30.0
# The most events the door gives in one page.
MAX_LIMIT = 500


class DoorError(Exception):
    """The door answered with an error; ``status`` 0 when it could not be reached."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status

    @property
    def passing(self) -> bool:
        """Worth asking again after a pause: the gateway unreachable, busy or failing, not a refusal."""
        return self.status in (0, 408, 429) or self.status >= 500


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A callback never follows a redirect: the 3xx is the receiver's answer.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _send(request: urllib.request.Request, timeout: float) -> "tuple[int, bytes]":
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _problem_detail(body: bytes) -> str:
    try:
        problem = json.loads(body)
        return str(problem.get("detail") or problem.get("error_description") or "")
    except (ValueError, AttributeError):
        return ""


class EventDoor:
    """The polling door of one domain, signed in with an access token or a service account's credentials."""

    def __init__(self, base_url: str, *, token: Optional[str] = None, client_id: Optional[str] = None,
                 client_secret: Optional[str] = None, timeout: float = 30.0) -> None:
        if token is None and not (client_id and client_secret):
            raise ValueError("give token, or client_id and client_secret")
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._credentials = None if token is not None else (client_id, client_secret)
        self._timeout = timeout

    def page(self, after: Optional[str], limit: int = 100) -> Dict[str, Any]:
        """One page: ``{"items": [...], "iterator": ..., "done": ...}``."""
        query = {"limit": str(limit)}
        if after is not None:
            query["after"] = after
        url = f"{self.base_url}/WebhookSubscriptions/Events?{urllib.parse.urlencode(query)}"
        status, body = self._get(url)
        # A token lapses after its lifetime: with client credentials, fetch another once.
        if status == 401 and self._credentials is not None:
            self._token = None
            status, body = self._get(url)
        if status != 200:
            raise DoorError(status, f"GET /WebhookSubscriptions/Events answered {status}: {_problem_detail(body)}")
        return json.loads(body)

    def _get(self, url: str) -> "tuple[int, bytes]":
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {self._access_token()}"})
        try:
            return _send(request, self._timeout)
        except OSError as error:
            raise DoorError(0, f"{self.base_url} could not be reached ({error})") from None

    def _access_token(self) -> str:
        if self._token is not None:
            return self._token
        client_id, client_secret = self._credentials  # type: ignore[misc]
        form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret}).encode()
        request = urllib.request.Request(f"{self.base_url}/oauth/token", data=form, method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            status, body = _send(request, self._timeout)
        except OSError as error:
            raise DoorError(0, f"{self.base_url} could not be reached ({error})") from None
        if status != 200:
            raise DoorError(status, f"POST /oauth/token answered {status}: {_problem_detail(body)}")
        self._token = json.loads(body)["access_token"]
        return self._token


@dataclass(frozen=True)
class Forwarded:
    """What the local receiver made of one event: ``outcome`` is delivered, retry or refused."""

    event: Mapping[str, Any]
    outcome: str
    status: Optional[int] = None
    error: Optional[str] = None


def forward(event: Mapping[str, Any], url: str, timeout: float = 10.0) -> Forwarded:
    """POSTs the event's exact body with its callback headers; 5xx, 408, 429 and no answer are retried."""
    request = urllib.request.Request(url, data=event["payload"].encode("utf-8"), method="POST", headers=dict(event["headers"]))
    try:
        status, _ = _send(request, timeout)
    except OSError as error:
        return Forwarded(event, "retry", error=f"no answer ({error})")
    if 200 <= status <= 299:
        return Forwarded(event, "delivered", status)
    return Forwarded(event, "retry" if status in (408, 429) or status >= 500 else "refused", status)


def door_end(door: Any) -> "tuple[Optional[str], int]":
    """The iterator past every event the door shows now, and how many events lie before it.

    Where ``listen --from-now`` starts: the door starts only from the oldest event or from an
    iterator, so the kept events are read through in the largest pages, never forwarded.
    """
    after: Optional[str] = None
    passed = 0
    while True:
        page = door.page(after, MAX_LIMIT)
        after = page["iterator"]
        passed += len(page["items"])
        if page["done"]:
            return after, passed


def follow(door: Any, forward_to: str, *, after: Optional[str] = None, once: bool = False, interval: float = 1.0,
           limit: int = 100, on_forwarded: Optional[Callable[[Forwarded], None]] = None,
           on_pause: Optional[Callable[[str, float], None]] = None, on_iterator: Optional[Callable[[str], None]] = None,
           sleep: Callable[[float], None] = time.sleep, stop: Callable[[], bool] = lambda: False) -> Optional[str]:
    """Follows the door from ``after`` and forwards each event in order; returns the last iterator.

    An event the receiver did not take (down, 5xx, 408, 429) is sent again after a growing pause,
    read again from the same iterator so its headers are fresh, without the events of that page it
    took; any other 4xx is reported and passed, as the dispatcher does not retry it.
    """
    taken: Set[str] = set()
    failures = 0

    def pause(reason: str) -> None:
        nonlocal failures
        seconds = min(MAX_PAUSE_SECONDS, float(2 ** min(failures, 5)))
        failures += 1
        if on_pause:
            on_pause(reason, seconds)
        sleep(seconds)

    while not stop():
        try:
            page = door.page(after, limit)
        except DoorError as error:
            if not error.passing:
                raise
            pause(str(error))
            continue
        held = False
        items: List[Mapping[str, Any]] = page["items"]
        for event in items:
            if event["eventId"] in taken:
                continue
            result = forward(event, forward_to)
            if on_forwarded:
                on_forwarded(result)
            if result.outcome == "retry":
                held = True
                break
            taken.add(event["eventId"])
            failures = 0
        if held:
            pause("the receiver did not take an event")
            continue
        after = page["iterator"]
        taken.clear()
        if on_iterator:
            on_iterator(after)
        if page["done"]:
            if once:
                return after
            sleep(interval)
    return after
