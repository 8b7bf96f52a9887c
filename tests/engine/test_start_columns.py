"""The starting-hand record columns (issue 17): ``shanten_dealt``, ``shanten_exchanged``,
``shanten_void``, ``longest_suit``, ``pairs``.

- scripted walls with hand-computed values (classic: no exchange; app: an exchange whose
  direction the engine's stream fixes, `splitmix.exchange_direction`);
- the plain-Python oracle (:func:`simcore.hand.reference.start_columns`) recomputing every column
  from the replay log (deal, exchange, void events) of deals of every preset and of batch
  records (walls rebuilt by the pure-Python stream copy), and on random walls (hypothesis);
- exact facts of the engine's dealing: P(13 dealt tiles have shanten 0) by per-suit
  enumeration (the classes of ``test_exact_probabilities``, all three suits allowed) and the
  distribution of the longest suit of 13 dealt tiles (multivariate hypergeometric), within
  4 SE;
- :func:`simcore.analysis.start_value` against a direct computation.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pandas as pd
import pytest
from helpers import splitmix
from helpers.exact import _ready, random_counts, suit_class_weights
from helpers.scripted import build_wall, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.analysis import start_value
from simcore.engine import play as play_deals
from simcore.engine.replay import dealt_hands, play_wall, replay
from simcore.hand import kernels as hk
from simcore.hand import reference
from simcore.hand.tables import load_tables
from simcore.records import START_COLUMNS, SUIT_LETTERS, WALL_SIZE
from simcore.rules import PRESETS

# the presets of the four-player, three-suit game (whose walls tests/helpers/splitmix.py rebuilds)
CLASSIC_GAMES = [p for p, r in PRESETS.items()
                 if getattr(r, "players", 4) == 4 and getattr(r, "suits", 3) == 3]


def _counts(tiles) -> list[int]:
    c = [0] * 27
    for t in tiles:
        c[int(t)] += 1
    return c


def expected_from_log(events: list[dict]) -> dict[int, dict[str, int]]:
    """Every seat's starting columns, from the log's deal, exchange and void events alone."""
    deal = events[0]
    assert deal["type"] == "deal"
    dealt = [_counts(h) for h in deal["hands"]]
    players = len(dealt)
    table = () if players == 4 else (players,)  # dealt_hands' players argument (issue 17)
    assert dealt == [_counts(h) for h in dealt_hands(deal["wall"], deal["dealer"], *table)]
    exchanged = [list(c) for c in dealt]
    exchange = [e for e in events if e["type"] == "exchange"]
    if exchange:
        # seat s passes to s + k (docs/developer/engine.md; "previous" is the seat before)
        k = {"next": 1, "previous": players - 1, "across": 2}[exchange[0]["direction"]]
        for s, tiles in enumerate(exchange[0]["given"]):
            for t in tiles:
                exchanged[s][t] -= 1
                exchanged[(s + k) % players][t] += 1
    void = [e for e in events if e["type"] == "void"]  # none declared under two suits
    voids = [SUIT_LETTERS.index(v) for v in void[0]["suits"]] if void else [-1] * players
    return {s: reference.start_columns(dealt[s], exchanged[s], voids[s])
            for s in range(players)}


def _record_columns(df: pd.DataFrame) -> dict[int, dict[str, int]]:
    rows = df.sort_values("seat")
    return {int(r.seat): {c: int(getattr(r, c)) for c in START_COLUMNS}
            for r in rows.itertuples()}


# ----------------------------------------------------------------------------- scripted walls
# Four hands whose one suit of exactly three tiles is the shortest with three: `speed`
# (exchange=shortest) passes exactly those, and voids the suit it then holds fewest of.
HANDS = {
    0: "123m456m789m11p789s",  # the dealer's 14: a complete shape of three suits
    1: "23456788p345s11m",
    2: "11123466s567m99p",
    3: "33445567p99s228m",
}


def test_scripted_classic_without_exchange() -> None:
    events, df = play(build_wall(HANDS), "classic", "speed")
    got = _record_columns(df)
    # without an exchange the hand after it is the hand as dealt
    assert got == {
        # 4 melds + pair dealt (-1); voiding p (2 tiles) leaves 12 usable tiles: shanten 1
        0: dict(shanten_dealt=-1, shanten_exchanged=-1, shanten_void=1, longest_suit=9,
                pairs=0),
        # ready (8p/1m); void m: 11 usable tiles, 3 to add: shanten 2
        1: dict(shanten_dealt=0, shanten_exchanged=0, shanten_void=2, longest_suit=8, pairs=1),
        # ready (6s/9p); void p: 11 usable tiles: shanten 2; pairs 1s (a triplet) and 6s
        2: dict(shanten_dealt=0, shanten_exchanged=0, shanten_void=2, longest_suit=8, pairs=2),
        # 345p 345p 67p 99s 22m 8m: shanten 1; void s: 11 usable tiles: shanten 2
        3: dict(shanten_dealt=1, shanten_exchanged=1, shanten_void=2, longest_suit=8, pairs=4),
    }
    assert [e for e in events if e["type"] == "void"][0]["suits"] == ["p", "m", "p", "s"]
    assert expected_from_log(events) == got


def _deal_with_direction(direction: str) -> int:
    """The first deal number whose exchange (engine stream of seed 0) goes ``direction``."""
    return next(d for d in range(100) if splitmix.exchange_direction(0, d) == direction)


def test_scripted_app_exchange_then_void() -> None:
    deal = _deal_with_direction("next")
    events, df = play(build_wall(HANDS), "app", "speed", deal=deal)
    (exchange,) = [e for e in events if e["type"] == "exchange"]
    assert exchange["direction"] == "next"
    assert [sorted(g) for g in exchange["given"]] == [[24, 25, 26], [20, 21, 22], [4, 5, 6],
                                                      [1, 1, 7]]
    assert [e for e in events if e["type"] == "void"][0]["suits"] == ["s", "m", "m", "s"]
    got = _record_columns(df)
    assert got == {
        # gives 789s, gets 228m: 1222345678 89m 11p, ready (no 14-tile shape: 22m left over)
        0: dict(shanten_dealt=-1, shanten_exchanged=0, shanten_void=0, longest_suit=12,
                pairs=3),
        # gives 345s, gets 789s: still ready; void m leaves 11 usable tiles: shanten 2
        1: dict(shanten_dealt=0, shanten_exchanged=0, shanten_void=2, longest_suit=8, pairs=1),
        # gives 567m, gets 345s: 11123344566s 99p, ready; void m holds no tile: unchanged
        2: dict(shanten_dealt=0, shanten_exchanged=0, shanten_void=0, longest_suit=11,
                pairs=5),
        # gives 228m, gets 567m: 345p 345p 567m 99s 67p, ready; void s: shanten 2
        3: dict(shanten_dealt=1, shanten_exchanged=0, shanten_void=2, longest_suit=8, pairs=3),
    }
    assert expected_from_log(events) == got


# ----------------------------------------------------------------------------- the oracle
SPECS = ("speed", "random/speed/flush:k=7/pairs:k=4",
         "speed:exchange=random,void=weakest/pungs:k=3/speed:exchange=keep_long/random")


def _table_spec(spec: str, preset: str) -> str:
    """``spec`` for the table's seats: a per-seat spec keeps its first ``players`` seats."""
    players = getattr(PRESETS[preset], "players", 4)
    return "/".join(spec.split("/")[:players]) if "/" in spec else spec


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replayed_deals_match_the_oracle(preset: str) -> None:
    for spec in (_table_spec(s, preset) for s in SPECS):
        batch = play_deals(24, rules=preset, policies=spec, seed=5)
        for deal in range(24):
            events, df = replay(5, deal, preset, spec)
            assert _record_columns(df) == expected_from_log(events), (preset, spec, deal)
            assert _record_columns(batch[batch.deal == deal]) == _record_columns(df)


@pytest.mark.parametrize("preset", ["classic", "app"])
def test_expert_seats_match_the_oracle(preset: str) -> None:
    spec = "expert/speed/expert:exchange=keep_long/random"
    batch = play_deals(8, rules=preset, policies=spec, seed=2)
    for deal in range(8):
        events, df = replay(2, deal, preset, spec)
        assert _record_columns(df) == expected_from_log(events) == \
            _record_columns(batch[batch.deal == deal]), (preset, deal)


@pytest.mark.parametrize("preset", [p for p in CLASSIC_GAMES if not PRESETS[p].exchange_three])
def test_batch_records_match_the_oracle(preset: str) -> None:
    """Many deals of a batch run: without an exchange the records and the walls of the
    pure-Python stream copy are all the oracle needs."""
    seed, deals = 9, 200
    df = play_deals(deals, rules=preset, policies="random/speed/pungs:k=3/speed:void=s",
                    seed=seed)
    void = df["void_suit"].cat.codes.to_numpy().reshape(deals, 4)
    got = df[list(START_COLUMNS)].to_numpy().reshape(deals, 4, len(START_COLUMNS))
    for d in range(deals):
        hands = dealt_hands(splitmix.wall(seed, d), d % 4)
        for s in range(4):
            c = _counts(hands[s])
            want = reference.start_columns(c, c, int(void[d, s]))
            assert got[d, s].tolist() == [want[k] for k in START_COLUMNS], (preset, d, s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(perm=st.permutations(list(range(WALL_SIZE))), preset=st.sampled_from(CLASSIC_GAMES),
       spec=st.sampled_from(SPECS), dealer=st.integers(0, 3), deal=st.integers(0, 50))
def test_random_walls_match_the_oracle(perm, preset, spec, dealer, deal) -> None:
    wall = [k // 4 for k in perm]
    events, df = play_wall(wall, preset, spec, dealer=dealer, deal=deal, debug=True)
    assert _record_columns(df) == expected_from_log(events)


def test_oracle_rejects_bad_hands() -> None:
    twelve = _counts([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3)
    thirteen = _counts([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [4])
    with pytest.raises(ValueError, match="13 or 14 tiles .* got 12 and 12"):
        reference.start_columns(twelve, twelve)
    with pytest.raises(ValueError, match="13 or 14 tiles .* got 13 and 12"):
        reference.start_columns(thirteen, twelve)
    with pytest.raises(ValueError, match="void must be -1, None or a suit 0..2, got 3"):
        reference.start_columns(thirteen, thirteen, void=3)


# ----------------------------------------------------------------------------- exact facts
@cache
def exact_shanten0_13() -> Fraction:
    """P(13 tiles drawn at random from the 108 have shanten 0, any shape): some tile makes a
    standard shape (one suit one tile short of decomposable, the others decomposable) or six
    pairs and a single (one suit with exactly one odd count, the others all even). Unlike the
    Sichuan "ready" of test_exact_probabilities, hands of three suits count."""
    w = suit_class_weights()
    total = 0
    for n0 in range(14):
        for n1 in range(14 - n0):
            n2 = 13 - n0 - n1
            for c0, w0 in w[n0].items():
                for c1, w1 in w[n1].items():
                    for c2, w2 in w[n2].items():
                        if _ready((c0, c1, c2)):
                            total += w0 * w1 * w2
    return Fraction(total, math.comb(108, 13))


def exact_longest_suit(n_tiles: int) -> dict[int, Fraction]:
    """P(the longest suit of ``n_tiles`` dealt tiles has k tiles), 36 tiles a suit."""
    out: dict[int, int] = {}
    for a in range(n_tiles + 1):
        for b in range(n_tiles + 1 - a):
            c = n_tiles - a - b
            k = max(a, b, c)
            out[k] = out.get(k, 0) + math.comb(36, a) * math.comb(36, b) * math.comb(36, c)
    return {k: Fraction(v, math.comb(108, n_tiles)) for k, v in sorted(out.items())}


def _z(count: int, n: int, p: Fraction) -> float:
    q = float(p)
    return (count / n - q) / math.sqrt(q * (1 - q) / n)


def test_exact_values_are_pinned() -> None:
    assert exact_shanten0_13() == Fraction(2056978579, 2004766135155)  # ~ 1.02604e-03
    longest = exact_longest_suit(13)
    assert sum(longest.values()) == 1 and min(longest) == 5 and max(longest) == 13
    # the 13 tiles of one suit: 3 * comb(36, 13) of comb(108, 13)
    assert longest[13] == Fraction(3 * math.comb(36, 13), math.comb(108, 13))


def test_shanten_kernel_matches_the_enumeration() -> None:
    """The enumeration counts what the shanten kernel calls shanten 0 (random 13-tile hands)."""
    n = 400_000
    counts = random_counts(np.random.default_rng(17), n, 13)
    out = np.empty(n, np.int64)
    hk.calc_shanten_batch(counts, np.zeros(n, np.int8), np.full(n, -1, np.int8),
                           hk.KIND_ANY, load_tables().packed, out)
    z = _z(int((out == 0).sum()), n, exact_shanten0_13())
    assert abs(z) < 4, z


def test_dealing_matches_exact_probabilities() -> None:
    """Non-dealers' ``shanten_dealt`` (13 uniform tiles of the wall) and, under ``speed``
    (which voids the suit it holds fewest of, never the longest), ``longest_suit``."""
    deals = 30_000
    df = play_deals(deals, rules="classic", policies="speed", seed=20261201)
    others = df[~df["dealer"]]
    n = len(others)
    z = _z(int((others["shanten_dealt"] == 0).sum()), n, exact_shanten0_13())
    assert abs(z) < 4, z
    assert (others["shanten_dealt"] >= 0).all()  # 13 tiles are never complete
    counts = others["longest_suit"].value_counts()
    for k, p in exact_longest_suit(13).items():
        if p * n >= 5:
            z = _z(int(counts.get(k, 0)), n, p)
            assert abs(z) < 4, (k, z)


# ----------------------------------------------------------------------------- start_value
def test_start_value_is_the_clustered_mean_and_rate() -> None:
    deals = 400
    df = play_deals(deals, rules="classic", policies="random/speed/speed/speed", seed=3)
    table = start_value(df)
    assert list(table.columns[:4]) == ["preset", "shanten_void", "metric", "stat"]
    assert set(table["preset"]) == {"classic"}
    for metric, stat in (("net", "mean"), ("win", "rate")):
        part = table[table.metric == metric].set_index("shanten_void")
        assert (part["stat"] == stat).all()
        # a rate of 0 or 1 has no spread to cluster: Wilson's interval over deals instead
        edge = (part["estimate"] == 0) | (part["estimate"] == 1) if metric == "win" else False
        assert (part["method"] == np.where(edge, "wilson(deals)", "cluster(deal)")).all()
        y = df["net"].astype(float) if metric == "net" else (df["win_order"] > 0).astype(float)
        for level, rows in df.groupby("shanten_void"):
            row = part.loc[level]
            assert row["n"] == len(rows)
            assert row["estimate"] == pytest.approx(y[rows.index].mean())
            # the delta-method variance over deals, clusters of the level's rows of a deal
            yc = y[rows.index].groupby(rows["deal"]).sum()
            xc = rows.groupby("deal").size()
            r = yc.sum() / xc.sum()
            g = len(xc)
            if g > 1 and not (metric == "win" and r in (0.0, 1.0)):
                var = g / (g - 1) * ((yc - r * xc) ** 2).sum() / xc.sum() ** 2
                assert row["se"] == pytest.approx(math.sqrt(var))
                assert row["ci_low"] == pytest.approx(max(r - 1.959964 * math.sqrt(var),
                                                          0.0 if metric == "win" else -1e9),
                                                      abs=1e-5)
    assert sorted(table["shanten_void"].unique()) == sorted(df["shanten_void"].unique())
    split = start_value(df, by="pairs", within=("dealer", "policy"))
    assert set(split["dealer"]) == {False, True} and set(split["policy"]) == {"random", "speed"}
    n = split[split.metric == "net"].groupby("pairs")["n"].sum()
    assert n.to_dict() == df.groupby("pairs").size().to_dict()


def test_start_value_names_bad_input() -> None:
    df = play_deals(8, rules="classic", policies="speed", seed=1)
    with pytest.raises(ValueError, match="starting-hand column .* got 'net'"):
        start_value(df, by="net")
    with pytest.raises(ValueError, match="'pairs' is both the starting column and a 'within'"):
        start_value(df, by="pairs", within="pairs")
    with pytest.raises(ValueError, match="the run has no column 'pairs'"):
        start_value(df.drop(columns=["pairs"]), by="pairs")
    with pytest.raises(ValueError, match="cannot group by 'colour'"):
        start_value(df, within="colour")
