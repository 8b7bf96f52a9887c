"""How does the first win relate to the final result?

Usage: python experiments/first_win_profit.py [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/first_win_profit/: one run per arm, results.csv, results.md and
experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("first_win_profit"))
