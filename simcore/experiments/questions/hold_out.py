"""Is it worth declining a cheap win? ``speed:min_fan=F[,until=U]`` against each field."""

from __future__ import annotations

from collections.abc import Sequence

from simcore.experiments.base import Experiment
from simcore.experiments.fields import DEFAULT_FIELDS
from simcore.experiments.strategy import (
    TWO_PRESETS,
    simple_experiment,
)

PLACE = 50  # its place among the questions (the results page, run_all.py)

HOLD_OUT_VARIANTS = ("min_fan=1", "min_fan=2", "min_fan=1,until=16", "min_fan=2,until=16")


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    return simple_experiment(
        "hold_out",
        "Is it worth declining a cheap win? min_fan=F (decline wins of fewer than F fan, with "
        "until=U only while more than U tiles remain) against always winning, under classic "
        "and app.",
        [(p, f"speed:{v}", "hold-" + v.replace("=", "").replace(",", "-"), {"hold_out": v})
         for p in TWO_PRESETS for v in HOLD_OUT_VARIANTS], fields)
