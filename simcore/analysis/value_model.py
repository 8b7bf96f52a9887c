"""How likely a hand is to win from here: the expert's value model against self-play.

``expert`` values a discard by the probability that the hand left wins before the wall runs out
(:func:`simcore.engine.policies.expert_model.win_probability`: shanten, live useful tiles, own
turns left, opponents in play) times what the win pays. That probability is a hand-built model;
this module measures it on simcore's own deals and fits two in its place, a table and a logistic
(:class:`WinChance`), both better calibrated and neither yet read by the expert (why: there).

:func:`hand_states` walks a replayed deal (:func:`simcore.table.walk`) and writes one row per
discard of a seat that can still choose (a blood-river winner's locked hand cannot): the hand it
keeps, read from what the seat sees (its shanten, the useful tile types and how many copies of
them it cannot see, the wall, the opponents in play), and what then happened: whether the seat
won later in the deal, by self-draw or not, with what fan. :func:`collect_states` does so over
many deals, :func:`fit_table` estimates P(win) per cell of (shanten, live useful tiles, own turns
left) with each cell shrunk toward its (shanten, turns) margin, and :func:`reliability` sets a
prediction against what happened, decile by decile, with the Brier score.
``benchmarks/bench_expert.py --value`` prints the comparison; ``experiments/fit_value_model.py``
writes the fitted table.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore.hand import shanten, useful_tiles
from simcore.table import walk
from simcore.tiles import Hand

STATE_COLUMNS = [
    "seed", "deal", "preset", "step", "seat", "shanten", "useful", "live", "unseen_total",
    "wall_left", "draws_left", "n_opp", "won", "self_draw", "fan",
]
# the cells of the fitted table: shanten 0..4 (4: four or more), live useful tiles and own
# turns left in ranges (the lower bounds)
SHANTEN_CELLS = 5
LIVE_EDGES = (0, 1, 3, 5, 8, 12, 18, 26)
DRAWS_EDGES = (0, 2, 4, 6, 9, 12, 16)
PRIOR_ROWS = 20.0  # a cell's estimate is shrunk toward its margin as if by this many rows


def hand_states(events: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per discard of a seat that chooses it, every seat (:data:`STATE_COLUMNS`)."""
    first = events[0]
    head = [first.get("seed"), first.get("deal"), first["rules"]["preset"]]
    wins: dict[int, list[tuple[int, str, int]]] = {}
    for n, ev in enumerate(events):
        if ev["type"] == "win":
            wins.setdefault(ev["seat"], []).append((n, ev.get("kind", ""), ev.get("fan", 0)))
    rows: list[list[Any]] = []
    for step, ev, tab in walk(events):
        if ev["type"] != "discard":
            continue
        s, tile = ev["seat"], ev["tile"]
        if tab.wins[s]:  # a blood-river winner: its hand is locked
            continue
        counts, melds = tab.as_hand(s)
        counts = counts.copy()
        counts[tile] -= 1
        hand = Hand(counts, melds)
        void = tab.void[s] if tab.void[s] >= 0 else None
        unseen = tab.unseen(s)
        kinds, live = useful_tiles(hand, visible=4 - unseen, void=void)
        in_play = sum(tab.in_play)
        later = [w for w in wins.get(s, []) if w[0] > step]
        won = bool(later)
        rows.append([*head, step, s, int(shanten(hand, void=void)), len(kinds), live,
                     int(unseen.sum()), tab.wall_left, tab.wall_left / max(1, in_play),
                     in_play - 1, won, won and later[0][1] == "self_draw",
                     int(later[0][2] or 0) if won else -1])
    return pd.DataFrame(rows, columns=STATE_COLUMNS)


def collect_states(deals: int | Iterable[int], rules: str = "classic",
                   policies: str = "speed", *, seed: int = 0) -> pd.DataFrame:
    """:func:`hand_states` of deals ``deals`` of ``seed`` (``simcore replay``'s deals)."""
    from simcore.engine.replay import replay

    frames = []
    for d in range(deals) if isinstance(deals, int) else deals:
        events, _ = replay(seed, int(d), rules=rules, policies=policies, as_frame=False)
        frames.append(hand_states(events))
    return pd.concat(frames, ignore_index=True)


def model_prediction(states: pd.DataFrame) -> np.ndarray:
    """The expert's P(win) for each row (``expert_model.win_probability``, the kernel)."""
    from simcore.engine.policies.expert_model import win_probability

    return np.array([win_probability(int(r.shanten), int(r.live), int(r.unseen_total),
                                     float(r.draws_left), int(r.n_opp))
                     for r in states.itertuples()])


def cells(states: pd.DataFrame) -> pd.DataFrame:
    """The table cell of each row: ``sh``, ``lv``, ``dr`` (indices)."""
    return pd.DataFrame({
        "sh": np.minimum(states["shanten"].to_numpy(), SHANTEN_CELLS - 1),
        "lv": np.searchsorted(LIVE_EDGES, states["live"].to_numpy(), side="right") - 1,
        "dr": np.searchsorted(DRAWS_EDGES, np.floor(states["draws_left"].to_numpy()),
                              side="right") - 1,
    }, index=states.index)


def fit_table(states: pd.DataFrame, outcome: str = "won") -> np.ndarray:
    """P(``outcome``) per cell ``[shanten, live, draws]`` (:data:`SHANTEN_CELLS` x
    ``len(LIVE_EDGES)`` x ``len(DRAWS_EDGES)``): each cell's rate shrunk toward its (shanten,
    draws) margin by :data:`PRIOR_ROWS` rows; a margin with no rows takes the overall rate."""
    c = cells(states)
    y = states[outcome].astype(float).to_numpy()
    shape = (SHANTEN_CELLS, len(LIVE_EDGES), len(DRAWS_EDGES))
    n = np.zeros(shape)
    k = np.zeros(shape)
    np.add.at(n, (c["sh"], c["lv"], c["dr"]), 1.0)
    np.add.at(k, (c["sh"], c["lv"], c["dr"]), y)
    overall = y.mean() if len(y) else 0.0
    n_margin, k_margin = n.sum(axis=1, keepdims=True), k.sum(axis=1, keepdims=True)
    margin = np.where(n_margin > 0, k_margin / np.maximum(n_margin, 1), overall)
    return (k + PRIOR_ROWS * margin) / (n + PRIOR_ROWS)


@dataclass(frozen=True)
class WinChance:
    """P(win later in the deal) as a logistic function of the hand kept:
    ``z = bias[s] + draws[s] * log(1 + own turns left) + live * log(1 + live useful tiles)
    + opp * opponents in play``, ``s`` the shanten (the last cell: four or more), except that a
    hand is never rated above one nearer to ready in the same circumstances (the least ``z``
    over the cells up to its own).

    Better calibrated than ``win_probability`` (the Brier scores of :func:`value_report`), yet
    worse as the expert's guide: read in its place by the hand's value, it cost the expert 0.20
    units a deal against three ``speed`` seats under ``classic`` and 0.44 under ``river``
    (2,000 walls, paired). Its live-tile slope is shallow, so between two discards of equal
    shanten it is the fan that decides, and the seat gives up acceptance for value it rarely
    completes: a model right on average over the hands the seat kept is not a model of what a
    different discard would have done."""

    bias: tuple[float, ...]
    draws: tuple[float, ...]
    live: float
    opp: float

    def predict(self, states: pd.DataFrame) -> np.ndarray:
        sh = np.minimum(states["shanten"].to_numpy(), len(self.bias) - 1)
        live = states["live"].to_numpy(float)
        draws = states["draws_left"].to_numpy(float)
        by_cell = (np.asarray(self.bias)[None, :]
                   + np.asarray(self.draws)[None, :] * np.log1p(draws)[:, None])
        nearer = np.minimum.accumulate(by_cell, axis=1)  # never above a hand nearer to ready
        z = (nearer[np.arange(len(sh)), np.maximum(sh, 0)] + self.live * np.log1p(live)
             + self.opp * states["n_opp"].to_numpy(float))
        p = 1.0 / (1.0 + np.exp(-z))
        return np.where(sh < 0, 1.0, np.where((live <= 0) | (draws <= 0), 0.0, p))


def _design(states: pd.DataFrame) -> np.ndarray:
    sh = np.minimum(states["shanten"].to_numpy(), SHANTEN_CELLS - 1)
    turns = np.log1p(states["draws_left"].to_numpy(float))
    cols = [(sh == k).astype(float) for k in range(SHANTEN_CELLS)]
    cols += [(sh == k) * turns for k in range(SHANTEN_CELLS)]
    cols += [np.log1p(states["live"].to_numpy(float)), states["n_opp"].to_numpy(float)]
    return np.column_stack(cols)


def fit_win_chance(states: pd.DataFrame) -> WinChance:
    """The maximum-likelihood :class:`WinChance` of ``states`` (a binomial GLM, statsmodels).
    One slope for the live tiles at every shanten: fitted per shanten it came out negative
    four steps from ready, where few rows are and the useful count measures scattered tiles
    more than progress."""
    import statsmodels.api as sm

    y = states["won"].astype(float).to_numpy()
    beta = sm.GLM(y, _design(states), family=sm.families.Binomial()).fit().params
    k = SHANTEN_CELLS
    return WinChance(tuple(float(b) for b in beta[:k]), tuple(float(b) for b in beta[k:2 * k]),
                     float(beta[2 * k]), float(beta[2 * k + 1]))


def table_prediction(table: np.ndarray, states: pd.DataFrame) -> np.ndarray:
    c = cells(states)
    return table[c["sh"].to_numpy(), c["lv"].to_numpy(), c["dr"].to_numpy()]


def reliability(predicted: np.ndarray, observed: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """Predicted against observed per decile of the prediction: rows, mean prediction, observed
    rate with its binomial standard error; ``attrs["brier"]`` the Brier score and
    ``attrs["brier_base"]`` that of the observed base rate."""
    p = np.asarray(predicted, float)
    y = np.asarray(observed, float)
    order = np.argsort(p, kind="stable")
    rows = []
    for part in np.array_split(order, bins):
        if not len(part):
            continue
        rate = float(y[part].mean())
        rows.append({"rows": len(part), "predicted": float(p[part].mean()), "observed": rate,
                     "se": float(np.sqrt(rate * (1 - rate) / len(part)))})
    out = pd.DataFrame(rows)
    out.attrs["brier"] = float(np.mean((p - y) ** 2))
    out.attrs["brier_base"] = float(np.mean((y.mean() - y) ** 2))
    return out


def value_report(states: pd.DataFrame, deals: int, rules: Sequence[str], policies: str,
                 seed: int) -> str:
    """The comparison ``experiments/fit_value_model.py`` and ``bench_expert.py --value``
    print: per preset, the reliability of ``win_probability``, of a table and of a
    :class:`WinChance` fitted on the even deals, on the odd deals, with the Brier scores, and
    the mean by shanten."""
    train, test = states[states["deal"] % 2 == 0], states[states["deal"] % 2 == 1]
    intro = (f"{deals} deals per preset ({', '.join(rules)}), policies {policies}, seed {seed}: "
             f"{len(states):,} discards a seat chose (a blood-river winner's locked hand "
             "aside), each with the hand it kept (shanten, live useful tiles: the copies of the "
             "useful types the seat cannot see, own turns left) and whether the seat went on to "
             "win in the deal. Fitted on the even deals, scored on the odd ones.")
    lines = ["The expert's value model against self-play (experiments/fit_value_model.py)", "",
             *textwrap.wrap(intro, width=100), ""]
    for preset, t in test.groupby("preset", sort=False):
        tr = train[train["preset"] == preset]
        y = t["won"].to_numpy()
        old = reliability(model_prediction(t), y)
        new = reliability(table_prediction(fit_table(tr), t), y)
        logit = reliability(fit_win_chance(tr).predict(t), y)
        lines += [f"{preset}: P(win later in the deal), {len(t):,} test rows; Brier: "
                  f"win_probability {old.attrs['brier']:.4f}, fitted table "
                  f"{new.attrs['brier']:.4f}, fitted logistic (WinChance) "
                  f"{logit.attrs['brier']:.4f}, the base rate alone "
                  f"{old.attrs['brier_base']:.4f}",
                  "  decile  win_probability -> observed (se)   fitted table -> observed (se)"
                  "   logistic -> observed (se)"]
        for i, (a, b, c) in enumerate(zip(old.itertuples(), new.itertuples(), logit.itertuples(),
                                          strict=True)):
            lines.append(f"  {i + 1:6d}  {a.predicted:15.3f} -> {a.observed:.3f} ({a.se:.3f})"
                         f"   {b.predicted:12.3f} -> {b.observed:.3f} ({b.se:.3f})"
                         f"   {c.predicted:8.3f} -> {c.observed:.3f} ({c.se:.3f})")
        by = t.assign(pred=model_prediction(t)).groupby("shanten")[["pred", "won"]].mean()
        lines.append("  by shanten (mean prediction of win_probability, observed): "
                     + "; ".join(f"{int(s)}: {r.pred:.2f} / {r.won:.2f}"
                                 for s, r in by.iterrows()))
        lines.append("")
    return "\n".join(lines)
