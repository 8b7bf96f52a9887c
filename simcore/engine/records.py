"""Moved: the record dtype and its codes live in :mod:`simcore.records` (numba-free).

This name stays so that code written against ``simcore.engine.records`` keeps working; new
code imports :mod:`simcore.records`.
"""

from __future__ import annotations

from simcore.records import (  # noqa: F401 (re-exports)
    EXCHANGE_ACROSS,
    EXCHANGE_NAMES,
    EXCHANGE_NEXT,
    EXCHANGE_NONE,
    EXCHANGE_PREVIOUS,
    NET_PARTS,
    PATTERN_NAMES,
    RECORD_DTYPE,
    SUIT_LETTERS,
    WIN_DISCARD,
    WIN_KIND_NAMES,
    WIN_KONG_FLOWER,
    WIN_NONE,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAW,
    empty_records,
    to_dataframe,
)
