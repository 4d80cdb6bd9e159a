"""A tailsync webhook receiver with Flask: verifies each callback, prints its event, answers 204.

    TAILSYNC_WEBHOOK_SECRET=<shared secret>[,<previous secret>] PORT=8000 python flask_receiver.py

Callbacks that fail verification get 401 (tailsync does not retry them). Dedupe on Webhook-Id:
delivery is at-least-once.
"""
import json
import os

from flask import Flask, request

from tailsync_webhooks.flask import tailsync_webhook, verified_webhook

app = Flask(__name__)
seen: set = set()


@app.post("/webhooks/tailsync")
@tailsync_webhook(os.environ["TAILSYNC_WEBHOOK_SECRET"].split(","))
def receive():  # type: ignore[no-untyped-def]
    webhook_id = request.headers["Webhook-Id"]
    if webhook_id not in seen:
        seen.add(webhook_id)
        print(json.dumps({"webhookId": webhook_id, "payload": verified_webhook().payload}), flush=True)
    return "", 204


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "8000")))
