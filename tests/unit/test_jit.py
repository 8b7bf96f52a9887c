"""simcore._jit: numba code calls a simcore kernel with one compile per plain argument types."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types

from simcore._jit import plain, without_literals

pytestmark = pytest.mark.numba  # its kernels compile (tests/conftest.py: the fast tier)


def _add(a, b):
    return a + b


def test_plain_widens_literals_and_small_signed_integers_only():
    assert plain(types.literal(4)) == types.int64
    assert plain(types.literal(True)) == types.boolean
    assert plain(types.int8) == plain(types.int32) == types.int64
    assert plain(types.uint64) == types.uint64  # masks keep their unsigned type
    assert plain(types.float64) == types.float64
    assert plain(types.Array(types.int8, 1, "C")) == types.Array(types.int8, 1, "C")


def test_calls_with_constants_and_small_integers_share_one_compile():
    widened = without_literals(njit(_add))
    specialised = njit(_add)

    @njit
    def caller(x, small):
        return (widened(x, 1) + widened(x, 2) + widened(small, 3),
                specialised(x, 1) + specialised(x, 2) + specialised(small, 3))

    assert caller(10, np.int8(5)) == (31, 31)
    assert len(widened.signatures) == 1, widened.signatures
    assert len(specialised.signatures) == 3, specialised.signatures  # what numba does alone
