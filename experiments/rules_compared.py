"""How do the five rule sets differ when the same policies play?

Usage: python experiments/rules_compared.py [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/rules_compared/: one run per arm, results.csv, results.md and
experiment.json.
"""

import sys

from simcore.experiments.cli import main

if __name__ == "__main__":
    sys.exit(main("rules_compared"))
