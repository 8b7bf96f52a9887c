"""From which suit length does chasing the full flush (清一色) pay, and how much per deal?

Usage: python -m simcore.experiments speed_vs_flush (or python experiments/speed_vs_flush.py)
       [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/speed_vs_flush/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
