"""The exchange and the void ranked (simcore.review.setup, issue 29): the forced exchange
(``give=``) against a plain count, the walls that deal the seat its hand and the receiver the
three it passed, the decisions read from a record, the tables, and the review's part of them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.advice.replayed import replay_events
from simcore.deal_record import read_record
from simcore.engine.spec import give_code, give_types, parse_spec
from simcore.review.setup import (
    SetupUnsupportedError,
    advise_setup,
    exchange_candidates,
    hand_of,
    setup_decisions,
)
from simcore.tiles import parse, tiles_str


def _counts(text: str) -> np.ndarray:
    return parse(text, sizes="any").counts


# ----------------------------------------------------------------------------- give=
@given(st.lists(st.integers(0, 4), min_size=27, max_size=27),
       st.lists(st.integers(0, 8), min_size=3, max_size=3), st.integers(0, 2))
@settings(max_examples=300, deadline=None)
def test_the_forced_exchange_passes_the_three_exactly_when_held(counts, ranks, suit):
    from simcore.engine.policies.dispatch import fixed_exchange

    hand = np.array(counts, np.int8)
    types = sorted(9 * suit + r for r in ranks)
    out = np.full(3, -1, np.int64)
    held = all(hand[t] >= n for t, n in Counter(types).items())  # the plain count
    assert fixed_exchange(hand, float(give_code(types)), out) == held
    assert list(out) == (types if held else [-1, -1, -1])
    assert list(give_types(give_code(types))) == types


def test_the_give_option_is_a_spec_of_three_tiles_of_one_suit():
    assert parse_spec("speed:give=951m").text == "speed:give=159m"
    assert parse_spec("expert:give=none").text == "expert"
    for bad in ("12m3p", "12m", "1234m", "xx"):
        with pytest.raises(ValueError, match="option 'give'"):
            parse_spec(f"speed:give={bad}")


def test_a_deal_passes_the_given_three_and_falls_back_when_they_are_not_held():
    plain = replay_events(7, 0, "app", "speed")
    hand = plain[0]["hands"][0]
    suit = max(range(3), key=lambda s: sum(t // 9 == s for t in hand))
    three = [t for t in hand if t // 9 == suit][-3:]  # the policy would not pass its top three
    forced = replay_events(7, 0, "app", f"speed:give={tiles_str(three)}/speed/speed/speed")
    assert sorted(forced[1]["given"][0]) == sorted(three)
    absent = [t for t in range(9 * suit, 9 * suit + 9) if t not in hand][0]
    fallback = replay_events(7, 0, "app", f"speed:give={tiles_str([absent] * 3)}/speed/speed/"
                                          "speed")
    assert fallback == plain


# ----------------------------------------------------------------------------- walls
def test_the_void_walls_deal_the_seat_its_hand_and_the_receiver_the_passed_three():
    from simcore.engine.conditional import fill_conditional_walls

    hand = _counts("1123455789m46p9s")
    passed = [18, 18, 20]  # 11s3s, which seat 0 no longer holds
    dealer, receiver, n = 2, 3, 4000
    walls = np.empty((n, 108), np.int8)
    dealers = np.empty(n, np.int64)
    fill_conditional_walls(hand, 1 + dealer, 5, 0, walls, dealers,
                           np.array([receiver, *passed], np.int64))
    assert (dealers == dealer).all()
    block = {s: 13 * ((s - dealer) % 4) for s in range(4)}
    unseen = 4 - hand.astype(int)
    for c in Counter(passed).items():
        unseen[c[0]] -= c[1]
    others = np.zeros(27)
    for w in walls:
        assert (np.bincount(w, minlength=27) == 4).all()
        assert (np.bincount(w[block[0]: block[0] + 13], minlength=27) == hand).all()
        got = np.bincount(w[block[receiver]: block[receiver] + 13], minlength=27)
        assert all(got[t] >= k for t, k in Counter(passed).items())
        others += got
    # the receiver's ten other tiles are uniform over the unseen ones
    others -= n * np.bincount(passed, minlength=27)
    expect = n * 10 * unseen / unseen.sum()
    se = np.sqrt(expect * (1 - unseen / unseen.sum()))
    ok = unseen > 0
    assert (np.abs(others[ok] - expect[ok]) < 5 * se[ok]).all()
    assert (others[~ok] == 0).all()


# ----------------------------------------------------------------------------- decisions
def test_the_decisions_are_read_with_the_hand_held_at_each():
    events = replay_events(29, 3, "app", "expert/speed/speed/speed")
    exchange, void = setup_decisions(read_record(events).events, 0)
    deal, swap = events[0], events[1]
    assert (exchange.kind, exchange.step, void.kind, void.step) == ("exchange", 0, "void", 1)
    assert tiles_str(np.repeat(np.arange(27), exchange.hand)) == tiles_str(deal["hands"][0])
    mine, got = swap["given"][0], swap["given"][3]  # direction next: S3 gives to S0
    assert swap["direction"] == "next" and void.receiver == 1
    after = Counter(deal["hands"][0]) - Counter(mine) + Counter(got)
    assert tiles_str(np.repeat(np.arange(27), void.hand)) == tiles_str(list(after.elements()))
    assert exchange.taken == f"pass {tiles_str(mine)}" and exchange.taken in exchange.actions()
    assert void.actions() == ["void m", "void p", "void s"]
    assert (hand_of(void.describe()) == void.hand).all()


def test_the_exchange_candidates_keep_the_rest_closest_to_ready():
    hand = _counts("1234567m1p2p9p159s")
    # two choices of m (the pair of choices that keep the most of the run), the only
    # choice of p and of s
    assert [tiles_str(c) for c in exchange_candidates(hand)] == ["123m", "124m", "129p",
                                                                  "159s"]
    hand = _counts("1234567m1p2p7p8p59s")  # p: the choices that keep a middle tile
    assert [tiles_str(c) for c in exchange_candidates(hand)][2:] == ["127p", "128p"]


def test_the_tables_rank_every_action_and_are_reproducible():
    events = replay_events(29, 3, "app", "expert/speed/speed/speed")
    rec = read_record(events)
    exchange, void = setup_decisions(rec.events, 0)
    t = advise_setup(void, rec.rules, "speed", "speed", samples=128, seed=4)
    assert sorted(t["action"]) == ["void m", "void p", "void s"]
    assert list(t["rank"]) == [1, 2, 3] and t.attrs["samples"] == 128
    # 8 m tiles: voiding m (clearing them one a turn) is the worst by far
    assert t.iloc[-1]["action"] == "void m" and t.iloc[-1]["diff_ci_high"] < 0
    again = advise_setup(void, rec.rules, "speed", "speed", samples=128, seed=4)
    assert again.equals(t)
    other = advise_setup(void, rec.rules, "speed", "speed", samples=128, seed=5)
    assert not np.allclose(other["net"], t["net"])
    x = advise_setup(exchange, rec.rules, "speed", "speed", samples=64, seed=4)
    assert set(x["action"]) == set(exchange.actions()) and (x["samples"] == 64).all()
    with pytest.raises(SetupUnsupportedError, match="no give option"):
        advise_setup(exchange, rec.rules, "random", "speed", samples=64)


def test_three_players_list_the_void_as_not_reviewed():
    from simcore.review import review_deal

    events = replay_events(2, 0, "classic", "speed", overrides=["players=3"])
    r = review_deal(events, 0, policy="speed", field="speed", samples=64, kinds=["void"])
    assert list(r.decisions["kind"]) == ["void"] and len(r.skipped) == 1
    assert "four-player" in r.decisions["note"].iloc[0]


def test_the_setup_kinds_reviewed_alone_add_up_to_a_whole_review():
    """experiments/review_policies.py --add-kinds: the exchange and void columns reviewed
    alone and added to a review of the rest give the whole review's figures."""
    from simcore.review.yardstick import add_kinds, review_policy

    kw = dict(rules="app", field="speed", seed=3, samples=64)
    whole = review_policy("speed", 3, **kw).deals
    rest = review_policy("speed", 3, kinds=["discard", "pung", "kong", "win"], **kw).deals
    part = review_policy("speed", 3, kinds=["exchange", "void"], **kw).deals
    merged = add_kinds(rest, part, ["exchange", "void"])
    assert list(merged.columns) == list(whole.columns)
    same = [c for c in whole.columns if c not in ("decisions", "ev_lost")]
    assert merged[same].equals(whole[same])
    assert np.allclose(merged["ev_lost"], whole["ev_lost"], atol=1e-3)


def test_review_policies_redo_reviews_again_only_the_rows_a_family_plays_in(tmp_path):
    """experiments/review_policies.py --redo FAMILY: the rows in which the family plays (the
    seat or the field) are reviewed again, whole; every other row is kept as it was."""
    import subprocess
    import sys

    import pandas as pd

    script = Path(__file__).parents[2] / "experiments" / "review_policies.py"
    common = ["--deals", "2", "--samples", "32", "--processes", "1", "--out", str(tmp_path)]
    subprocess.run([sys.executable, str(script), *common, "--rules", "classic", "--fields",
                    "speed", "--policies", "speed", "random"], check=True, capture_output=True)
    csv = tmp_path / "review_policies.csv"
    fresh = pd.read_csv(csv)
    tampered = fresh.assign(ev_lost=fresh["ev_lost"] + 100.0)
    tampered.to_csv(csv, index=False)
    subprocess.run([sys.executable, str(script), *common, "--redo", "random"], check=True,
                   capture_output=True)
    redone = pd.read_csv(csv)
    random_rows = redone["policy"] == "random"
    assert list(redone.columns) == list(fresh.columns) and random_rows.sum() == 2
    assert np.allclose(redone.loc[random_rows, "ev_lost"], fresh.loc[random_rows, "ev_lost"])
    assert np.allclose(redone.loc[~random_rows, "ev_lost"],
                       tampered.loc[~random_rows, "ev_lost"])
    assert not (tmp_path / ".review_policies.redo").exists()
    no_one = subprocess.run([sys.executable, str(script), *common, "--redo", "expert"],
                            capture_output=True, text=True)
    assert no_one.returncode != 0 and "no row" in no_one.stderr
