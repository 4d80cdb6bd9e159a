"""A Python client generated from docs/api/openapi.json by openapi-python-client, making one call of
each kind against the stack. e2e/src/api-documents.e2e.ts generates the package `tailsync_client`
and runs this with it on the path; it prints what it got as JSON.
"""
import json
import sys

from tailsync_client import AuthenticatedClient, Client
from tailsync_client.api.auth import create_access_token
from tailsync_client.api.tails import change_tail_number, create_or_map_tail, create_or_map_tails, get_tail, get_tail_history, list_tails
from tailsync_client.api.webhook_subscriptions import delete_webhook_subscription, list_deliveries, save_webhook_subscription, test_webhook_subscription
from tailsync_client.models import (
    BulkTailsDto, ChangeTailNumberDto, ProblemView, SubscriptionDto, SubscriptionDtoEventNamesItem, TailDto, TokenRequestDto, TestSubscriptionDto, TestSubscriptionDtoPayloadToEcho,
)

base_url, client_id, client_secret, receiver_url = sys.argv[1:5]

# auth: the OAuth2 client-credentials flow the document names
token = create_access_token.sync_detailed(client=Client(base_url=base_url), body=TokenRequestDto(grant_type="client_credentials", client_id=client_id, client_secret=client_secret))
api = AuthenticatedClient(base_url=base_url, token=token.parsed.access_token)

# a command, a bulk command, a read, a list, the history, an error
created = create_or_map_tail.sync_detailed(client=api, body=TailDto(tail_id="py-1", tail_number="N801PY", country_code="US"))
bulk = create_or_map_tails.sync(client=api, body=BulkTailsDto(tails=[TailDto(tail_id="py-2", tail_number="N802PY"), TailDto(tail_id="py-3", tail_number="")]))
renumbered = change_tail_number.sync(client=api, body=ChangeTailNumberDto(tail_id="py-1", new_tail_number="N803PY"))
read = get_tail.sync(client=api, mapped_id="py-1")
page = list_tails.sync(client=api, limit=10)
history = get_tail_history.sync(client=api, mapped_id="py-1")
missing = get_tail.sync(client=api, mapped_id="no-such-tail")

# webhooks: subscribe, a Test call, the delivery log, unsubscribe
subscription = save_webhook_subscription.sync(
    client=api, body=SubscriptionDto(event_names=[SubscriptionDtoEventNamesItem("Product.RiskAssessmentExecuted")], url=receiver_url, shared_secret="py-client-" * 8),
)
test = test_webhook_subscription.sync(client=api, body=TestSubscriptionDto(payload_to_echo=TestSubscriptionDtoPayloadToEcho.from_dict({"from": "the Python client"})))
deliveries = list_deliveries.sync_detailed(client=api, limit=5)
deleted = delete_webhook_subscription.sync_detailed(client=api)

print(json.dumps({
    "token": token.status_code.value,
    "created": [created.status_code.value, created.parsed.was_created],
    "bulk": [o.is_valid for o in bulk.operations],
    "renumbered": renumbered.tail_number,
    "read": read.tail_number,
    "list": sorted(t.mapped_id for t in page.items),
    "history": [e.type_ for e in history.items],
    "problem": [missing.status, missing.title] if isinstance(missing, ProblemView) else repr(missing),
    "subscription": str(subscription.status.value if hasattr(subscription.status, "value") else subscription.status),
    "test": [test.success, test.diagnostics.status_code, test.diagnostics.error],
    "deliveries": deliveries.status_code.value,
    "deleted": deleted.status_code.value,
}))
