"""The policy contract itself (simcore.testing.check_policy): each of its checks fails when the
thing it checks is broken (the engine functions it calls are replaced by broken ones)."""

from __future__ import annotations

import numpy as np
import pytest

import simcore.testing
from simcore.engine import api
from simcore.engine.spec import parse_spec
from simcore.testing import policy


def test_check_policy_is_in_simcore_testing() -> None:
    assert simcore.testing.check_policy is policy.check_policy
    checked = simcore.testing.check_policy("pungs:k=3,kong=never", "qq", deals=12, replays=2)
    assert checked.spec == "pungs:kong=never,k=3" and checked.rules == "qq"
    assert checked.replayed == (0, 11)
    assert checked.tables[1] == ("pungs:kong=never,k=3", "random", "pungs:kong=never,k=3",
                                 "speed")
    assert policy.check_policy("random", deals=8).options == ()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"spec": "sped"}, r"unknown policy 'sped'"),
        ({"spec": "speed", "rules": "clasic"}, r"unknown preset 'clasic'"),
        ({"spec": "speed", "deals": 3}, r"deals must be an integer >= 4, got 3"),
        ({"spec": "speed", "replays": 0}, r"replays must be an integer in 1..deals, got 0"),
        ({"spec": "speed", "others": "a/b/c"}, r"others 'a/b/c' names 3 seats"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        policy.check_policy(**kwargs)


def test_a_broken_invariant_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("invariant broken in deal 3 of seed 7 (classic, speed/...): "
                           "payments do not sum to zero")

    monkeypatch.setattr(policy, "simulate", broken)
    with pytest.raises(AssertionError, match=r"policy 'speed' \(classic.*deal 3.*zero"):
        policy.check_policy("speed", deals=8)


def test_records_that_break_an_invariant_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    def unbalanced(*args, **kwargs):
        out = api.simulate(*args, **kwargs)
        out["net"][0] += 1
        return out

    monkeypatch.setattr(policy, "simulate", unbalanced)
    with pytest.raises(AssertionError, match=r"deal 0: payments do not sum to zero"):
        policy.check_policy("speed", deals=8)


def test_chunk_dependent_deals_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    def chunky(rules, seats, seed, start, count, **kwargs):
        out = api.simulate(rules, seats, seed, start, count, **kwargs)
        out["draws"][:4] += 1  # the first deal of every chunk is played differently
        return out

    monkeypatch.setattr(policy, "simulate", chunky)
    with pytest.raises(AssertionError, match=r"chunking changed deal 2 \(chunks 0..1, 2, 3..7\)"):
        policy.check_policy("speed", deals=8)


def test_a_replay_unlike_the_batch_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = policy.replay

    def off(*args, **kwargs):
        events, df = real(*args, **kwargs)
        df.loc[1, "draws"] += 1
        return events, df

    monkeypatch.setattr(policy, "replay", off)
    with pytest.raises(AssertionError, match=r"the replay of deal 0 differs from the batch"):
        policy.check_policy("flush:k=6", "app", deals=8)


def test_replay_payments_that_miss_the_nets_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = policy.replay

    def unpaid(*args, **kwargs):
        events, df = real(*args, **kwargs)
        return [ev for ev in events if ev["type"] != "win"], df

    monkeypatch.setattr(policy, "replay", unpaid)
    with pytest.raises(AssertionError, match=r"payments of the replay of deal \d+ sum to"):
        policy.check_policy("speed", deals=40, replays=40)


def test_an_accepted_bad_option_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def lenient(text: str):
        name, _, rest = text.partition(":")
        keys = [item.partition("=")[0] for item in rest.split(",") if item]
        if "k" in keys:
            return parse_spec(name)  # accepts any value of k
        return parse_spec(text)

    monkeypatch.setattr(policy, "parse_spec", lenient)
    with pytest.raises(AssertionError, match=r"spec 'flush:k=-1' is accepted; it should be an "
                                             r"error naming option 'k'"):
        policy.check_policy("flush", deals=4, replays=1)


def test_an_error_that_does_not_name_the_option_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def vague(text: str):
        try:
            return parse_spec(text)
        except ValueError:
            raise ValueError("bad spec") from None

    monkeypatch.setattr(policy, "parse_spec", vague)
    with pytest.raises(AssertionError, match=r"spec 'speed:kong=nonsense' is refused with a "
                                             r"message that does not name option 'kong'"):
        policy.check_policy("speed", deals=4, replays=1)


def test_chunk_boundaries_cover_a_single_deal() -> None:
    # the deals of check_policy's plain run are chunked 0..a-1, a, a+1..: one deal alone
    rules = policy.resolve_rules("classic")
    whole = api.simulate(rules, ["speed"] * 4, 7, 0, 9)
    alone = api.simulate(rules, ["speed"] * 4, 7, 3, 1)
    assert np.array_equal(whole[12:16], alone)
