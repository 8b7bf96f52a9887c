"""Win order: winners per deal, who wins, how early; and what winning first is worth.

``win_order`` is 0 for a player who did not win, else 1 + the number of players who won strictly
earlier, so simultaneous winners on one discard (一炮多响) share an order (two first winners, then
a third winner of order 3).

Rates and means are clustered by the run's independent unit (wall in duplicate runs, deal
otherwise; :func:`simcore.analysis.pipeline.ratio_rows`), except the per-deal rows of a run that
is not a duplicate one, whose deals are independent (Wilson and z intervals). Correlations keep
their Fisher-z intervals over player-deals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.analysis.groups import (
    Key,
    SumTable,
    array_key,
    cluster_moments,
    column_key,
    const_key,
    deal_keys,
    group_sums,
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
from simcore.analysis.stats import DEFAULT_LEVEL, correlation_interval, weighted_correlations

NON_WINNER_ORDER = 4  # correlations rank non-winners after every winner
# under blood river all four players may win: non-winners rank fifth there
RIVER_NON_WINNER_ORDER = 5


def _is_river(run: Run) -> bool:
    rules = run.meta.get("rules")
    return isinstance(rules, dict) and rules.get("blood_river") is True
ALL_FANS = "all"
NO_FAN = -1  # the fan label of non-winners in the joint tables


def _str_labels(key: Key) -> Key:
    return Key("level", key.codes, [str(label) for label in key.labels])


class WinOrder(Pipeline):
    """Sums for :func:`win_order`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.splits = tuple(s for s in ("seat", "dealer", "policy") if s not in self.by)
        self.unit = cluster_unit(run)
        self.columns = (*self.by, *self.splits, "win_order", "win_draw", "winners", self.unit)
        self.deals = SumTable(self.by)
        self.wins = SumTable([*self.by, "split", "level"])
        self.draws = SumTable([*self.by, "level"])
        # winners a deal can have: players - 1, all of them under blood river (whose winners
        # stay in play)
        self.most = run.players if _is_river(run) else run.players - 1

    def update(self, batch: Batch) -> None:
        win = batch["win_order"] > 0
        unit = batch[self.unit].astype(np.int64)
        dkeys = deal_keys(batch, self.by)
        players = batch.players
        winners = batch["winners"][::players].astype(np.int64)
        if winners.size and (winners.min() < 0 or winners.max() > self.most):
            raise ValueError(f"winners must lie in 0..{self.most}, got "
                             f"{sorted(set(winners.tolist()))}")
        one_deal = np.ones(len(winners))
        ratios = {"winners": (winners, one_deal)}
        ratios.update({f"w{k}": (winners == k, one_deal) for k in range(self.most + 1)})
        self.deals.add(cluster_moments(dkeys, unit[::players], ratios))
        keys = [column_key(batch, c) for c in self.by]
        one = np.ones(len(batch))
        for split in ("", *self.splits):
            level = (_str_labels(column_key(batch, split)) if split
                     else Key("level", np.zeros(len(batch), dtype=np.int64), [""]))
            frame = cluster_moments([*keys, level], unit, {"win": (win, one)})
            frame.insert(len(self.by), "split", split)
            self.wins.add(frame)
        winners_only = batch.take(win, [*self.by, "win_order", "win_draw"])
        order = _str_labels(column_key(winners_only, "win_order"))
        draw = winners_only["win_draw"]
        self.draws.add(cluster_moments([*[column_key(winners_only, c) for c in self.by], order],
                                       unit[win], {"win_draw": (draw, np.ones(len(draw)))}))

    def result(self) -> pd.DataFrame:
        by = list(self.by)
        frames = []
        independent_deals = self.unit == "deal"
        deals = self.deals.total()
        if len(deals):
            keys = deals[by].assign(metric="winners", per="deal", split="", level="")
            if independent_deals:
                frames.append(mean_rows(keys, deals["winners:x"].to_numpy(),
                                        deals["winners:y"].to_numpy(),
                                        deals["winners:y2"].to_numpy(), self.level)
                              .assign(method="normal", design_effect=1.0))
            else:
                frames.append(ratio_rows(keys, deals, "winners", self.level, False, self.unit))
            # every number of winners 0..players-1 (0..players under blood river), zero counts
            for k in range(self.most + 1):
                keys = deals[by].assign(metric="winners", per="deal", split="winners",
                                        level=str(k))
                if independent_deals:
                    frames.append(rate_rows(keys, deals[f"w{k}:y"].to_numpy(),
                                            deals[f"w{k}:x"].to_numpy(), self.level)
                                  .assign(method="wilson", design_effect=1.0))
                else:
                    frames.append(ratio_rows(keys, deals, f"w{k}", self.level, True, self.unit))
        wins = self.wins.total()
        if len(wins):
            frames.append(ratio_rows(wins[[*by, "split", "level"]].assign(
                metric="win", per="player-deal"), wins, "win", self.level, True, self.unit))
        draws = self.draws.total()
        if len(draws):
            draws = draws.sort_values("level", kind="stable")
            frames.append(ratio_rows(
                draws[[*by, "level"]].assign(metric="win_draw", per="win", split="win_order"),
                draws, "win_draw", self.level, False, self.unit))
        return concat_rows(frames, [*by, "metric", "per", "split", "level", *ESTIMATE_COLUMNS,
                                    *CLUSTER_COLUMNS])


def win_order(
    run: object, by: str | Sequence[str] = ("preset", "policy"), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Winners per deal, win probability by seat, dealer and policy, and the draw of each win.

    Rows (``metric``, ``per``, ``split``, ``level``):

    * ``winners``/deal/""/"": mean number of winners per deal; ``winners``/deal/winners/k: share of
      deals with k = 0..3 winners (deal rows keep a ``by`` value only where the four players of
      the deal share it, else ``"(all)"``);
    * ``win``/player-deal/""/"": share of player-deals that won; ``split`` ``seat``, ``dealer``
      or ``policy`` (those not already in ``by``) with ``level`` its value: the same by seat
      (0..3), dealer (``"True"``/``"False"``) and policy;
    * ``win_draw``/win/win_order/k: mean ``win_draw`` (wall tiles drawn after dealing when the
      win happened) of wins of order k (1st, 2nd, 3rd; simultaneous winners share an order).

    Columns: ``by``, ``metric``, ``per``, ``split``, ``level``, ``stat``, ``n``, ``count``,
    ``estimate``, ``se``, ``ci_low``, ``ci_high``, ``method``, ``design_effect``.
    """
    return run_one(run, WinOrder, by=by, level=level).result()


class FirstWinProfit(Pipeline):
    """Joint counts of (win order, net) and (win draw, net) per group and fan, and first-winner
    counts, for :func:`first_win_profit`."""

    blocks = True

    def __init__(
        self, run: Run, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
    ) -> None:
        super().__init__(run, level)
        self.by = self.resolve_by(by)
        self.unit = cluster_unit(run)
        self.columns = (*self.by, "win_order", "win_draw", "net", "fan", self.unit)
        self.order_net = SumTable([*self.by, "fan", "x", "y"])
        self.draw_net = SumTable([*self.by, "fan", "x", "y"])
        self.first = SumTable([*self.by, "fan"])
        self.level_net = SumTable([*self.by, "fan", "x"])
        self.non_winner = RIVER_NON_WINNER_ORDER if _is_river(run) else NON_WINNER_ORDER

    def update(self, batch: Batch) -> None:
        order = batch["win_order"].astype(np.int64)
        win = order > 0
        net = batch["net"].astype(np.int64)
        fan = np.where(win, batch["fan"].astype(np.int64), NO_FAN)
        keys = [column_key(batch, c) for c in self.by]
        x = np.where(win, order, self.non_winner)
        self.order_net.add(group_sums([*keys, array_key("fan", fan), array_key("x", x),
                                       array_key("y", net)], {}))
        wb = batch.take(win, [*self.by, "win_draw"])
        self.draw_net.add(group_sums(
            [*[column_key(wb, c) for c in self.by], array_key("fan", fan[win]),
             array_key("x", wb["win_draw"].astype(np.int64)), array_key("y", net[win])], {}))
        # ties for the highest net count as highest
        players = batch.players
        highest = net == net.reshape(-1, players).max(axis=1).repeat(players)
        first = order == 1
        unit = batch[self.unit].astype(np.int64)
        fb = batch.take(first, self.by)
        ones = np.ones(int(first.sum()))
        first_ratios = {"negative": (net[first] < 0, ones), "highest": (highest[first], ones)}
        fkeys = [column_key(fb, c) for c in self.by]
        # per fan, and for every first winner (fan "all": cluster sums do not add over fans)
        for fan_key in (array_key("fan", fan[first]), const_key("fan", len(ones), ALL_FANS)):
            self.first.add(cluster_moments([*fkeys, fan_key], unit[first], first_ratios))
        one = np.ones(len(batch))
        level = array_key("x", x)
        for fan_key, rows in ((array_key("fan", fan), win), (const_key("fan", len(batch),
                                                                        ALL_FANS), None)):
            if rows is None:
                self.level_net.add(cluster_moments([*keys, fan_key, level], unit,
                                                   {"net": (net, one)}))
            else:
                sub = [Key(k.name, k.codes[rows], k.labels) for k in (*keys, fan_key, level)]
                self.level_net.add(cluster_moments(sub, unit[rows], {"net": (net[rows],
                                                                             one[rows])}))

    def net_by_order(self) -> pd.DataFrame:
        """Counts of each (``by``, win order, net): win order 1..3, or 4 for non-winners."""
        joint = self.order_net.total()
        by = list(self.by)
        if not len(joint):
            return pd.DataFrame(columns=[*by, "win_order", "net", "count"])
        out = joint.groupby([*by, "x", "y"], sort=False)["n"].sum().reset_index()
        return out.rename(columns={"x": "win_order", "y": "net", "n": "count"})

    def result(self) -> pd.DataFrame:
        by = list(self.by)
        frames: list[pd.DataFrame] = []
        order_net = _with_all_fans(self.order_net.total(), by, ["x", "y"])
        draw_net = _with_all_fans(self.draw_net.total(), by, ["x", "y"])
        first = _fans_in_order(self.first.total(), by)
        m = _fans_in_order(self.level_net.total(), by)

        if len(m):
            m = m.sort_values(["fan_order", "x"], kind="stable")
            level = m["x"].map(lambda v: "none" if v == self.non_winner else str(int(v)))
            frames.append(ratio_rows(m[[*by, "fan"]].assign(metric="net", level=level.to_numpy()),
                                     m, "net", self.level, False, self.unit))
        if len(first):
            for metric, col in (("first_winner_negative", "negative"),
                                ("first_winner_highest", "highest")):
                frames.append(ratio_rows(first[[*by, "fan"]].assign(metric=metric, level=""),
                                         first, col, self.level, True, self.unit))
        for metric, joint in (("corr_order_net", order_net), ("corr_draw_net", draw_net)):
            if len(joint):
                frames.append(self._correlations(joint, metric))
        return concat_rows(frames, [*by, "fan", "metric", "level", *ESTIMATE_COLUMNS,
                                    *CLUSTER_COLUMNS])

    def _correlations(self, joint: pd.DataFrame, metric: str) -> pd.DataFrame:
        by = list(self.by)
        rows = []
        for group, part in joint.groupby([*by, "fan"], sort=False):
            n, pearson, spearman = weighted_correlations(
                part["x"].to_numpy(), part["y"].to_numpy(), part["n"].to_numpy())
            labels = dict(zip([*by, "fan"], group, strict=True))
            for stat, r in (("pearson", pearson), ("spearman", spearman)):
                low, high = correlation_interval(r, n, self.level, spearman=stat == "spearman")
                rows.append({**labels, "metric": metric, "level": "", "stat": stat, "n": n,
                             "count": pd.NA, "estimate": r, "se": np.nan,
                             "ci_low": float(low[0]), "ci_high": float(high[0]),
                             "method": "fisher-z", "design_effect": np.nan})
        out = pd.DataFrame(rows)
        out["count"] = out["count"].astype("Int64")
        return out


def _fans_in_order(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Cluster sums with fan ``"all"`` first, then the winners' fans in increasing order (as
    text), non-winners (``NO_FAN``) dropped; ``fan_order`` keeps that order."""
    if not len(frame):
        return frame
    frame = frame[frame["fan"].astype(str) != str(NO_FAN)].copy()
    is_all = frame["fan"].astype(str) == ALL_FANS
    frame["fan_order"] = np.where(is_all, -1, pd.to_numeric(frame["fan"].where(~is_all, -1)))
    frame["fan"] = np.where(is_all, ALL_FANS, frame["fan"].map(
        lambda v: v if v == ALL_FANS else str(int(v))))
    return frame.sort_values("fan_order", kind="stable").reset_index(drop=True)


def _with_all_fans(frame: pd.DataFrame, by: list[str], keys: list[str]) -> pd.DataFrame:
    """Rows per fan (winners only, fan as text) plus the rows of every player (fan ``"all"``)."""
    if not len(frame):
        return frame
    numeric = [c for c in frame.columns if c not in (*by, "fan", *keys)]
    total = frame.groupby([*by, *keys], sort=False)[numeric].sum().reset_index() \
        if by or keys else frame[numeric].sum().to_frame().T
    total.insert(len(by), "fan", ALL_FANS)
    per_fan = frame[frame["fan"] != NO_FAN].copy()
    per_fan = per_fan.sort_values("fan", kind="stable")
    per_fan["fan"] = per_fan["fan"].map(lambda v: str(int(v)))
    return pd.concat([total, per_fan[total.columns]], ignore_index=True)


def first_win_profit(
    run: object, by: str | Sequence[str] = ("preset",), level: float = DEFAULT_LEVEL
) -> pd.DataFrame:
    """Is winning first worth it? Net by win order, first winners' outcomes, correlations.

    Rows (``fan`` = ``"all"`` for every player, else only winners whose win scored that fan):

    * ``net``/level k: mean net of players of win order k (``"1"``, ``"2"``, ``"3"``; ``"none"``
      for players who did not win);
    * ``first_winner_negative``: share of first winners (win order 1; simultaneous first winners
      each count) whose deal net is below 0 (later payments to others exceed their win);
    * ``first_winner_highest``: share of first winners with the highest net of their deal,
      **ties counted as highest**;
    * ``corr_order_net``: Pearson and Spearman correlation of win order with net, non-winners
      counted as order 4 (so a negative value means "earlier wins earn more");
    * ``corr_draw_net``: the same for ``win_draw`` (winners only: others have no win draw).

    Correlation intervals are Fisher-z (``stat`` ``pearson``/``spearman``, ``se`` empty); rates
    and means are clustered (see the module docstring). Columns: ``by``, ``fan``, ``metric``,
    ``level``, ``stat``, ``n``, ``count``, ``estimate``, ``se``, ``ci_low``, ``ci_high``,
    ``method``, ``design_effect``.
    """
    return run_one(run, FirstWinProfit, by=by, level=level).result()
