"""How do the five rule sets differ when the same policies play?

Usage: python -m simcore.experiments rules_compared (or python experiments/rules_compared.py)
       [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/rules_compared/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
