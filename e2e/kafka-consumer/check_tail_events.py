"""An independent consumer of tailsync.tail-events (librdkafka through confluent-kafka, not our code).

Reads the topic from the start with a fresh consumer group, keeps the messages of one tail (its
key), and checks each one's CloudEvents headers and JSON Schemas, then the tail's order. Prints a
JSON report; exits 1 when any check failed.
"""
import argparse
import json
import os
import sys
import time
import uuid

from confluent_kafka import Consumer, KafkaError
from jsonschema import Draft7Validator


def validator(path):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft7Validator.check_schema(schema)
    return schema, Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)


def position(value):
    major, minor = value.split(":")
    return int(major), int(minor)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--topic", required=True)
    parser.add_argument("--key", required=True, help="<domain>:<tailId> of the tail to follow")
    parser.add_argument("--count", type=int, required=True, help="distinct events of the tail to wait for")
    parser.add_argument("--schema", required=True)
    parser.add_argument("--headers-schema", required=True)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    schema, values = validator(args.schema)
    _, headers_schema = validator(args.headers_schema)
    # How to reach the broker, as librdkafka properties (bootstrap.servers, security.protocol, sasl.*,
    # ssl.ca.location): from the environment, so no password is on the command line.
    connection = json.loads(os.environ["KAFKA_CLIENT_PROPERTIES"])
    consumer = Consumer({
        **connection,
        # `reader-*`: the groups the contract's read-only principal may use.
        "group.id": f"reader-independent-consumer-{uuid.uuid4()}",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    })
    consumer.subscribe([args.topic])
    errors, received, seen = [], [], set()
    deadline = time.monotonic() + args.timeout
    try:
        while len(seen) < args.count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() != KafkaError._PARTITION_EOF:
                    errors.append(f"consumer error: {msg.error()}")
                continue
            if msg.key() is None or msg.key().decode("utf-8") != args.key:
                continue
            headers = {k: v.decode("utf-8") for k, v in (msg.headers() or [])}
            value = json.loads(msg.value().decode("utf-8"))
            received.append((msg.partition(), msg.offset(), headers, value))
            seen.add(value.get("eventId"))
    finally:
        consumer.close()

    if len(seen) < args.count:
        errors.append(f"only {len(seen)} of {args.count} events of {args.key} arrived")
    events, partitions = [], set()
    for partition, offset, headers, value in received:
        where = f"offset {offset}"
        errors += [f"{where}: value: {e.message}" for e in values.iter_errors(value)]
        errors += [f"{where}: headers: {e.message}" for e in headers_schema.iter_errors(headers)]
        expected = {
            "ce_specversion": "1.0",
            "ce_id": value.get("eventId"),
            "ce_type": f"tailsync.tail.{value.get('type')}",
            "ce_time": value.get("occurredAt"),
            "ce_dataschema": schema["$id"],
            "content-type": "application/json",
        }
        errors += [f"{where}: {name} is {headers.get(name)!r}, not {want!r}" for name, want in expected.items() if headers.get(name) != want]
        partitions.add(partition)
        # At least once: a redelivered event is the same event again; the first copy counts.
        if value.get("eventId") not in {e["eventId"] for e in events}:
            events.append({"eventId": value.get("eventId"), "type": value.get("type"), "offset": offset, "position": value.get("position"), "mappedIds": value.get("mappedIds")})

    if len(partitions) > 1:
        errors.append(f"one tail's events are on several partitions: {sorted(partitions)}")
    for before, after in zip(events, events[1:]):
        if not after["offset"] > before["offset"]:
            errors.append(f"offsets out of order: {before['offset']} then {after['offset']}")
        if not position(after["position"]) > position(before["position"]):
            errors.append(f"positions out of order: {before['position']} then {after['position']}")

    print(json.dumps({"messages": len(received), "partitions": sorted(partitions), "events": events, "errors": errors}))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
