"""Options shared by several sub-commands (rules, overrides, policies, seed)."""

from __future__ import annotations

import argparse

from simcore.rules import DEFAULT_PRESET, PRESETS


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default=DEFAULT_PRESET, metavar="PRESET",
                        help=f"rule preset ({', '.join(PRESETS)}; default {DEFAULT_PRESET})")
    parser.add_argument("--set", dest="overrides", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="change one rule parameter (repeatable), e.g. --set fan_cap=4")


def add_policies_option(parser: argparse.ArgumentParser, default: str = "speed") -> None:
    parser.add_argument("--policies", default=default, metavar="SPEC",
                        help="one policy spec for all seats or four separated by '/', e.g. "
                             "'flush:k=8/speed/speed/speed' (see 'simcore policies'; "
                             f"default {default})")


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value
