"""Seat and dealer effects, and the value of buying a horse (买马, seed 001).

A bystander "buys a horse": a random tile is taken from the wall and its rank, counted from the
dealer in playing order (rank 1, 5, 9: the dealer; 2, 6: the next seat; 3, 7: the seat across;
4, 8: the previous seat, i.e. ``seat = (dealer + rank - 1) mod 4``), picks the seat whose result
the horse shares. With a uniformly random rank the seat *relative to the dealer* is picked with
probabilities 3/9, 2/9, 2/9, 2/9 (:data:`HORSE_PROBABILITIES`), so the horse's expected value is
``sum_r P(r) * E[net of the seat r places after the dealer]``. It is estimated per deal as
``X = sum_r P(r) * net_r`` (mean and z interval of ``X`` over deals, which accounts for the
correlation of the four seats' nets); with zero-sum nets ``X = net_dealer / 9``. At a
three-player table (docs/rules section 9) ``seat = (dealer + rank - 1) mod 3``: the dealer, the
next and the previous seat with 3/9 each (so the horse's value is 0 with zero-sum nets). The model
assumes the horse tile's rank is independent of the play (it is drawn from the tail of the wall
and not put back in the real game, which the simulation does not model).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import Key, SumTable, column_key, deal_keys, group_sums, moments
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import (
    ESTIMATE_COLUMNS,
    Pipeline,
    concat_rows,
    mean_rows,
    rate_rows,
    run_one,
)
from simcore.analysis.stats import DEFAULT_LEVEL

HORSE_PROBABILITIES = np.array([3, 2, 2, 2], dtype=np.float64) / 9.0


def horse_probabilities(players: int) -> np.ndarray:
    """P(the horse picks the seat ``k`` places after the dealer), ``k`` = 0..players-1: the
    ranks 1..9 counted round the table.

    >>> horse_probabilities(4).tolist() == HORSE_PROBABILITIES.tolist()
    True
    >>> (horse_probabilities(3) * 9).tolist()
    [3.0, 3.0, 3.0]
    """
    return np.bincount(np.arange(9) % players, minlength=players) / 9.0


def relative_seats(players: int) -> tuple[str, ...]:
    """The names of the seats counted from the dealer (three players: no seat across)."""
    return RELATIVE_SEATS if players == 4 else ("dealer", "next", "previous")
RELATIVE_SEATS = ("dealer", "next", "across", "previous")


def seat_from_dealer(batch: Batch) -> np.ndarray:
    """Each row's seat counted from its deal's dealer: 0 dealer, 1 next, 2 across, 3 previous.

    ``batch`` must be in deal blocks; a deal without exactly one dealer is an error.
    """
    players = batch.players
    dealer = batch["dealer"].reshape(-1, players)
    per_deal = dealer.sum(axis=1)
    if np.any(per_deal != 1):
        bad = int(np.flatnonzero(per_deal != 1)[0])
        raise ValueError(
            f"deal {int(batch['deal'][players * bad])} has {int(per_deal[bad])} dealers, "
            "expected 1"
        )
    seat = batch["seat"].astype(np.int64).reshape(-1, players)
    dealer_seat = seat[dealer]
    return ((seat - dealer_seat[:, None]) % players).ravel()


class SeatEffects(Pipeline):
    """Sums for :func:`seat_effects`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.columns = (*self.by, "dealer", "net", "win_order", "deal_ins", "pig")
        self.table = SumTable([*self.by, "split", "level"])

    def update(self, batch: Batch) -> None:
        keys = [column_key(batch, c) for c in self.by]
        values = {
            **moments("net", batch["net"]), **moments("deal_ins", batch["deal_ins"]),
            "win": batch["win_order"] > 0,
            "deal_in": batch["deal_ins"] > 0, "pig": batch["pig"],
        }
        relative = seat_from_dealer(batch)
        splits = {
            "seat": column_key(batch, "seat"),
            "dealer": column_key(batch, "dealer"),
            "seat_from_dealer": Key("", relative, list(relative_seats(batch.players))),
        }
        for split, key in splits.items():
            level = Key("level", key.codes, [str(v) for v in key.labels])
            frame = group_sums([*keys, level], values)
            frame.insert(len(self.by), "split", split)
            self.table.add(frame)

    def result(self) -> pd.DataFrame:
        t = self.table.total()
        if not len(t):
            return concat_rows([], [*self.by, "split", "level", "metric", *ESTIMATE_COLUMNS])
        keys = t[[*self.by, "split", "level"]]
        frames = [
            mean_rows(keys.assign(metric=name), t["n"].to_numpy(), t[name].to_numpy(),
                      t[f"{name}_sq"].to_numpy(), self.level)
            for name in ("net", "deal_ins")
        ]
        for metric in ("win", "deal_in", "pig"):
            frames.append(rate_rows(keys.assign(metric=metric), t[metric].to_numpy(),
                                    t["n"].to_numpy(), self.level))
        return concat_rows(frames, [*self.by, "split", "level", "metric", *ESTIMATE_COLUMNS])


def seat_effects(
    run: object, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Mean net and win, deal-in and flower-pig rates by seat, by dealer, and by seat from dealer.

    ``split`` is ``seat`` (``level`` 0..3), ``dealer`` (``"True"``/``"False"``) or
    ``seat_from_dealer`` (``dealer``, ``next``, ``across``, ``previous``); ``metric`` is ``net``
    (mean units per player-deal), ``deal_ins`` (mean winners on the player's discards per
    player-deal), or the rates ``win``, ``deal_in`` (share of player-deals with ``deal_ins > 0``)
    and ``pig``.
    In a run whose seats play different policies, seat effects include the policies' effects.
    Columns: ``by``, ``split``, ``level``, ``metric``, ``stat``, ``n``, ``count``, ``estimate``,
    ``se``, ``ci_low``, ``ci_high``.
    """
    return run_one(run, SeatEffects, by=by, level=level).result()


class HorseValue(Pipeline):
    """Sums for :func:`horse_value`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.columns = (*self.by, "dealer", "net")
        self.seats = SumTable([*self.by, "level"])
        self.deals = SumTable(self.by)

    def update(self, batch: Batch) -> None:
        relative = seat_from_dealer(batch)
        net = batch["net"].astype(np.float64)
        keys = [column_key(batch, c) for c in self.by]
        self.seats.add(group_sums([*keys, Key("level", relative,
                                              list(relative_seats(batch.players)))],
                                  moments("net", net)))
        players = batch.players
        horse = (horse_probabilities(players)[relative] * net).reshape(-1, players).sum(axis=1)
        self.deals.add(group_sums(deal_keys(batch, self.by), moments("horse", horse)))

    def result(self) -> pd.DataFrame:
        by = list(self.by)
        seats, deals = self.seats.total(), self.deals.total()
        frames = []
        if len(deals):
            frames.append(mean_rows(deals[by].assign(metric="horse_ev", level="", per="deal",
                                                     probability=1.0),
                                    deals["n"].to_numpy(), deals["horse"].to_numpy(),
                                    deals["horse_sq"].to_numpy(), self.level))
        if len(seats):
            players = self.run.players
            prob = seats["level"].map(dict(zip(relative_seats(players),
                                               horse_probabilities(players), strict=True)))
            frames.append(mean_rows(seats[by + ["level"]].assign(metric="net", per="player-deal",
                                                               probability=prob.to_numpy()),
                                    seats["n"].to_numpy(), seats["net"].to_numpy(),
                                    seats["net_sq"].to_numpy(), self.level))
        return concat_rows(frames, [*by, "metric", "level", "per", "probability",
                                    *ESTIMATE_COLUMNS])


def horse_value(
    run: object, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Expected value of buying a horse, and the mean net of each seat relative to the dealer.

    Row ``horse_ev``: the horse's expected net per deal (units per deal, z interval over deals;
    see the module docstring). Rows ``net`` with ``level`` ``dealer``/``next``/``across``/
    ``previous``: mean net of that seat and ``probability`` that the horse picks it (3/9, 2/9,
    2/9, 2/9). Deal rows keep a ``by`` value only where the deal's four players share it.
    Columns: ``by``, ``metric``, ``level``, ``per``, ``probability``, ``stat``, ``n``, ``count``,
    ``estimate``, ``se``, ``ci_low``, ``ci_high``.
    """
    return run_one(run, HorseValue, by=by, level=level).result()
