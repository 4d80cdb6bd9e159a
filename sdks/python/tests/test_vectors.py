from __future__ import annotations

import pytest

from conftest import Vector, all_vectors, lower
from tailsync_webhooks import StandardWebhookError, WebhookVerificationError, verify_standard_webhook, verify_webhook

VECTORS = all_vectors()


def test_there_are_vectors_of_every_kind() -> None:
    assert len(VECTORS) >= 30
    assert {"ed25519.json", "events.json", "expiry.json", "rotation.json", "tampering.json", "test-calls.json", "recorded.json"} == {v.file for v in VECTORS}


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v.file}: {v.name}" for v in VECTORS])
def test_reaches_the_expected_verdicts(vector: Vector) -> None:
    headers = lower(vector.headers)
    try:
        verify_webhook(headers.get("authorization"), vector.body, now=vector.now, test_calls=vector.test_calls, **vector.keys())  # type: ignore[arg-type]
        token = {"ok": True}
    except WebhookVerificationError as error:
        token = {"ok": False, "step": error.step, "code": error.code}
    try:
        verify_standard_webhook(vector.headers, vector.body, now=vector.now, test_calls=vector.test_calls, **vector.keys())  # type: ignore[arg-type]
        standard = {"ok": True}
    except StandardWebhookError as error:
        standard = {"ok": False, "code": error.code}
    assert {"token": token, "standardWebhooks": standard} == vector.expect
