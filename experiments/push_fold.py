"""Push or fold? expert with and without its danger model, and folding, against each field.

Usage: python experiments/push_fold.py [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/push_fold/: one run per arm, results.csv, results.md and experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("push_fold"))
