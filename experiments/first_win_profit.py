"""How does the first win relate to the final result?

Usage: python -m simcore.experiments first_win_profit (or python experiments/first_win_profit.py)
       [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/first_win_profit/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
