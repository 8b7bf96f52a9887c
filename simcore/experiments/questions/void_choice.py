"""Which suit to void? ``speed:void=weakest`` against ``fewest``, against each field."""

from __future__ import annotations

from collections.abc import Sequence

from simcore.experiments.base import Experiment
from simcore.experiments.fields import DEFAULT_FIELDS
from simcore.experiments.strategy import (
    TWO_PRESETS,
    simple_experiment,
)

PLACE = 30  # its place among the questions (the results page, run_all.py)

def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    return simple_experiment(
        "void_choice",
        "Which suit to void? void=fewest (speed's default: the suit with the fewest tiles) "
        "against void=weakest (the suit whose removal leaves the lowest shanten), under classic "
        "and app.",
        [(p, "speed:void=weakest", "void-weakest", {"void": "weakest"}) for p in TWO_PRESETS],
        fields)
