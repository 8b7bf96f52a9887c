"""Blood river (血流成河, docs/rules section 9) and the per-win table of every run.

Scripted walls (tests/helpers/scripted.py, see test_engine_scripted.py for the conventions) pin
each river rule with exact payments worked out by hand from docs/rules: a second win by the same
player, the locked hand, the kongs a locked hand may and may not make, the drawn-end settlement
among the players who never won. Then invariants on every deal of river runs, the win table's
agreement with the records (river and blood battle), its chunking invariance, and its place in
the run directory.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers.scripted import col, of, pays, play, quiet_wall, story

import simcore
from simcore.engine.api import simulate, simulate_wins
from simcore.engine.invariants import check_records
from simcore.engine.replay import render, replay
from simcore.records import PAID_BY, PATTERN_NAMES, WIN_DTYPE, WIN_KIND_NAMES
from simcore.rules import PRESETS, get_rules, resolve_rules
from simcore.tiles import tile_index

T = tile_index


def play_river(wall, policies="speed", **overrides):
    """A scripted river deal: events, records, and the win table of the same deal."""
    events, df = play(wall, "river", policies, **overrides)
    return events, df


def discards_after_first_win(events, seat):
    """(drawn tile, discarded tile) of each turn of ``seat`` after its first win."""
    won = False
    last_draw = None
    pairs = []
    for ev in events:
        if ev["type"] == "win" and ev["seat"] == seat:
            won = True
        elif ev["type"] == "draw" and ev["seat"] == seat:
            last_draw = ev["tile"]
        elif ev["type"] == "discard" and ev["seat"] == seat and won:
            pairs.append((last_draw, ev["tile"]))
    return pairs


# ----------------------------------------------------------------------------- rules
def test_blood_river_parameter_and_preset():
    assert PRESETS["river"].blood_river is True
    assert PRESETS["river"].replace(blood_river=False).id == PRESETS["classic"].id
    assert resolve_rules("qq", ["blood_river=on"]).blood_river is True
    assert resolve_rules("qq", ["blood_river=off"]).blood_river is False
    with pytest.raises(ValueError, match=r"blood_river: 'maybe' is not a boolean"):
        resolve_rules("classic", ["blood_river=maybe"])
    with pytest.raises(ValueError, match=r"blood_river: 2 is not a boolean"):
        get_rules("classic", blood_river=2)
    # off, it is left out of the mapping and the id: every earlier id and log stays the same
    assert "blood_river" not in get_rules("classic").to_dict()
    assert get_rules("river").to_dict()["blood_river"] is True
    assert get_rules("river").id != get_rules("classic").id
    assert get_rules("classic").id == "e64b7f17213a"  # the id before blood_river existed


# ----------------------------------------------------------------------------- scripted walls
# Seat 1 is dealt 123m456m789m11p23p (void s), waiting on 1p and 4p. On its second draw (not
# its first: that would be an earthly win) it self-draws 1p (plain, 0 fan: 2^0 + 1 from each
# other player), lays the 1p out and plays on with its locked hand; four draws later it
# self-draws 4p: the same again.
def _second_win_wall():
    # the fillers hold the 1p and 4p left (the locked hand waits on them until the end)
    return quiet_wall({1: "123m456m789m11p23p"}, "?1 ?2 ?3 ?0 1p ?2 ?3 ?0 4p",
                      fillers={0: "p+9p", 2: "m+444p", 3: "s+1p"},
                      tail={0: "", 1: "123m456m789m11p23p", 2: "", 3: ""}, first=2)


def test_a_second_win_by_the_same_player():
    events, df = play_river(_second_win_wall())
    assert story(events) == [("win", 1, "1p"), ("win", 1, "4p")]
    assert [(e["kind"], e["fan"], e["pattern"], e["units"]) for e in of(events, "win")] == [
        ("self_draw", 0, "plain", 2)] * 2
    each = [(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")]
    assert pays(events) == each + each  # everyone is in play: all three pay both wins
    assert of(events, "settle")[0]["payments"] == []  # nobody else ready, no pig
    assert col(df, "net") == [-4, 12, -4, -4]
    assert col(df, "wins") == [0, 2, 0, 0] and col(df, "winners") == [1] * 4
    # the record describes the first win
    assert col(df, "win_order") == [0, 1, 0, 0] and col(df, "win_tile")[1] == T("1p")
    assert col(df, "win_draw")[1] == 5
    assert col(df, "next_dealer") == [1] * 4
    assert events[-1]["wall_left"] == 0  # the deal went on to the empty wall
    # the locked hand threw away every tile it drew after its first win
    pairs = discards_after_first_win(events, 1)
    assert pairs and all(drawn == thrown for drawn, thrown in pairs)
    text = render(events)
    assert "S1 WINS AGAIN (win 2) on 4p" in text and "(locked hand)" in text


def test_the_second_win_in_the_win_table():
    rec, wins = _table_of_wall(_second_win_wall())
    assert len(wins) == 2
    assert wins["seat"].tolist() == [1, 1] and wins["win_number"].tolist() == [1, 2]
    assert wins["order"].tolist() == [1, 2] and wins["draw"].tolist() == [5, 9]
    assert wins["tile"].tolist() == [T("1p"), T("4p")]
    assert wins["units"].tolist() == [2, 2]
    assert [wins[p].tolist() for p in PAID_BY] == [[2, 2], [0, 0], [2, 2], [2, 2]]
    assert rec["wins"].tolist() == [0, 2, 0, 0]


def _table_of_wall(wall):
    """The records and win table of a scripted river wall, through the batch kernel's path."""
    from simcore.engine.kernel import LAYOUT_ONE, call
    from simcore.engine.spec import parse_policies, policy_arrays
    from simcore.engine.state import new_state
    from simcore.hand.tables import load_tables
    from simcore.records import RECORD_DTYPE, empty_wins

    pid, params, index = policy_arrays(parse_policies("speed"))
    st = new_state()
    st.wall[:] = np.asarray(wall, np.int8)
    out = np.zeros(4, RECORD_DTYPE)
    wins = empty_wins(8)
    one = np.array([0, 0, 0, 1, 0], np.int64)
    errors = call(st, get_rules("river").encode(), load_tables(), pid[None], params[None],
                  index[None], 0, 0, 1, LAYOUT_ONE, one, out=out, debug=True, wins=wins)
    assert errors[0] == 0
    return out, wins[: errors[3]]


# Locked kongs. Seat 1 wins on its second draw, then draws the fourth 1m of its 111m:
# - 111m456m789m234p5p (waits 2p, 5p; after the kong 456m789m234p5p + 1m: still 2p, 5p): the
#   kong keeps the waits, so the policy is asked (kong=always: yes); 2 from each other player;
# - 1112m456m789m123p (waits 2m, 3m; after the kong 2m456m789m123p: 2m only): refused, the
#   policy is not asked, and the drawn 1m is discarded.
@pytest.mark.parametrize(
    ("dealt", "first_win", "locked", "fillers", "kong"),
    [
        ("111m456m789m234p5p", "5p", "456m789m234p5p|C1m", {0: "m+5m", 2: "p", 3: "s+55p"},
         True),
        ("1112m456m789m123p", "3m", "1112m456m789m123p", {0: "m+9m", 2: "p+333m", 3: "p"},
         False),
    ],
)
def test_a_locked_hand_kongs_only_when_the_waits_stay(dealt, first_win, locked, fillers, kong):
    wall = quiet_wall({1: dealt}, f"?1 ?2 ?3 ?0 {first_win} ?2 ?3 ?0 1m" + (" ?1" if kong else ""),
                      fillers=fillers,
                      tail={0: "", 1: locked, 2: "", 3: ""}, first=2)
    events, df = play_river(wall, "speed/speed:kong=always/speed/speed")
    win_pays = [(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")]
    if kong:
        assert story(events) == [("win", 1, first_win), ("kong", 1, "1m")]
        assert of(events, "kong")[0]["kind"] == "concealed"
        assert pays(events) == win_pays + [(0, 1, 2, "kong"), (2, 1, 2, "kong"),
                                           (3, 1, 2, "kong")]
        # a winner receives nothing in the settlement: no refund of its kong money
        assert col(df, "net") == [-4, 12, -4, -4]
        assert col(df, "net_refund") == [0, 0, 0, 0]
    else:
        assert story(events) == [("win", 1, first_win)]
        assert pays(events) == win_pays
        assert col(df, "net") == [-2, 6, -2, -2]
        first_discard = discards_after_first_win(events, 1)[0]
        assert first_discard == (T("1m"), T("1m"))
    assert all(d == t for d, t in discards_after_first_win(events, 1))


# Seat 3 self-draws 9p with four tiles left (111m444m123p456p99p: plain, 2 from each), then
# plays on locked for one more draw. At the drawn end seat 1 (a filler keeping a pair of its
# void suit, 55m) is a flower pig, seat 2 is ready on 1m (123m 999m 11p 123p 789p: terminals,
# 2 fan) or 4m (plain: its worst, 1 unit), seat 0 is not ready. The settlement is among the
# players who never won (0, 1, 2): seat 3 neither pays nor receives in it, except that under
# pig_pay = winner_hand the pig pays it its first win's value, 2^0 = 1.
def _drawn_end_wall():
    rounds = " ".join(f"?{(1, 2, 3, 0)[k % 4]}" for k in range(50))
    return quiet_wall({2: "23m999m11p123p789p", 3: "111m444m123p456p9p"},
                      rounds + " 9p ?0 ?1 ?2 ?3", fillers={0: "p+5p", 1: "m+55m"})


@pytest.mark.parametrize(
    ("overrides", "settlement", "net"),
    [
        ({}, [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 1, "ready")], [7, -22, 9, 6]),
        # pig_payees = all pays the winners too in blood battle, not under blood river
        ({"pig_payees": "all"}, [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 1, "ready")],
         [7, -22, 9, 6]),
        ({"pig_pay": "winner_hand"}, [(1, 3, 1, "pig"), (0, 2, 1, "ready")], [-3, -3, -1, 7]),
        # a winner does not pay the ready check either (pig_pays_ready: the pig does)
        ({"pig_pays_ready": True},
         [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 1, "ready"), (1, 2, 1, "ready")],
         [7, -23, 10, 6]),
    ],
)
def test_drawn_end_settlement_among_the_players_who_never_won(overrides, settlement, net):
    events, df = play_river(_drawn_end_wall(), **overrides)
    assert story(events) == [("win", 3, "9p")]
    assert pays(events, "win") == [(0, 3, 2, "win"), (1, 3, 2, "win"), (2, 3, 2, "win")]
    settle = of(events, "settle")[0]
    assert (settle["pigs"], settle["ready"]) == ([1], [2])
    assert [tuple(p) for p in settle["payments"]] == settlement
    assert col(df, "net") == net
    assert col(df, "pig") == [0, 1, 0, 0] and col(df, "ready_end") == [0, 0, 1, 0]
    assert "among the players who never won: [0, 1, 2]" in render(events)
    assert discards_after_first_win(events, 3) == [(discards_after_first_win(events, 3)[0][0],) * 2]


# ----------------------------------------------------------------------------- invariants
def check_win_table(rec: np.ndarray, wins: np.ndarray, blood_river: bool, n: int = 4) -> None:
    """The win table agrees with the records (``n`` players), deal by deal and seat by seat."""
    assert wins.dtype == WIN_DTYPE
    check_records(rec, n, blood_river=blood_river)
    assert len(wins) == int(rec["wins"].sum())
    first_fields = [("order", "win_order"), ("draw", "win_draw"), ("kind", "win_kind"),
                    ("fed_by", "fed_by"), ("tile", "win_tile"), ("fan", "fan"),
                    ("fan_uncapped", "fan_uncapped"), ("pattern", "pattern"),
                    ("flush", "flush"), ("terminals", "terminals"), ("roots", "roots"),
                    ("bonuses", "bonuses"), ("policy", "policy"), ("wall", "wall"),
                    ("rotation", "rotation")]
    by_deal = {}
    for i, row in enumerate(wins):
        by_deal.setdefault(int(row["deal"]), []).append(i)
    deals = rec["deal"].reshape(-1, n)[:, 0]
    assert set(by_deal) <= set(deals.tolist())
    assert np.all(np.diff(wins["deal"]) >= 0)  # in deal order
    for d, deal in enumerate(deals):
        rows = wins[by_deal.get(int(deal), [])]
        players = rec[n * d: n * d + n]
        # orders: 1 + wins strictly earlier, non-decreasing in play order
        orders = rows["order"].astype(int).tolist()
        assert orders == sorted(orders)
        for k, o in enumerate(orders):
            assert o == 1 + sum(1 for x in orders[:k] if x < o)
        # paid_by: the payments of the wins make every player's net_win
        paid = np.array([[int(r[p]) for p in PAID_BY] for r in rows]).reshape(-1, 4)
        assert (paid[:, n:] == 0).all()  # a three-player table's fourth seat never pays
        for s in range(n):
            mine = rows["seat"] == s
            received = int(paid[mine].sum())
            assert received - int(paid[:, s].sum()) == int(players["net_win"][s])
            assert int(mine.sum()) == int(players["wins"][s])
            assert (paid[mine, s] == 0).all()
            if mine.any():
                own = rows[mine]
                assert own["win_number"].tolist() == list(range(1, len(own) + 1))
                first = own[0]
                for w_name, r_name in first_fields:
                    if w_name == "order":
                        # the record counts players who won earlier, the table wins earlier
                        assert first["order"] >= players["win_order"][s]
                        continue
                    assert first[w_name] == players[r_name][s], (deal, s, w_name)
        if not blood_river:
            assert (rows["order"] == [players["win_order"][s] for s in rows["seat"]]).all()
        # units and paid_by: each payer pays the hand's units, or the discarder alone more
        for r in rows:
            payers = [int(r[p]) for p in PAID_BY if int(r[p]) > 0]
            if r["fed_by"] < 0 and WIN_KIND_NAMES[r["kind"]] in ("self_draw", "kong_flower"):
                assert payers == [int(r["units"])] * len(payers)
            assert PATTERN_NAMES[r["pattern"]]


RIVER_TABLES = ["speed", "random", "speed/random/flush:k=6/pungs:k=4",
                "pairs:k=4/speed:kong=always/random/pungs:k=3"]


@pytest.mark.parametrize("policies", RIVER_TABLES)
def test_every_river_deal_keeps_the_invariants(policies):
    seats = policies.split("/") if "/" in policies else [policies] * 4
    rules = get_rules("river")
    rec, wins = simulate_wins(rules, seats, 3, 0, 300, debug=True)  # the kernel's checker
    check_win_table(rec, wins, True)
    assert rec["winners"].max() <= 4
    assert (rec["wall_left"] == 0).all()  # a river deal ends with the wall
    if policies == "speed":
        # players win again, and all four win in some deals: never in blood battle
        assert rec["wins"].max() >= 2 and rec["winners"].max() == 4


@pytest.mark.parametrize("preset", ["baike", "qq", "app", "tfmj"])
def test_blood_river_on_every_preset(preset):
    rules = resolve_rules(preset, ["blood_river=on"])
    rec, wins = simulate_wins(rules, ["speed", "random", "speed", "flush:k=6"], 5, 0, 200,
                              debug=True)
    check_win_table(rec, wins, True)
    rec, wins = simulate_wins(rules, ["speed"] * 4, 5, 3, 12, duplicate=True, debug=True)
    check_win_table(rec, wins, True)


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if p != "river"))
def test_the_win_table_of_blood_battle_is_the_records_first_wins(preset):
    rules = get_rules(preset)
    seats = ["speed", "random", "pairs:k=4", "flush:k=6"][: rules.players]
    rec, wins = simulate_wins(rules, seats, 2, 0, 300, debug=True)
    check_win_table(rec, wins, False, rules.players)
    assert len(wins) == int((rec["win_order"] > 0).sum())  # one row per winner
    assert (wins["win_number"] == 1).all() and rec["wins"].max() == 1
    # simulate gives the same records
    assert np.array_equal(rec, simulate(rules, seats, 2, 0, 300))


def test_locked_hands_discard_what_they_draw_in_random_deals():
    # random seats discard at random: a locked hand (any seat after its first win) does not
    for deal in range(0, 40, 3):
        events, df = replay(11, deal, "river", "random/speed/random/pairs:k=4")
        for seat in range(4):
            assert all(d == t for d, t in discards_after_first_win(events, seat)), (deal, seat)


def test_the_replay_equals_the_batch_under_river():
    rec, wins = simulate_wins(get_rules("river"), ["speed", "random", "speed", "pairs:k=4"], 4, 0,
                              20)
    for deal in (0, 7, 19):
        events, df = replay(4, deal, "river", "speed/random/speed/pairs:k=4")
        assert df["net"].tolist() == rec["net"][4 * deal: 4 * deal + 4].tolist()
        assert df["wins"].tolist() == rec["wins"][4 * deal: 4 * deal + 4].tolist()
        table = wins[wins["deal"] == deal]
        assert [(e["seat"], e["tile"], e["fan"]) for e in of(events, "win")] == [
            (int(r["seat"]), int(r["tile"]), int(r["fan"])) for r in table]


def test_a_small_win_table_is_grown_and_gives_the_same_rows(monkeypatch):
    from simcore.engine import api

    rules = get_rules("river")
    rec, wins = simulate_wins(rules, ["speed"] * 4, 9, 0, 40)
    monkeypatch.setattr(api, "RIVER_WINS_PER_DEAL", 0)  # every chunk overflows its first table
    rec2, wins2 = simulate_wins(rules, ["speed"] * 4, 9, 0, 40)
    assert np.array_equal(rec, rec2) and np.array_equal(wins, wins2)


@pytest.mark.parametrize("preset", ["classic", "river"])
def test_the_win_table_does_not_depend_on_chunking(preset):
    rules = get_rules(preset)
    seats = ["speed", "random", "speed", "pairs:k=4"]
    rec, wins = simulate_wins(rules, seats, 6, 0, 90)
    parts = [simulate_wins(rules, seats, 6, a, b) for a, b in ((0, 1), (1, 40), (41, 49))]
    assert np.array_equal(rec, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(wins, np.concatenate([p[1] for p in parts]))


# ----------------------------------------------------------------------------- run directory
def _run(tmp_path, name, **kwargs):
    return simcore.run(out=tmp_path / name, progress=False, seed=8, **kwargs)


def test_the_run_directory_keeps_the_win_table(tmp_path):
    ds = _run(tmp_path, "river", deals=60, rules="river", policies="speed/random/speed/pairs:k=4",
              chunk_size=25, workers=1)
    records = pd.read_parquet(ds.path)  # reads the player records only
    assert len(records) == 240 and "win_number" not in records.columns
    assert (tmp_path / "river" / "_wins" / "part-000000.parquet").is_file()
    wins = simcore.load_wins(ds.path)
    assert wins.equals(ds.wins)
    assert len(wins) == int(records["wins"].sum())
    assert wins["kind"].dtype == records["win_kind"].dtype
    assert list(wins["policy"].cat.categories) == list(records["policy"].cat.categories)
    assert wins["deal"].is_monotonic_increasing
    # the same run in one chunk, and over two processes, gives the same table
    one = _run(tmp_path, "one", deals=60, rules="river", policies="speed/random/speed/pairs:k=4",
               chunk_size=60, workers=1)
    pd.testing.assert_frame_equal(one.wins, wins)
    two = _run(tmp_path, "two", deals=60, rules="river", policies="speed/random/speed/pairs:k=4",
               chunk_size=10, workers=2)
    pd.testing.assert_frame_equal(two.wins, wins)
    pd.testing.assert_frame_equal(pd.read_parquet(two.path), records)
    # and the engine's own table of these deals
    _, direct = simulate_wins(get_rules("river"), ["speed", "random", "speed", "pairs:k=4"], 8, 0,
                              60)
    assert wins["seat"].tolist() == direct["seat"].tolist()
    assert wins["units"].tolist() == direct["units"].tolist()


def test_resume_checks_the_win_table(tmp_path):
    ds = _run(tmp_path, "r", deals=40, rules="classic", chunk_size=20, workers=1)
    (ds.path / "_wins" / "part-000001.parquet").unlink()
    with pytest.raises(ValueError, match=r"win table part .*part-000001.parquet is missing"):
        simcore.run(out=ds.path, resume=True, progress=False, deals=40, rules="classic",
                    seed=8, chunk_size=20, workers=1)
    with pytest.raises(ValueError, match=r"no win table part part-000001.parquet"):
        simcore.load_wins(ds.path)
    # --force starts over and writes both again
    again = simcore.run(out=ds.path, force=True, progress=False, deals=40, rules="classic",
                        seed=8, chunk_size=20, workers=1)
    assert len(again.wins) == int(again.records()["wins"].sum())


def test_report_on_a_river_run(tmp_path):
    from simcore.analysis.report import build_report
    from simcore.analysis.report import render as render_report

    ds = _run(tmp_path, "rep", deals=80, rules="river", policies="speed", workers=1)
    report = build_report(ds.path)
    assert {"river_win_fans", "river_wins_per_player", "river_win_value"} <= set(report.tables)
    wins = ds.wins
    value = report.tables["river_win_value"]
    first = value[(value["win_number"] == "first") & (value["metric"] == "units received")]
    received = wins[list(PAID_BY)].sum(axis=1)
    assert first["n"].iloc[0] == int((wins["win_number"] == 1).sum())
    assert first["mean"].iloc[0] == pytest.approx(received[wins["win_number"] == 1].mean())
    fans = report.tables["river_win_fans"]
    every = fans[fans["wins"] == "all"]
    assert every["count"].sum() == len(wins)
    per = report.tables["river_wins_per_player"]
    mean = per[per["value"] == "mean wins"]["estimate"].iloc[0]
    assert mean == pytest.approx(ds.records()["wins"].mean())
    assert "Wins per player per deal" in render_report(report)
    # a river deal's drawn end: the wall ran out with a player who never won
    winners = ds.records(columns=["deal", "winners"]).groupby("deal")["winners"].first()
    assert report.summary["drawn_end_rate"] == pytest.approx((winners < 4).mean())
    assert 0 < report.summary["drawn_end_rate"] < 1
    # a blood-battle run's report has none of these tables
    plain = _run(tmp_path, "plain", deals=40, rules="classic", workers=1)
    assert not {"river_win_fans"} & set(build_report(plain.path).tables)


@pytest.mark.parametrize("spec", ["speed", "random", "flush:k=6", "pungs:k=3", "pairs:k=4",
                                  "expert"])
def test_every_policy_family_plays_river(spec):
    from simcore.testing import check_policy

    checked = check_policy(spec, "river", deals=40, replays=2)
    assert checked.rules == "river"
