"""Run every experiment at its default size and redraw the results page.

Usage: python experiments/run_all.py [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--figures DIR] [--readme FILE] [--workers K] [--force] [--quiet]

Every experiment is played against every field (default: speed, expert and
expert/flush:k=8/pungs:k=4 rotated; see simcore.experiments.fields for the sizes of the fields
other than speed), and each answer reports whether its sign holds in every field.

Arms already on disk with the same parameters are reused, so after an interruption this only
plays what is missing. Writes each experiment's tables under data/experiments/NAME/, the figures
to docs/results/*.png, all the headlines to docs/results/RESULTS.md, and the table of answers x
fields into the results page, docs/results/index.md (between its markers; in the --figures
folder: a page is created there when it has none).

Replication: every experiment with headline arms runs them again on seed + 1; a headline whose
two seeds differ by more than 3 combined standard errors is flagged here (on stderr, as
"REPLICATION FLAG", and at the top of RESULTS.md).
"""

import argparse
import sys
import time
from pathlib import Path

from simcore.experiments import (
    DEFAULT_ROOT,
    EXPERIMENTS,
    parse_fields,
    run_experiment,
    with_fields,
)
from simcore.experiments.answers import write_answers
from simcore.experiments.base import REPLICATION_LIMIT, replication_text
from simcore.experiments.cli import add_fields_argument
from simcore.experiments.figures import save_figures

FIGURES = Path("docs") / "results"


def main() -> int:
    p = argparse.ArgumentParser(prog="experiments/run_all.py", description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=None,
                   help="deals per arm for every experiment (default: each one's own default)")
    p.add_argument("--seed", type=int, default=0)
    add_fields_argument(p)
    p.add_argument("--root", default=str(DEFAULT_ROOT))
    p.add_argument("--figures", default=str(FIGURES), help=f"default {FIGURES}")
    p.add_argument("--readme", default=None, metavar="FILE",
                   help="another page whose answers x fields block (between the markers) to "
                        "rewrite too (default: none; the table's page is FIGURES/index.md)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--force", action="store_true")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()
    t0 = time.perf_counter()
    # the table goes into the results page of --figures: a run into other folders (a test, a
    # trial size) never rewrites the published one
    readme = Path(args.readme) if args.readme else None
    results, sections, flags = {}, [], []
    try:
        experiments = {name: with_fields(name, args.fields) for name in EXPERIMENTS}
    except ValueError as exc:
        p.error(str(exc))
    for name, experiment in experiments.items():
        started = time.perf_counter()
        try:
            result = run_experiment(experiment, deals=args.deals, seed=args.seed, root=args.root,
                                    workers=args.workers, force=args.force,
                                    progress=not args.quiet)
        except (ValueError, FileExistsError) as exc:
            print(f"experiments/run_all.py: {name}: error: {exc}", file=sys.stderr)
            return 2
        results[name] = result
        meta = result.meta
        replication = meta.get("replication", [])
        rep = replication_text(replication)
        for row in replication:
            if row["flag"]:
                label = ", ".join(str(row[k]) for k in ("preset", "policy", "field") if k in row)
                flags.append(f"{name}: {label}: seeds {row['seeds']} give "
                             f"{row['estimates'][0]:+.3f} and {row['estimates'][1]:+.3f}, "
                             f"z = {row['z']:+.2f}")
        seeds = (f"seed {meta['seed']}" + (f", headline arms also on seed "
                                            f"{meta['replication_seed']}"
                                            if meta.get("replication_seed") is not None else ""))
        sections.append(f"## {name}\n\n{experiment.question}\n\n{result.headline}\n\n"
                        + (f"{rep}\n\n" if rep else "")
                        + f"{meta['deals_total']:,} deals ({meta['deals_per_arm']:,} per arm), "
                        f"{seeds}, simcore {meta['simcore_version']}; table: "
                        f"{result.path / 'results.md'}\n")
        print(f"{name}: {meta['deals_total']:,} deals, {time.perf_counter() - started:.0f} s",
              flush=True)
    figures = save_figures(results, args.figures)
    summary = Path(args.figures) / "RESULTS.md"
    flag_text = ""
    if flags:
        flag_text = (f"**Replication flags** (two seeds more than {REPLICATION_LIMIT:g} combined "
                     f"standard errors apart):\n\n" + "\n".join(f"- {f}" for f in flags)
                     + "\n\n")
    summary.write_text("# Results of all experiments\n\nRegenerate with "
                       "`python experiments/run_all.py`.\n\n" + flag_text
                       + "\n".join(sections), encoding="utf-8")
    answers = write_answers({n: r.table for n, r in results.items()},
                            [f.name for f in parse_fields(args.fields)], args.seed,
                            Path(args.figures), readme)
    print(f"answers x fields: {answers}" + (f" and {readme}" if readme else ""), flush=True)
    total = sum(r.meta["deals_total"] for r in results.values())
    print(f"{total:,} deals in all; {time.perf_counter() - t0:.0f} s; figures: "
          f"{', '.join(str(f) for f in figures)}; headlines: {summary}")
    for flag in flags:
        print(f"experiments/run_all.py: REPLICATION FLAG: {flag}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
