"""Why a callback was refused."""
from __future__ import annotations


class WebhookVerificationError(Exception):
    """A callback failed one of the seven steps; ``step`` (1-7) says which, ``reason`` why."""

    def __init__(self, step: int, reason: str) -> None:
        super().__init__(f"step {step}: {reason}")
        self.step = step
        self.reason = reason


class StandardWebhookError(Exception):
    """A callback's Standard Webhooks headers are missing, stale, or no signature matches."""
