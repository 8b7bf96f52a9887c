"""``simcore policies``: every policy and option with its meaning and default."""

from __future__ import annotations

import argparse
import json
from typing import Any, cast


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("policies")
    parser.add_argument("--json", action="store_true", help="print as JSON")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from simcore.engine.spec import describe_policies

    table = describe_policies()
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    print("Policy specs: NAME[:OPTION=VALUE,...]; one for all seats or four separated by '/'.")
    for policy in table:
        print(f"\n{policy['name']}: {policy['meaning']}")
        for opt in cast(list[dict[str, Any]], policy["options"]):
            choices = f" ({'|'.join(opt['choices'])})" if opt["choices"] else ""
            print(f"  {opt['name']}={opt['default']}{choices}: {opt['meaning']}")
    return 0
