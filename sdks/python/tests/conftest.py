"""The shared test vectors (``tests/vectors``: ``libs/webhook-signing/vectors`` in the tailsync repository).

Callbacks as tailsync's dispatcher signs them, with the verdict each must get; ``recorded.json``
holds real callbacks of a running stack (refreshed by the e2e suite, see the vectors' README).
Everything here runs offline: ``now`` is the receiver's clock of each vector.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

VECTORS_DIR = Path(os.environ.get("TAILSYNC_VECTORS_DIR") or Path(__file__).resolve().parent / "vectors")


@dataclass(frozen=True)
class Vector:
    file: str
    name: str
    #: The secrets the receiver holds, the current one first (empty for an Ed25519 vector).
    secrets: List[str]
    #: The receiver's clock, Unix seconds.
    now: float
    test_calls: str
    headers: Dict[str, str]
    body: bytes
    expect: Dict[str, Any]
    #: Recorded callbacks only: "event", "test" or "rotated".
    kind: str = ""
    #: Ed25519 vectors: the JWK Set the receiver holds (instead of secrets).
    public_keys: Optional[Dict[str, Any]] = None

    def keys(self) -> Dict[str, Any]:
        """The keyword arguments of the verifiers: the secrets, or the public keys."""
        return {"public_keys": self.public_keys} if self.public_keys is not None else {"secrets": self.secrets}


def load(file: str) -> List[Vector]:
    with open(VECTORS_DIR / file, encoding="utf-8") as f:
        data = json.load(f)
    return [
        Vector(
            file, v["name"], v.get("secrets", []), v["now"], v["options"]["testCalls"], v["headers"], v["body"].encode("utf-8"), v["expect"],
            v.get("kind", ""), v.get("publicKeys"),
        )
        for v in data["vectors"]
    ]


def all_vectors() -> List[Vector]:
    files = sorted(p.name for p in VECTORS_DIR.glob("*.json"))
    assert {"ed25519.json", "events.json", "expiry.json", "rotation.json", "tampering.json", "test-calls.json", "recorded.json"} <= set(files), files
    return [v for f in files for v in load(f)]


@pytest.fixture(scope="session")
def recorded() -> List[Vector]:
    return load("recorded.json")


def of_kind(vectors: List[Vector], kind: str) -> List[Vector]:
    found = [v for v in vectors if v.kind == kind]
    assert found, f"no {kind} callback was recorded"
    return found


def lower(headers: Dict[str, str]) -> Dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}
