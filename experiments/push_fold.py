"""Push or fold? expert with and without its danger model, and folding, against each field.

Usage: python -m simcore.experiments push_fold (or python experiments/push_fold.py)
       [--deals N] [--seed S] [--fields F [F ...]] [--root DIR]
       [--workers K] [--force] [--quiet]
Writes data/experiments/push_fold/: one run per arm, results.csv, results.md and experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
