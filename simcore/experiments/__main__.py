"""``python -m simcore.experiments NAME [--deals N] [--seed S] [--fields F ...] ...``: run one
experiment question (a module of :mod:`simcore.experiments.questions`); without a name, list
them."""

from __future__ import annotations

import sys

from simcore._input import unknown_name
from simcore.experiments.catalog import EXPERIMENTS
from simcore.experiments.cli import main

PROG = "python -m simcore.experiments"


def run(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: {PROG} NAME [--deals N] [--seed S] [--fields F ...] [--root DIR] "
              f"[--workers K] [--force] [--quiet]\n\nquestions:")
        for name, experiment in EXPERIMENTS.items():
            print(f"  {name:18} {experiment.question.split('?')[0]}?")
        return 0 if argv else 2
    name = argv[0]
    if name not in EXPERIMENTS:
        print(f"{PROG}: error: {unknown_name('experiment', name, EXPERIMENTS)}", file=sys.stderr)
        return 2
    return main(name, argv[1:], prog=f"{PROG} {name}")


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
