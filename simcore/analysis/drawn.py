"""Drawn ends (黄庄): exhausted walls, deals without a winner, flower pigs, ready hands, kongs.

Two words that are easy to confuse, reported as separate rows: a deal is *exhausted* when the
wall ran out with players still in play (fewer than three winners; the ``drawn_end`` row, kept
under its old name, is the same count), and has *no winner* when nobody won at all (黄庄 in the
strict sense). Observations that share a wall (duplicate runs) or a deal are clustered: see
:func:`simcore.analysis.pipeline.ratio_rows`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import (
    SumTable,
    cluster_moments,
    column_key,
    deal_keys,
    per_deal,
)
from simcore.analysis.io import Batch, Run
from simcore.analysis.pipeline import (
    CLUSTER_COLUMNS,
    ESTIMATE_COLUMNS,
    Pipeline,
    cluster_unit,
    concat_rows,
    mean_rows,
    rate_rows,
    ratio_rows,
    run_one,
)
from simcore.analysis.stats import DEFAULT_LEVEL

KONG_KINDS = ("kongs_direct", "kongs_added", "kongs_concealed")
PER_PLAYER, PER_DEAL, PER_IN_PLAY = "player-deal", "deal", "in play at drawn end"
GLOSSARY = {
    "exhausted": "the wall ran out with players still in play (fewer than 3 winners)",
    "drawn_end": "the same as exhausted (its older name)",
    "no_winner": "nobody won at all (黄庄 in the strict sense)",
    "pig": "a flower pig (花猪): still holding tiles of the void suit at an exhausted end",
    "ready_end": "ready (听牌) when the wall ran out, among players still in play",
}


def drawn_mask(batch: Batch, winners_to_end: int = 3) -> np.ndarray:
    """Rows of drawn-end deals: fewer than three winners and the wall ran out (under blood
    river, ``winners_to_end`` = 4: a player who never won is left when the wall runs out)."""
    return (batch["winners"] < winners_to_end) & (batch["wall_left"] == 0)


def winners_to_end(run: Run) -> int:
    """Winners that end a deal before the wall: 3, or 4 under blood river (which only the wall
    ends, its winners staying in play: its drawn end is among the players who never won)."""
    rules = run.meta.get("rules")
    return 4 if isinstance(rules, dict) and rules.get("blood_river") is True else 3


class DrawnEnds(Pipeline):
    """Per-player-deal and per-deal cluster sums for :func:`drawn_ends`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.unit = cluster_unit(run)
        self.columns = (
            *self.by, "winners", "wall_left", "pig", "ready_end", "win_order", *KONG_KINDS,
            "net_kong", "net_refund", self.unit,
        )
        self.players = SumTable(self.by)
        self.deals = SumTable(self.by)
        self.winners_to_end = winners_to_end(run)

    def update(self, batch: Batch) -> None:
        drawn = drawn_mask(batch, self.winners_to_end)
        in_play = drawn & (batch["win_order"] == 0)
        pig = batch["pig"]
        kongs = np.sum([batch[k].astype(np.int64) for k in KONG_KINDS], axis=0)
        one = np.ones(len(batch))
        unit = batch[self.unit].astype(np.int64)
        ratios: dict[str, tuple[np.ndarray, np.ndarray]] = {
            "pig": (pig, one), "pig_in_play": (pig & in_play, in_play),
            "ready_in_play": (batch["ready_end"] & in_play, in_play),
            "kongs": (kongs, one), "net_kong": (batch["net_kong"], one),
            "net_refund": (batch["net_refund"], one),
        }
        ratios.update({name: (batch[name], one) for name in KONG_KINDS})
        self.players.add(cluster_moments([column_key(batch, c) for c in self.by], unit, ratios))

        players = batch.players
        one_deal = np.ones(len(batch) // players)
        deal_ratios: dict[str, tuple[np.ndarray, np.ndarray]] = {
            "drawn": (drawn[::players], one_deal),
            "no_winner": (batch["winners"][::players] == 0, one_deal),
            "any_pig": (per_deal(pig.astype(np.int64), players) > 0, one_deal),
            "kongs": (per_deal(kongs, players), one_deal),
            # money that changed hands: what the receivers got (nets are zero-sum in a deal)
            "kong_money": (per_deal(np.maximum(batch["net_kong"].astype(np.int64), 0), players),
                           one_deal),
            "refunds": (per_deal(np.maximum(batch["net_refund"].astype(np.int64), 0), players),
                        one_deal),
        }
        deal_ratios.update({name: (per_deal(batch[name].astype(np.int64), players), one_deal)
                            for name in KONG_KINDS})
        self.deals.add(cluster_moments(deal_keys(batch, self.by), unit[::players], deal_ratios))

    def result(self) -> pd.DataFrame:
        players, deals = self.players.total(), self.deals.total()
        by = list(self.by)
        frames: list[pd.DataFrame] = []
        # the deals of a run that is not a duplicate one are independent: exact-count intervals
        independent_deals = self.unit == "deal"

        def add(frame: pd.DataFrame, name: str, per: str, rate: bool,
                metric: str | None = None) -> None:
            if not len(frame):
                return
            keys = frame[by].assign(metric=metric or name, per=per)
            if per == PER_DEAL and independent_deals:
                y, x = frame[f"{name}:y"].to_numpy(), frame[f"{name}:x"].to_numpy()
                if rate:
                    rows = rate_rows(keys, y, x, self.level).assign(method="wilson")
                else:
                    rows = mean_rows(keys, x, y, frame[f"{name}:y2"].to_numpy(), self.level)
                    rows = rows.assign(method="normal")
                frames.append(rows.assign(design_effect=1.0))
            else:
                frames.append(ratio_rows(keys, frame, name, self.level, rate, self.unit))

        add(deals, "drawn", PER_DEAL, True, "drawn_end")
        add(deals, "drawn", PER_DEAL, True, "exhausted")
        add(deals, "no_winner", PER_DEAL, True)
        add(deals, "any_pig", PER_DEAL, True, "pig")
        add(players, "pig", PER_PLAYER, True)
        add(players, "pig_in_play", PER_IN_PLAY, True, "pig")
        add(players, "ready_in_play", PER_IN_PLAY, True, "ready_end")
        for name in (*KONG_KINDS, "kongs"):
            add(deals, name, PER_DEAL, False)
            add(players, name, PER_PLAYER, False)
        add(deals, "kong_money", PER_DEAL, False)
        add(deals, "refunds", PER_DEAL, False)
        add(players, "net_kong", PER_PLAYER, False)
        add(players, "net_refund", PER_PLAYER, False)
        return concat_rows(frames, [*by, "metric", "per", *ESTIMATE_COLUMNS, *CLUSTER_COLUMNS])


def drawn_ends(
    run: object, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Drawn ends, flower pigs, ready hands, kongs, kong money and refunds, with intervals.

    A *drawn end* is a deal with ``winners < 3`` and ``wall_left == 0`` (the wall ran out with
    players in play). Rows (``metric``, ``per``):

    * ``drawn_end``/deal and ``exhausted``/deal (the same count, under the clearer name): share
      of deals whose wall ran out with players in play; ``no_winner``/deal: share of deals
      nobody won;
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
    ``count`` (rates), ``estimate``, ``se``, ``ci_low``, ``ci_high``, ``method`` and
    ``design_effect``: clustered by wall in duplicate runs and by deal otherwise
    (``cluster(wall)``, ``cluster(deal)``), except the per-deal rows of a run that is not a
    duplicate one, whose deals are independent (``wilson`` for rates, ``normal`` for means).
    """
    return run_one(run, DrawnEnds, by=by, level=level).result()
