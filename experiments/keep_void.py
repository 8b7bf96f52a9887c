"""With void_first=false, is it worth holding a dangerous void-suit tile?

Usage: python experiments/keep_void.py [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/keep_void/: one run per arm, results.csv, results.md and experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("keep_void"))
