"""``parse_event``: a verified callback's payload as the catalog's ``TailsyncEvent`` (``events.py``)."""
from __future__ import annotations

import json
from typing import Any, Mapping, Union, cast

from .events import TAILSYNC_EVENT_NAMES, TailsyncEvent

#: The envelope every event type's callback shares, and the JSON type of each member.
_ENVELOPE = {"eventId": str, "eventName": str, "occurredAt": str, "domain": str, "data": dict}


def parse_event(payload: Union[bytes, bytearray, str, Mapping[str, Any]]) -> TailsyncEvent:
    """The callback body as a typed ``TailsyncEvent``; narrow it on ``event["eventName"]``.

    Pass ``VerifiedWebhook.payload`` (or the raw body, once verified). Checks the envelope the
    catalog types, so a Test call's ``payloadToEcho`` or a body of an event name this version
    of the package does not know raises ``ValueError`` instead of passing as an event. ``data``
    is not checked member by member: the dispatcher has already held it to the same schema.
    """
    body = json.loads(payload) if isinstance(payload, (bytes, bytearray, str)) else payload
    if not isinstance(body, Mapping):
        raise ValueError("a callback body is a JSON object")
    for name, kind in _ENVELOPE.items():
        if not isinstance(body.get(name), kind):
            raise ValueError(f"a callback body's {name} is a JSON {'object' if kind is dict else 'string'}")
    if body["eventName"] not in TAILSYNC_EVENT_NAMES:
        raise ValueError(f"unknown event name {body['eventName']!r}: this version of tailsync-webhooks knows {', '.join(TAILSYNC_EVENT_NAMES)}")
    return cast(TailsyncEvent, dict(body))
