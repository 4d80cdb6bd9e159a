"""Test calls (``POST /WebhookSubscriptions/Test``): refused unless the receiver accepts them."""
from __future__ import annotations

from typing import Literal

#: What a receiver does with a Test call: ``"refuse"`` (the default) or ``"accept"``.
TestCalls = Literal["refuse", "accept"]

#: A Test call's ``webhook-id`` starts with this; its JWT carries ``test: true``.
TEST_WEBHOOK_ID_PREFIX = "test_"


def refuses_test_calls(policy: TestCalls) -> bool:
    """Whether a genuine Test call is refused under ``policy`` (a TypeError for anything else)."""
    if policy not in ("refuse", "accept"):
        raise TypeError(f'test_calls must be "refuse" or "accept", not {policy!r}')
    return policy == "refuse"
