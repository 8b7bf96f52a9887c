"""The ``simcore`` console command: a thin dispatcher over ``simcore.commands.*`` modules.

Each sub-command lives in its own module exposing ``add_parser(subparsers)`` (which registers the
sub-command's options and sets ``func``) so commands stay small and independent. A command's
module is imported only when that command is parsed or its help is printed: ``simcore --help``
and ``simcore policies`` never load numba, pandas or the engine (see
``benchmarks/bench_commands.py``). The one-line help of every command is :data:`COMMANDS`.
Errors that come from bad input are ``ValueError`` (and a few ``OSError``/``KeyError``); they
print to stderr and exit with 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

# name -> the line `simcore --help` shows; the command lives in module simcore.commands.NAME
COMMANDS: dict[str, str] = {
    "score": "score a hand: pattern, modifiers, roots, bonuses, fan and units",
    "replay": "print the log of one deal of a run",
    "run": "simulate deals to a Parquet dataset (parallel, resumable)",
    "report": "print the statistics tables of a run and write its figures",
    "policies": "list the policies and their options",
    "check": "replay a deal record against the rules and name the first impossible event",
    "review": "review one seat's decisions in a deal (or a policy over many): EV lost, report",
    "advise": "rank every legal action of one position by its expected net (rollouts)",
    "whatif": "compare plans (policies) for one hand on common random walls",
    "tune": "search a policy's options for the setting that earns most against a field",
}


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose "invalid choice" gets the did-you-mean every unknown name gets
    (:mod:`simcore._input`)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            from simcore._input import did_you_mean

            choices = ", ".join(repr(c) for c in action.choices)
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r}{did_you_mean(value, action.choices)} "
                        f"(choose from {choices})")


class _CommandParser(_Parser):
    """A sub-command's parser whose options are added by its module on first use."""

    def __init__(self, *args: Any, module: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._module = module

    def load(self) -> _CommandParser:
        """Import the command's module and let it add the options (once)."""
        if self._module is not None:
            module, self._module = self._module, None
            importlib.import_module(module).add_parser(_Registrar(self))
        return self

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.load()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self.load()
        return super().format_help()



class _Registrar:
    """What a command module's ``add_parser`` receives: ``add_parser(name, **kwargs)`` returns
    the already registered (lazy) parser, with ``description``, ``formatter_class``... set."""

    def __init__(self, parser: _CommandParser) -> None:
        self._parser = parser

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        kwargs.pop("help", None)  # the one-line help is COMMANDS[name]
        for key, value in kwargs.items():
            setattr(self._parser, key, value)
        return self._parser


def build_parser() -> argparse.ArgumentParser:
    """The ``simcore`` parser; each command's options are added when that command is used."""
    parser = _Parser(
        prog="simcore", description="Monte Carlo simulation and statistics for Sichuan mahjong."
    )
    subparsers = parser.add_subparsers(dest="command", required=True,
                                       parser_class=_CommandParser)
    for name, help_line in COMMANDS.items():
        subparsers.add_parser(name, help=help_line, module=f"simcore.commands.{name}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # argparse's own words, plus the did-you-mean every unknown name gets
        parser.error(f"unrecognized arguments: {' '.join(extra)}"
                     + _option_hint(parser, args.command, extra))
    try:
        return int(args.func(args) or 0)
    except (ValueError, KeyError, FileExistsError, FileNotFoundError, PermissionError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"simcore {args.command}: error: {message}", file=sys.stderr)
        return 2


def _option_hint(parser: argparse.ArgumentParser, command: str, extra: Sequence[str]) -> str:
    """``"; did you mean '--seed'?"`` for the first unrecognized option close to one of the
    command's options, else ``""``."""
    from simcore._input import did_you_mean

    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    known = list(subparsers.choices[command]._option_string_actions)
    for word in extra:
        if word.startswith("--"):
            hint = did_you_mean(word.partition("=")[0], known)
            if hint:
                return hint
    return ""


if __name__ == "__main__":
    sys.exit(main())
