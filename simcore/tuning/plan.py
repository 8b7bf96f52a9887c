"""The plan of a tune: what is searched, on which walls, and how the budget of deals is spent.

Numba-free (the command line checks its input here before the engine loads).

Deals are counted as played: a duplicate wall is dealt four times (the tuned seat in each seat
once), so ``n`` walls of one table cost ``4 n`` deals. The budget covers everything:

* the **baseline**: the starting setting at the table, walls ``0 .. n`` of ``seed``, played once
  up to the largest rung any trial reaches and shared by every trial;
* the **trials**: each plays walls ``0 .. rungs[0]`` of ``seed``, and, when the pruner promotes
  it, the next walls up to each further rung (a trial never pays twice for a wall);
* the **confirmation**: the winner and the starting setting on ``confirm_walls`` walls of
  ``seed + 1`` (fresh walls: the search's choice cannot have adapted to their luck). It is
  reserved up front: ``confirm_share`` of the budget, at least ``rungs[0]`` walls.

>>> plan = budget_plan(280_000, (250, 1000, 4000))
>>> plan.confirm_walls, plan.search_deals
(8750, 210000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simcore._input import positive_int

DEFAULT_RUNGS = (250, 1_000, 4_000)  # walls per rung: 1,000 / 4,000 / 16,000 deals per trial
DEFAULT_CONFIRM_SHARE = 0.25
DEALS_PER_WALL = 4  # a duplicate wall: four deals, the tuned seat in each seat once
MAX_SEED = 2**63 - 2  # the confirmation plays seed + 1


@dataclass(frozen=True)
class BudgetPlan:
    budget: int  # deals, everything included
    rungs: tuple[int, ...]  # walls per rung, each the previous times reduction_factor
    reduction_factor: int  # of the successive-halving pruner (1 in 4 trials promoted: 4)
    confirm_walls: int

    @property
    def confirm_deals(self) -> int:
        """Deals of the confirmation: the winner and the starting setting on its walls."""
        return 2 * DEALS_PER_WALL * self.confirm_walls

    @property
    def search_deals(self) -> int:
        """Deals the search (baseline and trials) may spend."""
        return self.budget - self.confirm_deals


def check_rungs(rungs: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Validated rungs and the reduction factor they imply (each rung the previous times it)."""
    if isinstance(rungs, str):
        rungs = [int(r) for r in rungs.replace("..", ",").split(",") if r.strip()]
    out = tuple(rungs)
    if not out:
        raise ValueError("rungs: give at least one number of walls, e.g. 250,1000,4000")
    for r in out:
        if isinstance(r, bool) or not isinstance(r, int) or r < 2:
            raise ValueError(f"rungs: {r!r} is not a number of walls >= 2")
    if len(out) == 1:
        return out, 4
    factor, rest = divmod(out[1], out[0])
    if rest or factor < 2 or any(b != a * factor for a, b in zip(out, out[1:], strict=False)):
        raise ValueError(f"rungs {','.join(map(str, out))}: each rung must be the previous "
                         f"times one integer factor >= 2 (the pruner's reduction factor), e.g. "
                         f"250,1000,4000")
    return out, factor


def budget_plan(
    deals: int, rungs: Sequence[int] = DEFAULT_RUNGS, confirm_share: float = DEFAULT_CONFIRM_SHARE
) -> BudgetPlan:
    """The budget split, or an error naming the budget when it cannot pay for one trial."""
    deals = positive_int("deals", deals)  # the words of every command (simcore._input)
    if not 0.0 < confirm_share <= 0.5:
        raise ValueError(f"confirm_share: {confirm_share} is not in (0, 0.5]")
    steps, factor = check_rungs(rungs)
    confirm_walls = max(steps[0], int(confirm_share * deals) // (2 * DEALS_PER_WALL))
    # one trial's first rung needs the baseline's first rung too
    first_trial = 2 * DEALS_PER_WALL * steps[0]
    plan = BudgetPlan(deals, steps, factor, confirm_walls)
    if plan.search_deals < first_trial:
        smallest = first_trial + 2 * DEALS_PER_WALL * steps[0]
        raise ValueError(
            f"a budget of {deals:,} deals is too small for one trial: the first rung "
            f"({steps[0]:,} walls) costs {first_trial:,} deals (the trial and the starting "
            f"setting, {DEALS_PER_WALL} deals per wall each) and the confirmation reserves "
            f"{plan.confirm_deals:,}; give at least {smallest:,} deals or smaller rungs"
        )
    return plan
