"""The engine's shared contract: invariants, determinism, replay == batch, exact dealing.

Every preset runs with random and speed policies mixed across seats; every policy spec of
``CONTRACT_SPECS`` (each family and option) goes through the policy contract,
:func:`simcore.testing.check_policy`, under every preset: a new policy or option joins by a line.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from simcore.engine import play, simulate
from simcore.engine.invariants import check_records
from simcore.engine.replay import replay
from simcore.engine.rng import deal_walls
from simcore.engine.spec import parse_spec
from simcore.records import NET_PARTS
from simcore.rules import PRESETS, get_rules
from simcore.testing import check_policy

MIXES = ("random/speed/speed/random", "speed/random/random/speed")
CONTRACT_SPECS = (
    "speed",
    "speed:kong=never",
    "speed:kong=always",
    "speed:min_fan=2,until=8",
    "speed:ukeire=0",
    "speed:kong=pung_then_add",
    "speed:exchange=keep_long,void=weakest",
    "speed:exchange=random,watch=1",
    "flush",
    "flush:k=6,g=8,kong=always,watch=1",
    "flush:k=7,kong=pung_then_add,exchange=keep_long,min_fan=2,until=20",
    "pungs",
    "pungs:k=2,kong=pung_then_add,void=weakest",
    "pungs:k=3,kong=never,exchange=random,ukeire=0",
    "pairs",
    "pairs:k=3,kong=always,min_fan=1,until=20,watch=1",
)
CI_DEALS = 10_000  # per mix and preset: 20,000 deals of every preset in CI


@pytest.mark.parametrize("preset", list(PRESETS))
def test_invariants_every_preset(preset: str) -> None:
    rules = PRESETS[preset]
    for k, mix in enumerate(MIXES):
        out = simulate(rules, mix.split("/"), seed=11 + k, start=0, count=CI_DEALS, debug=True)
        check_records(out, blood_river=rules.blood_river)
        # blood river (RULES.md 9): all four may win, any number of times
        assert (out["winners"][::4] <= (4 if rules.blood_river else 3)).all()


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_invariants_every_preset_slow(preset: str) -> None:
    rules = PRESETS[preset]
    for k, mix in enumerate((*MIXES, "random", "speed")):
        out = simulate(rules, mix.split("/"), seed=101 + k, start=0, count=100_000, debug=True)
        check_records(out, blood_river=rules.blood_river)


@pytest.mark.parametrize("spec", CONTRACT_SPECS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_contract_every_policy(spec: str, preset: str) -> None:
    checked = check_policy(spec, preset, deals=200, seed=5)
    text = parse_spec(spec).text
    assert (checked.spec, checked.rules, checked.deals) == (text, preset, 200)
    assert checked.tables == ((text,) * 4, (text, "random", text, "speed"))


def test_chunking_never_changes_a_deal() -> None:
    seats = "random/speed/speed/random"
    check_policy("random", "app", others="speed", deals=600, seed=3)  # chunks 0..199, 200, 201..
    whole = simulate(PRESETS["app"], seats.split("/"), seed=3, start=0, count=600)
    other_seed = simulate(PRESETS["app"], seats.split("/"), seed=4, start=0, count=600)
    assert not np.array_equal(whole["net"], other_seed["net"])


def test_duplicate_rotations_share_walls_and_dealer() -> None:
    rules = PRESETS["classic"]
    seats = ["speed", "random", "speed", "random"]
    out = simulate(rules, seats, seed=9, start=10, count=50, duplicate=True)
    assert len(out) == 50 * 16
    assert np.array_equal(out["deal"], 4 * out["wall"] + out["rotation"])
    dealer_seat = out["seat"][out["dealer"]]
    assert np.array_equal(dealer_seat, (out["wall"][out["dealer"]] % 4))
    # rotation r seats policy (s + r) % 4 at seat s: index into policy_names ['speed', 'random']
    expected = np.array([0, 1, 0, 1])[(out["seat"] + out["rotation"]) % 4]
    assert np.array_equal(out["policy"], expected)
    split = np.concatenate([
        simulate(rules, seats, seed=9, start=10, count=20, duplicate=True),
        simulate(rules, seats, seed=9, start=30, count=30, duplicate=True),
    ])
    assert np.array_equal(out, split)
    check_records(out)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_equals_batch(preset: str) -> None:
    spec = "random/speed/speed/random"
    batch = play(40, rules=preset, policies=spec, seed=21, start=100)
    for deal in (100, 113, 139):
        events, records = replay(21, deal, preset, spec)
        rows = batch[batch.deal == deal].reset_index(drop=True)
        pd.testing.assert_frame_equal(records, rows)
        assert events[0]["type"] == "deal" and events[-1]["type"] == "end"
        assert events[-1]["net"] == rows.net.tolist()
        # the nets are exactly the sum of all payments
        net = [0, 0, 0, 0]
        for ev in events:
            for payer, payee, units, _reason in ev.get("payments", []):
                net[payer] -= units
                net[payee] += units
        assert net == rows.net.tolist()
        assert events[0]["wall"] == deal_walls(21, deal, 1)[0].tolist()


def test_replay_duplicate_equals_batch() -> None:
    spec = ["speed", "random", "random", "speed"]
    out = simulate(PRESETS["qq"], spec, seed=2, start=7, count=1, duplicate=True)
    for rotation in range(4):
        _events, records = replay(2, 4 * 7 + rotation, "qq", spec, duplicate=True)
        rows = out[out["rotation"] == rotation]
        assert records.net.tolist() == rows["net"].tolist()
        assert records.win_order.tolist() == rows["win_order"].tolist()


def test_replay_events_carry_the_contract_keys() -> None:
    required = {
        "deal": {"deal", "seed", "rules", "dealer", "wall", "hands"},
        "exchange": {"direction", "given"},
        "void": {"suits"},
        "draw": {"seat", "tile", "replacement"},
        "discard": {"seat", "tile"},
        "pung": {"seat", "tile", "from"},
        "kong": {"seat", "tile", "kind", "from", "robbed", "payments"},
        "pass": {"seat", "tile"},
        "win": {"seat", "tile", "kind", "from", "fan", "fan_uncapped", "pattern", "roots",
                "bonuses", "payments"},
        "settle": {"pigs", "ready", "payments"},
        "end": {"net", "wall_left"},
    }
    seen: set[str] = set()
    for deal in range(60):
        events, _ = replay(4, deal, "app", "random/speed/speed/random")
        for ev in events:
            assert required[ev["type"]] <= set(ev), ev
            seen.add(ev["type"])
        deal_ev = events[0]
        assert sorted(deal_ev["wall"]) == sorted(list(range(27)) * 4)
        assert [len(h) for h in deal_ev["hands"]] == [
            14 if s == deal_ev["dealer"] else 13 for s in range(4)
        ]
    assert seen >= {"deal", "exchange", "void", "draw", "discard", "pung", "kong", "win",
                    "settle", "end"}


def test_records_columns_and_types() -> None:
    df = play(20, rules="classic", policies="speed/random/speed/random", seed=0)
    for column in ("deal", "seat", "dealer", "policy", "void_suit", "win_order", "win_draw",
                   "win_kind", "fed_by", "fan", "pattern", "flush", "roots", "kongs",
                   "ready_end", "pig", "net", *NET_PARTS, "exchange_dir", "wall_left",
                   "winners"):
        assert column in df.columns, column
    assert df.deal.dtype == np.int64
    assert set(df.policy.cat.categories) == {"speed", "random"}
    assert set(df.void_suit.astype(str)) <= {"m", "p", "s"}
    assert set(df.win_kind.astype(str)) <= {"", "self_draw", "discard", "robbed_kong",
                                             "kong_flower"}
    assert (df.groupby("deal").seat.apply(list) == [[0, 1, 2, 3]] * 20).all()
    assert (df[df.dealer].seat.to_numpy() == df[df.dealer].deal.to_numpy() % 4).all()


def test_play_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"deals must be between 1"):
        play(-5)
    with pytest.raises(ValueError, match=r"unknown preset 'clasic'"):
        play(1, rules="clasic")
    with pytest.raises(ValueError, match=r"unknown policy 'sped'"):
        play(1, policies="sped")
    with pytest.raises(ValueError, match=r"name 3 seats"):
        play(1, policies="speed/speed/speed")
    with pytest.raises(ValueError, match=r"unknown rule parameter 'fan_capp'"):
        play(1, overrides=["fan_capp=3"])


def test_overrides_change_the_game() -> None:
    base = play(300, rules="classic", policies="random", seed=8)
    no_pig = play(300, rules="classic", policies="random", seed=8, overrides=["pig_penalty=0"])
    assert (base.net_pig != 0).any()
    assert (no_pig.net_pig == 0).all()
    assert get_rules("classic", pig_penalty=0).id != PRESETS["classic"].id


# ----------------------------------------------------------------------------- exact dealing
def _lacks_a_suit_probability() -> float:
    """P(13 tiles drawn from the 108 miss at least one suit), by inclusion-exclusion."""
    total = math.comb(108, 13)
    return (3 * math.comb(72, 13) - 3 * math.comb(36, 13)) / total


def test_dealt_hands_lack_a_suit_at_the_exact_rate() -> None:
    n = 200_000
    walls = deal_walls(seed=77, start=0, count=n)
    hands = walls[:, 13:26]  # the dealer's next seat: a non-dealer's 13 tiles
    suits = hands // 9
    lacks = np.zeros(n, dtype=bool)
    for s in range(3):
        lacks |= ~(suits == s).any(axis=1)
    p = _lacks_a_suit_probability()
    se = math.sqrt(p * (1 - p) / n)
    assert abs(lacks.mean() - p) < 4 * se, (lacks.mean(), p, se)


def test_walls_are_uniform_permutations() -> None:
    walls = deal_walls(seed=5, start=0, count=20_000).astype(np.int64)
    assert (np.sort(walls, axis=1) == np.repeat(np.arange(27), 4)).all()
    # each position holds each type with probability 4/108: chi-square over positions 0, 52, 107
    for pos in (0, 52, 107):
        counts = np.bincount(walls[:, pos], minlength=27)
        expected = len(walls) / 27
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 70, (pos, chi2)  # 26 dof: P(chi2 > 70) < 1e-5


# exact P(13 random tiles of the 108 are ready), enumerated in tests/test_exact_probabilities.py
P_READY_13 = 34168110143 / 214509976461585


def test_dealt_hands_are_ready_at_the_exact_rate() -> None:
    from simcore._hand_kernels import _find_waits_batch
    from simcore.tables import load_tables

    n = 1_000_000
    walls = deal_walls(seed=78, start=0, count=n)
    counts = np.zeros((n, 27), np.int8)
    hands = walls[:, 13:26].astype(np.int64)  # the dealer's next seat: a non-dealer's tiles
    np.add.at(counts, (np.repeat(np.arange(n), 13), hands.ravel()), 1)
    tables = load_tables()
    waits = np.zeros(n, np.int64)
    zeros = np.zeros(n, np.int64)
    _find_waits_batch(counts, counts, zeros, zeros - 1, zeros, tables.packed, tables.masks, waits)
    rate = (waits != 0).mean()
    se = math.sqrt(P_READY_13 * (1 - P_READY_13) / n)
    assert abs(rate - P_READY_13) < 4 * se, (rate, P_READY_13, se)
