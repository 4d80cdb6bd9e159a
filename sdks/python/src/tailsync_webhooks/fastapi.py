"""FastAPI integration: a dependency that verifies the callback before the endpoint runs."""
from __future__ import annotations

from typing import Awaitable, Callable, Optional, Union

from fastapi import HTTPException, Request
from starlette.concurrency import run_in_threadpool

from .errors import WebhookVerificationError
from .public_keys import PublicKeySource, public_keys_for
from .secrets import Secrets
from .call_kinds import TestCalls
from .verify import VerifiedWebhook, verify_webhook


def tailsync_webhook(
    secrets: Optional[Union[Secrets, Callable[[], Secrets]]] = None,
    *,
    public_keys: Optional[PublicKeySource] = None,
    clock_tolerance_seconds: float = 0,
    test_calls: TestCalls = "refuse",
) -> Callable[[Request], Awaitable[VerifiedWebhook]]:
    """A FastAPI dependency that yields the verified callback::

        @app.post("/webhooks/tailsync", status_code=204)
        async def receive(webhook: VerifiedWebhook = Depends(tailsync_webhook(secret))) -> None: ...

    It reads the raw body (``await request.body()``, before any parsing) and checks it with
    :func:`verify_webhook`. A callback that fails gets ``401 {"detail": {"error", "step", "code"}}``
    with ``WWW-Authenticate: Token`` (not retried by tailsync) and the endpoint does not run.
    ``secrets`` may be a function, called per request. Test calls are refused unless
    ``test_calls="accept"``. For ``signatureScheme: "ed25519"`` pass ``public_keys=`` (a
    ``RemoteKeySet(jwks_url(base_url, domain))``, a JWK Set, or a function returning one) instead of
    ``secrets``; a RemoteKeySet fetches with urllib, rarely (it keeps the set), in a worker thread so
    the event loop keeps serving meanwhile.
    """
    if (secrets is None) == (public_keys is None):
        raise TypeError("pass exactly one of secrets and public_keys")

    async def verified_tailsync_webhook(request: Request) -> VerifiedWebhook:
        authorization = request.headers.get("authorization")
        current = None if secrets is None else secrets() if callable(secrets) else secrets
        # urllib blocks: the key set is looked up on Starlette's thread pool, never on the event loop.
        keys = None if public_keys is None else await run_in_threadpool(public_keys_for, public_keys, authorization)
        try:
            return verify_webhook(
                authorization, await request.body(), current, public_keys=keys,
                clock_tolerance_seconds=clock_tolerance_seconds, test_calls=test_calls,
            )
        except WebhookVerificationError as error:
            raise HTTPException(
                status_code=401,
                detail={"error": error.reason, "step": error.step, "code": error.code},
                headers={"WWW-Authenticate": "Token"},
            ) from None

    return verified_tailsync_webhook
