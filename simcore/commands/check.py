"""``simcore check RECORD``: replay a deal record against the rules (:mod:`simcore.deal_record`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "check",
        description="Replay a deal record (docs/guide/records.md: simcore replay --record, "
                    "--json, or one written down at a table) against its rules: every tile "
                    "accounted for, the turn order, the claims, the voids, each win's fan and "
                    "payments and the nets. Exit status 0 when it holds, 1 at the first "
                    "impossible event (named), 2 when the file cannot be read. The file is "
                    "never changed.")
    parser.add_argument("record", metavar="RECORD", help="a record file ('-': standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from simcore.deal_record import check_record

    source = sys.stdin.read() if args.record == "-" else args.record
    report = check_record(source)
    print(json.dumps(report.to_dict()) if args.json else str(report))
    if report.ok:
        return 0
    return 2 if report.step is None else 1
