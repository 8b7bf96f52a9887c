"""The record contract: one row per player per deal, and every code a record or a kernel uses.

This module is the single source of truth for the record dtype (:data:`RECORD_DTYPE`), the code
tables behind its small-integer columns (patterns, win kinds, suits, meld kinds, exchange
directions, as :class:`~enum.IntEnum` classes with the plain ``int`` constants kernels read and
the name tuples of the pandas boundary) and the wall size. It imports numpy only (pandas on the
first :func:`to_dataframe`), so the runner, the analysis and the test helpers share it without
loading numba. The engine reads the same constants (numba freezes module-level ``int`` globals
as compile-time constants), so this file is part of the engine fingerprint.

The column names and dtypes are a public contract (users' notebooks read them; the golden
hashes in ``tests/engine/golden/golden.json`` cover them).

>>> RECORD_DTYPE["net"], WIN_KIND_NAMES[WIN_DISCARD], PATTERN_NAMES[Pattern.SEVEN_PAIRS]
(dtype('int32'), 'discard', 'seven_pairs')
>>> WALL_SIZE, SUIT_LETTERS, EXCHANGE_NAMES[EXCHANGE_ACROSS]
(108, ('m', 'p', 's'), 'across')
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

WALL_SIZE = 108  # 27 tile types x 4 copies: the whole tile set is the wall
DEALT = 53  # tiles dealt before the first draw: 13 per seat and the dealer's 14th
# The variants (docs/rules section 9) keep the 27 tile-type indices: with two suits the m types
# (0..8) are simply absent, the wall holds 4 copies of types 9..26; with three players 13 * 3 + 1
# tiles are dealt. WALL_SIZE and DEALT are the sizes of the default game (and of work arrays).
TILES_PER_SUIT = WALL_SIZE // 3  # 36: 9 ranks x 4 copies
FIRST_TYPE_TWO_SUITS = 9  # the first tile type of a two-suit set (p); m is the absent suit


def wall_size(suits: int) -> int:
    """Tiles in the wall (the whole tile set) with ``suits`` suits: 108 or 72."""
    return TILES_PER_SUIT * suits


def dealt_tiles(players: int) -> int:
    """Tiles dealt before the first draw: 13 per seat and the dealer's 14th (53 or 40)."""
    return 13 * players + 1


def first_tile_type(suits: int) -> int:
    """The lowest tile type of the tile set: 0 (m) with three suits, 9 (p) with two."""
    return 0 if suits == 3 else FIRST_TYPE_TWO_SUITS


class Suit(IntEnum):
    """Suits (tile type ``t`` has suit ``t // 9``); also the ``void_suit`` column."""

    M = 0  # characters
    P = 1  # dots
    S = 2  # bamboo


class MeldKind(IntEnum):
    """Exposed meld kinds in kernels (``meld_kind``); written ``P``, ``K``, ``C`` in notation."""

    PUNG = 1
    KONG = 2  # exposed kong: direct (明杠) or added (巴杠)
    CONCEALED_KONG = 3  # concealed kong (暗杠): written among the melds, scored as concealed


class Pattern(IntEnum):
    """The winning pattern of a hand (``pattern`` column; -1 = no win)."""

    NONE = -1
    PLAIN = 0
    ALL_PUNGS = 1
    SEVEN_PAIRS = 2
    GOLDEN_HOOK = 3
    PUNGS_258 = 4


class WinKind(IntEnum):
    """How a player won (``win_kind`` column)."""

    NONE = 0
    SELF_DRAW = 1
    DISCARD = 2
    ROBBED_KONG = 3
    KONG_FLOWER = 4


class Exchange(IntEnum):
    """Direction of the exchange of three (``exchange_dir`` column)."""

    NONE = 0
    NEXT = 1
    PREVIOUS = 2
    ACROSS = 3


# Plain int constants: what kernels read (numba compiles them as constants) ...
SUIT_M, SUIT_P, SUIT_S = int(Suit.M), int(Suit.P), int(Suit.S)
MELD_PUNG = int(MeldKind.PUNG)
MELD_KONG = int(MeldKind.KONG)
MELD_CONCEALED_KONG = int(MeldKind.CONCEALED_KONG)
PAT_NONE = int(Pattern.NONE)
PAT_PLAIN = int(Pattern.PLAIN)
PAT_ALL_PUNGS = int(Pattern.ALL_PUNGS)
PAT_SEVEN_PAIRS = int(Pattern.SEVEN_PAIRS)
PAT_GOLDEN_HOOK = int(Pattern.GOLDEN_HOOK)
PAT_PUNGS_258 = int(Pattern.PUNGS_258)
WIN_NONE = int(WinKind.NONE)
WIN_SELF_DRAW = int(WinKind.SELF_DRAW)
WIN_DISCARD = int(WinKind.DISCARD)
WIN_ROBBED_KONG = int(WinKind.ROBBED_KONG)
WIN_KONG_FLOWER = int(WinKind.KONG_FLOWER)
EXCHANGE_NONE = int(Exchange.NONE)
EXCHANGE_NEXT = int(Exchange.NEXT)
EXCHANGE_PREVIOUS = int(Exchange.PREVIOUS)
EXCHANGE_ACROSS = int(Exchange.ACROSS)

# ... and the names of the codes, indexed by code (the categories at the pandas boundary, the
# words of replay logs and JSON).
SUIT_LETTERS = tuple(s.name.lower() for s in Suit)  # ("m", "p", "s")
MELD_LETTERS = {"P": MELD_PUNG, "K": MELD_KONG, "C": MELD_CONCEALED_KONG}
PATTERN_NAMES = tuple(p.name.lower() for p in Pattern if p != Pattern.NONE)
WIN_KIND_NAMES = ("",) + tuple(k.name.lower() for k in WinKind if k != WinKind.NONE)
EXCHANGE_NAMES = tuple(e.name.lower() for e in Exchange)

RECORD_DTYPE = np.dtype(
    [
        ("deal", np.int64),  # index of the deal in its run (duplicate: wall * players + rotation)
        ("wall", np.int64),  # index of the wall (== deal unless the run is a duplicate run)
        ("rotation", np.int8),  # seat rotation of the policies (0 unless duplicate)
        ("seat", np.int8),
        ("dealer", np.bool_),
        ("policy", np.int8),  # index into the run's list of policy specs (a string at the boundary)
        ("void_suit", np.int8),  # Suit: 0 = m, 1 = p, 2 = s; -1 = none (two suits)
        ("win_order", np.int8),  # 0 = no win, else 1 + number of players who won strictly earlier
        ("win_draw", np.int16),  # wall tiles drawn after dealing when the win happened, -1 if none
        ("win_kind", np.int8),  # WinKind code
        ("fed_by", np.int8),  # seat that paid as discarder (or kong maker when robbed), -1
        ("win_tile", np.int8),  # tile type of the winning tile, -1
        ("fan", np.int8),  # capped (or max_fan for heaven/earth under heaven_earth = max)
        ("fan_uncapped", np.int8),
        ("pattern", np.int8),  # Pattern code, -1 = no win
        ("flush", np.bool_),
        ("terminals", np.bool_),
        ("roots", np.int8),
        ("bonuses", np.int8),  # bit set of simcore.hand.scoring_kernels B_* flags of the win
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
        ("exchange_dir", np.int8),  # Exchange code of the deal
        ("wall_left", np.int8),  # tiles left in the wall at the end of the deal
        ("winners", np.int8),  # winners in the deal
        ("next_dealer", np.int8),  # seat of the next deal's dealer (docs/rules section 6)
        # added by issue 17 (hashed apart by the golden check)
        ("wins", np.int8),  # wins of this player in the deal (0/1 but under blood river)
        # The starting hand (issue 17): the seat's 13 tiles, the dealer's 14. Shanten is
        # simcore.hand.shanten's (any shape, no melds: tiles to add for a complete shape, minus
        # one; a 14-tile complete hand is -1), ignoring the three-suit rule.
        ("shanten_dealt", np.int8),  # of the hand as dealt, before the exchange of three
        ("shanten_exchanged", np.int8),  # after the exchange (== shanten_dealt without one)
        ("shanten_void", np.int8),  # after the void: its tiles count for nothing (no void: ==
        #                             shanten_exchanged)
        ("longest_suit", np.int8),  # tiles of the longest non-void suit, after exchange and void
        ("pairs", np.int8),  # tile types outside the void suit held 2+ times (a triplet or four
        #                      copies counts once), after exchange and void
    ]
)

# One description per record column, in the dtype's order: the data reference of the
# documentation site is generated from them (tests/unit/test_records.py checks both ways).
RECORD_DESCRIPTIONS: dict[str, str] = {
    "deal": "index of the deal in its run; in a duplicate run `players * wall + rotation`",
    "wall": "index of the wall (the shuffle); equal to `deal` unless the run is a duplicate run",
    "rotation": "seat rotation of the policies over the same wall (0 unless a duplicate run)",
    "seat": "the player's seat, 0 to `players - 1` in turn order",
    "dealer": "the player is the dealer (庄家) of the deal (the seat that starts with 14 tiles)",
    "policy": "the seat's policy: an index into the run's policy specs on disk, the spec "
    "string (a categorical) in pandas",
    "void_suit": "the suit declared void (定缺): a `Suit` code; -1 when there is no void "
    "(two suits)",
    "win_order": "0 = did not win; else 1 + the number of players who won strictly earlier "
    "(players winning on one discard share it)",
    "win_draw": "wall tiles drawn after dealing when the player won (replacement draws "
    "included); -1 if it did not win",
    "win_kind": "how the player won: a `WinKind` code (0 = no win)",
    "fed_by": "the seat that paid the win alone: the discarder, the maker of a robbed kong, or "
    "the kong tile's discarder for a kong flower under `direct_kong_flower = discard`; -1 for "
    "a self-drawn win or no win",
    "win_tile": "tile type (0..26) of the winning tile; -1 if the player did not win",
    "fan": "fan of the win after the cap (`max_fan` for a heavenly or earthly win under "
    "`heaven_earth = max`); 0 if no win",
    "fan_uncapped": "fan of the win before the cap",
    "pattern": "the winning pattern: a `Pattern` code, -1 = no win",
    "flush": "the winning hand is a full flush (清一色)",
    "terminals": "the winning hand has the terminals modifier (带幺)",
    "roots": "roots (根) of the winning hand: tile types held four times, hand and melds",
    "bonuses": "situational bonuses of the win, a bit set of the bonus flags (kong flower, "
    "kong discard, robbed kong, last tile, heavenly/earthly)",
    "kongs": "kongs the player made, every kind (a robbed attempt is not a kong)",
    "kongs_direct": "direct kongs (直杠) made: claimed discards with three in hand",
    "kongs_added": "added kongs (巴杠) made on an exposed pung",
    "kongs_concealed": "concealed kongs (暗杠) made",
    "pungs": "pungs (碰) claimed (a pung later added to a kong still counts)",
    "draws": "tiles the player drew from the wall, replacement draws included",
    "deal_ins": "winners on this player's discards or robbed kongs (点炮; several on one "
    "discard count each)",
    "passed_wins": "wins the player could have declared and declined (过手胡 applies after one)",
    "ready_end": "the player was ready (听牌) at a drawn end; false otherwise and after a win",
    "pig": "the player was a flower pig (花猪) at a drawn end",
    "net": "units won (+) or paid (-) in the deal: the sum of the five `net_*` parts",
    "net_win": "units from wins: received for its own wins, paid for the others'",
    "net_kong": "units from kong money (刮风下雨), including kong money handed over with a "
    "win (呼叫转移)",
    "net_pig": "units from the flower-pig check (查花猪) at a drawn end",
    "net_ready": "units from the ready check (查大叫) at a drawn end",
    "net_refund": "units from kong-money refunds (退税) at a drawn end",
    "exchange_dir": "direction of the deal's exchange of three (换三张): an `Exchange` code, "
    "0 = no exchange",
    "wall_left": "tiles left in the wall when the deal ended (0 at a drawn end)",
    "winners": "players who won in the deal",
    "next_dealer": "seat of the next deal's dealer: the first winner, the discarder if the "
    "first win had several winners, the same dealer if nobody won",
    "wins": "wins of this player in the deal: 0 or 1, more only under blood river (血流成河)",
    "shanten_dealt": "shanten (向听) of the starting hand as dealt, before the exchange of "
    "three (any shape, no melds; a complete 14-tile hand is -1)",
    "shanten_exchanged": "shanten after the exchange of three (equal to `shanten_dealt` without "
    "one)",
    "shanten_void": "shanten after the void declaration, the void suit's tiles counting for "
    "nothing (equal to `shanten_exchanged` without a void)",
    "longest_suit": "tiles of the longest non-void suit in the starting hand, after exchange "
    "and void",
    "pairs": "tile types outside the void suit held two or more times in the starting hand "
    "(a triplet or four copies count once), after exchange and void",
}

# The starting-hand columns, in the record's order.
START_COLUMNS = ("shanten_dealt", "shanten_exchanged", "shanten_void", "longest_suit", "pairs")

# The per-win table (issue 17): one row per win, every variant; a player's record describes its
# first win (win_number 1). Payments are the win's own (its net_win part): a kong's money handed
# over with it (kong_discard_transfer) is in the records' net_kong, not here.
WIN_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("wall", np.int64),
        ("rotation", np.int8),
        ("seat", np.int8),  # the winner
        ("policy", np.int8),  # the winner's policy (index into the run's specs)
        ("win_number", np.int8),  # 1 = the seat's first win of the deal, 2 its second, ...
        ("order", np.int16),  # 1 + wins strictly earlier in the deal (wins on one tile share it)
        ("draw", np.int16),  # wall tiles drawn after dealing when it happened (like win_draw)
        ("kind", np.int8),  # WinKind code
        ("fed_by", np.int8),  # discarder (or robbed kong's maker) who paid alone, -1
        ("tile", np.int8),  # the winning tile type
        ("fan", np.int8),
        ("fan_uncapped", np.int8),
        ("pattern", np.int8),  # Pattern code
        ("flush", np.bool_),
        ("terminals", np.bool_),
        ("roots", np.int8),
        ("bonuses", np.int8),  # bit set of simcore.hand.scoring_kernels B_* flags
        ("units", np.int32),  # what one payer pays for the hand (2^fan, plus any self-draw unit)
        ("paid_by_0", np.int32),  # units seat 0 paid for this win (0 if it did not pay)
        ("paid_by_1", np.int32),
        ("paid_by_2", np.int32),
        ("paid_by_3", np.int32),
    ]
)
PAID_BY = ("paid_by_0", "paid_by_1", "paid_by_2", "paid_by_3")

# One description per win-table column, in the dtype's order (see RECORD_DESCRIPTIONS).
WIN_DESCRIPTIONS: dict[str, str] = {
    "deal": "index of the deal in its run (as in the records)",
    "wall": "index of the wall (as in the records)",
    "rotation": "seat rotation of the policies (as in the records)",
    "seat": "the winner's seat",
    "policy": "the winner's policy: an index into the run's policy specs, the spec string in "
    "pandas",
    "win_number": "1 = the seat's first win of the deal, 2 its second (blood river only), ...",
    "order": "1 + wins strictly earlier in the deal (wins on one discard share it)",
    "draw": "wall tiles drawn after dealing when the win happened (like `win_draw`)",
    "kind": "how the seat won: a `WinKind` code (the names of `win_kind` in pandas)",
    "fed_by": "the discarder (or the robbed kong's maker) who paid alone; -1 for a self-drawn "
    "win",
    "tile": "tile type (0..26) of the winning tile",
    "fan": "fan of the win after the cap",
    "fan_uncapped": "fan of the win before the cap",
    "pattern": "the winning pattern: a `Pattern` code",
    "flush": "the winning hand is a full flush (清一色)",
    "terminals": "the winning hand has the terminals modifier (带幺)",
    "roots": "roots (根) of the winning hand",
    "bonuses": "situational bonuses of the win, a bit set of the bonus flags",
    "units": "what one payer pays for the hand: 2^fan, plus the self-draw unit when it applies",
    "paid_by_0": "units seat 0 paid for this win (0 if it did not pay)",
    "paid_by_1": "units seat 1 paid for this win",
    "paid_by_2": "units seat 2 paid for this win",
    "paid_by_3": "units seat 3 paid for this win (always 0 with three players)",
}


NET_PARTS = ("net_win", "net_kong", "net_pig", "net_ready", "net_refund")  # sum to ``net``


def empty_records(n_deals: int, players: int = 4) -> np.ndarray:
    """A zeroed record array for ``n_deals`` deals (``players`` rows each)."""
    if n_deals < 0:
        raise ValueError(f"number of deals must be >= 0, got {n_deals}")
    return np.zeros(players * n_deals, dtype=RECORD_DTYPE)


def empty_wins(n_rows: int) -> np.ndarray:
    """A zeroed win table of ``n_rows`` rows."""
    if n_rows < 0:
        raise ValueError(f"number of win rows must be >= 0, got {n_rows}")
    return np.zeros(n_rows, dtype=WIN_DTYPE)


def _categorical(codes: np.ndarray, names: Sequence[str], offset: int = 0) -> pd.Categorical:
    import pandas as pd

    return pd.Categorical.from_codes(codes.astype(np.int64) + offset, categories=list(names))


def _frame(rows: np.ndarray, policies: Sequence[str]) -> pd.DataFrame:
    """``rows`` (records or wins) as a DataFrame whose ``policy`` codes name ``policies``."""
    import pandas as pd  # here, not at the top: replay and the kernels never need pandas

    df = pd.DataFrame(rows)
    names = list(policies)
    if len(set(names)) != len(names):
        raise ValueError(f"policy names must be distinct, got {names}")
    df["policy"] = _categorical(rows["policy"], names)
    return df


def _with_preset(df: pd.DataFrame, preset: str | None) -> pd.DataFrame:
    """``df`` with a one-category ``preset`` column when ``preset`` is given."""
    if preset is not None:
        df["preset"] = _categorical(np.zeros(len(df), np.int64), [preset])
    return df


def to_dataframe(
    records: np.ndarray, policies: Sequence[str], preset: str | None = None
) -> pd.DataFrame:
    """Turn a record array into the public DataFrame (codes become readable categoricals).

    ``policies`` are the distinct policy spec strings indexed by the ``policy`` column;
    ``preset`` (a rules preset name) is added as a column when given, so runs can be joined.
    """
    df = _frame(records, policies)
    df["void_suit"] = _categorical(records["void_suit"], SUIT_LETTERS)
    df["win_kind"] = _categorical(records["win_kind"], WIN_KIND_NAMES)
    df["pattern"] = _categorical(records["pattern"], ("",) + PATTERN_NAMES, offset=1)
    df["exchange_dir"] = _categorical(records["exchange_dir"], EXCHANGE_NAMES)
    return _with_preset(df, preset)


def wins_to_dataframe(
    wins: np.ndarray, policies: Sequence[str], preset: str | None = None
) -> pd.DataFrame:
    """The win table (``WIN_DTYPE``) as a DataFrame, with the categoricals of
    :func:`to_dataframe` (``policy``, ``kind`` as ``win_kind``, ``pattern``)."""
    df = _frame(wins, policies)
    df["kind"] = _categorical(wins["kind"], WIN_KIND_NAMES)
    df["pattern"] = _categorical(wins["pattern"], ("",) + PATTERN_NAMES, offset=1)
    return _with_preset(df, preset)
