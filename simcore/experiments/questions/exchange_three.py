"""Which three tiles to pass in the exchange? ``speed:exchange=...`` against each field."""

from __future__ import annotations

from collections.abc import Sequence

from simcore.experiments.base import Experiment
from simcore.experiments.fields import DEFAULT_FIELDS
from simcore.experiments.strategy import (
    simple_experiment,
)

PLACE = 20  # its place among the questions (the results page, run_all.py)

EXCHANGE_CHOICES = ("random", "keep_long")


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    return simple_experiment(
        "exchange_three",
        "Which three tiles to pass in the exchange? exchange=shortest (speed's default: the "
        "three least useful tiles of the shortest suit) against random and keep_long, under app "
        "(the preset with the exchange).",
        [("app", f"speed:exchange={c}", f"exchange-{c}", {"exchange": c})
         for c in EXCHANGE_CHOICES], fields)
