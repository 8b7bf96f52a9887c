"""The danger-model measurements (simcore.analysis.danger) on a handful of replayed deals.

The rebuild of every hand is checked against the log inside ``discard_situations`` (the wall
order of the draws, every winning hand, the drawn-end pigs and ready hands, the tile count at
the end): these tests make sure it runs over deals with every kind of event, that it does catch a
wrong hand, and check the rows it writes against a second, plainer bookkeeping of the tiles.
"""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from simcore.analysis import danger
from simcore.engine.replay import replay
from simcore.tiles import format as format_hand
from simcore.tiles import parse

# (rules, policies, seed, deals): plain self-play in both presets, and fields that kong
# whenever they can, pung-then-add (added kongs, robbed ones) and decline cheap wins (passes)
CASES = [
    ("classic", "speed", 0, range(6)),
    ("app", "speed", 0, range(6)),
    ("classic", "speed:kong=always,min_fan=1/pungs:k=3,kong=pung_then_add/speed/flush:k=6",
     5, range(6)),
    ("app", "pungs:k=3,kong=pung_then_add/speed:min_fan=1/flush:k=6/speed:kong=always",
     7, range(6)),
]


def _replays() -> list[list[dict]]:
    out = []
    for rules, policies, seed, deals in CASES:
        for d in deals:
            out.append(replay(seed, d, rules=rules, policies=policies, as_frame=False)[0])
    return out


@pytest.fixture(scope="module")
def logs() -> list[list[dict]]:
    return _replays()


@pytest.fixture(scope="module")
def rows(logs: list[list[dict]]) -> list[pd.DataFrame]:
    return [danger.discard_situations(ev) for ev in logs]


def test_the_deals_hold_every_kind_of_event(logs: list[list[dict]]) -> None:
    kinds = Counter(e["type"] for ev in logs for e in ev)
    wins = Counter(e["kind"] for ev in logs for e in ev if e["type"] == "win")
    kongs = Counter(e["kind"] for ev in logs for e in ev if e["type"] == "kong")
    for kind in ("exchange", "pung", "kong", "pass", "win", "settle", "end"):
        assert kinds[kind] > 0, kind
    assert wins["discard"] and wins["self_draw"] and wins["robbed_kong"], wins
    assert wins["kong_flower"], wins
    assert kongs["direct"] and kongs["added"] and kongs["concealed"], kongs


def _hands_by_oracle(events: list[dict]) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(discarder, concealed tiles of every seat incl. concealed kongs, the rest of the wall)
    before each discard: plain bookkeeping of where every tile is."""
    first = events[0]
    hidden = np.zeros((4, 27), np.int64)  # concealed tiles, concealed kongs included
    for s, tiles in enumerate(first["hands"]):
        for t in tiles:
            hidden[s, t] += 1
    wall = first["wall"]
    pos = sum(len(h) for h in first["hands"])
    out = []
    for e in events[1:]:
        kind = e["type"]
        if kind == "exchange":
            step = danger.STEP[e["direction"]]
            for s, tiles in enumerate(e["given"]):
                for t in tiles:
                    hidden[s, t] -= 1
                    hidden[(s + step) % 4, t] += 1
        elif kind == "draw":
            assert wall[pos] == e["tile"]
            hidden[e["seat"], e["tile"]] += 1
            pos += 1
        elif kind == "discard":
            rest = np.bincount(wall[pos:], minlength=27)
            out.append((e["seat"], hidden.copy(), rest))
            hidden[e["seat"], e["tile"]] -= 1
        elif kind == "pung":
            hidden[e["seat"], e["tile"]] -= 2
        elif kind == "kong" and e["kind"] != "concealed":
            hidden[e["seat"], e["tile"]] -= 3 if e["kind"] == "direct" else 1
        elif kind == "win" and e["kind"] in ("self_draw", "kong_flower"):
            hidden[e["seat"], e["tile"]] -= 1
    assert (hidden >= 0).all()
    return out


def test_unseen_counts_are_the_wall_and_the_others_hidden_tiles(
        logs: list[list[dict]], rows: list[pd.DataFrame]) -> None:
    for ev, df in zip(logs, rows, strict=True):
        per_discard = df.drop_duplicates("turn").set_index("turn")
        oracle = _hands_by_oracle(ev)
        assert len(per_discard) <= len(oracle)
        for turn, row in per_discard.iterrows():
            seat, hidden, rest = oracle[turn]
            assert row["discarder"] == seat
            unseen = row[danger.UNSEEN].to_numpy(np.int64)
            assert (unseen >= 0).all()
            # never the discarder's own tiles: exactly the wall's rest and the others' tiles
            others = hidden.sum(axis=0) - hidden[seat]
            np.testing.assert_array_equal(unseen, rest + others)
            assert unseen[row["tile"]] <= 3  # the discarder holds the tile it throws


def test_void_tiles_are_never_winning_and_winning_needs_a_live_shape(
        rows: list[pd.DataFrame]) -> None:
    df = pd.concat(rows, ignore_index=True)
    void_tile = df["tile"] // 9 == df["void"]
    assert void_tile.any() and not df.loc[void_tile, "winning"].any()
    assert not df.loc[void_tile, "won"].any()
    assert (df.loc[df["winning"], "ready"]).all()
    assert not (df["won"] & ~df["winning"]).any()
    assert not (df["ready"] != (df["n_waits"] > 0)).any()
    live = danger.wait_terms(df).sum(axis=1) > 0
    assert not (df["winning"] & ~live).any()  # every wait on t uses t or two neighbours
    assert df["won"].any() and df["passed"].any()


def test_a_wrong_hand_is_caught(logs: list[list[dict]]) -> None:
    ev = next(ev for ev in logs if any(e["type"] == "win" for e in ev))
    bad = copy.deepcopy(ev)
    win = next(e for e in bad if e["type"] == "win")
    counts, melds = parse(win["hand"])
    t = int(np.flatnonzero(counts)[0])
    counts[t] -= 1
    counts[(t + 1) % 27 if counts[(t + 1) % 27] < 4 else (t + 2) % 27] += 1
    win["hand"] = format_hand(counts, melds)
    with pytest.raises(danger.ReconstructionError, match="wins with"):
        danger.discard_situations(bad)
    bad = copy.deepcopy(ev)
    next(e for e in bad if e["type"] == "end")["wall_left"] += 1
    with pytest.raises(danger.ReconstructionError, match="tiles left"):
        danger.discard_situations(bad)


def test_predictions_are_probabilities_and_the_twin_is_the_model(
        rows: list[pd.DataFrame]) -> None:
    pytest.importorskip("simcore.engine.policies.expert_model", reason="the expert danger model")
    df = pd.concat(rows, ignore_index=True)
    current = danger.Constants.current()
    model = danger.predict(df)
    twin = danger.predict(df, current)
    np.testing.assert_allclose(twin[["p_ready", "p_wins"]], model[["p_ready", "p_wins"]],
                               atol=1e-12)
    extreme = current.replace(WAIT_SCALE=10.0, FLUSH_IN=50.0, READY_BIAS=5.0)
    for pred in (model, danger.predict(df, extreme)):
        for col in ("p_ready", "p_wins", "p_hit"):
            assert pred[col].between(0.0, 1.0).all(), col
        per = danger.per_discard(pred)
        assert per["p_deal_in"].between(0.0, 1.0).all()
    assert (model.loc[df["tile"] // 9 == df["void"], "p_wins"] == 0).all()
    table = danger.calibration(danger.per_discard(model), bins=4)
    assert table["n"].sum() == df.drop_duplicates(["seed", "deal", "preset", "turn"]).shape[0]
