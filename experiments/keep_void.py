"""With void_first=false, is it worth holding a dangerous void-suit tile?

Usage: python -m simcore.experiments keep_void (or python experiments/keep_void.py)
       [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/keep_void/: one run per arm, results.csv, results.md and experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
