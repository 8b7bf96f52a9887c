"""The review of one seat's deal: every decision through the advisor, the EV it lost.

:func:`review_deal` walks a deal record (:mod:`simcore.deal_record`: a simcore deal's events or a
record written down at a table, which knows the reviewed seat's tiles) and, at each decision of
``seat`` with more than one legal action, ranks every legal action with
:func:`simcore.advice.advisor.advise` (the seat then playing ``policy``, the others ``field``).
The **EV lost** is the best action's expected net minus the taken action's, measured on fresh
hidden states (the advisor's confirmation: the best was chosen on other samples, so the
difference carries no winner's curse), with its interval; a **mistake** is an EV lost of at
least ``threshold`` units whose interval lies above zero. Decisions with one legal action are
listed and skip the rollouts, and so does a decision whose hidden states are too many for the
sampler to enumerate (:class:`~simcore.advice.sampler.SamplerLimitError`: a winner with a
hidden hand and few melds early in a deal): it is listed with its reason in ``note`` and counted
as ``skipped``. Each decision's advisor seed comes from ``(seed, step)``: a review is the same
with the same seed, whatever reviewed before it.

The exchange of three and the void choice come first. The advisor's positions start after them,
so they are ranked by :func:`simcore.review.setup.advise_setup` (the seat dealt its hand again
and again, the choice forced, the deal played to its end; the exchange's candidates are the two
closest-to-ready choices of each suit and the one taken), with the same EV lost, interval and
mistake. Deals these rollouts cannot play (three players, two suits) or a policy that cannot be
told the choice (``random``) list them as not reviewed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simcore.advice.position import Action, Position, replayed_decisions
from simcore.advice.sampler import SamplerLimitError
from simcore.deal_record import Record, read_record
from simcore.review.setup import (
    SETUP_KINDS,
    SetupDecision,
    SetupUnsupportedError,
    setup_decisions,
)

DEFAULT_POLICY = "expert"
# the published reviews (docs/results/review_policies.txt) draw each rollout's wall as laid;
# seat lanes, the advisor's default, wait for their re-run
REVIEW_LANES = False
DEFAULT_SAMPLES = 1024  # hidden states per decision at most (the search; the confirmation half)
DEFAULT_THRESHOLD = 0.1  # units: a smaller loss is never a mistake
KINDS = (*SETUP_KINDS, "discard", "pung", "kong", "win")  # "win": win or decline (a rob too)

DECISION_COLUMNS = (
    "step", "kind", "decision", "actions", "taken", "best", "agree",
    "ev_lost", "ev_lost_se", "ev_lost_ci_low", "ev_lost_ci_high", "mistake",
    "net_taken", "net_best", "deal_in", "samples", "position", "note",
)


@dataclass
class Review:
    """A reviewed deal: one row per decision (``decisions``, columns
    :data:`DECISION_COLUMNS`), each reviewed decision's advisor table (``tables`` by step),
    the seat's net through the deal (``net_path``: (step, cumulative units) after each
    payment), the record it came from and the settings."""

    seat: int
    decisions: pd.DataFrame
    tables: dict[int, pd.DataFrame]
    net_path: list[tuple[int, int]]
    record: Record
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def reviewed(self) -> pd.DataFrame:
        """The decisions with more than one legal action, measured by rollouts."""
        d = self.decisions
        return d[(d["actions"] > 1) & (d["samples"] > 0)]

    @property
    def skipped(self) -> pd.DataFrame:
        """The decisions with more than one legal action that the sampler could not take
        (``note`` says why)."""
        d = self.decisions
        return d[(d["actions"] > 1) & (d["samples"] == 0)]

    def summary(self) -> dict[str, Any]:
        """Per deal: decisions, agreement with the best, mistakes, EV lost in all (with its
        interval: the decisions' samples are independent) and by kind."""
        r = self.reviewed
        se = float(np.sqrt((r["ev_lost_se"] ** 2).sum()))
        lost = float(r["ev_lost"].sum())
        by_kind = {}
        for kind in KINDS:
            k = r[r["kind"] == kind]
            by_kind[kind] = {"decisions": int(len(k)), "agree": int(k["agree"].sum()),
                             "mistakes": int(k["mistake"].sum()),
                             "ev_lost": round(float(k["ev_lost"].sum()), 4)}
        return {"seat": self.seat, "decisions": int(len(self.decisions)),
                "reviewed": int(len(r)), "skipped": int(len(self.skipped)),
                "agree": int(r["agree"].sum()),
                "mistakes": int(r["mistake"].sum()), "ev_lost": round(lost, 4),
                "ev_lost_ci_low": round(lost - 1.96 * se, 4),
                "ev_lost_ci_high": round(lost + 1.96 * se, 4),
                "net": self.net, "by_kind": by_kind}

    @property
    def net(self) -> int | None:
        """The seat's net for the deal: the end's, else the sum of the payments; None for a
        record that gives neither."""
        end = self.record.events[-1]
        if end.get("type") == "end" and end.get("net") is not None:
            return int(end["net"][self.seat])
        if any(ev.get("payments") is not None for ev in self.record.events):
            return self.net_path[-1][1]
        return None


def review_deal(record: Any, seat: int, *, policy: str = DEFAULT_POLICY,
                field: str | Sequence[str] | None = None, samples: int = DEFAULT_SAMPLES,
                seconds: float | None = None, seed: int = 0,
                threshold: float = DEFAULT_THRESHOLD, processes: int = 1,
                threads: int | None = None, level: float = 0.95, kinds: Sequence[str] | None = None,
                progress: bool = False) -> Review:
    """Review seat ``seat``'s decisions in ``record`` (a :class:`~simcore.deal_record.Record`,
    an event list, a version 2 object or a file; :mod:`simcore.deal_record`). ``field``: the
    other seats' policies (one spec or one per other seat, ``/``-separated); default: the
    deal's own for a simcore deal whose source names them, else ``policy``. ``samples`` and
    ``seconds``: per decision (``seconds`` makes the review depend on the machine's speed;
    the exchange and the void take ``samples`` deals). ``kinds``: list and review only the
    decisions of these kinds (:data:`KINDS`; default every decision). ``processes`` and
    ``threads``: the advisor's (:func:`simcore.advise`), the same review with any."""
    from simcore.advice.advisor import advise

    rec = record if isinstance(record, Record) else read_record(record)
    if rec.seat is not None and seat != rec.seat:
        raise ValueError(f"the record knows S{rec.seat}'s tiles only: review seat {rec.seat}, "
                         f"not {seat}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rec.players:
        raise ValueError(f"seat {seat!r} is not a seat 0..{rec.players - 1}")
    if threshold < 0:
        raise ValueError(f"threshold must be >= 0 units, got {threshold!r}")
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise ValueError(f"kinds {list(kinds)!r}: each is one of {', '.join(KINDS)}")
    others = _field(rec, seat, policy) if field is None else field
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    tables: dict[int, pd.DataFrame] = {}
    for setup in setup_decisions(rec.events, seat):
        if kinds is None or setup.kind in kinds:
            rows.append(_setup_row(setup, rec, policy, others, samples, seed, threshold, level,
                                   tables))
    found = replayed_decisions(rec.events, seat)
    for i, d in enumerate(found):
        actions = d.position.legal_actions()
        row = _row(d.step, d.position, d.action, actions)
        if kinds is not None and row["kind"] not in kinds:
            continue
        if len(actions) > 1:
            try:
                t = advise(d.position, policy=policy, field=others, samples=samples,
                           seconds=seconds, seed=decision_seed(seed, d.step),
                           processes=processes, threads=threads, level=level,
                           lanes=REVIEW_LANES)
            except SamplerLimitError as exc:
                row.update(_unmeasured(f"not reviewed: {exc}"))
            else:
                tables[d.step] = t
                row.update(_measured(t, d.action, threshold))
        rows.append(row)
        if progress:
            print(f"  decision {i + 1}/{len(found)} (step {d.step}): {row['taken']}"
                  + (f", EV lost {row['ev_lost']:+.3f}" if row["samples"] else ""),
                  flush=True)
    decisions = pd.DataFrame(rows, columns=list(DECISION_COLUMNS))
    settings = dict(policy=policy, field=others, samples=samples, seconds=seconds, seed=seed,
                    threshold=threshold, level=level,
                    elapsed=round(time.perf_counter() - started, 2))
    return Review(seat, decisions, tables, net_path(rec.events, seat), rec, settings)


def _setup_row(d: SetupDecision, rec: Record, policy: str, others: Any, samples: int,
               seed: int, threshold: float, level: float,
               tables: dict[int, pd.DataFrame]) -> dict[str, Any]:
    """The row of an exchange or a void (:mod:`simcore.review.setup`), its table in
    ``tables``."""
    from simcore.review.setup import advise_setup

    row = _row_of(d.step, d.kind, d.kind, len(d.actions()), d.taken, d.describe())
    try:
        t = advise_setup(d, rec.rules, policy, others, samples=samples,
                         seed=decision_seed(seed, d.step), level=level)
    except SetupUnsupportedError as exc:
        row.update(_unmeasured(f"not reviewed: {exc}"))
    else:
        tables[d.step] = t
        row.update(_measured(t, d.taken, threshold))
    return row


def decision_seed(seed: int, step: int) -> int:
    """The advisor's seed at decision ``step`` of a review with ``seed``."""
    return int(np.random.SeedSequence([int(seed), int(step)]).generate_state(1)[0])


def decision_kind(position: Position, actions: Sequence[Action]) -> str:
    """What the decision is about (:data:`KINDS`): a win (or declining it, or robbing a kong)
    when a win is legal, else a kong, a pung, or a discard; ``forced`` with one legal action."""
    if len(actions) == 1:
        return "forced"
    kinds = {a.kind for a in actions}
    for kind in ("win", "kong", "pung"):
        if kind in kinds:
            return kind
    return "discard"


def net_path(events: Sequence[dict[str, Any]], seat: int) -> list[tuple[int, int]]:
    """``(step, units so far)`` of ``seat`` after each event with a payment to or from it."""
    from simcore.advice.calibration import money

    total, path = 0, [(0, 0)]
    for n, ev in enumerate(events):
        moved = money([ev], seat)
        if moved:
            total += moved
            path.append((n, total))
    return path


def record_policies(rec: Record) -> list[str] | None:
    """One policy spec per seat from the record's source (a simcore deal names them), or
    None."""
    from simcore.engine.spec import split_policies

    pol = rec.source.get("policies")
    if not pol:
        return None
    return split_policies(pol, rec.players, wrong="the record's source policies {text!r} give "
                          "{n} specs for {seats} players")


def others_of(specs: Sequence[str], seat: int) -> list[str]:
    """The other seats' specs from ``seat``'s left on (the advisor's ``field`` order)."""
    n = len(specs)
    return [specs[(seat + k) % n] for k in range(1, n)]


def spec_text(field: Any) -> str:
    """A field as one spec text (``speed/speed/speed`` for a list)."""
    return "/".join(field) if isinstance(field, list | tuple) else str(field)


def _field(rec: Record, seat: int, policy: str) -> str | list[str]:
    specs = record_policies(rec)
    return policy if specs is None else others_of(specs, seat)


def _row(step: int, position: Position, taken: Action, actions: list[Action]) -> dict[str, Any]:
    return _row_of(step, decision_kind(position, actions), str(position.decision),
                   len(actions), str(taken), str(position))


def _row_of(step: int, kind: str, decision: str, actions: int, taken: str,
            position: str) -> dict[str, Any]:
    return {"step": step, "kind": kind if actions > 1 else "forced", "decision": decision,
            "actions": actions, "taken": taken, "best": taken, "agree": True, "ev_lost": 0.0,
            "ev_lost_se": 0.0, "ev_lost_ci_low": 0.0, "ev_lost_ci_high": 0.0,
            "mistake": False, "net_taken": np.nan, "net_best": np.nan, "deal_in": np.nan,
            "samples": 0, "position": position, "note": ""}


def _unmeasured(note: str) -> dict[str, Any]:
    return {"best": "", "agree": False, "ev_lost": np.nan, "ev_lost_se": np.nan,
            "ev_lost_ci_low": np.nan, "ev_lost_ci_high": np.nan, "note": note}


def _measured(t: pd.DataFrame, taken: Action | str, threshold: float) -> dict[str, Any]:
    rows = t[t["action"] == str(taken)]
    if rows.empty:
        raise ValueError(f"the action taken, {taken}, is not among the legal actions "
                         f"{', '.join(t['action'])}")
    r, best = rows.iloc[0], t.iloc[0]
    lost = 0.0 - float(r["diff"])  # 0.0 - x: no negative zero when the taken is the best
    low, high = 0.0 - float(r["diff_ci_high"]), 0.0 - float(r["diff_ci_low"])
    return {"best": str(best["action"]), "agree": bool(r["rank"] == 1), "ev_lost": lost,
            "ev_lost_se": float(r["diff_se"]), "ev_lost_ci_low": low, "ev_lost_ci_high": high,
            "mistake": bool(lost >= threshold and low > 0), "net_taken": float(r["net"]),
            "net_best": float(best["net"]), "deal_in": float(r["deal_in"]),
            "samples": int(t.attrs["samples"])}
