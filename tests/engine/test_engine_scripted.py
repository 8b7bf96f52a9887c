"""Scripted-wall tests of the engine: hand-built walls that force a situation, with the exact
payments and record nets each rule of docs/rules (sections 2-7) and each variant value implies.

Every expected value below is worked out by hand from docs/rules, not read off the engine. The
walls come from :mod:`helpers.scripted`: seats that act are given their hands, the
others are "fillers" (not ready, nothing of one suit, which they void) that discard every tile
they draw; "?k" in a script is a tile seat k draws and discards without effect, and the rest of
the wall is such tiles. What the tests rely on of the ``speed`` policy: it voids the suit it
holds fewest of, discards void-suit tiles first (a lone one first, the lowest rank first), wins
whenever it can (``min_fan``/``until`` make it decline), pungs when its shanten does not grow,
and with ``kong=always`` makes every kong it can, the lowest tile first. ``story`` pins
everything else that happened (no unplanned pung, kong, pass or win).

Payments are ``(payer, payee, units, reason)``; nets are per seat 0..3. Every deal is played
through ``scripted.play``, which runs the invariant checker on it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import splitmix
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
    tiles,
    wins,
)

from simcore.engine.rng import deal_walls
from simcore.tiles import SUITS, tile_index, tile_str

T = tile_index


# ----------------------------------------------------------------------------- helpers
def test_build_wall_places_hands_and_draws():
    wall = build_wall({1: "123m456m789m123p5p"}, "5p 9s", dealer=3)
    assert len(wall) == 108 and all(wall.count(t) == 4 for t in range(27))
    # dealer 3 takes tiles 0..12 and 52, then seats 0, 1, 2 in blocks of 13
    assert sorted(wall[26:39]) == sorted([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13])
    assert wall[53:55] == [T("5p"), T("9s")]
    with pytest.raises(ValueError, match="more than four"):
        build_wall({0: "1111m456m789m123p5p"}, "1m")
    with pytest.raises(ValueError, match="dealt 13 tiles, expected 14"):
        build_wall({0: "123m456m789m123p5p"})


# ----------------------------------------------------------------------------- exchange, void
# Every seat holds exactly three m tiles, a different three per seat, and five or six each of
# p and s: the speed policy (exchange = shortest) passes its three m. The receiver then holds
# three lone m tiles, no other m: it voids m and discards them first, lowest rank first, on
# its first three turns, before anything else happens (nobody may pung or win on a void tile,
# and the scripted draws, p and s, make no kong). Its first three discards are what it got.
EXCHANGE_HANDS = {0: "147m12345p123456s", 1: "258m12345p12345s", 2: "369m56789p56789s",
                  3: "159m56789p45678s"}
EXCHANGE_DRAWS = "9s 9s 9s 6p 7p 8p 6p 7p 8p 2p 3p"
# the direction is the first draw of the deal's engine stream: deals 0, 1, 2 of seed 0
EXCHANGE_DEAL = {"next": 0, "previous": 1, "across": 2}


@pytest.mark.parametrize(
    ("direction", "received"),
    [
        # docs/rules 2: to the next seat (clockwise): seat s gets seat s - 1's tiles
        ("next", {0: "159m", 1: "147m", 2: "258m", 3: "369m"}),
        # to the previous seat: seat s gets seat s + 1's tiles
        ("previous", {0: "258m", 1: "369m", 2: "159m", 3: "147m"}),
        # across: seat s gets seat s + 2's tiles
        ("across", {0: "369m", 1: "159m", 2: "147m", 3: "258m"}),
    ],
)
def test_exchange_three_goes_to_the_seat_of_the_direction(direction, received):
    deal = EXCHANGE_DEAL[direction]
    assert splitmix.exchange_direction(0, deal) == direction
    events, df = play(build_wall(EXCHANGE_HANDS, EXCHANGE_DRAWS), "app", seed=0, deal=deal)
    (exchange,) = of(events, "exchange")
    assert exchange["direction"] == direction
    assert [sorted(g) for g in exchange["given"]] == [tiles(EXCHANGE_HANDS[s][:4])
                                                      for s in range(4)]
    assert of(events, "void")[0]["suits"] == ["m"] * 4
    discards = of(events, "discard")
    assert [e["seat"] for e in discards[:12]] == [0, 1, 2, 3] * 3
    first = {s: [e["tile"] for e in discards[:12] if e["seat"] == s] for s in range(4)}
    assert first == {s: tiles(text) for s, text in received.items()}
    before = events.index(discards[11])
    assert story(events[:before]) == []
    assert col(df, "exchange_dir") == [direction] * 4


def _discards_holding_void(events):
    """For every discard: (seat, tile, does the seat hold a void-suit tile when it discards),
    the hands followed through the log."""
    hands = [Counter(h) for h in events[0]["hands"]]
    void = [-1] * 4
    out = []
    for ev in events:
        kind, seat, tile = ev["type"], ev.get("seat"), ev.get("tile")
        if kind == "exchange":
            step = {"next": 1, "previous": 3, "across": 2}[ev["direction"]]
            for giver, given in enumerate(ev["given"]):
                hands[giver].subtract(given)
                hands[(giver + step) % 4].update(given)
        elif kind == "void":
            void = [SUITS.index(v) for v in ev["suits"]]
        elif kind == "draw":
            hands[seat][tile] += 1
        elif kind == "discard":
            held = any(n > 0 and t // 9 == void[seat] for t, n in hands[seat].items())
            out.append((seat, tile, held))
            hands[seat][tile] -= 1
        elif kind == "pung":
            hands[seat][tile] -= 2
        elif kind == "kong":
            hands[seat][tile] -= {"direct": 3, "added": 1, "concealed": 4}[ev["kind"]]
    return out, void


@pytest.mark.parametrize("void_first", [True, False])
def test_void_first(void_first):
    # docs/rules 2 (void_first): while a player holds void-suit tiles, each discard must be one
    # of them. The greedy policies discard void tiles first by choice, so only the random
    # policy (a uniformly random legal discard) shows the rule: with it off, random seats
    # discard other tiles while still holding void ones.
    void_discards = other_discards = 0
    for wall in deal_walls(8, 0, 30):
        events, _df = play(wall.tolist(), "classic", "random", void_first=void_first)
        discards, void = _discards_holding_void(events)
        for seat, tile, held in discards:
            if held:
                if tile // 9 == void[seat]:
                    void_discards += 1
                else:
                    other_discards += 1
    assert void_discards > 100
    if void_first:
        assert other_discards == 0
    else:
        assert other_discards > 100


# ----------------------------------------------------------------------------- wins
@pytest.mark.parametrize(
    ("rules", "overrides", "fan", "units"),
    [
        ("classic", {}, 0, 2),  # heaven_earth = normal: a plain hand, 2^0 + 1 self-draw unit
        ("baike", {}, 3, 9),  # heaven_earth = max, max_fan 3: 2^3 + 1
        ("app", {"exchange_three": False}, 5, 33),  # max_fan 5: 2^5 + 1
    ],
)
def test_heavenly_win(rules, overrides, fan, units):
    # docs/rules 7: a heavenly win (dealer complete on the dealt hand) is a self-drawn win, every
    # other player pays; under heaven_earth = max it is worth exactly max_fan. docs/rules 6: the
    # first winner deals next. The three others then play the wall out without effect.
    wall = quiet_wall({0: "123m456m789m234p55p"}, fillers={1: "*", 2: "*", 3: "*"},
                      tail={1: "", 2: "", 3: ""}, first=1)
    events, df = play(wall, rules, **overrides)
    assert story(events) == [("win", 0, "5p")]
    assert wins(events) == [(0, T("5p"), "self_draw", -1, fan, ["heaven_earth"])]
    assert pays(events) == [(1, 0, units, "win"), (2, 0, units, "win"), (3, 0, units, "win")]
    assert nets(df)["net"] == nets(df)["net_win"] == [3 * units, -units, -units, -units]
    assert col(df, "next_dealer") == [0] * 4
    assert col(df, "win_order") == [1, 0, 0, 0]
    assert events[-1]["wall_left"] == 0


@pytest.mark.parametrize(("rules", "fan", "units"), [("classic", 0, 2), ("baike", 3, 9)])
def test_earthly_win_on_first_draw(rules, fan, units):
    # docs/rules 7: earthly win, a non-dealer complete on its first own draw (self-drawn: all pay).
    wall = quiet_wall({0: "1379m123456789p5s", 1: "123m456m789m234p5p"}, "5p",
                      fillers={2: "4p9s", 3: "5m8s"}, tail={0: "", 2: "", 3: ""}, first=2)
    events, df = play(wall, rules)
    assert story(events) == [("win", 1, "5p")]
    assert of(events, "discard")[0] == {"type": "discard", "seat": 0, "tile": T("5s")}
    assert wins(events) == [(1, T("5p"), "self_draw", -1, fan, ["heaven_earth"])]
    assert pays(events) == [(0, 1, units, "win"), (2, 1, units, "win"), (3, 1, units, "win")]
    assert nets(df)["net"] == [-units, 3 * units, -units, -units]
    assert col(df, "next_dealer") == [1] * 4


@pytest.mark.parametrize(("rules", "fan", "units"), [("classic", 0, 1), ("baike", 3, 8)])
def test_earthly_win_on_dealers_first_discard(rules, fan, units):
    # docs/rules 7: earthly win on the dealer's first discard: a win on a discard, the dealer
    # pays alone, no self-draw unit; under heaven_earth = max exactly 2^max_fan.
    wall = quiet_wall({0: "1379m123456789s5p", 1: "123m456m789m234p5p"},
                      fillers={2: "5m8p", 3: "5p8s"}, tail={0: "", 2: "", 3: ""}, first=2)
    events, df = play(wall, rules)
    assert story(events) == [("win", 1, "5p")]
    assert wins(events) == [(1, T("5p"), "discard", 0, fan, ["heaven_earth"])]
    assert pays(events) == [(0, 1, units, "win")]
    assert nets(df)["net"] == [-units, units, 0, 0]
    assert col(df, "fed_by") == [-1, 0, -1, -1]
    assert col(df, "deal_ins") == [1, 0, 0, 0]


def test_earthly_win_needs_an_uninterrupted_start():
    # docs/developer/engine.md (docs/rules 7 is silent): no earthly win after a pung. Seat 1
    # pungs the dealer's first discard; seat 2 then wins on its first draw: an ordinary
    # self-drawn win (baike: plain, 2^0 + 1 from each other player, not max_fan). At the drawn
    # end seat 1 (123m456m789m + pung 5p, waiting on 9p) is ready for 1 unit.
    wall = quiet_wall({1: "55p123m456m789m9p1s", 2: "123s456s789s123p4p"}, "4p",
                      fillers={0: "p+5p", 3: "*"},
                      tail={0: "", 1: "123m456m789m9p|P5p", 3: ""}, first=3)
    events, df = play(wall, "baike")
    assert story(events) == [("pung", 1, "5p"), ("win", 2, "4p")]
    assert wins(events) == [(2, T("4p"), "self_draw", -1, 0, [])]
    assert pays(events) == [(0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win"),
                            (0, 1, 1, "ready"), (3, 1, 1, "ready")]
    assert nets(df)["net"] == [-3, 0, 6, -3]


def test_two_winners_on_one_discard():
    # docs/rules 3: every player who claims a win on a discard wins on it (一炮多响), the
    # discarder pays each; play goes on after the winner furthest from the discarder (seat 1
    # discards, seats 2 and 0 win: seat 1 itself draws next). docs/rules 5: winners leave play
    # and pay nothing for later wins. docs/rules 6: several first winners -> the discarder deals.
    wall = quiet_wall(
        {0: "123p456p789p99p46s9m", 2: "111s222s999s5s888p", 3: "123m456m789m123p7p"},
        "5s ?1 ?3 ?1 7p", fillers={1: "6m7p"})
    events, df = play(wall)
    assert story(events) == [("win", 2, "5s"), ("win", 0, "5s"), ("win", 3, "7p")]
    assert wins(events) == [
        (2, T("5s"), "discard", 1, 1, []),  # all pungs: 1 fan
        (0, T("5s"), "discard", 1, 0, []),  # plain: 0 fan
        (3, T("7p"), "self_draw", -1, 0, []),
    ]
    assert pays(events) == [(1, 2, 2, "win"), (1, 0, 1, "win"), (1, 3, 2, "win")]
    draws = [e["seat"] for e in of(events, "draw")]
    assert draws == [1, 1, 3, 1, 3]
    assert nets(df)["net"] == [1, -5, 2, 2]
    assert col(df, "win_order") == [1, 0, 1, 3]
    assert col(df, "deal_ins") == [0, 2, 0, 0]
    assert col(df, "next_dealer") == [1] * 4
    # three winners end the deal at once: no drawn-end settlement
    assert of(events, "settle") == [] and events[-1]["wall_left"] == 55 - 5


def test_three_winners_on_one_discard_end_the_deal():
    # docs/rules 3 and 6: three winners on one discard; the deal ends at once (no settlement),
    # the discarder deals next.
    wall = quiet_wall(
        {0: "123p456p789p99p46s9m", 2: "111s222s999s5s888p", 3: "123p456p777p34s66s"},
        "5s", fillers={1: "6m7p"})
    events, df = play(wall)
    assert story(events) == [("win", 2, "5s"), ("win", 3, "5s"), ("win", 0, "5s")]
    assert [w[:4] for w in wins(events)] == [
        (2, T("5s"), "discard", 1), (3, T("5s"), "discard", 1), (0, T("5s"), "discard", 1)]
    assert pays(events) == [(1, 2, 2, "win"), (1, 3, 1, "win"), (1, 0, 1, "win")]
    assert nets(df)["net"] == [1, -4, 2, 1]
    assert col(df, "winners") == [3] * 4 and col(df, "next_dealer") == [1] * 4
    assert of(events, "settle") == [] and events[-1]["wall_left"] == 54


@pytest.mark.parametrize(
    ("bonus", "u2", "u1", "u3"),
    [
        # self_draw_bonus: base = 2^fan + 1, fan = 2^(fan + 1), none = 2^fan (docs/rules 7)
        ("base", 5, 2, 3),
        ("fan", 8, 2, 4),
        ("none", 4, 1, 2),
    ],
)
def test_self_drawn_wins_and_winners_leaving_play(bonus, u2, u1, u3):
    # docs/rules 7: a self-drawn win is paid by every other player still in play, each the full
    # amount. docs/rules 5: a winner leaves play at once and pays nothing for later kongs and
    # wins. docs/rules 4: a concealed kong takes 2 from every other player in play.
    # Seat 2 self-draws seven pairs (2 fan); seat 3 then konges 3m (seats 0, 1 pay); seat 1
    # self-draws a plain hand (0 fan; seats 0, 3 pay); seat 3 self-draws plain + 1 root (the
    # kong) = 1 fan (seat 0 pays alone), the third win ends the deal.
    wall = quiet_wall(
        {0: "1479m123456789s5p", 1: "456m789m123p789p9p", 2: "11p22p33p44p66s77s8s",
         3: "333m123p456p789p5m"},
        "?1 ?2 ?3 ?0 ?1 8s 3m ?3 ?0 9p 5m")
    events, df = play(wall, policies="speed/speed/speed/speed:kong=always",
                      self_draw_bonus=bonus)
    assert story(events) == [("win", 2, "8s"), ("kong", 3, "3m"), ("win", 1, "9p"),
                             ("win", 3, "5m")]
    assert [w[:3] for w in wins(events)] == [
        (2, T("8s"), "self_draw"), (1, T("9p"), "self_draw"), (3, T("5m"), "self_draw")]
    assert [e["pattern"] for e in of(events, "win")] == ["seven_pairs", "plain", "plain"]
    assert pays(events) == [
        (0, 2, u2, "win"), (1, 2, u2, "win"), (3, 2, u2, "win"),
        (0, 3, 2, "kong"), (1, 3, 2, "kong"),
        (0, 1, u1, "win"), (3, 1, u1, "win"),
        (0, 3, u3, "win"),
    ]
    n = nets(df)
    assert n["net_kong"] == [-2, -2, 0, 4]
    assert n["net_win"] == [-u2 - u1 - u3, -u2 + 2 * u1, 3 * u2, -u2 - u1 + u3]
    assert n["net"] == [a + b for a, b in zip(n["net_win"], n["net_kong"], strict=True)]
    assert col(df, "win_order") == [0, 2, 1, 3]
    assert col(df, "next_dealer") == [2] * 4


# ----------------------------------------------------------------------------- kongs
KONGER = "speed/speed:kong=always/speed/speed"  # seat 1 makes every kong it can, lowest first
# Seat 1 pungs the dealer's first discard 5p, then draws the fourth 5p while it holds four 2m
# (or four 8p): the speed policy makes its kongs in tile order, so 2m (concealed) comes before
# 5p (added, after a replacement draw: not the tile just drawn), and 5p (added, the tile just
# drawn) before 8p. Its hand is not ready at the drawn end.
ADDED_LATE = ("55p2222m123p79p1m1s", "123p79p1m9m|K5pC2m")
ADDED_AT_ONCE = ("55p8888p123m79m4m1s", "123m79m4m9m|K5pC8p")


def _kong_wall(hands):
    dealt, frozen = hands
    return quiet_wall({1: dealt}, "?2 ?3 ?0 5p ?1 9m", fillers={0: "p+5p", 2: "*", 3: "*"},
                      tail={0: "", 1: frozen, 2: "", 3: ""}, first=2)


CONCEALED_2M = [(0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong")]
ADDED_5P = [(0, 1, 1, "kong"), (2, 1, 1, "kong"), (3, 1, 1, "kong")]


@pytest.mark.parametrize(
    ("hands", "only_on_draw", "expected"),
    [
        # docs/rules 4: a concealed kong takes 2 from each other player in play, an added kong 1
        (ADDED_LATE, False, [("concealed", "2m", CONCEALED_2M), ("added", "5p", ADDED_5P)]),
        # added_kong_only_on_draw: the added kong made after another kong's replacement draw
        # is not made with the tile just drawn: no money
        (ADDED_LATE, True, [("concealed", "2m", CONCEALED_2M), ("added", "5p", [])]),
        # ... while an added kong made with the tile just drawn is paid either way
        (ADDED_AT_ONCE, False, [("added", "5p", ADDED_5P), ("concealed", "8p", CONCEALED_2M)]),
        (ADDED_AT_ONCE, True, [("added", "5p", ADDED_5P), ("concealed", "8p", CONCEALED_2M)]),
    ],
)
def test_concealed_and_added_kong_payments(hands, only_on_draw, expected):
    events, df = play(_kong_wall(hands), policies=KONGER, added_kong_only_on_draw=only_on_draw,
                      refund_kongs_if_not_ready=False)
    assert story(events) == [("pung", 1, "5p")] + [("kong", 1, tile) for _, tile, _ in expected]
    assert of(events, "pung") == [{"type": "pung", "seat": 1, "tile": T("5p"), "from": 0}]
    kongs = of(events, "kong")
    assert [(k["seat"], k["kind"], k["from"], k["robbed"]) for k in kongs] == [
        (1, kind, -1, False) for kind, _, _ in expected]
    assert [[tuple(p) for p in k["payments"]] for k in kongs] == [p for _, _, p in expected]
    received = sum(u for _, _, p in expected for _, _, u, _ in p)
    n = nets(df)
    assert n["net"] == n["net_kong"] == [-received // 3, received, -received // 3,
                                         -received // 3]
    assert col(df, "kongs") == [0, 2, 0, 0] and col(df, "pungs") == [0, 1, 0, 0]
    assert col(df, "kongs_added") == [0, 1, 0, 0] and col(df, "kongs_concealed") == [0, 1, 0, 0]
    assert of(events, "win") == [] and col(df, "next_dealer") == [0] * 4


@pytest.mark.parametrize("refund", [True, False])
def test_refund_of_kong_money(refund):
    # docs/rules 4 (退税, refund_kongs_if_not_ready): at a drawn end a player in play who is not
    # ready returns all kong money received this deal to those who paid it.
    events, df = play(_kong_wall(ADDED_LATE), policies=KONGER,
                      refund_kongs_if_not_ready=refund)
    assert story(events) == [("pung", 1, "5p"), ("kong", 1, "2m"), ("kong", 1, "5p")]
    settle = of(events, "settle")[0]
    assert settle["ready"] == [] and settle["pigs"] == []
    kong_money = CONCEALED_2M + ADDED_5P
    refunds = [(b, a, u, "refund") for a, b, u, _ in kong_money] if refund else []
    assert pays(events) == kong_money + refunds
    n = nets(df)
    assert n["net_kong"] == [-3, 9, -3, -3]
    assert n["net_refund"] == ([3, -9, 3, 3] if refund else [0, 0, 0, 0])
    assert n["net"] == ([0, 0, 0, 0] if refund else [-3, 9, -3, -3])


def test_ready_kong_maker_keeps_its_kong_money():
    # docs/rules 4 and 6: a kong maker who is ready at the drawn end refunds nothing, and its
    # ready value counts each kong as a root: 123p789p11m + kongs 5p, 2m = plain + 2 roots = 4
    # units from each player in play who is not ready (ready_pay min, one wait).
    wall = quiet_wall({1: ADDED_LATE[0]}, "?2 ?3 ?0 5p ?1 8p",
                      fillers={0: "p+5p", 2: "*", 3: "*"},
                      tail={0: "", 1: "123p789p1m|K5pC2m", 2: "", 3: ""}, first=2)
    events, df = play(wall, policies=KONGER)
    assert story(events) == [("pung", 1, "5p"), ("kong", 1, "2m"), ("kong", 1, "5p")]
    settle = of(events, "settle")[0]
    assert settle["ready"] == [1] and settle["ready_value"] == [0, 4, 0, 0]
    assert pays(events) == CONCEALED_2M + ADDED_5P + [
        (0, 1, 4, "ready"), (2, 1, 4, "ready"), (3, 1, 4, "ready")]
    n = nets(df)
    assert n["net"] == [-7, 21, -7, -7]
    assert n["net_kong"] == [-3, 9, -3, -3] and n["net_ready"] == [-4, 12, -4, -4]
    assert n["net_refund"] == [0, 0, 0, 0]


# Seat 1 holds three 5p and konges the dealer's first discard 5p; its replacement 9p wins
# (kong flower): 123m456m789m99p + kong 5p = plain + 1 root + kong flower = 2 fan.
def _direct_kong_wall():
    return quiet_wall({1: "555p123m456m789m9p"}, "9p", fillers={0: "p+5p", 2: "*", 3: "*"},
                      tail={0: "", 2: "", 3: ""}, first=2)


@pytest.mark.parametrize(
    ("overrides", "kong_pays", "win_pays", "fed_by", "net"),
    [
        # direct_kong_flower = discard: paid as a win on the kong tile's discard, by its
        # discarder alone, no self-draw unit: 2^2 = 4
        ({}, [(0, 1, 2, "kong")], [(0, 1, 4, "win")], 0, [-6, 6, 0, 0]),
        # direct_kong_flower = self_draw: every other player pays 2^2 + 1
        ({"direct_kong_flower": "self_draw"}, [(0, 1, 2, "kong")],
         [(0, 1, 5, "win"), (2, 1, 5, "win"), (3, 1, 5, "win")], -1, [-7, 17, -5, -5]),
        # drizzle: the direct kong also takes 1 from each other player in play (the discarder
        # too, who pays 2 + 1)
        ({"drizzle": True},
         [(0, 1, 2, "kong"), (0, 1, 1, "drizzle"), (2, 1, 1, "drizzle"), (3, 1, 1, "drizzle")],
         [(0, 1, 4, "win")], 0, [-7, 9, -1, -1]),
    ],
)
def test_direct_kong_and_kong_flower(overrides, kong_pays, win_pays, fed_by, net):
    # docs/rules 4: a direct kong takes 2 from the discarder; the kong flower (+1 fan) after it is
    # paid per direct_kong_flower; docs/rules 7: each kong is a root.
    events, df = play(_direct_kong_wall(), policies=KONGER, **overrides)
    assert story(events) == [("kong", 1, "5p"), ("win", 1, "9p")]
    (kong,) = of(events, "kong")
    assert (kong["seat"], kong["tile"], kong["kind"], kong["from"]) == (1, T("5p"), "direct", 0)
    assert [tuple(p) for p in kong["payments"]] == kong_pays
    assert of(events, "draw")[0] == {"type": "draw", "seat": 1, "tile": T("9p"),
                                     "replacement": True}
    assert wins(events) == [(1, T("9p"), "kong_flower", fed_by, 2, ["kong_flower"])]
    assert of(events, "win")[0]["roots"] == 1
    # the kong maker has left play: nothing to refund at the drawn end
    assert pays(events) == kong_pays + win_pays
    n = nets(df)
    assert n["net"] == net
    assert n["net_win"][1] == sum(u for *_, u, _ in win_pays)
    assert n["net_kong"][1] == sum(u for *_, u, _ in kong_pays)
    assert col(df, "fed_by") == [-1, fed_by, -1, -1]
    assert col(df, "deal_ins") == [1 if fed_by == 0 else 0, 0, 0, 0]
    assert col(df, "next_dealer") == [1] * 4


def test_kong_flower_after_a_kong_chained_on_a_direct_kong_is_self_drawn():
    # docs/rules 4 (seed 000): under direct_kong_flower = discard, when the direct kong's
    # replacement is itself konged and the next replacement wins, that is an ordinary
    # self-drawn kong flower: 123m456m99p + kongs 5p, 7m = plain + 2 roots + kong flower = 3 fan,
    # each other player pays 2^3 + 1.
    wall = quiet_wall({1: "555p777m123m456m9p"}, "7m 9p", fillers={0: "p+5p", 2: "*", 3: "*"},
                      tail={0: "", 2: "", 3: ""}, first=2)
    events, df = play(wall, policies=KONGER)
    assert story(events) == [("kong", 1, "5p"), ("kong", 1, "7m"), ("win", 1, "9p")]
    assert [(k["kind"], k["tile"]) for k in of(events, "kong")] == [
        ("direct", T("5p")), ("concealed", T("7m"))]
    assert wins(events) == [(1, T("9p"), "kong_flower", -1, 3, ["kong_flower"])]
    assert pays(events) == [
        (0, 1, 2, "kong"), (0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong"),
        (0, 1, 9, "win"), (2, 1, 9, "win"), (3, 1, 9, "win")]
    assert nets(df)["net"] == [-13, 35, -11, -11]


def test_robbing_an_added_kong():
    # docs/rules 4 (抢杠胡): seat 1 pungs 5p and later adds the fourth; seat 3 waits on 5p and
    # robs it: the kong fails (no kong money, the pung stays), seat 3 wins as on a discard of
    # seat 1, +1 fan: 123s456s789s456p99p plain + robbed kong = 1 fan, seat 1 pays 2. Play
    # goes on after the robber (seat 0 draws). At the drawn end seat 1 (pung 5p, 123m456m789m,
    # waiting on 9p) is ready for 1 unit (plain, no root: the fourth 5p went to the robber).
    wall = quiet_wall({1: "55p123m456m789m9p1s", 3: "123s456s789s4p99p5m"}, "?2 6p ?0 5p",
                      fillers={0: "p+5p", 2: "*"},
                      tail={0: "", 1: "123m456m789m9p|P5p", 2: ""}, first=0)
    events, df = play(wall, policies=KONGER)
    assert story(events) == [("pung", 1, "5p"), ("kong", 1, "5p"), ("win", 3, "5p")]
    (kong,) = of(events, "kong")
    assert (kong["seat"], kong["tile"], kong["kind"], kong["robbed"], kong["payments"]) == (
        1, T("5p"), "added", True, [])
    assert wins(events) == [(3, T("5p"), "robbed_kong", 1, 1, ["robbed_kong"])]
    assert pays(events, "win") == [(1, 3, 2, "win")]
    i = events.index(of(events, "win")[0])
    assert events[i + 1] == {"type": "draw", "seat": 0, "tile": events[i + 1]["tile"],
                             "replacement": False}
    settle = of(events, "settle")[0]
    assert settle["ready"] == [1] and settle["ready_value"][1] == 1
    assert pays(events, "settle") == [(0, 1, 1, "ready"), (2, 1, 1, "ready")]
    n = nets(df)
    assert n["net"] == [-1, 0, -1, 2]
    assert n["net_kong"] == [0, 0, 0, 0]
    assert col(df, "kongs") == [0, 0, 0, 0] and col(df, "pungs") == [0, 1, 0, 0]
    assert col(df, "fed_by") == [-1, -1, -1, 1] and col(df, "deal_ins") == [0, 1, 0, 0]
    assert col(df, "next_dealer") == [3] * 4


# Seat 1 draws 5s, konges its four 2m (concealed), draws 9p and discards 5s (kong discard,
# 杠上炮); seat 2 (123p456p789p46s88s) wins on it: plain + kong discard = 1 fan. Seat 1 is not
# ready at the drawn end.
def _kong_discard_wall():
    return quiet_wall({1: "2222m456m789m11p3p", 2: "123p456p789p46s88s"}, "5s 9p",
                      fillers={0: "m+9m", 3: "*"},
                      tail={0: "", 1: "456m789m11p3p9p|C2m", 3: ""}, first=3)


@pytest.mark.parametrize(
    ("overrides", "win_pays", "refunds", "net"),
    [
        # plain rules: the discarder pays 2^1; at the drawn end seat 1 refunds its kong money
        ({}, [(1, 2, 2, "win")], True, [0, -2, 2, 0]),
        ({"refund_kongs_if_not_ready": False}, [(1, 2, 2, "win")], False, [-2, 4, 0, -2]),
        # kong_discard_pays_all: the discarder pays (2^1 + 1) for each of the 3 other players
        # in play (seats 0, 1, 3)
        ({"kong_discard_pays_all": True}, [(1, 2, 9, "win")], True, [0, -9, 9, 0]),
        # ... with self_draw_bonus = fan the self-drawn value is 2^(1 + 1) per payer
        # (docs/developer/engine.md), for 3 payers; the win itself keeps its 1 fan
        ({"kong_discard_pays_all": True, "self_draw_bonus": "fan"}, [(1, 2, 12, "win")], True,
         [0, -12, 12, 0]),
        # ... the self-draw fan counts before the cap: 2^min(2, 1) for 3 payers
        ({"kong_discard_pays_all": True, "self_draw_bonus": "fan", "fan_cap": 1},
         [(1, 2, 6, "win")], True, [0, -6, 6, 0]),
        # ... and with no self-draw bonus, 2^1 for 3 payers
        ({"kong_discard_pays_all": True, "self_draw_bonus": "none"}, [(1, 2, 6, "win")], True,
         [0, -6, 6, 0]),
        # kong_discard_transfer (呼叫转移): the discarder also pays the winner the 6 its kong
        # earned; that money is not refunded again (docs/developer/engine.md)
        ({"kong_discard_transfer": True}, [(1, 2, 2, "win"), (1, 2, 6, "transfer")], False,
         [-2, -2, 6, -2]),
    ],
)
def test_kong_discard(overrides, win_pays, refunds, net):
    # docs/rules 4 (杠上炮): the discard right after a kong's replacement draw, won on, +1 fan.
    events, df = play(_kong_discard_wall(), policies=KONGER, **overrides)
    assert story(events) == [("kong", 1, "2m"), ("win", 2, "5s")]
    assert pays(events, "kong") == CONCEALED_2M
    assert wins(events) == [(2, T("5s"), "discard", 1, 1, ["kong_discard"])]
    assert pays(events, "win") == win_pays
    assert pays(events, "settle") == (
        [(1, 0, 2, "refund"), (1, 2, 2, "refund"), (1, 3, 2, "refund")] if refunds else [])
    n = nets(df)
    assert n["net"] == net
    transfer = sum(u for _, _, u, r in win_pays if r == "transfer")
    assert n["net_kong"] == [-2, 6 - transfer, -2 + transfer, -2]
    assert n["net_win"] == [0, -win_pays[0][2], win_pays[0][2], 0]
    assert n["net_refund"] == ([2, -6, 2, 2] if refunds else [0, 0, 0, 0])


@pytest.mark.parametrize(
    ("overrides", "win_pays", "refunds", "net"),
    [
        ({}, [(1, 2, 2, "win"), (1, 3, 2, "win")], True, [0, -4, 2, 2]),
        # pays_all: each winner is paid for the 3 other players in play (counted before the
        # winners leave, docs/developer/engine.md): (2^1 + 1) x 3
        ({"kong_discard_pays_all": True}, [(1, 2, 9, "win"), (1, 3, 9, "win")], True,
         [0, -18, 9, 9]),
        # ... with self_draw_bonus = fan: 2^(1 + 1) x 3 to each winner (docs/developer/engine.md)
        ({"kong_discard_pays_all": True, "self_draw_bonus": "fan"},
         [(1, 2, 12, "win"), (1, 3, 12, "win")], True, [0, -24, 12, 12]),
        # transfer: each winner gets what the kong earned, 6
        ({"kong_discard_transfer": True},
         [(1, 2, 2, "win"), (1, 2, 6, "transfer"), (1, 3, 2, "win"), (1, 3, 6, "transfer")],
         False, [-2, -10, 6, 6]),
    ],
)
def test_two_winners_on_a_kong_discard(overrides, win_pays, refunds, net):
    # docs/rules 3 and 4: seat 1 draws 5m, konges its four 2p, draws 1p and discards 5m; seats 2
    # (46m) and 3 (34m) both win on it, plain + kong discard = 1 fan each. Play goes on with
    # seats 0 and 1; seat 1 is not ready at the drawn end (refunds unless transferred).
    wall = quiet_wall(
        {1: "2222p9p13s456s789s", 2: "46m111p345p678p99p", 3: "34m555p666p777p88p"}, "5m 1p",
        fillers={0: "s+2s"}, tail={0: "", 1: "19p13s456s789s|C2p"}, first=0)
    events, df = play(wall, policies=KONGER, **overrides)
    assert story(events) == [("kong", 1, "2p"), ("win", 2, "5m"), ("win", 3, "5m")]
    assert [w[:5] for w in wins(events)] == [(2, T("5m"), "discard", 1, 1),
                                             (3, T("5m"), "discard", 1, 1)]
    assert pays(events) == (
        [(0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong")] + win_pays
        + ([(1, 0, 2, "refund"), (1, 2, 2, "refund"), (1, 3, 2, "refund")] if refunds else []))
    assert nets(df)["net"] == net
    assert col(df, "next_dealer") == [1] * 4 and col(df, "deal_ins") == [0, 2, 0, 0]


# ----------------------------------------------------------------------------- passed wins
# Seat 3 waits on 1m (123m 99m 123p 789p 789p: terminals, 2 fan) and 4m (234m: plain, 0 fan)
# and declines every win while more than ``until`` tiles remain. Seats 1 and 2 void m and
# discard the m tiles they draw: seat 1 draws first (54 tiles left), seat 2 next (53 left).
# The dealer (waiting on 3p/6p) and seat 1 (waiting on 7p) then self-draw, and seat 3 wins
# (here or by a later self-draw of 4m): three winners end the deal. Self-drawn plain wins are
# worth 2^0 + 1 = 2 from each payer.
WAITER = "23m99m123p789p789p"
PASS_HANDS = {0: "456m567m345p456p6p9s", 1: "123s456s789s222p7p", 3: WAITER}


@pytest.mark.parametrize(
    ("script", "rule", "win"),
    [
        # seat 3 declines 4m from seat 1, then seat 2 discards 4m or 1m (until=53: seat 3
        # takes any win it may take); docs/rules 3:
        ("4m 4m", "none", (T("4m"), 0, 1)),
        ("4m 4m", "same_tile", None),  # the same tile type: no
        ("4m 4m", "unless_higher", None),  # not more fan than declined: no
        ("1m 4m", "none", (T("4m"), 0, 1)),
        ("1m 4m", "same_tile", (T("4m"), 0, 1)),  # another tile: yes
        ("1m 4m", "unless_higher", None),  # 0 fan after declining 2: no
        ("4m 1m", "none", (T("1m"), 2, 4)),
        ("4m 1m", "same_tile", (T("1m"), 2, 4)),
        ("4m 1m", "unless_higher", (T("1m"), 2, 4)),  # 2 fan > 0: yes
    ],
)
def test_passed_win_rules(script, rule, win):
    if win is None:  # seat 3 draws, the two others win, seat 2 draws, seat 3 self-draws 4m
        script += " ?3 6p 7p ?2 4m"
    else:  # seat 3 leaves; the dealer and seat 1 win on their next draws
        script += " 6p 7p"
    wall = quiet_wall(PASS_HANDS, script, fillers={2: "m"})
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9,until=53",
                      pass_win_rule=rule)
    first = T(script.split()[0])
    assert of(events, "pass") == [{"type": "pass", "seat": 3, "tile": first,
                                   "fan": 2 if first == T("1m") else 0}]
    others = [("win", 0, "6p"), ("win", 1, "7p")]
    assert story(events) == [("pass", 3, tile_str(first))] + (
        others + [("win", 3, "4m")] if win is None else [("win", 3, tile_str(win[0]))] + others)
    self_drawn = [(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win"),
                  (2, 1, 2, "win"), (3, 1, 2, "win")]
    if win is None:
        assert [w[:3] for w in wins(events)] == [
            (0, T("6p"), "self_draw"), (1, T("7p"), "self_draw"), (3, T("4m"), "self_draw")]
        assert pays(events) == self_drawn + [(2, 3, 2, "win")]
        assert nets(df)["net"] == [6, 2, -6, -2]
    else:
        tile, fan, units = win
        assert wins(events)[0] == (3, tile, "discard", 2, fan, [])
        assert pays(events) == [(2, 3, units, "win")] + [p for p in self_drawn if 3 not in p[:2]]
        assert nets(df)["net"] == [4, 0, -units - 4, units]
    assert col(df, "passed_wins") == [0, 0, 0, 1]


@pytest.mark.parametrize("rule", ["none", "same_tile", "unless_higher"])
def test_passed_win_forgiven_at_the_next_draw(rule):
    # docs/rules 3: the restriction lasts until the player's next draw: seat 3 declines 4m from
    # seat 1, draws, and wins on seat 1's next 4m under every rule.
    wall = quiet_wall(PASS_HANDS, "4m ?2 ?3 ?0 4m 6p 7p", fillers={2: "m"})
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9,until=53",
                      pass_win_rule=rule)
    assert story(events) == [("pass", 3, "4m"), ("win", 3, "4m"), ("win", 0, "6p"),
                             ("win", 1, "7p")]
    assert wins(events)[0] == (3, T("4m"), "discard", 1, 0, [])
    assert nets(df)["net"] == [4, -1, -4, 1]


@pytest.mark.parametrize(("rule", "wins_third", "passes"), [
    ("none", True, 2),
    # seat 3 declined 4m and then 1m: same_tile forbids both tile types, not only the last
    ("same_tile", False, 2),
    # after declining 0 fan no later discard win of 0 fan is offered (1m neither)
    ("unless_higher", False, 1),
])
def test_passed_win_after_two_declines(rule, wins_third, passes):
    # docs/rules 3: seat 3 (1234m 123p456p789p: 1m and 4m, both plain) declines the dealer's
    # first discard 4m (55 tiles left) and seat 1's 1m (54 left); seat 2 discards 4m with 53
    # left (until=53: seat 3 would take it). The dealer (waiting on 5s) and seat 1 (7p) then
    # self-draw; without a win on 4m seat 3 self-draws 4m after them.
    hands = {0: "123p456p789p111s5s4m", 1: "123s456s789s99s68p", 3: "1234m123p456p789p"}
    script = "1m 4m " + ("5s 7p" if wins_third else "?3 5s 7p ?2 4m")
    events, df = play(quiet_wall(hands, script, fillers={2: "m"}), "classic",
                      "speed/speed/speed/speed:min_fan=9,until=53", pass_win_rule=rule)
    assert [(e["tile"], e["fan"]) for e in of(events, "pass")] == [(T("4m"), 0), (T("1m"), 0)][
        :passes]
    passed = [("pass", 3, "4m"), ("pass", 3, "1m")][:passes]
    others = [("win", 0, "5s"), ("win", 1, "7p")]
    assert story(events) == passed + (
        [("win", 3, "4m")] + others if wins_third else others + [("win", 3, "4m")])
    if wins_third:
        assert wins(events)[0] == (3, T("4m"), "discard", 2, 0, [])
        assert nets(df)["net"] == [4, 0, -5, 1]
    else:
        assert [w[:3] for w in wins(events)] == [
            (0, T("5s"), "self_draw"), (1, T("7p"), "self_draw"), (3, T("4m"), "self_draw")]
        assert nets(df)["net"] == [6, 2, -6, -2]
    assert col(df, "passed_wins") == [0, 0, 0, passes]


# ----------------------------------------------------------------------------- end of the wall
# Seat 3 (123m456m789m123p5p, plain) waits on 5p and declines every win (min_fan=9); seats 0
# and 2 void p. Draw k (from 0) leaves 54 - k tiles in the wall and is seat (1 + k) % 4's.
@pytest.mark.parametrize("must_win", [True, False])
def test_must_win_last_four(must_win):
    # docs/rules 3: the last four tiles must be won on. Seat 2 discards 5p with 5 tiles left
    # (seat 3 declines), seat 3 draws (4 left), seat 0 draws the fourth-last tile and discards
    # 5p with 3 left: seat 3 must win; then seat 0 (the next in play after the winner) draws.
    # (The draws around the fourth-last tile: tests/engine/test_rule_corrections.py.)
    script = _quiet_rounds(49) + " 5p ?3 5p"
    tail = {0: "", 1: "", 2: ""} if must_win else {0: "", 1: "", 2: "", 3: ""}
    wall = quiet_wall({3: "123m456m789m123p5p"}, script,
                      fillers={0: "p+9p", 1: "*", 2: "p"}, tail=tail, first=0 if must_win else 1)
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9",
                      must_win_last_four=must_win)
    passes = of(events, "pass")
    assert story(events) == [("pass", 3, "5p")] + (
        [("win", 3, "5p")] if must_win else [("pass", 3, "5p")])
    if must_win:
        assert [(p["seat"], p["tile"]) for p in passes] == [(3, T("5p"))]
        assert wins(events) == [(3, T("5p"), "discard", 0, 0, [])]
        i = events.index(of(events, "win")[0])
        assert events[i + 1]["type"] == "draw" and events[i + 1]["seat"] == 0
        assert pays(events) == [(0, 3, 1, "win")]
        assert nets(df)["net"] == [-1, 0, 0, 1]
    else:
        assert len(passes) == 2 and of(events, "win") == []
        assert pays(events) == [(0, 3, 1, "ready"), (1, 3, 1, "ready"), (2, 3, 1, "ready")]
        assert nets(df)["net"] == [-1, -1, -1, 3]


def test_last_tile_self_draw():
    # docs/rules 7: a win on the wall's last tile, +1 fan: plain + last tile = 1 fan, self-drawn,
    # 2^1 + 1 from each other player; the wall is then empty: a drawn end for the three others
    # (nobody ready, no pig: nothing to pay).
    wall = quiet_wall({3: "123m456m789m123p5p"}, _quiet_rounds(54) + " 5p",
                      fillers={0: "*+9p", 1: "*", 2: "*"})
    events, df = play(wall)
    assert story(events) == [("win", 3, "5p")]
    assert wins(events) == [(3, T("5p"), "self_draw", -1, 1, ["last_tile"])]
    assert pays(events) == [(0, 3, 3, "win"), (1, 3, 3, "win"), (2, 3, 3, "win")]
    assert of(events, "settle")[0]["payments"] == []
    assert nets(df)["net"] == [-3, -3, -3, 9]
    assert events[-1]["wall_left"] == 0


def test_last_tile_discard():
    # docs/rules 7: a win on the discard after the wall's last tile, +1 fan; the discarder pays
    # alone: plain + last tile = 1 fan = 2 units.
    wall = quiet_wall({1: "123m456m789m123p5p"}, _quiet_rounds(54) + " 5p",
                      fillers={0: "*+9s", 2: "*", 3: "p"})
    events, df = play(wall)
    assert story(events) == [("win", 1, "5p")]
    assert wins(events) == [(1, T("5p"), "discard", 3, 1, ["last_tile"])]
    assert pays(events) == [(3, 1, 2, "win")]
    assert nets(df)["net"] == [0, 2, 0, -2]


def test_kong_flower_on_the_last_tile():
    # docs/rules 7: a kong whose replacement is the wall's last tile and wins gets both kong flower
    # and last tile: 123m456m789m99p + concealed kong 5p = plain + 1 root + 2 = 3 fan,
    # self-drawn: 2^3 + 1 from each other player, after 2 each for the kong.
    wall = quiet_wall({2: "555p123m456m789m9p"}, _quiet_rounds(53) + " 5p 9p",
                      fillers={0: "*+9s", 1: "*", 3: "*"})
    events, df = play(wall, policies="speed/speed/speed:kong=always/speed")
    assert story(events) == [("kong", 2, "5p"), ("win", 2, "9p")]
    assert [(k["kind"], k["tile"]) for k in of(events, "kong")] == [("concealed", T("5p"))]
    assert wins(events) == [(2, T("9p"), "kong_flower", -1, 3, ["kong_flower", "last_tile"])]
    assert pays(events) == [(0, 2, 2, "kong"), (1, 2, 2, "kong"), (3, 2, 2, "kong"),
                            (0, 2, 9, "win"), (1, 2, 9, "win"), (3, 2, 9, "win")]
    assert nets(df)["net"] == [-11, -11, 33, -11]


@pytest.mark.parametrize("left", [0, 4])
def test_last_discard_can_only_be_won(left):
    # docs/developer/engine.md: after the wall's last tile is discarded only a win can claim it.
    # Seat 1 (not ready) holds 55p; seat 3 discards 5p with 4 tiles left (seat 1 pungs it) or as
    # the discard after the last tile (no pung: the deal ends). Nobody is ready: nothing is paid.
    script = _quiet_rounds(54) + " 5p" if left == 0 else _quiet_rounds(50) + " 5p ?2 ?3 ?0 ?1"
    wall = quiet_wall({1: "124579m13789p55p"}, script, fillers={0: "*+9s", 2: "*", 3: "p"})
    events, df = play(wall)
    assert story(events) == ([] if left == 0 else [("pung", 1, "5p")])
    assert pays(events) == [] and events[-1]["wall_left"] == 0


def test_no_kong_on_an_empty_wall():
    # docs/rules 4: no kong when the wall is empty. Seat 3 (kong=always) holds 555p and draws the
    # fourth 5p as the wall's last tile: it cannot kong (compare the kong with one tile left
    # in test_kong_flower_on_the_last_tile).
    wall = quiet_wall({3: "555p123m456m789m9p"}, _quiet_rounds(54) + " 5p",
                      fillers={0: "*+9s", 1: "*", 2: "*"})
    events, df = play(wall, policies="speed/speed/speed/speed:kong=always")
    assert of(events, "kong") == [] and of(events, "win") == []
    assert of(events, "draw")[-1] == {"type": "draw", "seat": 3, "tile": T("5p"),
                                      "replacement": False}
    assert events[-1]["wall_left"] == 0


# ----------------------------------------------------------------------------- drawn end
WIN_3 = [(0, 3, 2, "win"), (1, 3, 2, "win"), (2, 3, 2, "win")]


@pytest.mark.parametrize(
    ("overrides", "settlement", "net"),
    [
        # classic: pig_penalty 10 to each non-pig in play (0 and 2), ready_pay = min: seat 0
        # pays seat 2 its worst wait, 1
        ({}, [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 1, "ready")], [7, -22, 9, 6]),
        # pig_payees = all: the winner (seat 3) is paid too
        ({"pig_payees": "all"},
         [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (1, 3, 10, "pig"), (0, 2, 1, "ready")],
         [7, -32, 9, 16]),
        # pig_pays_ready: the pig pays the ready check as well
        ({"pig_pays_ready": True},
         [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 1, "ready"), (1, 2, 1, "ready")],
         [7, -23, 10, 6]),
        # ready_pay = max: the best wait, 1m: terminals, 2 fan = 4
        ({"ready_pay": "max"}, [(1, 0, 10, "pig"), (1, 2, 10, "pig"), (0, 2, 4, "ready")],
         [4, -22, 12, 6]),
        ({"pig_penalty": 0}, [(0, 2, 1, "ready")], [-3, -2, -1, 6]),
    ],
)
def test_flower_pig_and_ready_check(overrides, settlement, net):
    # docs/rules 6: flower pig (查花猪) then ready check (查大叫) among the players in play.
    events, df = play(_drawn_end_wall(), **overrides)
    assert story(events) == [("win", 3, "9p")]
    assert pays(events, "win") == WIN_3
    settle = of(events, "settle")[0]
    assert (settle["pigs"], settle["ready"]) == ([1], [2])
    assert [tuple(p) for p in settle["payments"]] == settlement
    n = nets(df)
    assert n["net"] == net
    assert n["net_pig"] == [sum(u for a, b, u, r in settlement if r == "pig" and b == s)
                            - sum(u for a, b, u, r in settlement if r == "pig" and a == s)
                            for s in range(4)]
    assert col(df, "pig") == [0, 1, 0, 0] and col(df, "ready_end") == [0, 0, 1, 0]


@pytest.mark.parametrize("counts", [True, False])
def test_dead_wait(counts):
    # docs/rules 6: seat 3 (declining every win) waits on 5p alone and sees seat 0 discard the
    # three other 5p: a dead wait, ready only when dead_wait_counts. Seat 1 waits on 1m
    # (123m 999m 11p 123p 789p: terminals, 2 fan) or 4m (0 fan): worst 1 unit. Nobody wins:
    # dealer 2 deals again (docs/rules 6).
    script = "?3 5p ?1 ?2 ?3 5p ?1 ?2 ?3 5p"
    wall = quiet_wall({1: "23m999m11p123p789p", 3: "123m456m789m123p5p"}, script, dealer=2,
                      fillers={0: "p", 2: "m+6m"}, tail={0: "", 1: "", 2: "", 3: ""}, first=1)
    events, df = play(wall, "classic", "speed/speed/speed/speed:min_fan=9", dealer=2,
                      dead_wait_counts=counts)
    assert story(events) == [("pass", 3, "5p")] * 3
    assert [(p["seat"], p["tile"]) for p in of(events, "pass")] == [(3, T("5p"))] * 3
    settle = of(events, "settle")[0]
    if counts:
        assert settle["ready"] == [1, 3]
        assert pays(events) == [(0, 1, 1, "ready"), (2, 1, 1, "ready"),
                                (0, 3, 1, "ready"), (2, 3, 1, "ready")]
        assert nets(df)["net"] == [-2, 2, -2, 2]
    else:
        assert settle["ready"] == [1]
        assert pays(events) == [(0, 1, 1, "ready"), (2, 1, 1, "ready"), (3, 1, 1, "ready")]
        assert nets(df)["net"] == [-1, 3, -1, -1]
    assert col(df, "ready_end") == [0, 1, 0, int(counts)]
    assert col(df, "next_dealer") == [2] * 4 and col(df, "winners") == [0] * 4
