"""``tailsync-webhooks``: the package's command line (``listen``)."""
from __future__ import annotations

import argparse
import datetime
import os
import sys
from typing import List, Optional

from .listen import DoorError, EventDoor, Forwarded, door_end, follow

_DESCRIPTION = """Follows GET /WebhookSubscriptions/Events (the polling door) and POSTs each event of
your domain, in order, to a local receiver exactly as its callback would arrive: the exact body and
signed headers, so the receiver verifies it with your subscription's secret or key. Signs in with
TAILSYNC_CLIENT_ID and TAILSYNC_CLIENT_SECRET (a service account), or TAILSYNC_TOKEN."""


def _describe(result: Forwarded) -> str:
    answer = str(result.status) if result.status is not None else result.error
    note = {"retry": " (will retry)", "refused": " (refused: not retried)"}.get(result.outcome, "")
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return f"{now} {result.event['eventId']} {result.event['eventName']} -> {answer}{note}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="tailsync-webhooks")
    commands = parser.add_subparsers(dest="command", required=True)
    listen = commands.add_parser("listen", help="forward your domain's events, signed, to a local receiver", description=_DESCRIPTION)
    listen.add_argument("--forward", required=True, metavar="URL", help="the local receiver, e.g. http://localhost:4000/hook")
    listen.add_argument("--base-url", default=os.environ.get("BASE_URL", "http://localhost:3000"), help="the gateway (default: BASE_URL or http://localhost:3000)")
    start = listen.add_mutually_exclusive_group()
    start.add_argument("--after", metavar="ITERATOR", help="start after this iterator (printed when listen stops); default: the oldest event kept")
    start.add_argument("--from-now", action="store_true", help="forward only events that come after listen starts (the ones kept are passed over)")
    listen.add_argument("--once", action="store_true", help="stop when the door has nothing more")
    listen.add_argument("--interval", type=float, default=1.0, metavar="SECONDS", help="pause between polls once caught up (default 1)")
    args = parser.parse_args(argv)

    if not args.forward.startswith(("http://", "https://")):
        parser.error("--forward must be an absolute http or https URL")
    if args.interval < 0.1:
        parser.error("--interval must be at least 0.1 (seconds)")
    token = os.environ.get("TAILSYNC_TOKEN")
    client_id, client_secret = os.environ.get("TAILSYNC_CLIENT_ID"), os.environ.get("TAILSYNC_CLIENT_SECRET")
    if not token and not (client_id and client_secret):
        parser.error("set TAILSYNC_CLIENT_ID and TAILSYNC_CLIENT_SECRET (or TAILSYNC_TOKEN)")
    door = EventDoor(args.base_url, token=token or None, client_id=client_id, client_secret=client_secret)

    print(f"forwarding the events of {door.base_url}/WebhookSubscriptions/Events to {args.forward} (Ctrl+C stops)", file=sys.stderr)
    # The last iterator is kept as pages pass, so Ctrl+C can still say where to go on from.
    last = [args.after]
    try:
        if args.from_now:
            last[0], passed = door_end(door)
            print(f"from now on: {passed} events kept before it are passed over", file=sys.stderr, flush=True)
        follow(door, args.forward, after=last[0], once=args.once, interval=args.interval,
               on_forwarded=lambda result: print(_describe(result), flush=True),
               on_pause=lambda reason, seconds: print(f"{reason}; again in {seconds:g} s", file=sys.stderr),
               on_iterator=lambda iterator: last.__setitem__(0, iterator))
    except DoorError as error:
        print(str(error), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    if last[0] is not None:
        print(f"to go on from here: --after {last[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
