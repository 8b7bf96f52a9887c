"""``simcore tune POLICY --param NAME=LOW..HIGH ...``: search a policy's options against a field
(:func:`simcore.tuning.tune`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simcore.commands.common import add_rules_options

DESCRIPTION = """\
Search POLICY's options for the setting that earns most against a field: optuna's TPE sampler
proposes settings, each trial plays the table POLICY/FIELD as a duplicate run on common walls
of --seed, and a successive-halving pruner promotes the best quarter of the trials from one
rung of walls to the next (--rungs). A trial's score is its gain over the starting setting
(POLICY as written, defaults for the rest): per wall, the tuned seat's mean net minus the
starting setting's on the same walls against the same field, with its SE. The winner (the
runner-up when the start itself wins) is then played again against the starting setting on
fresh walls (seed + 1), with a 95% interval.

--deals is the budget, every deal included (4 per wall and run: trials, the starting
setting's baseline, and the confirmation, which gets a quarter of it). Writes to --out:
trials.csv (one row per trial), best.json (setting, confirmed gain, interval, deals spent),
search.png, and the study (study.db, tune.json, baseline.npy). A killed tune continues when
the same command is run again; another command on the same directory is an error.

Examples:
  simcore tune flush --param k=5..12 --param g=0..30 --field speed --deals 280000
  simcore tune expert --param defence=0..150 --param fold=0..200 --param value=50..200 \\
      --field expert/flush:k=8/pungs:k=4 --deals 400000
"""


def add_parser(subparsers: Any) -> None:
    """Register the ``tune`` sub-command."""
    p = subparsers.add_parser("tune", description=DESCRIPTION,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("policy", metavar="POLICY",
                   help="the policy to tune, a spec: its options are the starting setting "
                        "(e.g. flush, or flush:g=10)")
    p.add_argument("--param", dest="params", action="append", default=[], required=True,
                   metavar="NAME=LOW..HIGH",
                   help="a tuned option, an integer range (both ends included) or named "
                        "values NAME=a|b|c (repeatable)")
    p.add_argument("--field", default="speed", metavar="SPEC",
                   help="the three other seats: one spec, or three separated by '/' "
                        "(default speed)")
    add_rules_options(p)
    # checked by tune() itself, so every command words a bad count alike (simcore._input)
    p.add_argument("--deals", type=int, required=True, metavar="BUDGET",
                   help="deals to spend, everything included")
    p.add_argument("--seed", type=int, default=0, metavar="S",  # checked by tune()
                   help="the search's walls (the confirmation plays seed + 1; default 0)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default data/tune/POLICY-PRESET-sSEED)")
    p.add_argument("--rungs", default=None, metavar="W,W,...",
                   help="walls per pruner rung, each the previous times one factor "
                        "(default 250,1000,4000)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from simcore.tuning import DEFAULT_RUNGS, DEFAULT_TUNE_DIR, tune
    from simcore.tuning.plan import check_rungs

    rungs = DEFAULT_RUNGS if args.rungs is None else check_rungs(args.rungs)[0]
    out = args.out
    if out is None:
        name = args.policy.partition(":")[0].strip()
        out = DEFAULT_TUNE_DIR / f"{name}-{args.rules}-s{args.seed}"
    try:
        result = tune(args.policy, args.params, field=args.field, rules=args.rules,
                      deals=args.deals, seed=args.seed, out=out,
                      progress=not args.quiet and sys.stderr.isatty(),
                      overrides=args.overrides, rungs=rungs)
    except KeyboardInterrupt:
        print(f"simcore tune: interrupted; run the same command again to continue the tune "
              f"in {out}", file=sys.stderr)
        return 130
    print(result.summary())
    print(f"  wrote {result.path}/trials.csv, best.json, search.png")
    return 0
