"""``simcore report DIR [--out DIR] [--format text|markdown|json]``: tables and figures of a run.

Prints every table of :mod:`simcore.analysis` and writes PNG figures into ``--out`` (default
``DIR/_report``: the ``_`` keeps ``pandas.read_parquet(DIR)`` from reading it, and ``simcore run
--resume``/``--force`` accept it). All tables are computed before anything is written, so a bad
run (missing directory, not a simcore run, corrupt Parquet) exits with status 2 and writes
nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simcore.analysis.compare import COMPARE_ESTIMANDS
from simcore.analysis.report import FORMATS, build_report, render, write_figures
from simcore.runner.store import REPORT_DIR


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the ``report`` sub-command."""
    parser = subparsers.add_parser(
        "report",
        description="Print the statistics tables of a run (every rate and mean with its 95% "
        "interval and count) and write PNG figures.",
    )
    parser.add_argument("dir", type=Path, metavar="DIR",
                        help="run directory written by `simcore run`")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="directory for PNG figures (default: DIR/_report)")
    parser.add_argument(
        "--format", choices=FORMATS, default="text", help="table format (default: text)"
    )
    parser.add_argument("--baseline", default=None, metavar="POLICY",
                        help="policy the others are compared with (default: the field's "
                        "policy when one seat plays another policy against it, else the run's "
                        "first)")
    parser.add_argument(
        "--estimand", choices=COMPARE_ESTIMANDS, default=None,
        help="what the comparison's difference rows estimate: switching_gain (what a seat gains "
        "by playing the policy instead of the baseline; net), vs_baseline (policy minus "
        "baseline at the same tables) or vs_field (minus the other seats). Default: "
        "switching_gain for a duplicate run of one policy against the baseline (the other "
        "metrics then vs_baseline), else vs_baseline")
    parser.add_argument(
        "--where", default=None, metavar="EXPR",
        help="compare the policies only in the seats whose starting hand meets EXPR, a "
        "condition on shanten_dealt, shanten_exchanged, shanten_void, longest_suit, pairs "
        "(e.g. 'pairs >= 5'), read on the baseline's records (duplicate runs; vs_baseline)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Build the report (reads and checks the whole run), then print it and write figures."""
    report = build_report(args.dir, baseline=args.baseline, estimand=args.estimand,
                          where=args.where)
    text = render(report, args.format)
    out = args.out if args.out is not None else args.dir / REPORT_DIR
    paths = write_figures(report, out)
    sys.stdout.write(text)
    print(f"wrote {len(paths)} figures to {out}", file=sys.stderr)
    return 0
