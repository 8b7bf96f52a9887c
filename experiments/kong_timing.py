"""Kong now or pung first?

Usage: python -m simcore.experiments kong_timing (or python experiments/kong_timing.py)
       [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/kong_timing/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
