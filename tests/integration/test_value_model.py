"""The value model's measurements (simcore.analysis.value_model, issue 30): the hand states read
from a replay, the fitted table's cells and shrinkage, the reliability table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcore.analysis.value_model import (
    DRAWS_EDGES,
    LIVE_EDGES,
    PRIOR_ROWS,
    STATE_COLUMNS,
    WinChance,
    cells,
    fit_table,
    fit_win_chance,
    hand_states,
    model_prediction,
    reliability,
    table_prediction,
)


def test_the_states_of_a_replay_read_what_the_seat_kept_and_what_followed():
    """Seed 777, deal 12, classic, speed: S0 keeps 4677789p|P1mP5p after throwing 8m at step
    54, ready on 5p alone, whose four copies it can all see (no live useful tile); it never
    wins. Every row's live count is at most the unseen tiles, and a win's fan is known."""
    from simcore.engine.replay import replay

    events, _ = replay(777, 12, rules="classic", policies="speed", as_frame=False)
    s = hand_states(events)
    assert list(s.columns) == STATE_COLUMNS
    row = s[(s["seat"] == 0) & (s["step"] == 54)].iloc[0]
    assert (row["shanten"], row["useful"], row["live"], row["won"]) == (0, 1, 0, False)
    assert (s["live"] <= s["unseen_total"]).all() and s["n_opp"].between(1, 3).all()
    assert s["n_opp"].is_monotonic_decreasing  # winners leave play
    winners = {ev["seat"] for ev in events if ev["type"] == "win"}
    assert set(s.loc[s["won"], "seat"]) <= winners and (s.loc[s["won"], "fan"] >= 0).all()
    assert (s.loc[~s["won"], "fan"] == -1).all() and not s.loc[~s["won"], "self_draw"].any()


def test_a_blood_river_winner_s_locked_discards_are_not_states():
    from simcore.engine.replay import replay

    events, _ = replay(5, 3, rules="river", policies="speed", as_frame=False)
    s = hand_states(events)
    first_win = {}
    for n, ev in enumerate(events):
        if ev["type"] == "win":
            first_win.setdefault(ev["seat"], n)
    for seat, n in first_win.items():
        assert (s.loc[s["seat"] == seat, "step"] < n).all()


def _synthetic(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sh = rng.integers(0, 6, n)
    live = rng.integers(0, 30, n)
    draws = rng.uniform(0, 20, n)
    p = 1 / (1 + np.exp(sh - 0.1 * live - 0.1 * draws))
    return pd.DataFrame({"shanten": sh, "live": live, "draws_left": draws,
                         "won": rng.random(n) < p})


def test_the_table_is_each_cell_s_rate_shrunk_toward_its_margin():
    s = _synthetic(20_000)
    t = fit_table(s)
    assert t.shape == (5, len(LIVE_EDGES), len(DRAWS_EDGES))
    c = cells(s)
    cell = (c["sh"] == 1) & (c["lv"] == 3) & (c["dr"] == 2)
    margin = (c["sh"] == 1) & (c["dr"] == 2)
    n, k = cell.sum(), s.loc[cell, "won"].sum()
    m = s.loc[margin, "won"].mean()
    assert np.isclose(t[1, 3, 2], (k + PRIOR_ROWS * m) / (n + PRIOR_ROWS))
    assert (c["sh"] <= 4).all() and c.loc[s["shanten"] == 5, "sh"].eq(4).all()
    # on rows drawn from it, the table beats the base rate
    test = _synthetic(20_000, seed=1)
    r = reliability(table_prediction(t, test), test["won"].to_numpy())
    assert r.attrs["brier"] < r.attrs["brier_base"]


def test_reliability_of_a_perfect_and_of_a_constant_prediction():
    rng = np.random.default_rng(3)
    p = rng.uniform(0, 1, 50_000)
    y = rng.random(50_000) < p
    r = reliability(p, y)
    assert len(r) == 10 and r["rows"].sum() == 50_000
    assert (np.abs(r["predicted"] - r["observed"]) < 4 * r["se"] + 1e-9).all()
    flat = reliability(np.full(len(y), y.mean()), y)
    assert np.isclose(flat.attrs["brier"], flat.attrs["brier_base"])


def test_the_expert_s_win_probability_is_read_for_every_row():
    s = pd.DataFrame({"shanten": [-1, 0, 2], "live": [0, 4, 10], "unseen_total": [60] * 3,
                      "draws_left": [8.0, 8.0, 0.0], "n_opp": [3] * 3})
    p = model_prediction(s)
    assert p[0] == 1.0 and 0 < p[1] < 1 and p[2] == 0.0


def test_the_logistic_fit_recovers_the_coefficients_it_was_drawn_from():
    truth = WinChance(bias=(-1.0, -2.0, -3.0, -4.0, -5.0), draws=(0.8, 0.9, 1.0, 1.1, 1.2),
                      live=0.3, opp=0.2)
    rng = np.random.default_rng(5)
    n = 200_000
    s = pd.DataFrame({"shanten": rng.integers(0, 6, n), "live": rng.integers(1, 30, n),
                      "draws_left": rng.uniform(0.5, 20, n), "n_opp": rng.integers(1, 4, n)})
    # the truth is drawn without the "never above a nearer hand" floor, which these
    # coefficients never reach (each cell's z is below the nearer one's)
    p = truth.predict(s)
    s["won"] = rng.random(n) < p
    fit = fit_win_chance(s)
    assert np.allclose(fit.bias, truth.bias, atol=0.15)
    assert np.allclose(fit.draws, truth.draws, atol=0.06)
    assert abs(fit.live - truth.live) < 0.03 and abs(fit.opp - truth.opp) < 0.03


def test_the_logistic_never_rates_a_hand_above_one_nearer_to_ready():
    chance = WinChance(bias=(-1.0, 0.5, -3.0, 1.0, -5.0), draws=(0.5,) * 5, live=0.3, opp=0.2)
    s = pd.DataFrame({"shanten": [-1, 0, 1, 2, 3, 7, 1, 1], "live": [0, 4, 4, 4, 4, 4, 0, 4],
                      "draws_left": [5.0] * 7 + [0.0], "n_opp": [3] * 8})
    p = chance.predict(s)
    assert p[0] == 1.0 and p[6] == 0.0 and p[7] == 0.0
    assert np.all(np.diff(p[1:6]) <= 0)
    assert np.isclose(p[2], p[1])  # shanten 1's own cell is above shanten 0's: floored
