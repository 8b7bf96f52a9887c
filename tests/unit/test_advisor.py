"""The advisor's plain parts (issue 28): the batches of a search, the stopping rule, the
stratified first draws, the forced actions of each legal action, the loaded base state."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest
from helpers.positions import ON_DISCARD, TURN
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simcore import Position
from simcore.advice.advisor import (
    Accumulator,
    _check,
    _threads,
    batches,
    paired_se,
    paired_stats,
    separated,
)
from simcore.advice.loading import base_state, force_rows
from simcore.advice.playing import Outcomes, seat_policies
from simcore.advice.sampler import stratify_first_draws
from simcore.engine.policies import forced
from simcore.engine.state import S_CUR, S_LAST_DRAWN, S_PHASE, S_POS, S_WALL_END
from simcore.engine.turns import PHASE_DISCARD, PHASE_OWN_TURN


def test_batches_do_not_depend_on_the_clock():
    assert list(batches(64, 1000)) == [(0, 0, 64), (1, 64, 128), (2, 192, 256),
                                       (3, 448, 512), (4, 960, 40)]
    assert sum(size for _, _, size in batches(7, 10_000)) == 10_000


def test_separation_rule():
    rng = np.random.default_rng(1)
    base = rng.normal(0, 3, 400)
    far = np.stack([base, base - 2 + rng.normal(0, 0.5, 400)], axis=1)
    near = np.stack([base, base - 0.01 + rng.normal(0, 0.5, 400)], axis=1)
    assert separated(far) and not separated(near)
    assert separated(np.stack([base, base], axis=1))  # identical actions: nothing to separate
    se = paired_se(far)
    assert se[0] == 0 and math.isclose(se[1], (far[:, 1] - far[:, 0]).std(ddof=1) / 20)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=5), st.integers(1, 6),
       st.integers(0, 2**32 - 1))
def test_the_running_sums_give_the_paired_statistics_of_the_whole_table(sizes, k, seed):
    # the stopping rule reads integer sums kept batch by batch instead of the whole table
    rng = np.random.default_rng(seed)
    acc = Accumulator()
    for n in sizes:
        net = rng.integers(-40, 41, (n, k)) * rng.integers(0, 2, (n, k))
        zeros = np.zeros((n, k), np.int64)
        acc.add(Outcomes(net, zeros > 0, zeros > 0, zeros, zeros, zeros > 0, np.ones(n)))
    table = acc.net()
    if len(table) < 2:
        return
    mean, se = acc.paired(weighted=False)
    want_mean, want_se = paired_stats(table)
    assert acc.n == len(table)
    assert np.allclose(mean, want_mean) and np.allclose(se, want_se, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=2, max_size=5), st.integers(2, 6),
       st.integers(0, 2**32 - 1))
def test_the_running_sums_pair_each_action_with_the_best_where_both_were_played(sizes, k,
                                                                                 seed):
    # per-action allocation: an action not played on a hidden state counts neither in its own
    # mean nor in its pair with the best
    rng = np.random.default_rng(seed)
    acc = Accumulator()
    for n in sizes:
        played = rng.random((n, k)) < 0.7
        net = rng.integers(-40, 41, (n, k)) * played
        zeros = np.zeros((n, k), np.int64)
        acc.add(Outcomes(net, zeros > 0, zeros > 0, zeros, zeros, zeros > 0, np.ones(n),
                         played))
    o = acc.stacked()
    mean, gap, se, joint = acc.pairs()
    for a in range(k):
        rows = o.played[:, a]
        assert mean[a] == (o.net[rows, a].mean() if rows.any() else 0.0)
    best = int(np.argmax(mean))
    for a in range(k):
        both = o.played[:, a] & o.played[:, best]
        assert joint[a] == both.sum()
        d = o.net[both, best] - o.net[both, a]
        if a == best:
            assert se[a] == 0
        elif both.sum() >= 2:
            assert math.isclose(gap[a], d.mean(), abs_tol=1e-12)
            assert math.isclose(se[a], d.std(ddof=1) / math.sqrt(len(d)), rel_tol=1e-9,
                                abs_tol=1e-12)
        else:
            assert se[a] == np.inf  # never settled on fewer than two shared hidden states


def test_an_action_is_settled_when_separated_or_measured_and_the_best_never_is():
    rng = np.random.default_rng(2)
    base = rng.integers(-9, 10, 400)
    # the second action 2 units behind the first, the third as good (paired noise of -1, 0, 1)
    net = np.stack([base, base - 2 + rng.integers(-1, 2, 400),
                    base + rng.integers(-1, 2, 400)], axis=1)
    zeros = np.zeros(net.shape, np.int64)
    acc = Accumulator()
    acc.add(Outcomes(net, zeros > 0, zeros > 0, zeros, zeros, zeros > 0, np.ones(400)))
    assert list(acc.unsettled(3.0, None)) == [True, False, True]
    assert list(acc.unsettled(3.0, 0.5)) == [True, False, False]  # measured to 0.5 units
    few = Accumulator()
    few.add(Outcomes(net[:100], zeros[:100] > 0, zeros[:100] > 0, zeros[:100], zeros[:100],
                     zeros[:100] > 0, np.ones(100)))
    assert few.unsettled(3.0, None).all()  # fewer than MIN_SAMPLES shared hidden states


def test_threads_default_to_the_cores_and_exclude_processes():
    assert _threads(None, 2) == 1 and _threads(None, 1) >= 1 and _threads(3, 1) == 3
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="threads must be"):
            _threads(bad, 1)
    with pytest.raises(ValueError, match="give one of them"):
        _threads(2, 2)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"samples": 0}, "samples must be"), ({"seconds": -1}, "seconds must be"),
    ({"batch": 0}, "batch must be"), ({"separation": 0}, "separation must be"),
    ({"processes": 0}, "processes must be"),
])
def test_bad_options_are_named(kwargs, match):
    args = {"samples": 10, "seconds": None, "batch": 4, "separation": 3.0, "processes": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        _check(**args)


def test_stratified_first_draws_keep_every_wall_uniform():
    """A three-tile wall {0, 0, 1}: each of its three orders is equally likely, stratified or
    not (chi-square), and the first draws of a batch are spread exactly like the tiles."""
    rng = np.random.default_rng(3)
    walls = np.array([rng.permutation([0, 0, 1]) for _ in range(6000)], np.int8)
    out = stratify_first_draws(walls, 1, rng)
    counts = collections.Counter(map(tuple, out.tolist()))
    assert set(counts) == {(0, 0, 1), (0, 1, 0), (1, 0, 0)}
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3
    assert (np.sort(out, axis=1) == np.sort(walls, axis=1)).all()
    batch = stratify_first_draws(walls[:300], 1, rng)
    assert abs((batch[:, 0] == 1).sum() - 100) <= 1  # a third of the first draws, to one tile


def test_each_action_forces_its_decisions():
    p = Position.parse(TURN)
    loaded = base_state(p)
    rows = force_rows(p, loaded, p.legal_actions())
    assert (rows[:, 0] == 2).all()  # a turn's discard is the phase after its own turn
    assert (rows[:, 1] == 0).all() and (rows[:, 2] == forced.FORCE_DISCARD).all()
    assert (rows[:, 4] == -1).all()  # no other seat acts first
    claim = Position.parse(ON_DISCARD)
    loaded = base_state(claim)
    assert loaded.actor == 3 and loaded.base.sc[S_CUR] == 3
    assert loaded.base.sc[S_PHASE] == PHASE_DISCARD
    rows = force_rows(claim, loaded, claim.legal_actions())
    assert [tuple(r[4:7]) for r in rows] == [(3, forced.FORCE_DISCARD, 17)] * len(rows)


def test_the_base_state_is_at_the_decision_point():
    p = Position.parse(TURN)
    st = base_state(p).base
    assert st.sc[S_PHASE] == PHASE_OWN_TURN and st.sc[S_CUR] == 0
    assert st.sc[S_LAST_DRAWN] == 17  # 9p
    assert st.sc[S_WALL_END] - st.sc[S_POS] == 30
    # what the seat sees of the table is public, its own tiles and the hidden ones are not
    assert int(st.public.sum()) == int(p.visible_counts().sum() - p.concealed.sum())


def test_the_field_grammar():
    p = Position.parse(TURN)
    assert seat_policies(p, "expert", "speed") == ["expert", "speed", "speed", "speed"]
    assert seat_policies(p, "expert", "speed/random/flush") == ["expert", "speed", "random",
                                                                "flush"]
    assert seat_policies(p, "expert", "pungs/speed/random/flush")[1:] == ["speed", "random",
                                                                          "flush"]
    with pytest.raises(ValueError, match="field 'speed/random' names 2 seats"):
        seat_policies(p, "expert", "speed/random")


def test_weighted_means_and_their_errors():
    from simcore.advice.advisor import effective_size, weighted_mean_se

    rng = np.random.default_rng(2)
    x = rng.normal(size=(500, 3))
    plain_mean, plain_se = weighted_mean_se(x, None)
    assert np.allclose(plain_mean, x.mean(0))
    assert np.allclose(plain_se, x.std(0, ddof=1) / 500 ** .5)
    ones_mean, ones_se = weighted_mean_se(x, np.ones(500))
    assert np.allclose(ones_mean, plain_mean) and np.allclose(ones_se, plain_se, rtol=0.01)
    w = np.r_[np.ones(250), np.zeros(250)]  # half the samples weigh nothing
    m, se = weighted_mean_se(x, w)
    assert np.allclose(m, x[:250].mean(0)) and np.allclose(se, x[:250].std(0) / 250 ** .5)
    assert effective_size(w, 500) == 250 and effective_size(None, 500) == 500
