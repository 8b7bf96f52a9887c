"""Python entry points of the engine: validate, allocate, call the jitted chunk loop."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.engine.invariants import ERROR_TEXT
from simcore.engine.kernel import LAYOUT_DEALS, LAYOUT_DUPLICATE, call
from simcore.engine.spec import check_for_rules, parse_policies, policy_arrays, policy_names
from simcore.engine.state import new_state
from simcore.hand.tables import load_tables
from simcore.records import RECORD_DTYPE, empty_wins, to_dataframe
from simcore.rules import Rules, resolve_rules

MAX_SEED = 2**63 - 1
# First guess of the win table's size per deal under blood river (a seat may win any number of
# times); a chunk that needs more is played again with the exact size. Blood battle needs at
# most three rows per deal, so its first guess is exact.
RIVER_WINS_PER_DEAL = 8


def _check_int(name: str, value: int, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low or value > MAX_SEED:
        raise ValueError(f"{name} must be between {low} and 2**63-1, got {value}")
    return int(value)


def simulate(
    rules: Rules,
    seat_policies: Sequence[str],
    seed: int,
    start: int,
    count: int,
    *,
    duplicate: bool = False,
    debug: bool = False,
) -> np.ndarray:
    """Records (``RECORD_DTYPE``) of deals ``start .. start+count-1`` of ``seed``.

    One row per player per deal (``rules.players`` rows: 4, or 3). With ``duplicate`` the
    numbers are walls: each is played ``players`` times with the seat policies rotated
    (rotation ``r`` seats ``seat_policies[(s + r) % players]`` at seat ``s``), deal
    ``players * wall + r``. Deal ``i`` depends only on (rules, policies, seed, i). ``debug``
    checks the invariants of every deal in the kernel and raises on the first failure. The first of
    :func:`simulate_wins`' results.
    """
    return simulate_wins(rules, seat_policies, seed, start, count, duplicate=duplicate,
                         debug=debug)[0]


def simulate_wins(
    rules: Rules,
    seat_policies: Sequence[str],
    seed: int,
    start: int,
    count: int,
    *,
    duplicate: bool = False,
    debug: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """``(records, wins)`` of the deals of :func:`simulate`: ``wins`` (``WIN_DTYPE``) has one
    row per win, in deal order and, within a deal, in the order the wins happened."""
    seed = _check_int("seed", seed, 0)
    start = _check_int("start", start, 0)
    count = _check_int("count", count, 0)
    players = rules.players
    seats = parse_policies(seat_policies, players)
    check_for_rules(seats, rules.suits)
    pid, params, index = policy_arrays(seats)
    rows = players * count * (players if duplicate else 1)
    out = np.zeros(rows, dtype=RECORD_DTYPE)
    per_deal = RIVER_WINS_PER_DEAL if rules.blood_river else players - 1  # a first guess
    wins = empty_wins(per_deal * (rows // players))
    if not count:
        return out, wins
    layout = LAYOUT_DUPLICATE if duplicate else LAYOUT_DEALS
    while True:
        errors = call(new_state(), rules.encode(), load_tables(), pid[None], params[None],
                      index[None], seed, start, count, layout, out=out, debug=debug, wins=wins)
        if errors[0]:
            raise RuntimeError(
                f"invariant broken in deal {errors[1]} of seed {seed} "
                f"({rules.preset}, {'/'.join(seats)}): {ERROR_TEXT[int(errors[0])]}"
            )
        needed = int(errors[3])
        if needed <= len(wins):
            return out, wins[:needed]
        # the table was too small: play the same deals again (they depend only on their
        # numbers) into one of the size they need
        wins = empty_wins(needed)


def play(
    deals: int,
    rules: str | Rules = "classic",
    policies: str | Sequence[str] = "speed",
    seed: int = 0,
    start: int = 0,
    *,
    overrides: Sequence[str] | dict[str, object] = (),
) -> pd.DataFrame:
    """Play deals ``start .. start+deals-1`` of ``seed`` in this process; one row per player.

    >>> df = play(8, rules="classic", policies="speed", seed=1)
    >>> len(df), int(df.groupby("deal").net.sum().abs().max())
    (32, 0)
    """
    deals = _check_int("deals", deals, 1) if deals != 0 else 0
    record = resolve_rules(rules, overrides)
    seats = parse_policies(policies, record.players)
    out = simulate(record, seats, seed, start, deals)
    return to_dataframe(out, policy_names(seats), preset=record.preset)
