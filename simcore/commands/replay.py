"""``simcore replay --seed S --deal I``: the readable log (or JSON events) of one deal."""

from __future__ import annotations

import argparse
import json
from typing import Any

from simcore.commands.common import add_policies_option, add_rules_options, non_negative_int


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "replay",
        description="Replay deal I of seed S exactly as a batch run plays it: hands, exchange, "
                    "void, every draw, discard, claim and kong with its payments, each win with "
                    "its fan, the drawn-end settlement and the final nets.")
    parser.add_argument("--seed", type=non_negative_int, required=True, metavar="S")
    parser.add_argument("--deal", type=non_negative_int, required=True, metavar="I")
    add_rules_options(parser)
    add_policies_option(parser)
    parser.add_argument("--duplicate", action="store_true",
                        help="the deal number of a duplicate run (players * wall + rotation)")
    parser.add_argument("--json", action="store_true", help="print the events as one JSON list "
                        "(the deal record's version 1)")
    parser.add_argument("--record", action="store_true",
                        help="print the deal record (version 2, docs/guide/records.md)")
    parser.add_argument("--seat", type=non_negative_int, default=None, metavar="K",
                        help="with --record: the record seat K would write at the table (its "
                             "own tiles, the others' only as shown)")
    parser.add_argument("--steps", action="store_true",
                        help="number each event (its index in the --json list, the deal 0): "
                             "the STEP that Position.from_replay takes")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from simcore.engine.replay import render, replay

    events, _records = replay(args.seed, args.deal, args.rules, args.policies,
                              overrides=args.overrides, duplicate=args.duplicate,
                              as_frame=False)  # only the events are printed: no pandas
    if args.record:
        from simcore.deal_record import dumps_record, to_record

        source = {"seed": args.seed, "deal": args.deal, "policies": args.policies}
        print(dumps_record(to_record(events, seat=args.seat, source=source)), end="")
    else:
        print(json.dumps(events) if args.json else render(events, steps=args.steps))
    return 0
