"""Run every experiment at its default size and redraw the README's results.

Usage: python experiments/run_all.py [--deals N] [--seed S] [--root DIR] [--figures DIR]
       [--workers K] [--force] [--quiet]

Arms already on disk with the same parameters are reused, so after an interruption this only
plays what is missing. Writes each experiment's tables under data/experiments/NAME/, the figures
to docs/results/*.png and all the headlines to docs/results/RESULTS.md.
"""

import argparse
import sys
import time
from pathlib import Path

from simcore.experiments import DEFAULT_ROOT, EXPERIMENTS, run_experiment
from simcore.experiments.figures import save_figures

FIGURES = Path("docs") / "results"


def main() -> int:
    p = argparse.ArgumentParser(prog="experiments/run_all.py", description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=None,
                   help="deals per arm for every experiment (default: each one's own default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--root", default=str(DEFAULT_ROOT))
    p.add_argument("--figures", default=str(FIGURES), help=f"default {FIGURES}")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--force", action="store_true")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()
    t0 = time.perf_counter()
    results, sections = {}, []
    for name, experiment in EXPERIMENTS.items():
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
        sections.append(f"## {name}\n\n{experiment.question}\n\n{result.headline}\n\n"
                        f"{meta['deals_total']:,} deals ({meta['deals_per_arm']:,} per arm), "
                        f"seed {meta['seed']}, simcore {meta['simcore_version']}; table: "
                        f"{result.path / 'results.md'}\n")
        print(f"{name}: {meta['deals_total']:,} deals, {time.perf_counter() - started:.0f} s",
              flush=True)
    figures = save_figures(results, args.figures)
    summary = Path(args.figures) / "RESULTS.md"
    summary.write_text("# Results of all experiments\n\nRegenerate with "
                       "`python experiments/run_all.py`.\n\n" + "\n".join(sections),
                       encoding="utf-8")
    total = sum(r.meta["deals_total"] for r in results.values())
    print(f"{total:,} deals in all; {time.perf_counter() - t0:.0f} s; figures: "
          f"{', '.join(str(f) for f in figures)}; headlines: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
