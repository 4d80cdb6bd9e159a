"""Public keys: the domain's JWK Set, for subscriptions with ``signatureScheme: "ed25519"``.

Ed25519 is not in the standard library: ``pip install "tailsync-webhooks[ed25519]"`` brings
``cryptography``. The HMAC checks need nothing beyond the standard library.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, List, Mapping, Optional, Sequence, Union

#: The domain's JWK Set (``{"keys": [...]}``) or its list of keys.
PublicKeys = Union[Mapping[str, Any], Sequence[Mapping[str, Any]]]

#: Where the service publishes a domain's keys, under its public base URL.
JWKS_PATH = "/.well-known/webhooks/jwks.json"


def jwks_url(base_url: str, domain: str) -> str:
    """The JWK Set URL of a domain: ``<base_url>/.well-known/webhooks/jwks.json?domain=<domain>``."""
    return base_url.rstrip("/") + JWKS_PATH + "?" + urllib.parse.urlencode({"domain": domain})


def jwk_thumbprint(jwk: Mapping[str, Any]) -> str:
    """RFC 7638 thumbprint of an Ed25519 key: the ``kid`` the service gives it."""
    canonical = json.dumps({"crv": jwk.get("crv"), "kty": "OKP", "x": jwk.get("x")}, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode("utf-8")).digest()).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Ed25519Key:
    kid: Optional[str]
    key: Any  # cryptography's Ed25519PublicKey


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def ed25519_keys(public_keys: PublicKeys) -> List[Ed25519Key]:
    """The set's Ed25519 signing keys (others are ignored); a TypeError when it is not a set or a list."""
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError as error:  # pragma: no cover - the extra is part of the test environment
        raise ImportError('Ed25519 verification needs cryptography: pip install "tailsync-webhooks[ed25519]"') from error
    items = public_keys.get("keys") if isinstance(public_keys, Mapping) else public_keys
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise TypeError('public_keys must be a JWK Set ({"keys": [...]}) or a list of JWKs')
    usable: List[Ed25519Key] = []
    for jwk in items:
        if not isinstance(jwk, Mapping) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519" or not isinstance(jwk.get("x"), str):
            continue
        if jwk.get("use", "sig") != "sig":
            continue
        try:
            key = Ed25519PublicKey.from_public_bytes(_b64url(jwk["x"]))
        except ValueError:
            continue
        kid = jwk.get("kid")
        usable.append(Ed25519Key(kid if isinstance(kid, str) else None, key))
    return usable


def ed25519_verifies(keys: Sequence[Ed25519Key], data: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is one of the keys' Ed25519 signature of ``data``."""
    from cryptography.exceptions import InvalidSignature

    if len(signature) != 64:
        return False
    for k in keys:
        try:
            k.key.verify(signature, data)
            return True
        except InvalidSignature:
            continue
    return False


class StaleKeySetError(Exception):
    """The JWK Set is older than ``max_stale_seconds`` and cannot be fetched again: answer the
    callback with an error (the service retries it) rather than verify with keys that may be revoked."""


_MAX_AGE = re.compile(r"(?:^|,)\s*max-age=(\d+)", re.IGNORECASE)


class RemoteKeySet:
    """A domain's JWK Set fetched from the service and kept.

    Fetched again once older than its ``Cache-Control: max-age`` (or ``max_age_seconds``), and when
    a token names a ``kid`` the set does not hold (after a revocation the next key signs at once), at
    most once per ``refetch_after_seconds`` (60: a minute), failed fetches included. A failed fetch
    keeps the set it had until that set is ``max_stale_seconds`` old (3,600: an hour), then raises
    ``StaleKeySetError``: a key revoked meanwhile must not verify for ever. Raises when it never had
    a set. Thread-safe.

    >>> keys = RemoteKeySet(jwks_url("https://api.tailsync.example", "acme"))
    >>> verify_webhook(authorization, body, public_keys=keys.keys(token_key_id(authorization)))
    """

    def __init__(
        self,
        url: str,
        *,
        max_age_seconds: Optional[float] = None,
        refetch_after_seconds: float = 60,
        max_stale_seconds: float = 3600,
        timeout_seconds: float = 5,
        opener: Optional[Callable[..., Any]] = None,
    ) -> None:
        if not re.match(r"^https?://", url):
            raise TypeError("url must be an absolute http or https URL")
        self.url = url
        self._max_age = max_age_seconds
        self._refetch_after = refetch_after_seconds
        self._max_stale = max_stale_seconds
        self._timeout = timeout_seconds
        self._open = opener or urllib.request.urlopen
        self._set: Optional[Mapping[str, Any]] = None
        self._fetched_at = 0.0
        # When a fetch last started, whatever came of it: bounds the fetches an unknown kid makes.
        self._tried_at = 0.0
        self._ttl = 300.0
        self._lock = threading.Lock()

    def keys(self, kid: Optional[str] = None) -> Mapping[str, Any]:
        with self._lock:
            now = time.monotonic()
            current = self._set
            stale = current is None or now - self._fetched_at >= self._ttl
            unknown = current is not None and kid is not None and not any(k.get("kid") == kid for k in current.get("keys", []))
            if stale or (unknown and now - self._tried_at >= self._refetch_after):
                self._tried_at = now
                try:
                    self._fetch()
                except Exception as error:
                    if current is None:
                        raise
                    age = time.monotonic() - self._fetched_at
                    if age >= self._max_stale:
                        raise StaleKeySetError(f"the JWK Set was fetched {int(age)} s ago and cannot be fetched again ({error}): not trusted any more") from error
            assert self._set is not None
            return self._set

    def _fetch(self) -> None:
        request = urllib.request.Request(self.url, headers={"Accept": "application/jwk-set+json, application/json"})
        with self._open(request, timeout=self._timeout) as response:
            body = json.loads(response.read().decode("utf-8"))
            cache_control = response.headers.get("Cache-Control", "") if response.headers else ""
        if not isinstance(body, dict) or not isinstance(body.get("keys"), list):
            raise ValueError(f"{self.url} did not answer a JWK Set")
        match = _MAX_AGE.search(cache_control or "")
        self._ttl = self._max_age if self._max_age is not None else (float(match.group(1)) if match else 300.0)
        self._set = body
        self._fetched_at = time.monotonic()


def token_key_id(authorization: Optional[str]) -> Optional[str]:
    """The ``kid`` of the JWT in an ``Authorization: Token <JWT>`` header, when it names one."""
    if not isinstance(authorization, str):
        return None
    parts = authorization.strip().split()
    if len(parts) != 2:
        return None
    try:
        header = json.loads(_b64url(parts[1].split(".")[0]).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return kid if isinstance(kid, str) else None


#: What the framework helpers take as ``public_keys``: a set, a RemoteKeySet, or a function returning a set.
PublicKeySource = Union[PublicKeys, RemoteKeySet, Callable[[], PublicKeys]]


def public_keys_for(source: PublicKeySource, authorization: Optional[str]) -> PublicKeys:
    """The keys to verify one request with (a RemoteKeySet is asked for the token's ``kid``; a request
    whose token names no key, as every callback's does, gets none, so a probe fetches nothing)."""
    if isinstance(source, RemoteKeySet):
        kid = token_key_id(authorization)
        return [] if kid is None else source.keys(kid)
    if callable(source):
        return source()
    return source
