"""Kong now or pung first? ``speed:kong=...`` against each field."""

from __future__ import annotations

from collections.abc import Sequence

from simcore.experiments.base import Experiment
from simcore.experiments.fields import DEFAULT_FIELDS
from simcore.experiments.strategy import (
    TWO_PRESETS,
    simple_experiment,
)

PLACE = 40  # its place among the questions (the results page, run_all.py)
KONG_METRICS = ("net", "win", "kongs", "net_kong", "net_win", "fan", "deal_in")

KONG_CHOICES = ("always", "never", "pung_then_add")


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    return simple_experiment(
        "kong_timing",
        "Kong now or pung first? kong=keep_shape (speed's default: kong when it does not hurt "
        "the hand) against always, never and pung_then_add, under classic and app.",
        [(p, f"speed:kong={c}", f"kong-{c}", {"kong": c}) for p in TWO_PRESETS
         for c in KONG_CHOICES], fields, KONG_METRICS)
