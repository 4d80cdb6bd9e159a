"""A Kafka consumer configured from tailsync's AsyncAPI document alone (librdkafka via confluent-kafka).

What an integrator in another language does: fetch the document, pick a server, and let it say
where to connect (its host and variables), how (its protocol and security scheme), what to read
(the channel's address) and in which consumer groups the principal may read (`x-kafka-principals`).
The only things it is given besides are the principal's name and password, which the operator
made, and the CA of the operator's certificate when that is a private one. Reads the channel from
the start and prints, as JSON, the first message whose value matches every `--match`; exits 1
when none arrives in time.
"""
import argparse
import json
import os
import sys
import time
import urllib.request
import uuid

from confluent_kafka import Consumer, KafkaError

# AsyncAPI's Kafka protocols: `kafka-secure` is Kafka over TLS.
TLS_BY_PROTOCOL = {"kafka": False, "kafka-secure": True}
# AsyncAPI security scheme types and librdkafka's SASL mechanism names.
SASL_MECHANISMS = {"scramSha512": "SCRAM-SHA-512", "scramSha256": "SCRAM-SHA-256", "plain": "PLAIN"}


def resolve(document, ref):
    node = document
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def bootstrap(server, given):
    host = server["host"]
    for name, variable in (server.get("variables") or {}).items():
        host = host.replace("{" + name + "}", given.get(name, variable.get("default", "")))
    return host


def connection(document, server_id, variables, username, password, ca_file):
    server = document["servers"][server_id]
    # The first requirement the client can meet: a SASL scheme librdkafka speaks.
    schemes = [resolve(document, req["$ref"]) for req in server.get("security", [])]
    scheme = next(s for s in schemes if s["type"] in SASL_MECHANISMS)
    tls = TLS_BY_PROTOCOL[server["protocol"]]
    properties = {
        "bootstrap.servers": bootstrap(server, variables),
        "security.protocol": "SASL_SSL" if tls else "SASL_PLAINTEXT",
        "sasl.mechanisms": SASL_MECHANISMS[scheme["type"]],
        "sasl.username": username,
        "sasl.password": password,
    }
    if tls and ca_file:
        properties["ssl.ca.location"] = ca_file
    return properties


def group_for(channel, principal):
    """A consumer group the channel's readers may use: the pattern named for this principal, else NAME's."""
    readers = channel.get("x-kafka-principals", {}).get("read", [])
    reader = next((r for r in readers if r["principal"] == principal), None) or next(r for r in readers if r["principal"] == "NAME")
    return reader["groups"].replace("NAME", principal).replace("*", f"asyncapi-{uuid.uuid4()}")


def matches(value, wanted):
    for name, expected in wanted.items():
        actual = value.get(name)
        if actual != expected and not (isinstance(actual, list) and expected in actual):
            return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--asyncapi", required=True, help="URL of the AsyncAPI document (e.g. the gateway's /asyncapi.json)")
    parser.add_argument("--server", required=True, help="one of the document's servers")
    parser.add_argument("--var", action="append", default=[], help="a server variable, NAME=VALUE")
    parser.add_argument("--channel", required=True, help="one of the document's channels")
    parser.add_argument("--principal", required=True, help="the Kafka principal the operator made (password in KAFKA_PASSWORD)")
    parser.add_argument("--ca-file", help="the CA of the listener's certificate, when it is a private one")
    parser.add_argument("--match", action="append", default=[], help="FIELD=VALUE the message's value must have (or list)")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    with urllib.request.urlopen(args.asyncapi, timeout=30) as response:
        document = json.load(response)
    channel = document["channels"][args.channel]
    settings = connection(document, args.server, dict(v.split("=", 1) for v in args.var), args.principal, os.environ["KAFKA_PASSWORD"], args.ca_file)
    group = group_for(channel, args.principal)
    consumer = Consumer({**settings, "group.id": group, "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([channel["address"]])
    wanted = dict(m.split("=", 1) for m in args.match)
    found, errors = None, []
    deadline = time.monotonic() + args.timeout
    try:
        while found is None and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() != KafkaError._PARTITION_EOF:
                    errors.append(str(msg.error()))
                continue
            value = json.loads(msg.value().decode("utf-8"))
            if matches(value, wanted):
                found = {"partition": msg.partition(), "offset": msg.offset(), "key": msg.key().decode("utf-8"), "value": value}
    finally:
        consumer.close()

    safe = {k: v for k, v in settings.items() if k != "sasl.password"}
    print(json.dumps({"connection": safe, "group": group, "topic": channel["address"], "message": found, "errors": errors[-5:]}))
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
