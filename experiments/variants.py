"""What changes with three players, two suits or blood river (docs/rules section 9)?

Usage: python -m simcore.experiments variants (or python experiments/variants.py)
       [--deals N] [--seed S] [--fields F [F ...]]
       [--root DIR] [--workers K] [--force] [--quiet]
Writes data/experiments/variants/: one run per arm, results.csv, results.md and
experiment.json.
"""

from simcore.experiments.cli import script

script(__name__, __file__)
