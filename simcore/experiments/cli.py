"""The command line of one experiment question: ``python -m simcore.experiments NAME`` or
``python experiments/NAME.py``, then ``[--deals N] [--seed S] [--fields F ...] ...``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from simcore.experiments import EXPERIMENTS, with_fields
from simcore.experiments.base import DEFAULT_ROOT, check_deals, run_experiment
from simcore.experiments.fields import DEFAULT_FIELDS


def add_fields_argument(p: argparse.ArgumentParser) -> None:
    """``--fields F [F ...]``: the fields to play against (default: the three default ones)."""
    p.add_argument("--fields", nargs="+", metavar="FIELD", default=list(DEFAULT_FIELDS),
                   help="the three other seats, one or more fields: a policy spec (three "
                        "copies) or three joined by '/' (the opponents in seat order after "
                        "the switching seat; rotated over the three seats); default: "
                        + " ".join(DEFAULT_FIELDS))


def _deals(text: str) -> int:
    try:
        return check_deals(int(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parser(name: str, prog: str | None = None) -> argparse.ArgumentParser:
    experiment = EXPERIMENTS[name]
    p = argparse.ArgumentParser(prog=prog or f"experiments/{name}.py",
                                description=experiment.question)
    p.add_argument("--deals", type=_deals, default=experiment.default_deals,
                   help=f"deals per arm, a multiple of 4 (default {experiment.default_deals:,}; "
                        f"{len(experiment.arms)} arms)")
    p.add_argument("--seed", type=int, default=0, help="seed shared by every arm (default 0)")
    add_fields_argument(p)
    p.add_argument("--root", default=str(DEFAULT_ROOT),
                   help=f"where the experiment directory goes (default {DEFAULT_ROOT})")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    p.add_argument("--force", action="store_true",
                   help="replace arms on disk that were run with other parameters")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def main(name: str, argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Run experiment ``name`` from the command line; print its headline and where it wrote."""
    prog = prog or f"experiments/{name}.py"
    args = parser(name, prog).parse_args(argv)
    if args.seed < 0:
        parser(name, prog).error(f"--seed must be non-negative, got {args.seed}")
    t0 = time.perf_counter()
    try:
        experiment = with_fields(name, args.fields)
    except ValueError as exc:
        parser(name, prog).error(str(exc))
    try:
        result = run_experiment(experiment, deals=args.deals, seed=args.seed,
                                root=args.root, workers=args.workers, force=args.force,
                                progress=not args.quiet)
    except (ValueError, FileExistsError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    print(result.headline)
    print(f"\n{result.meta['deals_total']:,} deals in {time.perf_counter() - t0:.0f} s; "
          f"tables: {result.path / 'results.md'} and results.csv")
    return 0


def script(module_name: str, path: str) -> None:
    """The body of ``experiments/NAME.py``: run question ``NAME`` when run as a script."""
    if module_name == "__main__":
        sys.exit(main(Path(path).stem))
