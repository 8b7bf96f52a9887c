"""Drawn ends (黄庄): drawn-end rate, flower pigs, ready hands, kongs, kong money and refunds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import (
    SumTable,
    column_key,
    deal_keys,
    group_sums,
    moments,
    per_deal,
)
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

KONG_KINDS = ("kongs_direct", "kongs_added", "kongs_concealed")
PER_PLAYER, PER_DEAL, PER_IN_PLAY = "player-deal", "deal", "in play at drawn end"


def drawn_mask(batch: Batch) -> np.ndarray:
    """Rows of drawn-end deals: fewer than three winners and the wall ran out."""
    return (batch["winners"] < 3) & (batch["wall_left"] == 0)


class DrawnEnds(Pipeline):
    """Per-player-deal and per-deal sums for :func:`drawn_ends`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.columns = (
            *self.by, "winners", "wall_left", "pig", "ready_end", "win_order", *KONG_KINDS,
            "net_kong", "net_refund",
        )
        self.players = SumTable(self.by)
        self.deals = SumTable(self.by)

    def update(self, batch: Batch) -> None:
        drawn = drawn_mask(batch)
        in_play = drawn & (batch["win_order"] == 0)
        pig = batch["pig"]
        kongs = sum(batch[k].astype(np.int64) for k in KONG_KINDS)
        values: dict[str, np.ndarray] = {
            "pig": pig, "in_play": in_play, "pig_in_play": pig & in_play,
            "ready_in_play": batch["ready_end"] & in_play,
        }
        for name in KONG_KINDS:
            values.update(moments(name, batch[name]))
        values.update(moments("kongs", kongs))
        values.update(moments("net_kong", batch["net_kong"]))
        values.update(moments("net_refund", batch["net_refund"]))
        self.players.add(group_sums([column_key(batch, c) for c in self.by], values))

        deal_values: dict[str, np.ndarray] = {
            "drawn": drawn[::4], "any_pig": per_deal(pig.astype(np.int64)) > 0,
        }
        for name in KONG_KINDS:
            deal_values.update(moments(name, per_deal(batch[name].astype(np.int64))))
        deal_values.update(moments("kongs", per_deal(kongs)))
        # money that changed hands: what the receivers got (nets are zero-sum within a deal)
        paid = per_deal(np.maximum(batch["net_kong"].astype(np.int64), 0))
        deal_values.update(moments("kong_money", paid))
        refunded = per_deal(np.maximum(batch["net_refund"].astype(np.int64), 0))
        deal_values.update(moments("refunds", refunded))
        self.deals.add(group_sums(deal_keys(batch, self.by), deal_values))

    def result(self) -> pd.DataFrame:
        players, deals = self.players.total(), self.deals.total()
        by = list(self.by)
        frames: list[pd.DataFrame] = []

        def keys(frame: pd.DataFrame, metric: str, per: str) -> pd.DataFrame:
            return frame[by].assign(metric=metric, per=per)

        def mean(frame: pd.DataFrame, name: str, per: str, metric: str | None = None) -> None:
            frames.append(mean_rows(keys(frame, metric or name, per), frame["n"].to_numpy(),
                                    frame[name].to_numpy(), frame[f"{name}_sq"].to_numpy(),
                                    self.level))

        def rate(frame: pd.DataFrame, metric: str, count: str, n: str, per: str) -> None:
            frames.append(rate_rows(keys(frame, metric, per), frame[count].to_numpy(),
                                    frame[n].to_numpy(), self.level))

        if len(deals):
            rate(deals, "drawn_end", "drawn", "n", PER_DEAL)
            rate(deals, "pig", "any_pig", "n", PER_DEAL)
        if len(players):
            rate(players, "pig", "pig", "n", PER_PLAYER)
            rate(players, "pig", "pig_in_play", "in_play", PER_IN_PLAY)
            rate(players, "ready_end", "ready_in_play", "in_play", PER_IN_PLAY)
        for name in (*KONG_KINDS, "kongs"):
            if len(deals):
                mean(deals, name, PER_DEAL)
            if len(players):
                mean(players, name, PER_PLAYER)
        if len(deals):
            mean(deals, "kong_money", PER_DEAL)
            mean(deals, "refunds", PER_DEAL)
        if len(players):
            mean(players, "net_kong", PER_PLAYER)
            mean(players, "net_refund", PER_PLAYER)
        return concat_rows(frames, [*by, "metric", "per", *ESTIMATE_COLUMNS])


def drawn_ends(
    run: object, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Drawn ends, flower pigs, ready hands, kongs, kong money and refunds, with intervals.

    A *drawn end* is a deal with ``winners < 3`` and ``wall_left == 0`` (the wall ran out).
    Rows (``metric``, ``per``):

    * ``drawn_end``/deal: share of deals that end drawn;
    * ``pig``/player-deal: share of player-deals ending as a flower pig (``pig`` column);
      ``pig``/deal: share of deals with at least one pig; ``pig``/in play at drawn end: among the
      player-deals still in play (``win_order == 0``) at a drawn end;
    * ``ready_end``/in play at drawn end: share of those player-deals that were ready;
    * ``kongs_direct``, ``kongs_added``, ``kongs_concealed``, ``kongs`` (all three): mean per deal
      (summed over the deal's four rows) and per player-deal;
    * ``kong_money``/deal and ``refunds``/deal: units that changed hands per deal (the sum of the
      positive ``net_kong``, resp. ``net_refund``, over the deal's four rows);
    * ``net_kong``/player-deal, ``net_refund``/player-deal: mean kong money and refund balance.

    Player-deal rows are grouped by ``by``; deal rows keep a ``by`` value only where all four
    players of the deal share it (always ``preset``; ``policy`` in a single-policy run), else
    ``"(all)"``. Columns: ``by``, ``metric``, ``per``, ``stat`` (``rate`` or ``mean``), ``n``,
    ``count`` (rates), ``estimate``, ``se``, ``ci_low``, ``ci_high``.
    """
    return run_one(run, DrawnEnds, by=by, level=level).result()
