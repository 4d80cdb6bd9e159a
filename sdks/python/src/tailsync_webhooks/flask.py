"""Flask integration: a decorator that verifies the callback before the view runs."""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional, TypeVar, Union, cast

from flask import g, jsonify, request

from .errors import WebhookVerificationError
from .public_keys import PublicKeySource, public_keys_for
from .secrets import Secrets
from .call_kinds import TestCalls
from .verify import VerifiedWebhook, verify_webhook

F = TypeVar("F", bound=Callable[..., Any])


def tailsync_webhook(
    secrets: Optional[Union[Secrets, Callable[[], Secrets]]] = None,
    *,
    public_keys: Optional[PublicKeySource] = None,
    clock_tolerance_seconds: float = 0,
    test_calls: TestCalls = "refuse",
) -> Callable[[F], F]:
    """Decorates a Flask view that receives tailsync callbacks.

    The request body is read raw (``request.get_data()``, before any JSON parsing) and checked with
    :func:`verify_webhook`. A callback that fails gets ``401 {"error", "step", "code"}`` with
    ``WWW-Authenticate: Token`` (not retried by tailsync); one that passes reaches the view with
    ``flask.g.tailsync_webhook`` set to the VerifiedWebhook. ``secrets`` may be a function, called per
    request (e.g. to read them from a vault). Test calls are refused (``code: "test-call"``)
    unless ``test_calls="accept"``. For ``signatureScheme: "ed25519"`` pass ``public_keys=``
    (a ``RemoteKeySet(jwks_url(base_url, domain))``, a JWK Set, or a function returning one) instead
    of ``secrets``.
    """
    if (secrets is None) == (public_keys is None):
        raise TypeError("pass exactly one of secrets and public_keys")

    def decorate(view: F) -> F:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            authorization = request.headers.get("Authorization")
            current = None if secrets is None else secrets() if callable(secrets) else secrets
            keys = None if public_keys is None else public_keys_for(public_keys, authorization)
            try:
                g.tailsync_webhook = verify_webhook(
                    authorization, request.get_data(cache=True), current, public_keys=keys,
                    clock_tolerance_seconds=clock_tolerance_seconds, test_calls=test_calls,
                )
            except WebhookVerificationError as error:
                response = jsonify(error=error.reason, step=error.step, code=error.code)
                response.status_code = 401
                response.headers["WWW-Authenticate"] = "Token"
                return response
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


def verified_webhook() -> VerifiedWebhook:
    """The callback the decorator verified, inside a decorated view."""
    return cast(VerifiedWebhook, g.tailsync_webhook)
