"""Synthetic record arrays with plausible values, for analysis tests and benchmarks.

Run directories are written through :mod:`simcore.runner.store` (the one writer of the layout),
so a synthetic run is read exactly like a simulated one.

Not a simulation: winners, fans and payments are drawn at random, but the invariants the
analysis relies on hold (four rows per deal with seats 0..3, one dealer, win orders 1..winners,
zero-sum nets that equal the sum of their parts, pigs and ready hands only at drawn ends, duplicate
runs rotating the seat policies over the same wall).

>>> rec = synthetic_records(100, np.random.default_rng(0))
>>> len(rec), int(rec["net"].sum()), bool((rec["net"] == rec["net_win"] + rec["net_kong"]
...     + rec["net_pig"] + rec["net_ready"] + rec["net_refund"]).all())
(400, 0, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.records import (
    NET_PARTS,
    PATTERN_NAMES,
    RECORD_DTYPE,
    WIN_KIND_NAMES,
    empty_records,
    to_dataframe,
)
from simcore.runner.store import encode_records, run_meta, write_meta, write_part

WINNER_PROBS = (0.04, 0.08, 0.28, 0.60)  # P(0, 1, 2, 3 winners in a deal)


def synthetic_records(
    n_deals: int,
    rng: np.random.Generator,
    n_policies: int = 1,
    duplicate: bool = False,
    start: int = 0,
) -> np.ndarray:
    """``n_deals`` deals (numbered from ``start``) of random but consistent records.

    Seat ``s`` plays policy ``s % n_policies`` (rotated by ``rotation`` in duplicate runs, where
    ``deal = 4 * wall + rotation`` and ``start`` and ``n_deals`` must be multiples of 4).
    """
    if duplicate and (n_deals % 4 or start % 4):
        raise ValueError(f"duplicate deals come in walls of 4, got {n_deals} from {start}")
    rec = empty_records(n_deals)
    d = n_deals
    deal = np.arange(start, start + d, dtype=np.int64)
    wall = deal // 4 if duplicate else deal
    rotation = (deal % 4) if duplicate else np.zeros(d, dtype=np.int64)
    seat = np.tile(np.arange(4), (d, 1))
    # duplicate: the same wall is dealt from the same dealer in every rotation
    dealer_seat = rng.integers(0, 4, d // 4).repeat(4) if duplicate else rng.integers(0, 4, d)
    policy = (seat + rotation[:, None]) % n_policies

    winners = rng.choice(4, size=d, p=WINNER_PROBS)
    drawn = winners < 3
    # random winner order: the first `winners` seats of a random permutation win, in order
    perm = np.argsort(rng.random((d, 4)), axis=1)
    rank = np.empty_like(perm)
    np.put_along_axis(rank, perm, np.arange(4)[None, :].repeat(d, 0), axis=1)
    is_winner = rank < winners[:, None]
    win_order = np.where(is_winner, rank + 1, 0)
    draws = np.sort(rng.integers(0, 56, (d, 4)), axis=1)
    win_draw = np.where(is_winner, np.take_along_axis(draws, rank, axis=1), -1)

    fan = np.where(is_winner, np.minimum(rng.geometric(0.55, (d, 4)) - 1, 6), 0)
    pattern = np.where(is_winner, rng.choice(5, (d, 4), p=(0.6, 0.2, 0.12, 0.05, 0.03)), -1)
    flush = is_winner & (rng.random((d, 4)) < 0.15)
    terminals = is_winner & (rng.random((d, 4)) < 0.05)
    roots = np.where(is_winner, rng.choice(3, (d, 4), p=(0.7, 0.25, 0.05)), 0)
    win_kind = np.where(is_winner, rng.choice([1, 2, 3, 4], (d, 4), p=(0.4, 0.55, 0.02, 0.03)), 0)

    units = np.where(is_winner, 2 ** fan, 0)
    net_win = np.zeros((d, 4), dtype=np.int64)
    deal_ins = np.zeros((d, 4), dtype=np.int64)
    fed_by = np.full((d, 4), -1)
    rows = np.arange(d)
    for s in range(4):  # each winner is paid by one other random seat
        payer = (s + rng.integers(1, 4, d)) % 4
        paid = units[:, s]
        net_win[:, s] += paid
        np.subtract.at(net_win, (rows, payer), paid)
        discard = is_winner[:, s] & (win_kind[:, s] != 1) & (win_kind[:, s] != 4)
        np.add.at(deal_ins, (rows, payer), discard.astype(np.int64))
        fed_by[:, s] = np.where(discard, payer, -1)

    kongs_direct = rng.poisson(0.12, (d, 4))
    kongs_added = rng.poisson(0.08, (d, 4))
    kongs_concealed = rng.poisson(0.05, (d, 4))
    kong_units = 2 * kongs_direct + 3 * kongs_added + 6 * kongs_concealed
    net_kong = 4 * kong_units - kong_units.sum(axis=1, keepdims=True)  # receive from the others

    in_play = drawn[:, None] & ~is_winner
    pig = in_play & (rng.random((d, 4)) < 0.08)
    ready_end = in_play & ~pig & (rng.random((d, 4)) < 0.55)
    payee = in_play & ~pig  # each pig pays 8 units to each non-pig player in play
    net_pig = np.where(pig, -8 * payee.sum(axis=1, keepdims=True), 0)
    net_pig += np.where(payee, 8 * pig.sum(axis=1, keepdims=True), 0)
    # not ready pays each ready player 2 units (zero-sum inside the in-play players)
    not_ready = in_play & ~ready_end
    n_ready = ready_end.sum(axis=1, keepdims=True)
    n_not = not_ready.sum(axis=1, keepdims=True)
    net_ready = np.where(ready_end, 2 * n_not, 0) - np.where(not_ready, 2 * n_ready, 0)
    # refund: a non-ready player in play returns its positive kong money to the others evenly
    refund = np.where(not_ready, np.maximum(net_kong, 0) // 3 * 3, 0)
    net_refund = -refund + (refund.sum(axis=1, keepdims=True) - refund) // 3
    net = net_win + net_kong + net_pig + net_ready + net_refund

    flat = {
        "deal": np.repeat(deal, 4), "wall": np.repeat(wall, 4),
        "rotation": np.repeat(rotation, 4), "seat": seat, "dealer": seat == dealer_seat[:, None],
        "policy": policy, "void_suit": rng.integers(0, 3, (d, 4)), "win_order": win_order,
        "win_draw": win_draw, "win_kind": win_kind, "fed_by": fed_by,
        "win_tile": np.where(is_winner, rng.integers(0, 27, (d, 4)), -1), "fan": fan,
        "fan_uncapped": fan, "pattern": pattern, "flush": flush, "terminals": terminals,
        "roots": roots, "kongs": kongs_direct + kongs_added + kongs_concealed,
        "kongs_direct": kongs_direct, "kongs_added": kongs_added,
        "kongs_concealed": kongs_concealed, "pungs": rng.poisson(1.0, (d, 4)),
        "draws": rng.integers(5, 20, (d, 4)), "deal_ins": deal_ins, "ready_end": ready_end,
        "pig": pig, "net": net, "net_win": net_win, "net_kong": net_kong, "net_pig": net_pig,
        "net_ready": net_ready, "net_refund": net_refund,
        "exchange_dir": np.repeat(rng.integers(0, 4, d), 4),
        "wall_left": np.repeat(np.where(drawn, 0, rng.integers(1, 40, d)), 4),
        "winners": np.repeat(winners, 4), "next_dealer": np.repeat(dealer_seat, 4),
        "wins": is_winner.astype(np.int8),  # blood battle: a winner wins once
    }
    for name, values in flat.items():
        rec[name] = np.asarray(values).reshape(-1)
    return rec


def write_synthetic_run(
    path: str | os.PathLike[str],
    n_deals: int,
    chunk_size: int = 50_000,
    n_policies: int = 1,
    duplicate: bool = False,
    seed: int = 0,
    preset: str = "classic",
) -> Path:
    """Write a run directory of synthetic records in the batch runner's layout.

    Parts ``part-NNNNNN.parquet`` (zstd, columns of ``to_dataframe`` with ``preset``) of
    ``chunk_size`` deals, and the metadata file (``format: simcore-run``, ``synthetic: true``),
    all through :mod:`simcore.runner.store`.

    >>> import tempfile
    >>> from simcore.runner import load
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     df, meta = load(write_synthetic_run(Path(tmp) / "run", 30, chunk_size=8))
    >>> len(df), meta["deals"], meta["synthetic"]
    (120, 30, True)
    """
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    policies = [f"policy{i}" for i in range(n_policies)]
    rng = np.random.default_rng(seed)
    n_chunks = -(-n_deals // chunk_size)
    for index in range(n_chunks):
        start = index * chunk_size
        count = min(chunk_size, n_deals - start)
        records = synthetic_records(count, rng, n_policies, duplicate, start=start)
        write_part(out, index, encode_records(records, policies, preset))
    write_meta(out, run_meta(
        rules={"preset": preset}, rules_id=preset, preset=preset, policies=policies,
        seat_policies=[policies[s % n_policies] for s in range(4)], seed=seed, deals=n_deals,
        chunk_size=chunk_size, duplicate=duplicate, complete=True, synthetic=True,
    ))
    return out


def hand_records(
    deals: Sequence[Mapping[str, Any]],
    policies: Sequence[str] = ("p",),
    preset: str | None = None,
) -> pd.DataFrame:
    """A records DataFrame written by hand, for tests whose answers are known.

    Each deal is a mapping with ``players`` (four mappings of per-player fields, seat order)
    and optional deal fields ``deal`` (default: its index), ``wall`` (default: ``deal``),
    ``rotation``, ``dealer`` (the dealer's seat, default 0), ``winners`` (default: players with
    ``win_order > 0``), ``wall_left`` (default: 0 with fewer than 3 winners, else 10),
    ``exchange_dir``. Player fields are record columns; ``policy``, ``pattern`` and ``win_kind``
    may be names; ``net`` defaults to the sum of the ``net_*`` parts.

    >>> df = hand_records([{"players": [{"win_order": 1, "net_win": 3}, {"net_win": -3}, {}, {}]}])
    >>> df[["seat", "dealer", "win_order", "net", "winners", "wall_left"]].values.tolist()
    [[0, True, 1, 3, 1, 0], [1, False, 0, -3, 1, 0], [2, False, 0, 0, 1, 0], [3, False, 0, 0, 1, 0]]
    """
    rec = empty_records(len(deals))
    deal_fields = {"deal", "wall", "rotation", "dealer", "winners", "wall_left", "exchange_dir",
                   "players"}
    for i, deal in enumerate(deals):
        unknown = set(deal) - deal_fields
        if unknown:
            raise ValueError(f"unknown deal fields {sorted(unknown)}")
        players = deal["players"]
        if len(players) != 4:
            raise ValueError(f"a deal needs 4 players, got {len(players)}")
        number = deal.get("deal", i)
        winners = sum(1 for p in players if p.get("win_order", 0) > 0)
        winners = deal.get("winners", winners)
        for seat, player in enumerate(players):
            row = rec[4 * i + seat]
            row["deal"], row["wall"] = number, deal.get("wall", number)
            row["rotation"], row["seat"] = deal.get("rotation", 0), seat
            row["dealer"] = seat == deal.get("dealer", 0)
            row["winners"] = winners
            row["wall_left"] = deal.get("wall_left", 0 if winners < 3 else 10)
            row["exchange_dir"] = deal.get("exchange_dir", 0)
            row["win_draw"], row["fed_by"], row["win_tile"], row["pattern"] = -1, -1, -1, -1
            for name, value in player.items():
                if name == "policy":
                    value = list(policies).index(value)
                elif name == "pattern":
                    value = PATTERN_NAMES.index(value)
                elif name == "win_kind":
                    value = WIN_KIND_NAMES.index(value)
                elif name not in (RECORD_DTYPE.names or ()):
                    raise ValueError(f"unknown record column {name!r}")
                row[name] = value
            if player.get("win_order", 0) > 0 and "pattern" not in player:
                row["pattern"] = 0  # a win is plain unless said otherwise
            if player.get("win_order", 0) > 0 and "wins" not in player:
                row["wins"] = 1
            if "net" not in player:
                row["net"] = sum(int(row[part]) for part in NET_PARTS)
    return to_dataframe(rec, policies, preset)
