"""Verifies recorded callbacks with the official `standardwebhooks` package (PyPI).

Reads JSON from stdin: [{"secret": "whsec_...", "headers": {...}, "body": "<base64 of the raw body>"}]
and prints one JSON line: [{"ok": true, "payload": ...} | {"ok": false, "error": "..."}], in order.
"""
import base64
import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def verify(item):
    try:
        payload = Webhook(item["secret"]).verify(base64.b64decode(item["body"]), item["headers"])
        return {"ok": True, "payload": payload}
    except WebhookVerificationError as error:
        return {"ok": False, "error": str(error)}


print(json.dumps([verify(item) for item in json.load(sys.stdin)]))
