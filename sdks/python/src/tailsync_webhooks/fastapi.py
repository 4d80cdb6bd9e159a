"""FastAPI integration: a dependency that verifies the callback before the endpoint runs."""
from __future__ import annotations

from typing import Awaitable, Callable, Union

from fastapi import HTTPException, Request

from .errors import WebhookVerificationError
from .secrets import Secrets
from .call_kinds import TestCalls
from .verify import VerifiedWebhook, verify_webhook


def tailsync_webhook(
    secrets: Union[Secrets, Callable[[], Secrets]], *, clock_tolerance_seconds: float = 0, test_calls: TestCalls = "refuse"
) -> Callable[[Request], Awaitable[VerifiedWebhook]]:
    """A FastAPI dependency that yields the verified callback::

        @app.post("/webhooks/tailsync", status_code=204)
        async def receive(webhook: VerifiedWebhook = Depends(tailsync_webhook(secret))) -> None: ...

    It reads the raw body (``await request.body()``, before any parsing) and checks it with
    :func:`verify_webhook`. A callback that fails gets ``401 {"detail": {"error", "step", "code"}}``
    with ``WWW-Authenticate: Token`` (not retried by tailsync) and the endpoint does not run.
    ``secrets`` may be a function, called per request. Test calls are refused unless
    ``test_calls="accept"``.
    """

    async def verified_tailsync_webhook(request: Request) -> VerifiedWebhook:
        current = secrets() if callable(secrets) else secrets
        try:
            return verify_webhook(
                request.headers.get("authorization"), await request.body(), current,
                clock_tolerance_seconds=clock_tolerance_seconds, test_calls=test_calls,
            )
        except WebhookVerificationError as error:
            raise HTTPException(
                status_code=401,
                detail={"error": error.reason, "step": error.step, "code": error.code},
                headers={"WWW-Authenticate": "Token"},
            ) from None

    return verified_tailsync_webhook
