"""Which suit to void?

Usage: python experiments/void_choice.py [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/void_choice/: one run per arm, results.csv, results.md and
experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("void_choice"))
