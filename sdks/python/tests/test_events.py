"""The event catalog: real recorded callbacks, verified, parse into the typed ``TailsyncEvent``."""
from __future__ import annotations

import pytest

from conftest import load, lower
from tailsync_webhooks import TAILSYNC_EVENT_NAMES, TailsyncEvent, parse_event, sign, verify_webhook
from tailsync_webhooks.events import RiskAssessmentExecutedCallback

RECORDED = [v for v in load("recorded.json") if v.kind == "event"]


def handle(event: TailsyncEvent) -> str:
    """A receiver's handler: the catalog's union narrowed on ``eventName``."""
    if event["eventName"] == "Product.RiskAssessmentExecuted":
        return f"{event['domain']}: {event['data'].get('score')}"
    raise AssertionError(f"unhandled {event['eventName']}")


def test_real_callbacks_parse_into_the_catalog_types() -> None:
    assert RECORDED
    for vector in RECORDED:
        webhook = verify_webhook(lower(vector.headers)["authorization"], vector.body, now=vector.now, **vector.keys())  # type: ignore[arg-type]
        event = parse_event(webhook.payload)
        assert event == webhook.payload
        assert set(RiskAssessmentExecutedCallback.__required_keys__) <= set(event)
        assert event["eventId"] == lower(vector.headers)["webhook-id"]
        assert handle(event) == f"{event['domain']}: {webhook.payload['data'].get('score')}"
        assert parse_event(vector.body) == event


def test_every_cataloged_event_name_parses_and_no_other() -> None:
    assert TAILSYNC_EVENT_NAMES == ("Product.RiskAssessmentExecuted",)
    body = {"eventId": "5b8f0c1e-8d0a-4f7e-9d43-2f1c2b7a9e10", "eventName": "Product.RiskAssessmentExecuted", "occurredAt": "2026-01-01T00:00:00Z", "domain": "acme", "data": {}}
    assert parse_event(sign(body, secret="s" * 64).body)["eventName"] == "Product.RiskAssessmentExecuted"
    with pytest.raises(ValueError, match="unknown event name 'Product.Later'"):
        parse_event({**body, "eventName": "Product.Later"})


@pytest.mark.parametrize("body, reason", [
    ({"anything": "a Test call echoes"}, "eventId is a JSON string"),
    ({"eventId": "e", "eventName": "Product.RiskAssessmentExecuted", "occurredAt": "t", "domain": "d", "data": [1]}, "data is a JSON object"),
    ([1, 2], "a callback body is a JSON object"),
])
def test_a_body_that_is_no_event_is_refused(body: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_event(body)  # type: ignore[arg-type]
