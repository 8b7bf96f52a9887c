"""simcore.Position (issue 28): the forms, the legal actions, every impossible position named."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import simcore
from simcore.advice.examples import random_position
from simcore.advice.position import (
    FORMAT,
    Action,
    Decision,
    Declined,
    Discard,
    Position,
    SeatView,
    Win,
    holds_no_void,
)
from simcore.tiles import Meld, tile_index

BASE = """\
rules classic
seat 0 dealer 3 wall 30
hand 234567899m4556p +7p
S0 void s discards 1s 5s 1s 7sc 7m 7m
S1 void m melds P9pP7s discards 1m 8m 4m 4m 9s 7p 6sc 1p 9s
S2 void m discards 7m 5m 5m 2s 9pc 5p
S3 void m melds P6s discards 9m 6m 1m 1p 8s 4p 2p
decision turn"""


def acts(p: Position) -> list[str]:
    return [str(a) for a in p.legal_actions()]


def test_lazy_export() -> None:
    assert simcore.Position is Position
    assert "Position" in dir(simcore)


def test_base_position_reads_and_prints() -> None:
    p = Position.parse(BASE)
    assert str(p) == BASE
    assert p.drawn == tile_index("7p") and p.wall == 30 and p.dealer == 3
    assert p.seats[1].melds == (Meld("P", tile_index("9p")), Meld("P", tile_index("7s")))
    assert p.seats[0].discards[3] == Discard(tile_index("7s"), claimed=True)
    assert acts(p)[:2] == ["discard 2m", "discard 3m"] and len(acts(p)) == 12
    d = p.to_dict()
    assert d["format"] == FORMAT and d["hand"] == "234567899m4556p" and d["drawn"] == "7p"
    assert Position.from_json(p.to_json()) == p


def test_built_in_python_from_lists_and_arrays() -> None:
    p = Position.parse(BASE)
    again = Position(rules=p.rules, seat=0, dealer=3, wall=30, hand=np.array(p.hand),
                     seats=[SeatView(s.void, [tuple(m) for m in s.melds],
                                     [tuple(x) for x in s.discards], list(s.wins))
                            for s in p.seats],
                     decision=Decision("turn"), drawn=np.int64(p.drawn))
    assert again == p
    with pytest.raises(ValueError, match="hand: 27 integer counts expected"):
        dataclasses.replace(p, hand=(1, 2))


def test_shorthand_lines_for_the_deciding_seat() -> None:
    text = BASE.replace("S0 void s discards 1s 5s 1s 7sc 7m 7m",
                        "void s\ndiscards 1s 5s 1s 7sc 7m 7m  # own discards\n\nS0")
    assert Position.parse(text) == Position.parse(BASE)


@pytest.mark.parametrize("preset, kwargs", [
    ("classic", {"wall": 30}),
    ("baike", {"wall": 12, "decision": "on-discard"}),
    ("qq", {"wall": 3}),
    ("app", {"wall": 25}),
    ("tfmj", {"wall": 40, "melds": (1, 1, 1, 1)}),
    ("two_suit3", {"wall": 10}),
    ("two_suit4", {"wall": 6, "decision": "on-discard"}),
    ("river", {"wall": 15, "winners": (1, 2)}),
    ("classic", {"wall": 20, "winners": (2,), "win_kind": "self_draw"}),
    ("app", {"wall": 8, "winners": (3,), "void_holders": (1,)}),
])
def test_round_trips_in_every_preset_and_variant(preset: str, kwargs: dict) -> None:
    for seed in range(4):
        try:
            p, _ = random_position(seed, preset, **kwargs)
        except ValueError as exc:  # a layout the tiles cannot fill: another seed
            assert any(w in str(exc) for w in ("not enough tiles", "fits", "no discard"))
            continue
        assert Position.parse(str(p)) == p
        again = Position.from_dict(json.loads(p.to_json()))
        assert again == p and again.to_dict() == p.to_dict()
        assert p.legal_actions()


# --------------------------------------------------------------------------------------------
# legal actions


def test_a_held_void_tile_is_the_only_discard() -> None:
    p, _ = random_position(1, "classic", wall=30, own="1s2m3m4m5m6m7m8m9m1p1p5p6p7p", own_void=2,
                           void_holders=(0,))
    assert acts(p) == ["discard 1s"]
    off = Position.parse(str(p).replace("rules classic", "rules classic void_first=off"))
    assert len(acts(off)) == 13


def test_self_drawn_win_kong_and_must_win_last_four() -> None:
    hand = "1m2m3m4m5m6m7m7m7m7m8m9m5p5p"
    p, _ = random_position(2, "classic", wall=20, own=hand, own_void=2)
    assert acts(p)[:2] == ["win", "kong 7m"]
    late, _ = random_position(2, "classic", wall=3, own=hand, own_void=2)
    assert acts(late) == ["win"]  # must_win_last_four: a win on the last four is forced
    qq, _ = random_position(2, "qq", wall=3, own=hand, own_void=2)
    assert acts(qq)[0] == "win" and len(acts(qq)) > 1
    empty, _ = random_position(2, "qq", wall=0, own=hand, own_void=2)
    assert "kong 7m" not in acts(empty)  # no kong on an empty wall


def test_claims_on_a_discard() -> None:
    hand = "5p5p5p1m2m3m4m5m6m7m8m9m9m"
    p, _ = random_position(3, "classic", wall=20, own=hand, own_void=2, decision="on-discard",
                           react_to="5p")
    assert acts(p) == ["kong 5p", "pung 5p", "pass"]
    w, _ = random_position(3, "classic", wall=20, own=hand, own_void=2, decision="on-discard",
                           react_to="9m")
    assert acts(w) == ["win", "pung 9m", "pass"]
    last, _ = random_position(3, "classic", wall=0, own=hand, own_void=2, decision="on-discard",
                              react_to="5p")
    assert acts(last) == ["pass"]  # the last discard: only a win could claim it


def test_declined_wins_under_pass_win_rule() -> None:
    hand = "5p5p5p1m2m3m4m5m6m7m8m9m9m"
    p, _ = random_position(3, "baike", wall=20, own=hand, own_void=2, decision="on-discard",
                           react_to="9m")
    assert acts(p)[0] == "win"
    same = dataclasses.replace(p, declined=(Declined(tile_index("9m"), 0),))
    assert acts(same) == ["pung 9m", "pass"]  # same_tile: not the tile it declined
    other = dataclasses.replace(p, declined=(Declined(tile_index("6m"), 0),))
    assert acts(other)[0] == "win"
    c, _ = random_position(3, "classic", wall=20, own=hand, own_void=2, decision="on-discard",
                           react_to="9m")  # 123456789m 99m 555p: plain, 0 fan
    low = dataclasses.replace(c, declined=(Declined(tile_index("6m"), 0),))
    assert acts(low) == ["pung 9m", "pass"]  # unless_higher: this win (0 fan) is not higher than 0
    high = dataclasses.replace(c, declined=(Declined(tile_index("6m"), -1),))
    assert acts(high)[0] == "win"


def test_a_locked_blood_river_hand() -> None:
    # won on 1p from S1: the locked hand 123456789m 55p 11p waits on 1p and 5p
    hand = "1m2m3m4m5m6m7m8m9m5p5p1p1p"
    p, _ = random_position(4, "river", wall=20, own=hand + "2s", own_void=2, own_win="1p",
                           void_holders=(0,))
    assert p.is_locked()
    assert acts(p) == ["discard 2s"]  # only the drawn tile goes
    won, _ = random_position(4, "river", wall=20, own=hand + "1p", own_void=2, own_win="1p")
    assert acts(won) == ["win", "discard 1p"]


def test_robbing_an_added_kong() -> None:
    p = Position.parse(BASE.replace("decision turn", "decision on-kong 6s from S3")
                       .replace(" +7p", ""))
    assert acts(p) == ["pass"]
    assert p.visible_counts()[tile_index("6s")] == 4  # the pung and the tile being added
    assert Position.parse(str(p)) == p


def test_a_robbed_kong_may_keep_a_void_tile() -> None:
    # S2 drew a void tile and added a kong instead of throwing it; S3 robbed the kong, so S2 kept
    # the tile and throws it from its hand after a discard of another suit (seed 29, deal 223)
    robbed = (BASE.replace("S0 void s discards 1s 5s 1s", "S0 void s discards 1s 5s 3sc 1s")
              .replace("S2 void m discards 7m 5m 5m 2s 9pc 5p",
                       "S2 void m melds P3s discards 7m 2s 9pc 5p 5m")
              .replace("4p 2p\n", "4p 2p wins robbed_kong:3s:S2@32\n"))
    p = Position.parse(robbed)
    assert not holds_no_void(p, 2)  # it may hold another
    assert Position.parse(str(p)) == p
    thrown_off_suit = Position.parse(robbed.replace("9pc 5p 5m", "9pc 5m 5p"))
    assert holds_no_void(thrown_off_suit, 2)


def test_after_a_pung_only_discards() -> None:
    for seed in range(20):
        p, _ = random_position(seed, "classic", wall=30, melds=(1, 0, 0, 0),
                               own="1m2m3m4m5m6m7m8m9m5p5p", own_void=2)
        if p.me.melds[0].kind == "P":
            break
    after = dataclasses.replace(p, hand=tuple(int(x) for x in p.concealed), drawn=None)
    assert all(a.kind == "discard" for a in after.legal_actions())
    assert Action("discard", 0) in after.legal_actions()
    assert Position.parse(str(after)) == after


# --------------------------------------------------------------------------------------------
# every impossible position is an error naming what is wrong


@pytest.mark.parametrize("changes, match", [
    # a fifth copy, counting every visible tile
    ([("S2 void m discards 7m 5m 5m", "S2 void m discards 9m 9m 5m")],
     "5 copies of 9m are visible"),
    # a hand of the wrong size for its melds
    ([("hand 234567899m4556p +7p", "hand 23456789m4556p +7p")],
     "hand has 13 concealed tiles with 0 melds at its turn; expected 14"),
    # a void tile thrown from the hand after a tile of another suit
    ([("S2 void m discards 7m 5m 5m 2s 9pc 5p", "S2 void m discards 7m 5m 2s 5m 9pc 5p")],
     "S2 discards 5m of its void suit from its hand after a discard of another suit"),
    # a meld in a void suit
    ([("S3 void m melds P6s", "S3 void s melds P6s")], r"S3's meld P6s is in its void suit s"),
    # a wall count that does not add up
    ([("wall 30", "wall 29")], "wall 29 does not add up: .* so 30 tiles left"),
    # a decision that is not legal
    ([("decision turn", "decision on-discard 4p from S3"), (" +7p", ""), ("wall 30", "wall 31")],
     "S3's last discard is 2p, not an unclaimed 4p"),
    ([("decision turn", "decision on-kong 9p from S3"), (" +7p", "")],
     "S3 has no pung of 9p to add to"),
    ([("decision turn", "decision on-discard 9s from S0"), (" +7p", ""), ("wall 30", "wall 31")],
     "the seat reacts to another seat's tile"),
    ([(" +7p", "7p")], "a turn decision without a drawn tile is the dealer's first turn"),
    # a seat that is not at the table
    ([("seat 0 dealer 3", "seat 0 dealer 4")], "dealer: 4 is not a seat 0..3"),
    ([("S3 void m melds", "S4 void m melds")], "S4 is not a seat of a 4-player table"),
    ([("S3 void m melds P6s discards 9m 6m 1m 1p 8s 4p 2p\n", "")], "no line for S3"),
    # declined wins outside their time
    ([("decision turn", "declined 4p:1\ndecision turn")],
     "declined wins are forgiven at the seat's next draw"),
    # the forms themselves
    ([("S0 void s", "S0 void x")], "void: 'x' is not a suit"),
    ([("S0 void s", "S0")], "S0 has no void; every seat declares one"),
    ([("discards 1s 5s", "discards 1sq 5s")], "flags 'q'"),
    ([("decision turn", "decision later")], "expected 'decision turn \\[after-kong\\]'"),
    ([("rules classic", "rules classic drizle=on")], "drizle"),
    ([("decision turn", "exchange 123m to S1 received 456p\ndecision turn")],
     "an exchange is given but exchange_three is off"),
    ([("rules classic", "rules app")], "exchange_three is on: give the seat's exchange"),
    ([("hand ", "hand |P1m")], "malformed meld"),
])
def test_impossible_positions_are_named(changes: list[tuple[str, str]], match: str) -> None:
    text = BASE
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    with pytest.raises(ValueError, match=match):
        Position.parse(text)


def test_a_void_under_two_suits() -> None:
    p, _ = random_position(0, "two_suit4", wall=10)
    with pytest.raises(ValueError, match="S1 void p: there is no void with suits = 2"):
        Position.parse(str(p).replace("S1", "S1 void p"))


def test_m_tiles_under_two_suits() -> None:
    p, _ = random_position(0, "two_suit4", wall=10)
    text = str(p).replace("discards", "discards 1m", 1)
    with pytest.raises(ValueError, match=r"names the tile 1m, which is not in the tile set"):
        Position.parse(text)


def test_too_many_winners_and_winners_out_of_play() -> None:
    p, _ = random_position(5, "classic", wall=20, winners=(1, 2))
    assert not p.in_play(1) and p.in_play(3)
    t = next(t for t in range(27) if t // 9 != p.seats[3].void)
    w3 = Win(t, "self_draw", None, 25)
    seats = list(p.seats)
    seats[3] = dataclasses.replace(seats[3], wins=(w3,))
    with pytest.raises(ValueError, match=r"3 winners \(S1, S2, S3\): the deal ends when 3 of 4"):
        dataclasses.replace(p, seats=tuple(seats))
    with pytest.raises(ValueError, match="S1 is out of play"):
        dataclasses.replace(p, decision=Decision("on-discard", 0, 1), drawn=None,
                            wall=p.wall + 1)


def test_blood_battle_seat_wins_once_and_winning_tile_not_void() -> None:
    p, _ = random_position(5, "classic", wall=20, winners=(1,))
    seats = list(p.seats)
    w = seats[1].wins[0]
    seats[1] = dataclasses.replace(seats[1], wins=(w, w))
    with pytest.raises(ValueError, match="S1 has 2 wins; in blood battle a seat wins once"):
        dataclasses.replace(p, seats=tuple(seats))


def test_won_and_claimed_discards_must_match() -> None:
    p, _ = random_position(5, "classic", wall=20, winners=(1,))
    feeder = p.seats[1].wins[0].fed_by
    assert feeder is not None
    seats = list(p.seats)
    unmarked = tuple(x._replace(won=False) for x in seats[feeder].discards)
    seats[feeder] = dataclasses.replace(seats[feeder], discards=unmarked)
    with pytest.raises(ValueError, match=rf"S{feeder} has 0 discards of \d\w marked won on "
                                         r"\(w\) but 1 wins name"):
        dataclasses.replace(p, seats=tuple(seats))
    text = Position.parse(BASE)
    with pytest.raises(ValueError, match="1 claimed discards of 9p but 0 pungs"):
        Position.parse(str(text).replace("melds P9pP7s", "melds P7s").replace(
            "discards 1m 8m 4m 4m", "discards 1m 8m 4m 4m 9p 9p 9p"))


def test_locked_hand_must_wait_on_its_wins() -> None:
    hand = "1m2m3m4m5m6m7m8m9m5p5p1p1p"
    p, _ = random_position(4, "river", wall=20, own=hand + "2s", own_void=2, own_win="1p",
                           void_holders=(0,))
    hand = list(p.hand)
    hand[tile_index("1p")] -= 2
    hand[tile_index("2p")] += 1
    hand[tile_index("4p")] += 1  # 123456789m 55p 24p waits on 3p, not on 1p
    with pytest.raises(ValueError, match=r"does not win on 1p, a tile it won on"):
        dataclasses.replace(p, hand=tuple(hand))


def test_json_form_errors() -> None:
    d = Position.parse(BASE).to_dict()
    with pytest.raises(ValueError, match="format: 'simcore-position/0'"):
        Position.from_dict({**d, "format": "simcore-position/0"})
    with pytest.raises(ValueError, match="unknown position keys: colour"):
        Position.from_dict({**d, "colour": 1})
    with pytest.raises(ValueError, match="missing position keys: wall"):
        Position.from_dict({k: v for k, v in d.items() if k != "wall"})
    with pytest.raises(ValueError, match="not valid JSON"):
        Position.from_json("{")


def _with_wall(text: str) -> str:
    """``text`` with the wall count its tiles imply (read from the wall error)."""
    import re

    try:
        Position.parse(text)
    except ValueError as exc:
        m = re.search(r"so (\d+) tiles left", str(exc))
        if m:
            return re.sub(r"wall \d+", f"wall {m.group(1)}", text, count=1)
    return text


def test_a_seat_with_fewer_draws_than_its_kongs_or_claims() -> None:
    # S2 shows a pung of 3s (claimed from S3) and has thrown nothing: it never drew
    text = BASE.replace("S2 void m discards 7m 5m 5m 2s 9pc 5p", "S2 void m melds P3s").replace(
        "4p 2p\ndecision", "4p 2p 9pc 3sc\ndecision")
    with pytest.raises(ValueError, match="S2's tiles imply -1 draws from the wall"):
        Position.parse(_with_wall(text))


def test_the_exchange_is_checked() -> None:
    p, _ = random_position(1, "app", wall=20, melds=(0, 1, 1, 1), exchange_to=1)
    text = str(p)
    with pytest.raises(ValueError, match="a seat does not pass to itself"):
        Position.parse(text.replace("to S1", "to S0"))
    with pytest.raises(ValueError, match="three tiles of one suit"):
        Position.parse(text.replace(f"exchange {text.split('exchange ')[1].split()[0]}",
                                    "exchange 1m1p1s"))
    # passed tiles of the receiver's void suit, after it threw another suit: it cannot hold them
    s1 = p.seats[1]
    void = "mps"[s1.void]
    vis = p.visible_counts()
    three = [t for t in range(9 * s1.void, 9 * s1.void + 9) if vis[t] < 4][:1] * 3
    assert any(x.tile // 9 != s1.void for x in s1.discards)
    passed = "".join(str(t % 9 + 1) for t in three) + void
    bad = text.replace(f"exchange {text.split('exchange ')[1].split()[0]}", f"exchange {passed}")
    with pytest.raises(ValueError, match=r"S1 must still hold 3 of \dm|S1 must still hold"):
        Position.parse(bad)


def test_the_deciding_seat_must_be_in_play() -> None:
    p, _ = random_position(5, "classic", wall=20, winners=(1,))
    seats = list(p.seats)
    t = next(t for t in range(27) if t // 9 != seats[0].void)
    seats[0] = dataclasses.replace(seats[0], wins=(Win(t, "self_draw", None, 25),))
    with pytest.raises(ValueError, match="S0 has won and is out of play"):
        dataclasses.replace(p, seats=tuple(seats))
