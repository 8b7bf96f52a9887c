"""Options shared by several sub-commands (rules, overrides, policies, seed)."""

from __future__ import annotations

import argparse
import math
from typing import Any

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


def add_deal_options(parser: argparse.ArgumentParser, title: str) -> Any:
    """The group naming one simcore deal (``--seed``, ``--deal``, the rules and the policies)
    as the alternative to a file; the caller adds its own options to the returned group."""
    where = parser.add_argument_group(title)
    where.add_argument("--seed", type=int, default=None, metavar="S", help="the run's seed")
    where.add_argument("--deal", type=int, default=None, metavar="I", help="the deal")
    add_rules_options(where)  # type: ignore[arg-type]
    add_policies_option(where)  # type: ignore[arg-type]
    return where


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def clean_value(value: Any) -> Any:
    """A table value as JSON can hold it: NaN as null, numpy scalars as Python numbers."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return clean_value(value.item())
    return value


def table_json(table: Any, rows: str) -> dict[str, Any]:
    """A result table as one JSON object: its settings (``attrs`` but the verdict), one
    entry per row under ``rows``, the verdict."""
    out = {k: clean_value(v) for k, v in table.attrs.items() if k != "verdict"}
    out[rows] = [{k: clean_value(v) for k, v in row.items()}
                 for row in table.to_dict(orient="records")]
    out["verdict"] = table.attrs["verdict"]
    return out
