"""The replayed-table walker (simcore.table): every variant's logs walk to their end with every
check passing, the table before and after each event, and what one seat sees.

The danger model's rows (tests/integration/test_danger.py) and the push/fold threat moments
(tests/integration/test_experiments.py) are the walker's other tests: they read their tables
through it.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from simcore.engine.replay import replay
from simcore.table import Discard, ReconstructionError, Table, receiver, replayed, walk

# (rules, overrides, policies, seed, deals): every variant and a field that claims a lot
CASES = [
    ("classic", (), "speed:kong=always/pungs:k=3,kong=pung_then_add/speed/flush:k=6", 5, 4),
    ("classic", ("players=3",), "speed", 0, 4),
    ("app", ("suits=2",), "speed", 0, 4),
    ("app", ("players=3", "suits=2"), "speed", 1, 3),
    ("river", (), "speed", 0, 4),
]


@pytest.fixture(scope="module")
def logs() -> list[list[dict]]:
    return [replay(seed, d, rules=rules, overrides=list(over), policies=pol, as_frame=False)[0]
            for rules, over, pol, seed, deals in CASES for d in range(deals)]


def test_every_variant_walks_to_the_end_with_its_checks(logs: list[list[dict]]) -> None:
    for events in logs:
        end = replayed(events)
        players = len(events[0]["hands"])
        assert end.players == players
        assert end.wall_left == events[-1]["wall_left"]
        # every discard is listed once, in order; claimed ones name their claimer
        thrown = [e["tile"] for e in events if e["type"] == "discard"]
        assert sum(len(d) for d in end.discards) == len(thrown)
        for s in end.seats():
            mine = [e["tile"] for e in events if e["type"] == "discard" and e["seat"] == s]
            assert [d.tile for d in end.discards[s]] == mine
        claims = [e for e in events if e["type"] in ("pung", "win")
                  or (e["type"] == "kong" and e["kind"] == "direct")]
        claimed = [d for ds in end.discards for d in ds if d.claimed_by >= 0]
        assert len(claimed) <= len(claims)
        wins = [e for e in events if e["type"] == "win"]
        assert sum(len(w) for w in end.wins) == len(wins)
        if end.blood_river:
            assert all(end.in_play)
        else:
            assert [not p for p in end.in_play] == [bool(w) for w in end.wins]


def test_the_table_before_and_after_each_event(logs: list[list[dict]]) -> None:
    events = logs[0]
    before = [(step, tab.wall_left) for step, _, tab in walk(events)]
    after = [(step, tab.wall_left) for step, _, tab in walk(events, after=True)]
    assert [s for s, _ in before] == list(range(1, len(events)))
    # the table after event k is the table before event k + 1
    assert [w for _, w in after[:-1]] == [w for _, w in before[1:]]
    for _, ev, tab in walk(events):
        if ev["type"] == "discard":
            s, t = ev["seat"], ev["tile"]
            assert tab.hand[s, t] > 0  # before: the tile is still in the hand
            view = tab.seen_by(s)
            assert view.concealed[t] > 0 and view.seat == s
            assert int(view.unseen.sum()) == int(tab.unseen(s).sum())
            assert all(m.kind != "C" for ms in view.shown_melds for m in ms)
            break


def test_what_a_seat_sees_of_the_exchange_and_the_discards() -> None:
    events, _ = replay(0, 0, rules="classic", policies="speed", as_frame=False)
    assert replayed(events).seen_by(0).exchange is None  # classic passes no tiles
    events, _ = replay(0, 0, rules="app", policies="speed", as_frame=False)
    tab = replayed(events)
    assert tab.exchange is not None
    view = tab.seen_by(0)
    given, to, received = view.exchange
    assert to == receiver(0, tab.exchange.direction, 4)
    assert len(given) == 3 and len(received) == 3
    assert tab.exchange.received[to] == given
    for ds in view.discards:
        assert all(isinstance(d, Discard) for d in ds)


def test_the_walker_names_the_first_wrong_event(logs: list[list[dict]]) -> None:
    bad = copy.deepcopy(logs[0])
    draw = next(e for e in bad if e["type"] == "draw")
    draw["tile"] = (draw["tile"] + 1) % 27
    with pytest.raises(ReconstructionError, match="draws .* the wall's next tile is"):
        replayed(bad)
    with pytest.raises(ValueError, match="start with the deal"):
        walk(logs[0][1:])


def test_receiver() -> None:
    assert [receiver(s, "next", 4) for s in range(4)] == [1, 2, 3, 0]
    assert [receiver(s, "previous", 3) for s in range(3)] == [2, 0, 1]
    assert receiver(2, "across", 4) == 0


def test_a_table_copies_nothing_it_is_given() -> None:
    events, _ = replay(0, 1, rules="classic", policies="speed", as_frame=False)
    tab = Table.from_deal(events[0])
    dealt = sum(len(h) for h in events[0]["hands"])
    assert tab.pos == dealt and int(tab.hand.sum()) == dealt
    assert np.array_equal(tab.public, np.zeros(27, np.int16))
