"""Per-player-per-deal records: a numpy structured array inside, a pandas DataFrame at the boundary.

Kernels write small integer codes; :func:`to_dataframe` turns codes into readable categoricals.
The column names listed in the engine issue are a public contract (users' notebooks read them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

RECORD_DTYPE = np.dtype(
    [
        ("deal", np.int64),  # index of the deal in its run (duplicate runs: wall * 4 + rotation)
        ("wall", np.int64),  # index of the wall (== deal unless the run is a duplicate run)
        ("rotation", np.int8),  # seat rotation of the policies (0 unless duplicate)
        ("seat", np.int8),
        ("dealer", np.bool_),
        ("policy", np.int8),  # index into the run's list of policy specs (a string at the boundary)
        ("void_suit", np.int8),  # 0 = m, 1 = p, 2 = s
        ("win_order", np.int8),  # 0 = no win, else 1 + number of players who won strictly earlier
        ("win_draw", np.int16),  # wall tiles drawn after dealing when the win happened, -1 if none
        ("win_kind", np.int8),  # WIN_* code
        ("fed_by", np.int8),  # seat that paid as discarder (or kong maker when robbed), -1
        ("win_tile", np.int8),  # tile type of the winning tile, -1
        ("fan", np.int8),  # capped (or max_fan for heaven/earth under heaven_earth = max)
        ("fan_uncapped", np.int8),
        ("pattern", np.int8),  # PAT_* code, -1 = no win
        ("flush", np.bool_),
        ("terminals", np.bool_),
        ("roots", np.int8),
        ("bonuses", np.int8),  # bit set of simcore._scoring B_* flags of the win
        ("kongs", np.int8),  # kongs made (all kinds, robbed attempts excluded)
        ("kongs_direct", np.int8),
        ("kongs_added", np.int8),
        ("kongs_concealed", np.int8),
        ("pungs", np.int8),  # pungs claimed (a pung later added to a kong still counts)
        ("draws", np.int16),  # tiles this player drew from the wall (replacements included)
        ("deal_ins", np.int8),  # winners on this player's discards or robbed kongs
        ("passed_wins", np.int8),  # wins this player declined
        ("ready_end", np.bool_),  # ready at a drawn end (in play only)
        ("pig", np.bool_),  # flower pig at a drawn end
        ("net", np.int32),  # units won (+) or paid (-) in this deal
        ("net_win", np.int32),
        ("net_kong", np.int32),
        ("net_pig", np.int32),
        ("net_ready", np.int32),
        ("net_refund", np.int32),
        ("exchange_dir", np.int8),  # EXCHANGE_* code of the deal
        ("wall_left", np.int8),  # tiles left in the wall at the end of the deal
        ("winners", np.int8),  # winners in the deal
        ("next_dealer", np.int8),  # seat of the next deal's dealer (RULES.md section 6)
    ]
)

WIN_NONE, WIN_SELF_DRAW, WIN_DISCARD, WIN_ROBBED_KONG, WIN_KONG_FLOWER = 0, 1, 2, 3, 4
WIN_KIND_NAMES = ("", "self_draw", "discard", "robbed_kong", "kong_flower")
PATTERN_NAMES = ("plain", "all_pungs", "seven_pairs", "golden_hook", "pungs_258")
EXCHANGE_NONE, EXCHANGE_NEXT, EXCHANGE_PREVIOUS, EXCHANGE_ACROSS = 0, 1, 2, 3
EXCHANGE_NAMES = ("none", "next", "previous", "across")
SUIT_LETTERS = ("m", "p", "s")

NET_PARTS = ("net_win", "net_kong", "net_pig", "net_ready", "net_refund")


def empty_records(n_deals: int) -> np.ndarray:
    """A zeroed record array for ``n_deals`` deals (four rows each)."""
    if n_deals < 0:
        raise ValueError(f"number of deals must be >= 0, got {n_deals}")
    return np.zeros(4 * n_deals, dtype=RECORD_DTYPE)


def _categorical(codes: np.ndarray, names: Sequence[str], offset: int = 0) -> pd.Categorical:
    return pd.Categorical.from_codes(codes.astype(np.int64) + offset, categories=list(names))


def to_dataframe(
    records: np.ndarray, policies: Sequence[str], preset: str | None = None
) -> pd.DataFrame:
    """Turn a record array into the public DataFrame (codes become readable categoricals).

    ``policies`` are the distinct policy spec strings indexed by the ``policy`` column;
    ``preset`` (a rules preset name) is added as a column when given, so runs can be joined.
    """
    df = pd.DataFrame(records)
    names = list(policies)
    if len(set(names)) != len(names):
        raise ValueError(f"policy names must be distinct, got {names}")
    df["policy"] = pd.Categorical.from_codes(records["policy"].astype(np.int64), categories=names)
    df["void_suit"] = _categorical(records["void_suit"], SUIT_LETTERS)
    df["win_kind"] = _categorical(records["win_kind"], WIN_KIND_NAMES)
    df["pattern"] = _categorical(records["pattern"], ("",) + PATTERN_NAMES, offset=1)
    df["exchange_dir"] = _categorical(records["exchange_dir"], EXCHANGE_NAMES)
    if preset is not None:
        df["preset"] = pd.Categorical.from_codes(np.zeros(len(df), np.int64), categories=[preset])
    return df
