"""Recorded callbacks are verified at the time they were received: the helpers read the clock of
``tailsync_webhooks.verify``, which these tests set to the vector's ``now``."""
from __future__ import annotations

import pytest

import tailsync_webhooks.verify


class FixedClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


def set_clock(monkeypatch: pytest.MonkeyPatch, now: float) -> None:
    monkeypatch.setattr(tailsync_webhooks.verify, "time", FixedClock(now))
