"""Which suit to void?

Usage: python -m simcore.experiments void_choice (or python experiments/void_choice.py)
       [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/void_choice/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
