"""The strategy experiments: reproducible answers with confidence intervals.

Each experiment is a set of *arms* (runs sharing one seed, hence one set of walls), an analysis
and a result table; ``python experiments/NAME.py [--deals N] [--seed S]`` runs one, and
``python experiments/run_all.py`` runs them all and redraws the README figures.

>>> sorted(EXPERIMENTS)[:3]
['exchange_three', 'first_win_profit', 'hold_out']

From Python (a notebook, say)::

    from simcore.experiments import EXPERIMENTS, load_result, run_experiment
    result = run_experiment(EXPERIMENTS["speed_vs_flush"], deals=4_000, root="/tmp/exp")
    result.table            # tidy DataFrame with estimates and 95% intervals
    load_result("speed_vs_flush").table   # what python experiments/speed_vs_flush.py wrote
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
from simcore.experiments.strategy import (
    EXCHANGE_THREE,
    HOLD_OUT,
    KONG_TIMING,
    SPEED_VS_FLUSH,
    VOID_CHOICE,
)
from simcore.experiments.tables import FIRST_WIN_PROFIT, RULES_COMPARED

EXPERIMENTS: dict[str, Experiment] = {
    e.name: e
    for e in (SPEED_VS_FLUSH, EXCHANGE_THREE, VOID_CHOICE, KONG_TIMING, HOLD_OUT,
              FIRST_WIN_PROFIT, RULES_COMPARED)
}

__all__ = [
    "DEFAULT_ROOT",
    "EXPERIMENTS",
    "Arm",
    "Experiment",
    "ExperimentResult",
    "arm_datasets",
    "find_result",
    "load_result",
    "result_or_run",
    "run_experiment",
    "wide_table",
]
