"""Scripted walls for the rule book's corrections (docs/rules sections 3, 6 and 8; issue 13) and
the engine defects found with them: the last four tiles, the `qq` preset, the `app` flower
pig's payment, the winning tile of a heavenly win, the self-drawn winning tile made public, and
a replay log that shows everything a win's fan is made of.

Every expected value is worked out by hand from docs/rules (see test_engine_scripted.py for the
conventions: payments are ``(payer, payee, units, reason)``, nets per seat 0..3).
"""

from __future__ import annotations

import pytest
from helpers.scripted import (
    _drawn_end_wall,
    _quiet_rounds,
    build_wall,
    col,
    nets,
    of,
    pays,
    play,
    quiet_wall,
    story,
    wins,
)

from simcore.engine import play as play_deals
from simcore.engine.replay import render, replay
from simcore.rules import get_rules
from simcore.scoring import score
from simcore.tiles import parse, tile_index

T = tile_index


# ----------------------------------------------------------------------------- last four tiles
# docs/rules 3: exactly the last four tiles must be won on. Draw k (from 0, dealer 0) leaves
# 54 - k tiles in the wall and is seat (1 + k) % 4's: draw 51 takes the fourth-last tile (3
# left), draw 50 the fifth-last (4 left).
SHANPON = "123m456m789m22p88p"  # waits on 2p or 8p: plain, 0 fan (123m 456m 789m 222p 88p)


def test_a_win_on_the_fourth_last_tile_is_forced():
    # Seat 0 (the dealer, its lone 9s discarded first) declines every win it may decline and
    # draws 2p as the fourth-last tile: it must win. Self-drawn plain: 2^0 + 1 from each.
    wall = quiet_wall({0: SHANPON + "9s"}, _quiet_rounds(51) + " 2p",
                      fillers={1: "*", 2: "*", 3: "*"}, tail={1: "", 2: "", 3: ""}, first=1)
    events, df = play(wall, "classic", "speed:min_fan=9/speed/speed/speed")
    assert story(events) == [("win", 0, "2p")]
    assert wins(events) == [(0, T("2p"), "self_draw", -1, 0, [])]
    assert col(df, "win_draw") == [52, -1, -1, -1]  # 52 tiles drawn after dealing: 3 left
    assert pays(events, "win") == [(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")]
    assert nets(df)["net"] == [6, -2, -2, -2]


@pytest.mark.parametrize("must_win", [True, False])
def test_a_win_on_the_fifth_last_tile_may_be_declined(must_win):
    # Seat 3 draws 2p as the fifth-last tile (4 left): not one of the last four, so it declines
    # (min_fan=9) with or without the rule. It keeps 12345678m 222p 88p (waits 6m/9m, two-sided,
    # rather than the 2p/8p shanpon) and discards 9m. Seat 1 then discards 9m with 2 tiles left:
    # under the rule seat 3 must win (plain, 1 unit from the discarder); without it seat 3
    # declines again and is paid its worst wait, 1 unit, by each of the three others at the end.
    wall = quiet_wall({3: SHANPON}, _quiet_rounds(50) + " 2p",
                      fillers={0: "*+9p", 1: "*", 2: "*"},
                      tail={0: "", 1: "", 2: "", 3: ""}, first=0)
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9",
                      must_win_last_four=must_win)
    i = next(k for k, e in enumerate(events) if e["type"] == "draw" and e["seat"] == 3
             and e["tile"] == T("2p"))
    assert sum(e["type"] == "draw" for e in events[i + 1:]) == 4  # drawn with 4 left
    assert events[i + 1] == {"type": "discard", "seat": 3, "tile": T("9m")}  # declined
    if must_win:
        assert story(events) == [("win", 3, "9m")]
        assert wins(events) == [(3, T("9m"), "discard", 1, 0, [])]
        assert pays(events) == [(1, 3, 1, "win")]
        assert nets(df)["net"] == [0, -1, 0, 1]
    else:
        assert story(events) == [("pass", 3, "9m")]
        assert pays(events) == [(0, 3, 1, "ready"), (1, 3, 1, "ready"), (2, 3, 1, "ready")]
        assert nets(df)["net"] == [-1, -1, -1, 3]


def test_no_forced_win_before_the_fourth_last_tile_in_a_batch():
    # issue 13's statistic: with every optional win declined, a win before the fourth-last
    # tile (win_draw <= 51) can only be a forced one, and none may be forced there
    df = play_deals(600, rules="classic", policies="speed:min_fan=9", seed=21)
    won = df[df.win_order > 0]
    assert len(won) > 0 and (won.win_draw >= 52).all(), won.win_draw.min()


# ----------------------------------------------------------------------------- presets
def test_qq_need_not_win_the_last_four():
    # docs/rules 8: "定缺规则中最后四张可以不胡" (seed 001's QQ-game list)
    assert get_rules("qq").must_win_last_four is False
    assert get_rules("classic").must_win_last_four is True


def test_app_pigs_pay_the_winners_hands():
    assert get_rules("app").pig_pay == "winner_hand"
    assert {get_rules(p).pig_pay for p in ("classic", "baike", "qq", "tfmj")} == {"flat"}


# ----------------------------------------------------------------------------- pig payment
# test_engine_scripted.py's drawn end: seat 3 self-draws early (plain), seat 1 is a pig,
# seat 2 is ready (worst wait 4m plain; best 1m terminals), seat 0 is not ready.
@pytest.mark.parametrize(
    ("overrides", "settlement", "net"),
    [
        # the winner's hand: 2^0 = 1 from the pig to seat 3, nothing to seats 0 and 2
        ({}, [(1, 3, 1, "pig"), (0, 2, 1, "ready")], [-3, -3, -1, 7]),
        # plain worth 2 fan: the win is 2^2 + 1 from each, the pig pays 2^2 (no self-draw unit),
        # the ready check 2^2 (the worst wait, plain)
        ({"fan_plain": 2}, [(1, 3, 4, "pig"), (0, 2, 4, "ready")], [-9, -9, -1, 19]),
        # capped at 1 fan: the pig pays 2^1
        ({"fan_plain": 2, "fan_cap": 1}, [(1, 3, 2, "pig"), (0, 2, 2, "ready")],
         [-5, -5, -1, 11]),
        # pig_penalty and pig_payees are unused under winner_hand
        ({"pig_penalty": 99, "pig_payees": "all"}, [(1, 3, 1, "pig"), (0, 2, 1, "ready")],
         [-3, -3, -1, 7]),
    ],
)
def test_pig_pays_each_winner_the_value_of_its_hand(overrides, settlement, net):
    events, df = play(_drawn_end_wall(), pig_pay="winner_hand", **overrides)
    assert story(events) == [("win", 3, "9p")]
    settle = of(events, "settle")[0]
    assert (settle["pigs"], settle["ready"]) == ([1], [2])
    assert [tuple(p) for p in settle["payments"]] == settlement
    n = nets(df)
    assert n["net"] == net and sum(n["net"]) == 0
    assert n["net_pig"] == [0, -settlement[0][2], 0, settlement[0][2]]


# ----------------------------------------------------------------------------- heavenly win
def test_heavenly_win_after_the_exchange_records_a_tile_the_dealer_holds():
    # app: the dealer is dealt 123456789m11m + 159p (its 14th, wall tile 52, is 9p) and passes
    # 159p, its only suit of three. Each other seat holds exactly three m (its shortest suit),
    # a pung of 2m, 3m or 4m, and passes them: whichever arrives completes a full flush. The
    # winning tile must be in the final hand: 9p was passed away, so the highest tile, 9m.
    # (what the three others do after the dealer has won does not matter here)
    wall = build_wall({0: "12345678911m159p", 1: "222m1234p123456s", 2: "333m5678p345678s",
                       3: "444m1239p789123s"})
    assert wall[52] == T("9p")
    events, df = play(wall, "app")
    given = of(events, "exchange")[0]["given"]
    assert sorted(given[0]) == [T("1p"), T("5p"), T("9p")]
    win = of(events, "win")[0]
    assert (win["seat"], win["kind"], win["bonuses"]) == (0, "self_draw", ["heaven_earth"])
    assert win["tile"] == T("9m") and col(df, "win_tile")[0] == T("9m")
    counts, melds = parse(win["hand"], sizes="any")
    assert counts[T("9m")] >= 1 and counts[T("9p")] == 0 and not melds
    assert win["fan"] == 5 and win["units"] == 33  # heaven_earth = max: max_fan 5, + 1 unit


# ----------------------------------------------------------------------------- visibility
@pytest.mark.parametrize("counts", [True, False])
def test_a_self_drawn_winning_tile_is_public(counts):
    # Seed 000: the winner shows its winning tile. Seat 1 (kanchan 4p6p) self-draws 5p on its
    # first draw (an earthly win, plain: 2^0 + 1 from each); filler 0 (void p) then draws and
    # discards the three other 5p, which seat 3 (kanchan 4p6p too, declining every win) passes.
    # All four 5p are now visible to seat 3: a dead wait, ready only when dead_wait_counts
    # (docs/rules 6). Had the winning 5p stayed hidden, seat 3 would see three and be ready.
    script = "5p ?2 ?3 5p ?2 ?3 5p ?2 ?3 5p"
    wall = quiet_wall({1: "123m456m789m46p88p", 3: "123s456s789s46p11p"}, script,
                      fillers={0: "p+9p", 2: "s"}, tail={0: "", 2: "", 3: ""}, first=2)
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9",
                      dead_wait_counts=counts)
    assert story(events) == [("win", 1, "5p")] + [("pass", 3, "5p")] * 3
    assert pays(events, "win") == [(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")]
    settle = of(events, "settle")[0]
    assert settle["ready"] == ([3] if counts else [])
    expected = [(0, 3, 1, "ready"), (2, 3, 1, "ready")] if counts else []
    assert [tuple(p) for p in settle["payments"]] == expected
    assert col(df, "ready_end") == [0, 0, 0, int(counts)]


# ----------------------------------------------------------------------------- the replay log
def _logged_wins(preset, policies, seeds, deals):
    for seed in seeds:
        for deal in range(deals):
            events, _ = replay(seed, deal, rules=preset, policies=policies)
            yield preset, events, [e for e in events if e["type"] == "win"]


@pytest.mark.parametrize("preset", ["classic", "baike", "app", "tfmj"])
def test_every_logged_win_can_be_rescored_from_the_log(preset):
    # issue 13: a reader checks the fan from the log alone. Re-score every logged hand with the
    # public scoring API: pattern, flush, terminals, roots, fan before and after the cap, units.
    seen = 0
    for _, events, wins_ in _logged_wins(preset, "speed/random/flush:k=8/pungs:k=4", [7], 25):
        void = {s: v for s, v in enumerate(of(events, "void")[0]["suits"])}
        for w in wins_:
            bonus = [b for b in w["bonuses"] if b != "heaven_earth"]
            got = score(w["hand"], rules=preset, self_draw=w["self_draw"], bonuses=bonus,
                        heaven_earth="heaven_earth" in w["bonuses"], void=void[w["seat"]])
            assert (got.pattern, got.flush, got.terminals, got.roots) == (
                w["pattern"], w["flush"], w["terminals"], w["roots"]), w
            assert (got.fan, got.fan_uncapped, got.units) == (
                w["fan"], w["fan_uncapped"], w["units"]), w
            seen += 1
    assert seen >= 20


def test_the_win_line_names_every_part_of_the_fan():
    # issue 13's example deal: a full flush must say so in the text and the JSON
    events, _ = replay(7, 123, rules="app", policies="speed/random/flush:k=8/pungs:k=4")
    text = render(events)
    for w in of(events, "win"):
        assert {"hand", "flush", "terminals", "units", "self_draw"} <= set(w)
    lines = [line for line in text.splitlines() if " WINS on " in line]
    assert len(lines) == len(of(events, "win")) > 0
    for line, w in zip(lines, of(events, "win"), strict=True):
        assert f"with {w['hand']}:" in line and f"{w['fan']} fan" in line
        assert ("flush" in line) == w["flush"] and f"{w['units']} unit" in line
