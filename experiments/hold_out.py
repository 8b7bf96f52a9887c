"""Is it worth declining a cheap win?

Usage: python -m simcore.experiments hold_out (or python experiments/hold_out.py)
       [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/hold_out/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
