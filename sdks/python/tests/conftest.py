"""Real callbacks of a running stack, recorded by the e2e suite (e2e/src/webhooks-python.e2e.ts).

The suite captures what a real receiver got from the stack (events, a Test call, callbacks during a
secret rotation) and runs pytest with ``TAILSYNC_CALLBACKS`` naming the JSON file. Without it the
tests fail: they are about real callbacks, not about ones we make up.
"""
from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from typing import Dict, List

import pytest


@dataclass(frozen=True)
class Callback:
    kind: str  # "event", "test" or "rotated"
    headers: Dict[str, str]
    body: bytes
    #: The secrets valid when it was sent: the current one first.
    secrets: List[str]


@pytest.fixture(scope="session")
def callbacks() -> List[Callback]:
    path = os.environ.get("TAILSYNC_CALLBACKS")
    if not path:
        pytest.fail("TAILSYNC_CALLBACKS is not set: run these tests through the e2e suite (npm test), which records real callbacks")
    with open(path, encoding="utf-8") as f:
        recorded = json.load(f)
    return [Callback(c["kind"], c["headers"], base64.b64decode(c["body"]), c["secrets"]) for c in recorded]


def of_kind(callbacks: List[Callback], kind: str) -> List[Callback]:
    found = [c for c in callbacks if c.kind == kind]
    assert found, f"no {kind} callback was recorded"
    return found
