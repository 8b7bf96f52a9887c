"""A yardstick for policies: the EV a policy leaves on the table per deal, by decision kind.

:func:`review_policy` plays ``deals`` deals with ``policy`` in seat ``seat`` and ``field`` in the
others (deal ``i`` of ``seed``, exactly as ``simcore replay`` replays it) and reviews every
decision of that seat (:func:`simcore.review.deal.review_deal`, the seat's rollouts played by
``policy`` itself, the others by ``field``): the EV lost per deal is then a one-step regret, what
the policy would gain by deciding each time as its own rollouts say. Deals are independent, so
the per-deal mean has a plain t interval; deal ``i``'s review depends on ``(seed, i)`` only, and
``processes`` > 1 reviews deals in parallel with the same result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from simcore.review.deal import KINDS

DEFAULT_YARDSTICK_SAMPLES = 256


@dataclass
class PolicyReview:
    """One row per deal (``deals``: its decisions, mistakes, EV lost and EV lost by kind) and
    the settings; :meth:`table` gives the per-deal means with their intervals."""

    deals: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def table(self, level: float = 0.95) -> pd.DataFrame:
        """Per deal: EV lost in all and by kind, mistakes and decisions reviewed, each a mean
        with its t interval over the deals."""
        from scipy import stats

        d = self.deals
        n = len(d)
        t = stats.t.ppf(0.5 + level / 2, max(n - 1, 1))
        rows = []
        for col in ["ev_lost", *[f"ev_lost_{k}" for k in KINDS], "mistakes", "reviewed",
                    "skipped"]:
            x = d[col].astype(float)
            mean = float(x.mean())
            se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
            rows.append({"measure": col, "per_deal": mean, "se": se,
                         "ci_low": mean - t * se, "ci_high": mean + t * se})
        out = pd.DataFrame(rows)
        out.attrs.update(self.settings, deals=n)
        return out


def review_policy(policy: str, deals: int, *, rules: str = "classic",
                  field: str = "speed", seat: int = 0, seed: int = 0,
                  samples: int = DEFAULT_YARDSTICK_SAMPLES, threshold: float = 0.1,
                  overrides: Sequence[str] = (), processes: int = 1,
                  first_deal: int = 0, kinds: Sequence[str] | None = None,
                  progress: bool = False) -> PolicyReview:
    """Review seat ``seat`` (playing ``policy``) over deals ``first_deal ..`` of ``seed``
    against ``field`` (module docstring). ``kinds``: review only the decisions of these kinds
    (each decision's figures are the same as in a whole review: its seed is the deal's and
    its step's)."""
    from simcore.rules import resolve_rules

    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive number of deals, got {deals!r}")
    players = resolve_rules(rules, overrides).players
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not a seat 0..{players - 1}")
    specs = [policy if s == seat else field for s in range(players)]
    job = (tuple(specs), rules, tuple(overrides), seat, seed, samples, threshold, policy,
           None if kinds is None else tuple(kinds),
           1 if processes > 1 else None)  # a deal per process, or a deal's batches in threads
    started = time.perf_counter()
    todo = range(first_deal, first_deal + deals)
    if processes > 1:
        from simcore.advice.advisor import worker_pool

        results = worker_pool(processes).map(_review_one, [job] * deals, todo)
    else:
        results = map(_review_one, [job] * deals, todo)
    rows = []
    for i, row in enumerate(results):
        rows.append(row)
        if progress and (i + 1) % 10 == 0:
            print(f"  {i + 1}/{deals} deals reviewed, {time.perf_counter() - started:.0f} s",
                  flush=True)
    settings = dict(policy=policy, field=field, rules=rules, overrides=list(overrides),
                    seat=seat, seed=seed, samples=samples, threshold=threshold,
                    kinds=None if kinds is None else list(kinds),
                    seconds=round(time.perf_counter() - started, 1))
    return PolicyReview(pd.DataFrame(rows), settings)


ADDED_COLUMNS = ("decisions", "reviewed", "skipped", "agree", "mistakes", "ev_lost")


def add_kinds(rows: pd.DataFrame, part: pd.DataFrame, kinds: Sequence[str]) -> pd.DataFrame:
    """``rows`` (a yardstick's deals, reviewed without ``kinds``) with the decisions of
    ``kinds`` reviewed alone in ``part`` (the same deals, seed and samples: each decision's
    figures are those of a whole review) added in: their counts and EV lost added to the
    totals, their per-kind columns set. The totals may differ from a whole review's in the
    fourth decimal (each part is rounded there)."""
    if list(rows["deal"]) != list(part["deal"]):
        raise ValueError("the part reviews other deals than the rows")
    out = rows.copy()
    for col in ADDED_COLUMNS:
        out[col] = (rows[col] + part[col].to_numpy()).round(4)
    for k in kinds:
        for col in (f"ev_lost_{k}", f"mistakes_{k}", f"worst_{k}_step", f"worst_{k}_ev_lost"):
            out[col] = part[col].to_numpy()
    return out[list(part.columns)]


def deal_review_seed(seed: int, deal: int) -> int:
    """The review seed of deal ``deal`` in a yardstick of ``seed`` (``simcore review
    --review-seed``: the same figures for that deal alone)."""
    return seed * 1_000_003 + deal


def _review_one(job: tuple, deal: int) -> dict[str, Any]:
    from simcore.advice.replayed import replay_events
    from simcore.review.deal import others_of, review_deal

    specs, rules, overrides, seat, seed, samples, threshold, policy, kinds, threads = job
    others = others_of(specs, seat)
    events = replay_events(seed, deal, rules, "/".join(specs), overrides=list(overrides))
    r = review_deal(events, seat, policy=policy, field=others, samples=samples,
                    seed=deal_review_seed(seed, deal), threshold=threshold, kinds=kinds,
                    threads=threads)
    s = r.summary()
    row = {"deal": deal, "decisions": s["decisions"], "reviewed": s["reviewed"],
           "skipped": s["skipped"],
           "agree": s["agree"], "mistakes": s["mistakes"], "ev_lost": s["ev_lost"],
           "net": s["net"]}
    for k in KINDS:
        row[f"ev_lost_{k}"] = s["by_kind"][k]["ev_lost"]
        row[f"mistakes_{k}"] = s["by_kind"][k]["mistakes"]
    for k in KINDS:  # the costliest decision of each kind: an example to replay
        of_kind = r.reviewed[r.reviewed["kind"] == k]
        worst = of_kind.sort_values("ev_lost", ascending=False).head(1)
        row[f"worst_{k}_step"] = int(worst["step"].iloc[0]) if len(worst) else -1
        row[f"worst_{k}_ev_lost"] = float(worst["ev_lost"].iloc[0]) if len(worst) else 0.0
    return row
