"""From which suit length does chasing the full flush (清一色) pay, and how much per deal?

Usage: python experiments/speed_vs_flush.py [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/speed_vs_flush/: one run per arm, results.csv, results.md and
experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("speed_vs_flush"))
