"""The variants of docs/rules section 9: three players (``players = 3``) and two suits
(``suits = 2``), their presets ``two_suit3`` and ``two_suit4``, and how every layer plays them.

Scripted walls pin the rules (three-player turn order and the end at two winners, payments by
the other players of the table; two suits: no void, no pig, a drawn end), the invariant
checker runs on every deal of the new presets and of ``players = 3`` on every preset, and bad
input naming an ``m`` tile under two suits is an error naming the tile. The exact dealing
checks for the 72-tile set are in ``test_engine_contract.py`` (enumerated in
``test_exact_probabilities.py``); the policy contract on the new presets in
``test_policies.py`` and ``test_engine_contract.py`` (they loop over every preset).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.scripted import build_wall, nets, of, pays, play, tiles

from simcore.engine import simulate
from simcore.engine.api import play as play_deals
from simcore.engine.invariants import check_records
from simcore.engine.replay import play_wall, render, replay
from simcore.rules import PRESETS, VARIANTS, Rules, get_rules, resolve_rules

BASE_PRESETS = ("classic", "baike", "qq", "app", "tfmj")
# docs/rules section 9, copied: preset | based on | parameters
VARIANT_TABLE = """
two_suit3 | classic | players 3, suits 2
two_suit4 | classic | suits 2
"""
# the ids of the five presets before the variant parameters existed (main at b7ba44b): a rules
# record at the variants' defaults keeps its id, so stored runs and results stay comparable
OLD_IDS = {"classic": "e64b7f17213a", "baike": "21eed7af6465", "qq": "66fd2db92d84",
           "app": "d02d3e8cdcaf", "tfmj": "36b86dd0b5a1"}


# ----------------------------------------------------------------------------- rules
@pytest.mark.parametrize("line", VARIANT_TABLE.strip().splitlines())
def test_variant_presets_match_rules_md(line: str) -> None:
    name, base, params = (c.strip() for c in line.split("|"))
    changes = {k: int(v) for k, v in (p.split() for p in params.split(", "))}
    rules = PRESETS[name]
    assert rules.preset == name
    assert rules.to_dict() == {**PRESETS[base].to_dict(), "preset": name, **changes}


def test_old_ids_are_unchanged() -> None:
    assert {name: PRESETS[name].id for name in BASE_PRESETS} == OLD_IDS
    assert VARIANTS == ("players", "suits", "blood_river")
    assert PRESETS["two_suit3"].id not in OLD_IDS.values()
    assert get_rules("classic", players=3).id != get_rules("classic", suits=2).id


def test_records_stored_before_the_variants_read_as_the_defaults() -> None:
    stored = PRESETS["qq"].to_dict()
    assert "players" not in stored and "suits" not in stored  # as written before the variants
    back = Rules.from_dict(stored)
    assert back == PRESETS["qq"] and back.id == OLD_IDS["qq"]
    assert resolve_rules(stored) == PRESETS["qq"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 5}, r"players: 5 is not one of 4, 3"),
        ({"players": 2}, r"players: 2 is not one of 4, 3"),
        ({"players": "3"}, r"players: '3' is not one of 4, 3"),
        ({"players": True}, r"players: True is not one of 4, 3"),
        ({"suits": 1}, r"suits: 1 is not one of 3, 2"),
        ({"suits": 2.0}, r"suits: 2.0 is not one of 3, 2"),
    ],
)
def test_bad_variant_values_are_named(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules("classic", **overrides)


def test_variants_are_overridable_and_combine_with_every_preset() -> None:
    assert resolve_rules("app", ["players=3"]).players == 3
    assert resolve_rules("app", ["suits=2"]).suits == 2
    with pytest.raises(ValueError, match="players: 'three' is not an integer"):
        resolve_rules("app", ["players=three"])
    with pytest.raises(ValueError, match="players: 5 is not one of 4, 3"):
        resolve_rules("app", ["players=5"])
    for name in PRESETS:
        for players in (4, 3):
            for suits in (3, 2):
                rules = get_rules(name, players=players, suits=suits)
                assert (rules.players, rules.suits) == (players, suits)
                assert int(rules.encode().players) == players
                assert int(rules.encode().suits) == suits
                assert Rules.from_json(rules.to_json()) == rules


def test_variants_are_described_for_help() -> None:
    from simcore.rules import describe_parameters

    by_name = {d["name"]: d for d in describe_parameters()}
    assert by_name["players"]["allowed"] == [4, 3] and by_name["players"]["default"] == 4
    assert by_name["suits"]["allowed"] == [3, 2] and by_name["suits"]["default"] == 3
    assert by_name["players"]["section"] == by_name["suits"]["section"] == "9"


# ----------------------------------------------------------------------------- invariants
FAMILIES = ("speed", "flush:k=6", "pungs:k=3", "pairs:k=4", "random")
VARIANT_RULES = [("two_suit3", ()), ("two_suit4", ()),
                 *((name, ("players=3",)) for name in BASE_PRESETS),
                 ("app", ("players=3", "suits=2")), ("baike", ("suits=2",))]


@pytest.mark.parametrize(("preset", "overrides"), VARIANT_RULES)
def test_invariants_on_every_deal_of_the_variants(preset: str, overrides: tuple[str, ...]) -> None:
    rules = resolve_rules(preset, overrides)
    players = rules.players
    for k, family in enumerate(FAMILIES):
        seats = [family, "random", "speed"][:players] + ["flush"] * (players - 3)
        for duplicate in (False, True):
            out = simulate(rules, seats, seed=31 + k, start=0, count=600, duplicate=duplicate,
                           debug=True)  # the kernel's checker on every deal
            check_records(out, players, rules.suits)
            per = out.reshape(-1, players)
            assert (per["seat"] == np.arange(players)).all()
            assert (per["winners"][:, 0] <= players - 1).all()
            assert (per["wall_left"][:, 0] >= 0).all()
            assert (per["dealer"].sum(axis=1) == 1).all()
            if rules.suits == 2:
                assert not out["pig"].any() and (out["void_suit"] == -1).all()
                assert (out["net_pig"] == 0).all()
            else:
                assert (out["void_suit"] >= 0).all()
            if duplicate:
                assert np.array_equal(out["deal"], players * out["wall"] + out["rotation"])
                dealer_wall = out["wall"][out["dealer"]]
                assert np.array_equal(out["seat"][out["dealer"]], dealer_wall % players)
            else:
                assert np.array_equal(out["seat"][out["dealer"]], out["deal"][out["dealer"]]
                                      % players)


def test_a_three_player_deal_draws_the_rest_of_the_wall() -> None:
    # 40 dealt with three players and two suits: 32 drawn; 53 and 19 with four players
    for preset, drawn in (("two_suit3", 32), ("two_suit4", 19)):
        rules = PRESETS[preset]
        out = simulate(rules, ["speed"] * rules.players, seed=3, start=0, count=400)
        per = out.reshape(-1, rules.players)
        draws = per["draws"].sum(axis=1) + per["wall_left"][:, 0]
        assert (draws == drawn).all(), preset


def test_policy_lists_follow_the_players() -> None:
    rules = PRESETS["two_suit3"]
    out = simulate(rules, ["speed", "random", "flush"], seed=1, start=0, count=5)
    assert len(out) == 15
    with pytest.raises(ValueError, match="name 4 seats; give one spec for all seats or three"):
        simulate(rules, ["speed"] * 4, seed=1, start=0, count=5)
    with pytest.raises(ValueError, match="name 3 seats; give one spec for all seats or four"):
        simulate(PRESETS["classic"], ["speed"] * 3, seed=1, start=0, count=5)
    df = play_deals(6, rules="two_suit3", policies="speed", seed=2)
    assert len(df) == 18 and df.void_suit.isna().all()


# ----------------------------------------------------------------------------- bad input
def test_void_options_under_two_suits() -> None:
    for spec in ("speed:void=m", "expert:void=m"):
        with pytest.raises(ValueError, match="void=m names the suit m, which is not in the tile "
                                             "set with suits = 2"):
            play_deals(1, rules="two_suit4", policies=spec)
    with pytest.raises(ValueError, match="void=p fixes a void suit, but with suits = 2 no void"):
        play_deals(1, rules="two_suit3", policies="flush:void=p")
    # the void choices have nothing to choose: accepted
    assert len(play_deals(2, rules="two_suit4", policies="pungs:void=weakest")) == 8
    assert len(play_deals(2, rules="classic", policies="speed:void=m")) == 8


def test_score_names_an_m_tile_under_two_suits() -> None:
    from simcore.scoring import ready_value, score

    with pytest.raises(ValueError, match="hand '123m456789p1122s' names the tile 1m, which is "
                                         "not in the tile set with suits = 2"):
        score("123m456p789p11s22s", "two_suit4")
    with pytest.raises(ValueError, match="names the tile 5m"):
        score("456p789p11s22s|P5m", "two_suit3")
    with pytest.raises(ValueError, match="void: 'p' given, but with suits = 2 no void"):
        score("123p456p789p11s22s", "two_suit3", void="p")
    with pytest.raises(ValueError, match="names the tile 9m"):
        ready_value("123p456p789p11s2s9m", "two_suit3")
    won = score("123p456p789p11s222s", "two_suit3")
    assert won.win and won.void == -1 and "void: none" in won.describe()
    assert score("123p456p789p11s222s", "classic").void == 0  # m: the suit the hand lacks


def test_cli_score_names_an_m_tile(capsys) -> None:
    from simcore.cli import main

    assert main(["score", "123m456p789p11s22s", "--rules", "two_suit4"]) != 0
    assert "names the tile 1m" in capsys.readouterr().err


def test_whatif_names_an_m_tile_and_says_what_it_plays() -> None:
    from simcore.rollouts import prepare

    with pytest.raises(ValueError, match="hand '2m123456789p112s' names the tile 2m"):
        prepare("2m123456789p11s2s", rules="two_suit4", deals=10)
    with pytest.raises(ValueError, match="what-if deals are played with four players and three "
                                         "suits; rules 'classic' have players = 3"):
        prepare("123456789p11s23s", rules="classic", overrides=["players=3"], deals=10)


def test_play_wall_checks_the_tile_set() -> None:
    wall = [9 + k // 4 for k in range(72)]
    with pytest.raises(ValueError, match="a wall has 72 tiles with suits = 2"):
        play_wall(list(range(27)) * 4, "two_suit4")
    with pytest.raises(ValueError, match="tile types 9..26 exactly four times"):
        play_wall([0] + wall[1:], "two_suit4")
    with pytest.raises(ValueError, match="dealer must be a seat 0..2, got 3"):
        play_wall(wall, "two_suit3", dealer=3)


# ----------------------------------------------------------------------------- replay, runs
def test_replay_of_a_three_player_deal() -> None:
    batch = simulate(PRESETS["two_suit3"], ["speed", "random", "speed"], seed=4, start=0,
                     count=12)
    for deal in (0, 7, 11):
        events, records = replay(4, deal, "two_suit3", "speed/random/speed")
        rows = batch[3 * deal: 3 * deal + 3]
        assert records.net.tolist() == rows["net"].tolist() == events[-1]["net"]
        assert len(events[0]["hands"]) == 3 and len(events[0]["wall"]) == 72
        assert [len(h) for h in events[0]["hands"]] == [14 if s == deal % 3 else 13
                                                        for s in range(3)]
        assert not of(events, "void")  # no void is declared with two suits
        json.dumps(events)
        assert "void" not in render(events)
    out = simulate(PRESETS["two_suit3"], ["speed", "random", "flush"], seed=4, start=2, count=2,
                   duplicate=True)
    for rotation in range(3):
        _events, records = replay(4, 3 * 3 + rotation, "two_suit3", "speed/random/flush",
                                  duplicate=True)
        rows = out[(out["wall"] == 3) & (out["rotation"] == rotation)]
        assert records.net.tolist() == rows["net"].tolist()
        assert records.policy.astype(str).tolist() == [
            ["speed", "random", "flush"][(s + rotation) % 3] for s in range(3)]



# ----------------------------------------------------------------------------- scripted walls
# classic with three players, dealer 0 (14 tiles, void s: it discards 9s first, then waits on
# 1p/4p); seat 1 (void p) waits on 6m; seat 2 (void p) holds one p tile and is never ready
THREE = {0: "123456789m1123p9s", 1: "57m11123456788s", 2: "1346789m23569s"}


def _three_player_wall(seat2_void_tile: str, draws: str) -> list[int]:
    dealt = {**THREE, 2: THREE[2] + seat2_void_tile}
    return build_wall(dealt, draws, dealer=0, players=3)


def test_three_players_turn_order_and_the_end_at_two_winners_on_a_discard() -> None:
    # 0 discards 9s; 1 draws 6m and wins (earthly, self-drawn: paid by 0 and 2, the other
    # players at this table); 2 draws 7s and must discard its void tile 4p: 0 wins on it, and
    # with players - 1 = 2 winners the deal ends (no drawn-end settlement)
    events, df = play(_three_player_wall("4p", "6m 7s"), "classic", dealer=0, players=3)
    assert [(e["seat"], e["tile"]) for e in of(events, "draw")] == [(1, tiles("6m")[0]),
                                                                    (2, tiles("7s")[0])]
    assert [(e["seat"], e["tile"]) for e in of(events, "discard")] == [(0, tiles("9s")[0]),
                                                                       (2, tiles("4p")[0])]
    wins = of(events, "win")
    assert [(w["seat"], w["kind"], w["from"], w["fan"]) for w in wins] == [
        (1, "self_draw", -1, 0), (0, "discard", 2, 0)]
    assert pays(events, "win") == [(0, 1, 2, "win"), (2, 1, 2, "win"), (2, 0, 1, "win")]
    assert not of(events, "settle")
    assert nets(df)["net"] == [-1, 4, -3]
    assert df.win_order.tolist() == [2, 1, 0] and (df.winners == 2).all()
    assert (df.next_dealer == 1).all() and len(df) == 3
    assert events[-1]["wall_left"] == 108 - 40 - 2  # 40 tiles dealt to three players


def test_three_players_turn_order_wraps_from_seat_2_to_the_dealer() -> None:
    # as above, but 2 discards 6p (no one's wait); the dealer draws next (2 -> 0: seat 3 is not
    # at the table) and self-draws 4p, paid by 2 alone (1 has won): 2^0 + 1 units
    events, df = play(_three_player_wall("6p", "6m 7s 4p"), "classic", dealer=0, players=3)
    assert [e["seat"] for e in of(events, "draw")] == [1, 2, 0]
    assert pays(events, "win") == [(0, 1, 2, "win"), (2, 1, 2, "win"), (2, 0, 2, "win")]
    assert nets(df)["net"] == [0, 4, -4]
    assert not of(events, "settle")


def test_three_players_exchange_passes_next_or_previous() -> None:
    rules = get_rules("app", players=3)
    out = simulate(rules, ["speed"] * 3, seed=12, start=0, count=4_000)
    direction = out["exchange_dir"][::3]
    assert set(np.unique(direction)) == {1, 2}  # next, previous; never across
    share = (direction == 1).mean()
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / len(direction)), share
    events, _df = replay(12, 5, rules, "speed")
    exchange = of(events, "exchange")[0]
    step = {"next": 1, "previous": 2}[exchange["direction"]]
    hands = [list(h) for h in events[0]["hands"]]
    for s, given in enumerate(exchange["given"]):
        for t in given:
            hands[s].remove(t)
            hands[(s + step) % 3].append(t)
    # every seat gave three tiles of one suit to the seat the direction names
    assert all(len({t // 9 for t in g}) == 1 and len(g) == 3 for g in exchange["given"])
    assert sorted(sum(hands, [])) == sorted(sum(events[0]["hands"], []))


# two suits, three players: every tile of ranks 3..7 is dealt (40 tiles), the 32 drawn tiles are
# the ranks 1, 2, 8 and 9, which no hand can use; with ukeire off a speed seat breaks the tie
# between equal discards by the outer rank, so it throws away every tile it draws and nobody
# can pung or win on it: the deal runs to a drawn end
DRAWN = {0: "3334477p4445577s", 1: "345567p3355666s", 2: "4556667p334677s"}
OUTER_TILES = "1289p 1289s"


def test_two_suits_drawn_end_without_void_or_pig() -> None:
    draws = [t for _ in range(4) for t in tiles(OUTER_TILES)]
    wall = build_wall(DRAWN, draws, dealer=0, players=3, suits=2)
    assert len(wall) == 72 and wall[39] == tiles("7s")[0]  # the dealer's 14th: its highest
    events, df = play(wall, "two_suit3", "speed:ukeire=0", dealer=0)
    assert {e["type"] for e in events} == {"deal", "discard", "draw", "settle", "end"}
    assert not of(events, "void")  # no void declaration
    assert of(events, "discard")[0] == {"type": "discard", "seat": 0, "tile": tiles("3p")[0]}
    draws_seen = of(events, "draw")
    assert [e["seat"] for e in draws_seen] == [1, 2, 0] * 10 + [1, 2]  # turn order, 32 draws
    discards = of(events, "discard")[1:]
    assert [(e["seat"], e["tile"]) for e in discards] == [(e["seat"], e["tile"])
                                                          for e in draws_seen]
    # the drawn end: no flower pig (no hand can hold three suits); the ready check, classic's
    # ready_pay = min: seat 0 (334477p4445577s) waits on 4s only: seven pairs with a root
    # (four 4s), 2 + 1 fan = 8 units; seat 1 (345567p3355666s) waits on 3s or 5s, a plain hand
    # either way, 1 unit; seat 2 is not ready and pays both
    settle = of(events, "settle")[0]
    assert settle["pigs"] == [] and settle["ready"] == [0, 1]
    assert settle["ready_value"] == [8, 1, 0]
    assert pays(events) == [(2, 0, 8, "ready"), (2, 1, 1, "ready")]
    assert nets(df)["net"] == [8, 1, -9] and nets(df)["net_ready"] == [8, 1, -9]
    assert df.void_suit.isna().all() and not df.pig.any()
    assert df.ready_end.tolist() == [True, True, False] and (df.wall_left == 0).all()
    # a 72-tile wall is a two-suit wall: three suits need all 108 tiles
    with pytest.raises(ValueError, match="a wall has 108 tiles with suits = 3"):
        play_wall(wall, "classic", "speed:ukeire=0", overrides=["players=3"])


# ----------------------------------------------------------------------------- run + report
@pytest.mark.parametrize(("rules", "overrides", "policies", "duplicate"), [
    ("two_suit3", [], "flush:k=6/speed/random", True),
    ("two_suit4", [], "speed", False),
    ("qq", ["players=3"], "speed/pungs:k=3/speed", True),
])
def test_run_and_report_end_to_end(tmp_path, capsys, rules: str, overrides: list[str],
                                   policies: str, duplicate: bool) -> None:
    import simcore
    from simcore.analysis import build_report, compare_policies, seat_effects
    from simcore.cli import main

    record = resolve_rules(rules, overrides)
    players = record.players
    out = tmp_path / "run"
    args = ["run", "--deals", str(300 * players), "--rules", rules, "--policies", policies,
            "--out", str(out), "--workers", "1", "--chunk-size", str(50 * players), "--quiet"]
    for o in overrides:
        args += ["--set", o]
    assert main(args + (["--duplicate"] if duplicate else [])) == 0
    records, meta = simcore.load(out)
    assert len(records) == players * 300 * players  # players rows per deal
    assert meta["rules"].get("players", 4) == players and meta["rules_id"] == record.id
    check_records(_as_array(records), players, record.suits)
    assert records.groupby("deal").net.sum().eq(0).all()
    assert records.groupby("deal").seat.count().eq(players).all()
    report = build_report(out)
    assert report.summary["deals"] == 300 * players
    assert report.summary["player_deals"] == len(records)
    winners = report.tables["win_order"]
    levels = winners[(winners["metric"] == "winners") & (winners["split"] == "winners")]["level"]
    assert sorted(levels.astype(int).unique()) == list(range(players))
    seats = seat_effects(out)
    relative = set(seats[seats["split"] == "seat_from_dealer"]["level"])
    assert relative == ({"dealer", "next", "previous"} if players == 3
                        else {"dealer", "next", "across", "previous"})
    if "/" in policies:
        assert not compare_policies(out, baseline="speed").empty
    assert main(["report", str(out), "--format", "markdown"]) == 0
    assert "two_suit" in capsys.readouterr().out or rules == "qq"


def _as_array(frame):
    """The record array of a records DataFrame (codes for the categorical columns)."""
    from simcore.records import RECORD_DTYPE

    frame = frame.sort_values(["deal", "seat"])
    out = np.zeros(len(frame), dtype=RECORD_DTYPE)
    for name in RECORD_DTYPE.names:
        column = frame[name]
        if name == "pattern":
            column = column.cat.codes - 1
        elif name in ("void_suit", "win_kind", "exchange_dir", "policy"):
            column = column.cat.codes
        out[name] = column.to_numpy()
    return out
