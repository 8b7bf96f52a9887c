"""Which three tiles to pass in the exchange?

Usage: python experiments/exchange_three.py [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/exchange_three/: one run per arm, results.csv, results.md and
experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("exchange_three"))
