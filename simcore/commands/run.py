"""``simcore run``: simulate deals into a resumable Parquet dataset (:func:`simcore.runner.run`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

DESCRIPTION = """\
Simulate deals and stream them to a Parquet dataset directory: one part per chunk plus
_run.json (parameters, versions, machine, summary). pandas.read_parquet(DIR) reads the records;
simcore.load(DIR) returns (records, metadata). Records are identical for any --workers,
--chunk-size or Dask cluster. An interrupted run is completed with --resume.

--duplicate plays every wall under the 4 rotations of the seat policies; --deals still counts
deals played, so it must be a multiple of 4 (--deals 4000 = 1000 walls x 4 rotations). With
--set players=3 (or --rules two_suit3) a deal has three seats: three policy specs, three
rotations, three rows per deal.
"""


def add_parser(subparsers: Any) -> None:
    """Register the ``run`` sub-command."""
    p = subparsers.add_parser(
        "run",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--deals", type=int, metavar="N", help="deals to play (required for a new run)")
    p.add_argument("--rules", metavar="PRESET", help="rules preset (default: classic)")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule parameter (repeatable), e.g. --set fan_cap=4",
    )
    p.add_argument(
        "--policies",
        metavar="SPEC",
        help="one policy spec for all seats, or one per seat (four, or three with players=3) "
             "separated by / (default: speed)",
    )
    p.add_argument("--seed", type=int, metavar="S", help="master seed (default: 0)")
    p.add_argument(
        "--out", metavar="DIR", help="output directory (default: data/runs/<derived name>)"
    )
    p.add_argument(
        "--workers", type=int, metavar="K", help="local worker processes (default: all cores)"
    )
    p.add_argument(
        "--chunk-size",
        type=int,
        metavar="C",
        help="deals per Parquet part (default: deals/16 within 1000..50000)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        default=None,  # None = not given, so --resume can take the stored value
        help="play each wall under all 4 seat rotations of the policies",
    )
    dask = p.add_mutually_exclusive_group()
    dask.add_argument(
        "--scheduler", metavar="ADDRESS", help="run chunks on a Dask cluster (tcp://host:port)"
    )
    dask.add_argument(
        "--dask-local",
        type=int,
        metavar="K",
        help="run chunks on a local Dask cluster of K processes",
    )
    state = p.add_mutually_exclusive_group()
    state.add_argument(
        "--resume",
        action="store_true",
        help="complete the interrupted run in --out (unspecified parameters come from it)",
    )
    state.add_argument(
        "--force",
        action="store_true",
        help="replace an existing run in --out (only simcore's files)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from simcore.analysis.summary import format_summary
    from simcore.runner import run
    from simcore.runner.driver import RunInterrupted

    try:
        dataset = run(
            args.deals,
            rules=args.rules,
            overrides=args.overrides,
            policies=args.policies,
            seed=args.seed,
            out=args.out,
            workers=args.workers,
            chunk_size=args.chunk_size,
            duplicate=args.duplicate,
            scheduler=args.scheduler,
            dask_local=args.dask_local,
            resume=args.resume,
            force=args.force,
            progress=not args.quiet,
        )
    except RunInterrupted as exc:
        print(f"simcore run: {exc}", file=sys.stderr)
        return 130  # the shell's code for "terminated by Ctrl-C"
    if not args.quiet:
        print(format_summary(dataset))
    return 0
