"""A deal plays on from any decision point held in its state (simcore/engine/turns.py:
``run_turns``; the entry kernel's ``LAYOUT_RESUME``): stopped after some steps, copied, and
continued from the copy, it ends exactly as when played straight through (the door for
rollouts from a mid-game position, issue 28)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.engine.kernel import LAYOUT_ONE, LAYOUT_RESUME, call
from simcore.engine.spec import parse_policies, policy_arrays
from simcore.engine.state import S_N_EVENTS, S_PHASE, DealState, new_state
from simcore.engine.turns import PHASE_END
from simcore.hand.tables import load_tables
from simcore.records import RECORD_DTYPE, empty_wins
from simcore.rules import get_rules

SEED = 11


def _play(st, rules, policies, deal, layout, steps=0):
    """Play (or continue) deal ``deal`` in ``st`` through the entry kernel: its records and wins."""
    R = get_rules(rules)
    pid, params, index = policy_arrays(parse_policies(policies))
    out = np.zeros(R.players, RECORD_DTYPE)
    wins = empty_wins(8)
    one = np.array([deal, deal, deal % R.players, 0, 0, steps], np.int64)
    errors = call(st, R.encode(), load_tables(), pid[None], params[None], index[None], SEED,
                  deal, 1, layout, one, out=out, debug=layout == LAYOUT_RESUME, wins=wins)
    assert errors[0] == 0
    return out, wins[: errors[3]]


@pytest.mark.parametrize(("rules", "policies", "deal", "steps"), [
    ("classic", "speed", 3, 1),  # after the dealer's first turn
    ("classic", "speed", 5, 40),
    ("app", "flush/pungs/pairs/speed", 8, 25),
    ("river", "random", 2, 90),  # blood river: winners play on
])
def test_a_copy_of_a_stopped_deal_plays_on_as_the_deal_straight_through(rules, policies, deal,
                                                                          steps):
    straight = new_state(log=True)
    expected, expected_wins = _play(straight, rules, policies, deal, LAYOUT_ONE)
    stopped = new_state(log=True)
    _play(stopped, rules, policies, deal, LAYOUT_ONE, steps)
    assert stopped.sc[S_PHASE] != PHASE_END  # stopped part-way, unsettled
    copy = DealState(*(a.copy() for a in stopped))
    stopped.hand[:] = 0  # the copy owns everything it needs
    records, wins = _play(copy, rules, policies, deal, LAYOUT_RESUME)
    assert records.tobytes() == expected.tobytes()
    assert wins.tobytes() == expected_wins.tobytes()
    n = straight.sc[S_N_EVENTS]
    assert copy.sc[S_N_EVENTS] == n
    assert np.array_equal(copy.events[:n], straight.events[:n])
