"""``simcore score HAND``: score a hand under a preset (docs/rules section 7).

``simcore score HAND [--rules PRESET] [--set NAME=VALUE]... [--self-draw]
[--bonus kong_flower|kong_discard|robbed_kong|last_tile]... [--void m|p|s] [--heaven-earth]
[--json]``. HAND is the 14-tile hand in docs/rules notation (exposed melds after ``|``), winning
tile included; a 13-tile hand prints its shanten and waits.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from simcore.hand.scoring import BONUS_NAMES, score
from simcore.rules import PRESETS


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``score`` on the ``simcore`` sub-command parsers."""
    parser = subparsers.add_parser(
        "score",
        description=(
            "Score a Sichuan mahjong hand (docs/rules section 7). HAND is written like "
            "'111m444m456p789m77p' with exposed melds after '|' (P5s pung, K3m kong, "
            "C7p concealed kong), the winning tile included; a 13-tile hand shows its waits."
        ),
    )
    parser.add_argument(
        "hand", metavar="HAND", help="the hand in notation, e.g. 123m456m77p|P5sK3m"
    )
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="PRESET",
        help=f"rule preset ({', '.join(PRESETS)}; default classic)",
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule parameter (repeatable), e.g. --set fan_cap=4",
    )
    parser.add_argument("--self-draw", action="store_true", help="the hand won by self-draw (自摸)")
    parser.add_argument(
        "--bonus",
        dest="bonuses",
        action="append",
        default=[],
        choices=BONUS_NAMES,
        help="a situational bonus, +1 fan each (repeatable)",
    )
    parser.add_argument(
        "--void",
        choices=("m", "p", "s"),
        default=None,
        help="the void suit (default: the suit the hand lacks)",
    )
    parser.add_argument(
        "--heaven-earth",
        action="store_true",
        help="a heavenly or earthly win (天胡/地胡); listed among the bonuses as heaven_earth",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Score ``args.hand`` and print the result; bad input raises ValueError (exit status 2)."""
    result = score(
        args.hand,
        args.rules,
        self_draw=args.self_draw,
        bonuses=args.bonuses,
        void=args.void,
        heaven_earth=args.heaven_earth,
        overrides=args.overrides,
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(result.describe())
    return 0
