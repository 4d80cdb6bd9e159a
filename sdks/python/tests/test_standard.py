from __future__ import annotations

from typing import List

import pytest

from conftest import Vector, lower, of_kind
from tailsync_webhooks import StandardWebhookError, standard_webhooks_secret, verify_standard_webhook


def test_every_real_event_callback_passes_the_standard_webhooks_check(recorded: List[Vector]) -> None:
    for cb in [v for v in recorded if v.kind != "test"]:
        verified = verify_standard_webhook(cb.headers, cb.body, cb.secrets, now=cb.now)
        assert verified.webhook_id == lower(cb.headers)["webhook-id"]
        assert verified.payload["eventId"] == verified.webhook_id


def test_a_real_test_call_is_refused_unless_accepted(recorded: List[Vector]) -> None:
    for cb in of_kind(recorded, "test"):
        with pytest.raises(StandardWebhookError) as refused:
            verify_standard_webhook(cb.headers, cb.body, cb.secrets, now=cb.now)
        assert refused.value.code == "test-call"
        assert verify_standard_webhook(cb.headers, cb.body, cb.secrets, now=cb.now, test_calls="accept").webhook_id.startswith("test_")


def test_a_rotation_lists_both_signatures(recorded: List[Vector]) -> None:
    for cb in of_kind(recorded, "rotated"):
        assert len(lower(cb.headers)["webhook-signature"].split(" ")) == 2
        for secret in cb.secrets:
            verify_standard_webhook(cb.headers, cb.body, secret, now=cb.now, test_calls="accept")


def test_the_whsec_form_of_a_secret() -> None:
    assert standard_webhooks_secret("é" * 3) == "whsec_w6nDqcOp"


def test_refuses_a_changed_body_id_or_timestamp_another_secret_and_a_stale_callback(recorded: List[Vector]) -> None:
    cb = of_kind(recorded, "event")[0]
    headers = lower(cb.headers)
    ts = int(headers["webhook-timestamp"])
    bad = [
        (headers, cb.body + b" ", cb.secrets, cb.now, "invalid-signature"),
        ({**headers, "webhook-id": "other"}, cb.body, cb.secrets, cb.now, "invalid-signature"),
        ({**headers, "webhook-timestamp": str(ts + 1)}, cb.body, cb.secrets, cb.now, "invalid-signature"),
        ({**headers, "webhook-timestamp": "soon"}, cb.body, cb.secrets, cb.now, "invalid-timestamp"),
        ({**headers, "webhook-timestamp": "１２３"}, cb.body, cb.secrets, cb.now, "invalid-timestamp"),
        ({k: v for k, v in headers.items() if k != "webhook-signature"}, cb.body, cb.secrets, cb.now, "missing-headers"),
        (headers, cb.body, ["x" * 64], cb.now, "invalid-signature"),
        (headers, cb.body, cb.secrets, ts + 301, "invalid-timestamp"),
    ]
    for h, body, secrets, now, code in bad:
        with pytest.raises(StandardWebhookError) as refused:
            verify_standard_webhook(h, body, secrets, now=now)
        assert refused.value.code == code
