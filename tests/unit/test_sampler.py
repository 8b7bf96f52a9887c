"""The hidden-state sampler (issue 28) against exact enumeration, and every sample consistent."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from simcore.advice.examples import random_position
from simcore.advice.position import Position
from simcore.advice.sampler import (
    HiddenSampler,
    enumerate_hidden,
    hidden_constraints,
    sample_hidden,
)
from simcore.hand import reference as ref
from simcore.records import first_tile_type

P_MIN = 1e-3  # a sampler that matches the enumeration fails this at most once in 1,000 runs
N_CHI = 20_000

# small positions: late in a deal, few unseen tiles (kwargs of random_position, seed)
SMALL = {
    "voids": (3, "classic", {"wall": 6, "melds": (0, 4, 4, 4)}),
    "void_holder": (7, "qq", {"wall": 5, "melds": (0, 4, 3, 4), "void_holders": (2,)}),
    "passed_three": (1, "app", {"wall": 4, "melds": (0, 3, 4, 4), "exchange_to": 1}),
    "battle_winner": (2, "classic", {"wall": 4, "melds": (0, 3, 4, 4), "winners": (1,)}),
    "river_winner": (4, "river", {"wall": 4, "melds": (0, 4, 3, 4), "winners": (2,),
                                  "win_kind": "self_draw"}),
    "three_players": (0, "two_suit3", {"wall": 5, "melds": (0, 3, 4)}),
    "on_discard": (5, "two_suit4", {"wall": 3, "melds": (1, 4, 4, 3),
                                    "decision": "on-discard"}),
    # a winner without melds: seven pairs, standard hands, and hands that are both
    "pairs_winner": (9, "classic", {"wall": 2, "melds": (0, 0, 4, 4), "winners": (1,),
                                    "win_shape": "both"}),
    # two winners (drawn jointly, suit by suit, under "auto")
    "two_winners": (2, "classic", {"wall": 2, "melds": (0, 3, 3, 4), "winners": (1, 2)}),
    "two_winners_pairs": (0, "classic", {"wall": 2, "melds": (0, 0, 3, 4), "winners": (1, 2),
                                         "win_shape": "both"}),
}


def small(name: str) -> Position:
    seed, preset, kwargs = SMALL[name]
    p, _ = random_position(seed, preset, **kwargs)
    return p


def test_the_small_positions_have_what_they_test() -> None:
    c = hidden_constraints(small("voids"))
    assert not c.allowed.all(axis=None) and int(c.unseen.sum()) <= 12
    assert hidden_constraints(small("void_holder")).allowed[1].all()  # S2 may hold its void
    assert hidden_constraints(small("passed_three")).lower.sum() > 0
    assert hidden_constraints(small("battle_winner")).wins[0]
    assert hidden_constraints(small("river_winner")).wins[1]
    pairs = HiddenSampler(small("pairs_winner"))
    assert pairs.factored is not None
    assert any(kinds[0] == "even" for kinds, _ in pairs.factored.combos)
    both = [pairs.factored._both(np.array(h[0])) for h, _ in enumerate_hidden(small(
        "pairs_winner"))]
    assert any(both) and not all(both)
    assert small("three_players").players == 3


def test_the_truth_is_among_the_enumerated_states() -> None:
    for name, (seed, preset, kwargs) in SMALL.items():
        p, truth = random_position(seed, preset, **kwargs)
        states = dict(enumerate_hidden(p))
        seats = hidden_constraints(p).seats
        key = tuple(tuple(int(x) for x in truth.hands[k]) for k in seats)
        assert key in states, name
        assert sum(states.values()) == 1


@pytest.mark.parametrize("method", ["types", "suits", "auto"])
@pytest.mark.parametrize("name", sorted(SMALL))
def test_sampler_matches_exact_enumeration(name: str, method: str) -> None:
    """``types`` and ``suits`` with the winners' hands listed; ``auto``: a single winner's hand
    drawn suit by suit without listing (``_FactoredWinner``) where it applies."""
    p = small(name)
    if method == "suits" and name == "passed_three":
        with pytest.raises(ValueError, match="method 'suits' needs no lower bound"):
            HiddenSampler(p, method=method)
        return
    exact = enumerate_hidden(p)
    assert 2 <= len(exact) <= 5_000
    seats = hidden_constraints(p).seats
    sampler = HiddenSampler(p, method=method,
                            winners="auto" if method == "auto" else "enumerate")
    if method == "auto" and name in ("battle_winner", "river_winner", "pairs_winner"):
        assert sampler.factored is not None
    if method == "auto" and name.startswith("two_winners"):
        assert sampler.pair is not None
    draws = sampler.sample(N_CHI, seed=2028)
    keys = [tuple(tuple(int(x) for x in draws.hands[i, k]) for k in seats) for i in range(N_CHI)]
    seen = Counter(keys)
    probs = dict(exact)
    assert set(seen) <= set(probs), "a sample outside the consistent states"
    # categories with an expected count below 5 pooled into one
    expected, observed, pool_e, pool_o = [], [], 0.0, 0
    for state, prob in exact:
        e = float(prob) * N_CHI
        if e < 5:
            pool_e += e
            pool_o += seen.get(state, 0)
        else:
            expected.append(e)
            observed.append(seen.get(state, 0))
    if pool_e:
        expected.append(pool_e)
        observed.append(pool_o)
    if len(expected) < 2:
        pytest.skip("one category")
    stat, pvalue = chisquare(observed, expected)
    print(f"{name} ({method}): {len(exact)} states, {len(expected)} categories, chi2 {stat:.1f}, "
          f"p {pvalue:.3f}")
    assert pvalue > P_MIN


def test_the_two_counts_agree() -> None:
    """The count of arrangements by tile types and by suit totals (mid-deal, no winner)."""
    from simcore.advice.sampler import _RestProgramme

    for seed in range(3):
        p, _ = random_position(seed, "classic", wall=40, melds=(1, 1, 0, 1))
        c = hidden_constraints(p)
        by_types = _RestProgramme(c.unseen, c.sizes, c.allowed, c.lower).total
        sampler = HiddenSampler(p, method="suits")
        by_suits = sampler._suit_programme(c.unseen).weight(tuple(
            int(c.unseen[9 * s: 9 * s + 9].sum()) for s in range(3)))
        assert by_types == pytest.approx(by_suits, rel=1e-12)


def test_wall_order_is_a_uniform_shuffle() -> None:
    p = small("voids")
    draws = sample_hidden(p, N_CHI, seed=7)
    c = hidden_constraints(p)
    # given the wall's tiles, each position holds each of them equally often: the first and the
    # last tile of the wall have the same distribution
    first = Counter(int(t) for t in draws.wall[:, 0])
    last = Counter(int(t) for t in draws.wall[:, -1])
    types = sorted(set(first) | set(last))
    table = np.array([[first.get(t, 0) for t in types], [last.get(t, 0) for t in types]])
    from scipy.stats import chi2_contingency

    assert chi2_contingency(table).pvalue > P_MIN
    assert draws.wall.shape == (N_CHI, c.wall)


def test_same_seed_same_samples() -> None:
    p = small("battle_winner")
    a, b = sample_hidden(p, 100, seed=3), sample_hidden(p, 100, seed=3)
    assert (a.hands == b.hands).all() and (a.wall == b.wall).all()
    gen = np.random.default_rng(3)
    c = HiddenSampler(p).sample(100, gen)
    assert (c.hands == a.hands).all()


def test_no_consistent_state_is_an_error() -> None:
    p = small("voids")
    c = hidden_constraints(p)
    c.allowed[:] = False
    with pytest.raises(ValueError, match="no hidden state is consistent"):
        HiddenSampler(c)
    with pytest.raises(ValueError, match="no hidden state is consistent"):
        enumerate_hidden(c)
    with pytest.raises(ValueError, match="n must be an integer >= 0"):
        HiddenSampler(p).sample(-1)
    with pytest.raises(ValueError, match="method: 'fast' is not one of"):
        HiddenSampler(p, method="fast")
    with pytest.raises(ValueError, match="winners 'factored' needs one or two winners"):
        HiddenSampler(p, winners="factored")


# --------------------------------------------------------------------------------------------
# every sample consistent with what the seat sees


def check_sample(p: Position, hands: np.ndarray, wall: np.ndarray) -> None:
    """Independent of the sampler: counts, sizes, voids, the passed three, winners."""
    r = p.rules
    first = first_tile_type(r.suits)
    total = p.visible_counts().copy()
    total -= p.concealed  # the deciding seat's own tiles are in the hands array too
    total += hands.sum(axis=0) + np.bincount(wall, minlength=27)
    assert (total[first:] == 4).all() and (total[:first] == 0).all()
    assert (hands[p.seat] == p.concealed).all()
    for k in range(r.players):
        if k == p.seat:
            continue
        s = p.seats[k]
        assert hands[k].sum() == 13 - 3 * len(s.melds)
        if r.void_first and s.void is not None and any(x.tile // 9 != s.void
                                                       for x in s.discards):
            assert hands[k, 9 * s.void: 9 * s.void + 9].sum() == 0
        for t in {w.tile for w in s.wins}:
            h = hands[k].astype(int).tolist()
            h[t] += 1
            assert ref.is_complete(h, s.melds, -1 if s.void is None else s.void)
    if p.exchange is not None:
        k = p.exchange.to
        s = p.seats[k]
        for t in set(p.exchange.passed):
            shown = sum(x.tile == t for x in s.discards) + sum(
                m.size - (m.kind in "PK") for m in s.melds if m.tile == t)
            assert hands[k, t] >= p.exchange.passed.count(t) - shown


PRESETS = ["classic", "baike", "qq", "app", "tfmj", "two_suit3", "two_suit4", "river"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(PRESETS), wall=st.integers(0, 40),
       melds=st.lists(st.integers(0, 4), min_size=4, max_size=4),
       winners=st.integers(0, 2), on_discard=st.booleans())
def test_every_sample_is_consistent(seed: int, preset: str, wall: int, melds: list[int],
                                    winners: int, on_discard: bool) -> None:
    players = 3 if preset == "two_suit3" else 4
    melds = [m if k else min(m, 2) for k, m in enumerate(melds[:players])]
    if players == 3 and not preset.endswith("river"):
        winners = min(winners, 1)  # the deal ends when two of three have won
    for k in range(1, winners + 1):
        melds[k] = max(melds[k], 2)  # winners with melds keep the listed candidates few
    try:
        p, truth = random_position(seed, preset, wall=wall, melds=melds,
                                   winners=tuple(range(1, winners + 1)),
                                   decision="on-discard" if on_discard else "turn")
    except ValueError:
        return  # the layout does not fit the tiles
    for method in ("auto", "types"):
        try:
            sampler = HiddenSampler(p, method=method)
        except ValueError as exc:  # an early winner with too many hands to list
            assert "joint candidate hands" in str(exc)
            continue
        draws = sampler.sample(30, seed=seed)
        for i in range(30):
            check_sample(p, draws.hands[i], draws.wall[i])
    check_sample(p, truth.hands, truth.wall)  # the generator's truth passes the same checks


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(PRESETS), wall=st.integers(0, 40),
       melds=st.lists(st.integers(0, 4), min_size=4, max_size=4),
       winners=st.integers(1, 2), shape=st.sampled_from(["standard", "seven_pairs", "both"]),
       win_kind=st.sampled_from(["discard", "self_draw"]))
def test_the_winners_candidates_match_the_reference_check(seed: int, preset: str, wall: int,
                                                          melds: list[int], winners: int,
                                                          shape: str, win_kind: str) -> None:
    """The candidate winning hands of a hidden winner, built as a pair and sets holding the
    winning tile and checked for the two-suit limit only, are those every candidate checked by
    the reference ``is_complete`` gives."""
    from simcore.advice.sampler import _winning_candidates

    players = 3 if preset == "two_suit3" else 4
    melds = [m if k else min(m, 2) for k, m in enumerate(melds[:players])]
    winners = min(winners, players - 2 if not preset.endswith("river") else players - 1)
    for k in range(1, winners + 1):
        melds[k] = max(melds[k], 1)  # keep the lists short enough to build twice
    try:
        p, _ = random_position(seed, preset, wall=wall, melds=melds, win_kind=win_kind,
                               winners=tuple(range(1, winners + 1)), win_shape=shape)
    except ValueError:
        return  # the layout does not fit the tiles
    c = hidden_constraints(p)
    for j in (j for j in range(len(c.seats)) if c.wins[j]):
        fast = _winning_candidates(c, j, c.unseen)
        assert fast == _winning_candidates(c, j, c.unseen, exact=True)
        assert fast  # the truth is among them
