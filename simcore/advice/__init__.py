"""Advice for any position: what one seat knows at one decision, and its hidden state.

:class:`Position` (:mod:`simcore.advice.position`) is the seat's view of the table, read from a
JSON or a typed text form and validated against the rules; :mod:`simcore.advice.sampler` draws
the opponents' concealed tiles and the wall order exactly uniformly among the arrangements
consistent with that view. Plain Python and numpy: importing this package compiles nothing.
"""

from __future__ import annotations

from simcore.advice.position import (
    FORMAT,
    Action,
    Decision,
    Declined,
    Discard,
    Exchange,
    Position,
    SeatView,
    Win,
)
from simcore.advice.sampler import (
    HiddenConstraints,
    HiddenSampler,
    HiddenSamples,
    enumerate_hidden,
    hidden_constraints,
    sample_hidden,
)

__all__ = [
    "FORMAT", "Action", "Decision", "Declined", "Discard", "Exchange", "HiddenConstraints",
    "HiddenSampler", "HiddenSamples", "Position", "SeatView", "Win", "enumerate_hidden",
    "hidden_constraints", "sample_hidden",
]
