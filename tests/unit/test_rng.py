"""Known answers of the random streams (simcore/engine/rng.py).

The expected numbers are written out below; they were produced by the pure-Python reference in
helpers/splitmix.py (Python integers, not the kernel), and the reference itself is pinned to the
published splitmix64 outputs. A change of a constant, of the keying or of the shuffle changes
every wall of every run: these tests fail first.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import splitmix as ref

from simcore.engine import play
from simcore.engine.rng import (
    PURPOSE_ENGINE,
    PURPOSE_SEAT0,
    PURPOSE_WALL,
    below,
    deal_walls,
    next_u64,
    stream_key,
)
from simcore.records import EXCHANGE_NAMES

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)

# (seed, deal, purpose) -> the stream's initial state and its first three outputs
KNOWN_STREAMS = [
    ((0, 0, 0), 0x9B71FA71B8AE399A,
     (0x9C48BD69ED3A0574, 0xEE2C1A028D6A037E, 0xE4AB7F9C263E5EC3)),
    ((11, 3, 1), 0x1961B06EE18E78AC,
     (0x2E4250950EB5AC6B, 0x32D5AF0507A45D26, 0xA0476C088B940F19)),
    ((2**63 - 1, 123456789, 5), 0x428D0858763747B8,
     (0x83B9DD11CD5A3947, 0x7E12E604BD2DC74F, 0x774DAC459FF81A1C)),
    ((42, 7, 2), 0x831A9BF65C90ADF6,
     (0x9EE0961EA355C963, 0xC812B0A15696D245, 0x90233198B71E67A2)),
]
# the first 24 tiles (tile types) of walls of a seed
KNOWN_WALL_PREFIXES = [
    ((11, 0), [6, 24, 23, 5, 20, 22, 18, 1, 16, 20, 14, 12, 19, 21, 12, 0, 16, 9, 26, 6, 26, 20,
               4, 1]),
    ((0, 1), [14, 11, 10, 4, 5, 6, 15, 13, 14, 12, 9, 3, 26, 17, 18, 15, 18, 20, 26, 23, 2, 1, 8,
              21]),
]


def test_reference_is_splitmix64() -> None:
    # Vigna's splitmix64.c from state 0 (the values xoshiro's seeding publishes)
    assert ref.splitmix64(0, 4) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                    0x06C45D188009454F, 0xF88BB8A8724C81EC]


def test_purposes_are_the_documented_ones() -> None:
    assert (PURPOSE_WALL, PURPOSE_ENGINE, PURPOSE_SEAT0) == (ref.PURPOSE_WALL,
                                                             ref.PURPOSE_ENGINE,
                                                             ref.PURPOSE_SEAT0)


@pytest.mark.parametrize(("key", "state", "outputs"), KNOWN_STREAMS)
def test_stream_known_answers(key: tuple[int, int, int], state: int,
                              outputs: tuple[int, ...]) -> None:
    # the reference gives the written-out numbers ...
    assert ref.stream_key(*key) == state
    stream = ref.Stream(state)
    assert tuple(stream.next_u64() for _ in range(3)) == outputs
    # ... and so does the kernel
    assert int(stream_key(*key)) == state
    words = np.array([0, state], dtype=np.uint64)
    assert tuple(int(next_u64(words, 1)) for _ in range(3)) == outputs
    assert int(words[0]) == 0  # only the stream asked for advances


@pytest.mark.parametrize("n", [1, 2, 3, 27, 108, 2**31 - 1])
def test_below_equals_the_reference(n: int) -> None:
    state = ref.stream_key(5, 9, PURPOSE_SEAT0 + 3)
    stream = ref.Stream(state)
    words = np.array([state], dtype=np.uint64)
    got = [int(below(words, 0, n)) for _ in range(200)]
    assert got == [stream.below(n) for _ in range(200)]
    assert all(0 <= x < n for x in got)


@pytest.mark.parametrize(("key", "prefix"), KNOWN_WALL_PREFIXES)
def test_wall_known_answers(key: tuple[int, int], prefix: list[int]) -> None:
    seed, wall_id = key
    assert ref.wall(seed, wall_id)[:24] == prefix
    (wall,) = deal_walls(seed, wall_id, 1)
    assert wall[:24].tolist() == prefix
    assert wall.tolist() == ref.wall(seed, wall_id)


def test_walls_of_a_seed_equal_the_reference() -> None:
    walls = deal_walls(3, 1_000, 20)
    assert [w.tolist() for w in walls] == [ref.wall(3, 1_000 + i) for i in range(20)]


def test_exchange_direction_is_the_first_draw_of_the_engine_stream() -> None:
    df = play(40, rules="app", policies="random", seed=6)
    got = df[df.seat == 0].exchange_dir.astype(str).tolist()
    assert got == [ref.exchange_direction(6, d) for d in range(40)]
    assert set(got) == set(EXCHANGE_NAMES[1:])
