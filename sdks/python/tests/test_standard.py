from __future__ import annotations

from typing import List

import pytest
from standardwebhooks.webhooks import Webhook

from conftest import Callback, of_kind
from tailsync_webhooks import StandardWebhookError, standard_webhooks_secret, verify_standard_webhook


def test_every_real_callback_passes_the_standard_webhooks_check(callbacks: List[Callback]) -> None:
    for cb in callbacks:
        verify_standard_webhook(cb.headers, cb.body, cb.secrets)
        # and the official library (PyPI standardwebhooks) agrees, configured with whsec_ + base64
        assert Webhook(standard_webhooks_secret(cb.secrets[0])).verify(cb.body, cb.headers) is not None


def test_a_rotation_lists_both_signatures(callbacks: List[Callback]) -> None:
    for cb in of_kind(callbacks, "rotated"):
        assert len(cb.headers["webhook-signature"].split(" ")) == 2
        for secret in cb.secrets:
            verify_standard_webhook(cb.headers, cb.body, secret)


def test_refuses_a_changed_body_id_or_timestamp_another_secret_and_a_stale_callback(callbacks: List[Callback]) -> None:
    cb = of_kind(callbacks, "event")[0]
    ts = int(cb.headers["webhook-timestamp"])
    bad = [
        (cb.headers, cb.body + b" ", cb.secrets, None),
        ({**cb.headers, "webhook-id": "other"}, cb.body, cb.secrets, None),
        ({**cb.headers, "webhook-timestamp": str(ts + 1)}, cb.body, cb.secrets, None),
        ({**cb.headers, "webhook-timestamp": "soon"}, cb.body, cb.secrets, None),
        ({k: v for k, v in cb.headers.items() if k != "webhook-signature"}, cb.body, cb.secrets, None),
        (cb.headers, cb.body, ["x" * 64], None),
        (cb.headers, cb.body, cb.secrets, ts + 301),
    ]
    for headers, body, secrets, now in bad:
        with pytest.raises(StandardWebhookError):
            verify_standard_webhook(headers, body, secrets, now=now)
