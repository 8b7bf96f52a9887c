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
from helpers.exact import exact, longest_suit_distribution, split_probability

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
    players = rules.players
    for k, mix in enumerate(MIXES):
        seats = mix.split("/")[:players]
        out = simulate(rules, seats, seed=11 + k, start=0, count=CI_DEALS, debug=True)
        check_records(out, players, rules.suits, blood_river=rules.blood_river)
        assert len(out) == players * CI_DEALS
        # blood river (docs/rules 9): every player may win, any number of times
        most = players if rules.blood_river else players - 1
        assert (out["winners"][::players] <= most).all()


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_invariants_every_preset_slow(preset: str) -> None:
    rules = PRESETS[preset]
    for k, mix in enumerate((*MIXES, "random", "speed")):
        seats = mix.split("/")[: rules.players] if "/" in mix else [mix]
        out = simulate(rules, seats, seed=101 + k, start=0, count=100_000, debug=True)
        check_records(out, rules.players, rules.suits, blood_river=rules.blood_river)


@pytest.mark.parametrize("spec", CONTRACT_SPECS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_contract_every_policy(spec: str, preset: str) -> None:
    checked = check_policy(spec, preset, deals=200, seed=5)
    text = parse_spec(spec).text
    assert (checked.spec, checked.rules, checked.deals) == (text, preset, 200)
    if PRESETS[preset].players == 4:
        assert checked.tables == ((text,) * 4, (text, "random", text, "speed"))
    else:
        assert checked.tables == ((text,) * 3, (text, "random", "speed"))


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
    players = PRESETS[preset].players
    spec = "/".join(["random", "speed", "speed", "random"][:players])
    batch = play(40, rules=preset, policies=spec, seed=21, start=100)
    for deal in (100, 113, 139):
        events, records = replay(21, deal, preset, spec)
        rows = batch[batch.deal == deal].reset_index(drop=True)
        pd.testing.assert_frame_equal(records, rows)
        assert events[0]["type"] == "deal" and events[-1]["type"] == "end"
        assert events[-1]["net"] == rows.net.tolist()
        # the nets are exactly the sum of all payments
        net = [0] * players
        for ev in events:
            for payer, payee, units, _reason in ev.get("payments", []):
                net[payer] -= units
                net[payee] += units
        assert net == rows.net.tolist()
        assert events[0]["wall"] == deal_walls(21, deal, 1, PRESETS[preset].suits)[0].tolist()


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
# exact values by enumeration over the suit splits and suit keys:
# tests/statistical/test_exact_probabilities.py
DEALT_HANDS = 200_000  # walls per dealing check (one non-dealer hand each: independent hands)


def _dealt_hands(seed: int, n: int, suits: int) -> np.ndarray:
    """A non-dealer's 13 dealt tiles (the dealer's next seat: wall tiles 13..25, with three or
    four players) of walls 0..n-1 of ``seed``, exactly as the engine deals them."""
    return deal_walls(seed=seed, start=0, count=n, suits=suits)[:, 13:26]


def _within_4_se(hits: np.ndarray, p: float) -> None:
    se = math.sqrt(p * (1 - p) / len(hits))
    assert abs(hits.mean() - p) < 4 * se, (hits.mean(), p, se)


@pytest.mark.parametrize("suits", [3, 2])
def test_dealt_hands_lack_a_suit_at_the_exact_rate(suits: int) -> None:
    hands = _dealt_hands(77, DEALT_HANDS, suits)
    held = np.stack([(hands // 9 == s).sum(axis=1) for s in range(3 - suits, 3)], axis=1)
    # three suits: some suit is missing; two suits: one suit only (a hand of one suit)
    p = split_probability(13, suits, lambda k: min(k) == 0)
    _within_4_se((held == 0).any(axis=1), float(p))


@pytest.mark.parametrize("suits", [3, 2])
def test_dealt_hands_longest_suit_has_the_exact_distribution(suits: int) -> None:
    hands = _dealt_hands(79, DEALT_HANDS, suits)
    longest = np.stack([(hands // 9 == s).sum(axis=1) for s in range(3)], axis=1).max(axis=1)
    dist = longest_suit_distribution(13, suits)
    for length, p in dist.items():
        if p * DEALT_HANDS >= 20:  # the rare lengths are checked by the sum below
            _within_4_se(longest == length, float(p))
    mean = float(sum(length * p for length, p in dist.items()))
    var = float(sum(length * length * p for length, p in dist.items())) - mean * mean
    assert abs(longest.mean() - mean) < 4 * math.sqrt(var / len(longest)), (longest.mean(), mean)
    assert set(np.unique(longest)) <= set(dist)


def test_two_suit_walls_hold_the_72_tiles_of_p_and_s() -> None:
    walls = deal_walls(seed=6, start=0, count=2_000, suits=2).astype(np.int64)
    assert walls.shape == (2_000, 72)
    assert (np.sort(walls, axis=1) == np.repeat(np.arange(9, 27), 4)).all()
    # the three-suit stream is unchanged by the two-suit one (walls are keyed by the wall id)
    assert np.array_equal(deal_walls(6, 0, 3)[0], deal_walls(6, 0, 1)[0])


def test_walls_are_uniform_permutations() -> None:
    walls = deal_walls(seed=5, start=0, count=20_000).astype(np.int64)
    assert (np.sort(walls, axis=1) == np.repeat(np.arange(27), 4)).all()
    # each position holds each type with probability 4/108: chi-square over positions 0, 52, 107
    for pos in (0, 52, 107):
        counts = np.bincount(walls[:, pos], minlength=27)
        expected = len(walls) / 27
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 70, (pos, chi2)  # 26 dof: P(chi2 > 70) < 1e-5


@pytest.mark.parametrize(("suits", "n"), [(3, 1_000_000), (2, 200_000)])
def test_dealt_hands_are_ready_at_the_exact_rate(suits: int, n: int) -> None:
    """Ready = some tile, never a fifth copy, completes the hand (the engine's wait mask): the
    enumeration's definition (``exact("ready", suits)``); shanten 0 up to fifth-copy waits."""
    from simcore.hand.kernels import _find_waits_batch
    from simcore.hand.tables import load_tables

    hands = _dealt_hands(78, n, suits).astype(np.int64)
    counts = np.zeros((n, 27), np.int8)
    np.add.at(counts, (np.repeat(np.arange(n), 13), hands.ravel()), 1)
    tables = load_tables()
    waits = np.zeros(n, np.int64)
    zeros = np.zeros(n, np.int64)
    # two suits: the void is m, the absent suit (the engine's choice); none with three suits
    void = zeros - 1 if suits == 3 else zeros
    _find_waits_batch(counts, counts, zeros, void, zeros, tables.packed, tables.masks, waits)
    _within_4_se(waits != 0, float(exact("ready", suits)))
