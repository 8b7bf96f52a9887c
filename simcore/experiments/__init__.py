"""The strategy experiments: reproducible answers with confidence intervals.

Each experiment is a set of *arms* (runs sharing one seed, hence one set of walls), an analysis
and a result table, one module each in :mod:`simcore.experiments.questions`;
``python -m simcore.experiments NAME [--deals N] [--seed S] [--fields F ...]`` (or
``python experiments/NAME.py ...``) runs one, and ``python experiments/run_all.py`` runs them
all and redraws the README figures.

Every answer is given per *field*, the three other seats (:mod:`simcore.experiments.fields`;
:data:`DEFAULT_FIELDS`: three ``speed``, three ``expert``, ``expert/flush:k=8/pungs:k=4``
rotated), with a robustness line: the sign holds in every field, or under which it flips.
:func:`with_fields` builds an experiment for other fields; :func:`robustness` reads the signs
from a result table.

>>> sorted(EXPERIMENTS)[:3]
['exchange_three', 'first_win_profit', 'hold_out']
>>> with_fields('void_choice', ['speed']).fields
('speed',)

From Python (a notebook, say)::

    from simcore.experiments import EXPERIMENTS, load_result, run_experiment
    result = run_experiment(EXPERIMENTS["speed_vs_flush"], deals=4_000, root="/tmp/exp")
    result.table            # tidy DataFrame with estimates and 95% intervals
    load_result("speed_vs_flush").table   # what python experiments/speed_vs_flush.py wrote
    with_fields("hold_out", ["random", "pungs"])   # the same question against other fields
    check_quoted(result, [{"preset": "classic", "k": 9, "estimand": "switching_gain",
                           "metric": "net", "field": "speed", "quoted": 0.049}])
                            # a figure quoted from the full run, against this run
"""

from __future__ import annotations

from simcore.experiments.base import (
    DEFAULT_ROOT,
    Arm,
    Experiment,
    ExperimentResult,
    arm_datasets,
    find_result,
    load_result,
    result_or_run,
    run_experiment,
    wide_table,
)
from simcore.experiments.catalog import BUILDERS, EXPERIMENTS, with_fields
from simcore.experiments.fields import DEFAULT_FIELDS, Field, parse_field, parse_fields
from simcore.experiments.quoted import QuoteWarning, check_quoted
from simcore.experiments.strategy import robustness

__all__ = [
    "BUILDERS",
    "DEFAULT_FIELDS",
    "DEFAULT_ROOT",
    "EXPERIMENTS",
    "Arm",
    "Experiment",
    "ExperimentResult",
    "Field",
    "QuoteWarning",
    "arm_datasets",
    "check_quoted",
    "find_result",
    "load_result",
    "parse_field",
    "parse_fields",
    "result_or_run",
    "robustness",
    "run_experiment",
    "wide_table",
    "with_fields",
]
