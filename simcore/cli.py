"""The ``simcore`` console command: a thin dispatcher over ``simcore.commands.*`` modules.

Each sub-command lives in its own module exposing ``add_parser(subparsers)`` (which registers the
sub-command and sets ``func``) so commands stay small and independent. Errors that come from bad
input are ``ValueError``/``simcore.errors.SimcoreError``; they print to stderr and exit with 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("score", "replay", "run", "report", "policies", "whatif")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simcore", description="Monte Carlo simulation and statistics for Sichuan mahjong."
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"simcore.commands.{name}")
        except ModuleNotFoundError as exc:  # a command not written yet
            if exc.name != f"simcore.commands.{name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, KeyError, FileExistsError, FileNotFoundError, PermissionError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"simcore {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
