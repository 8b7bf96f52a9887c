"""Which three tiles to pass in the exchange?

Usage: python -m simcore.experiments exchange_three (or python experiments/exchange_three.py)
       [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/exchange_three/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
