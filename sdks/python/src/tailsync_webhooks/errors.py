"""Why a callback was refused."""
from __future__ import annotations


class WebhookVerificationError(Exception):
    """A callback failed one of the seven steps (or is a refused Test call).

    ``step`` (1-7) says which step, ``code`` the stable reason (the same codes as the npm package
    and the shared test vectors), ``reason`` a sentence.
    """

    def __init__(self, step: int, code: str, reason: str) -> None:
        super().__init__(f"step {step} ({code}): {reason}")
        self.step = step
        self.code = code
        self.reason = reason


class StandardWebhookError(Exception):
    """A callback's Standard Webhooks check failed; ``code`` says why (as in the npm package)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
