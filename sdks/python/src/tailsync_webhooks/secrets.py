"""Shared secrets: one, or several while one is being rotated."""
from __future__ import annotations

import base64
import hashlib
from typing import Sequence, Union

#: One shared secret, or several (a rotation): the one the token's ``kid`` names is used.
Secrets = Union[str, Sequence[str]]


def secret_list(secrets: Secrets) -> list[str]:
    """The secrets as a non-empty list of non-empty strings (a TypeError otherwise: a programming error)."""
    items = [secrets] if isinstance(secrets, str) else list(secrets)
    if not items or any(not isinstance(s, str) or s == "" for s in items):
        raise TypeError("secrets must be a non-empty string or a non-empty list of them")
    return items


def secret_id(secret: str) -> str:
    """The id of a secret, as the JWT header's ``kid``: 16 hex of SHA-256 of ``"tailsync-secret:" + secret``."""
    return hashlib.sha256(("tailsync-secret:" + secret).encode("utf-8")).hexdigest()[:16]


def standard_webhooks_secret(secret: str) -> str:
    """The secret as Standard Webhooks libraries take it: ``whsec_`` + base64 of its UTF-8 bytes."""
    return "whsec_" + base64.b64encode(secret.encode("utf-8")).decode("ascii")
