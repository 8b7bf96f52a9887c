"""Positions from simcore deals: what a seat knew at each of its decisions in a replayed deal.

A deal's replay log (:func:`simcore.engine.replay.replay`, ``simcore replay --json``) is walked
with :class:`simcore.table.Table`; at a decision of seat ``seat`` the table is turned into the
:class:`~simcore.advice.position.Position` that seat saw (its own tiles, every seat's void,
melds, discards and wins, the wall, its exchange, its declined wins still in force, and the
decision).

**Steps.** ``step`` is the number of an event in the log: its index in the ``replay --json``
list, the deal being step 0, as ``simcore replay --steps`` prints it at the head of each line. A
decision of a seat has the step of the event *right after which the seat decides*:

- its draw (a replacement draw too) or its pung: a ``turn`` decision;
- another seat's discard: an ``on-discard`` decision (while the seat is in play);
- another seat's added kong: an ``on-kong`` decision (rob or pass; the kong stands only if
  nobody robs it, so the position shows the pung and the tile on offer);
- the dealer's first turn: the last event before it (the void declaration, the exchange, or the
  deal itself when there is neither).

:func:`decision_steps` lists a seat's decision steps; :func:`decision_fields` gives each with
the fields of its position and the action the seat's policy took there; :func:`position_fields`
one position's fields. The positions themselves are built and validated below this module's
callers, in :mod:`simcore.advice.position` (``Position.from_replay``, ``position_at``,
``replayed_decisions``), so that this module needs no :class:`Position`: the walk reads the parts
(:mod:`simcore.advice.parts`). :func:`true_hidden` is what the seat could not see at that step
(the other seats' concealed tiles and the wall in draw order), for checks and calibration.

Only :func:`replay_events` runs the engine (and compiles it on first use); the rest reads a log
and compiles nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.advice.parts import (
    Action,
    Decision,
    Declined,
    Discard,
    Exchange,
    SeatView,
    Win,
)
from simcore.rules import Rules
from simcore.table import ReconstructionError, Table

Event = dict[str, Any]
SETUP_EVENTS = ("deal", "exchange", "void")


@dataclass(frozen=True)
class PositionFields:
    """The fields of the :class:`~simcore.advice.position.Position` seat ``values["seat"]`` saw
    at decision ``step`` (its keyword arguments, not yet validated), and where in which deal
    (for the error when the position is refused)."""

    step: int
    values: dict[str, Any]
    where: str


@dataclass(frozen=True)
class DecisionFields:
    """One decision of a seat in a replayed deal: its ``step``, the fields of its position and
    the :class:`Action` its policy took."""

    step: int
    fields: PositionFields
    action: Action


# --------------------------------------------------------------------------------------------
# the public API


def replay_events(seed: int, deal: int, rules: str | Rules = "classic",
                  policies: str | Sequence[str] = "speed", *,
                  overrides: Sequence[str] | dict[str, object] = (),
                  duplicate: bool = False) -> list[Event]:
    """The events of ``simcore replay --json`` for one deal (runs the engine)."""
    if isinstance(deal, bool) or not isinstance(deal, int | np.integer) or deal < 0:
        raise ValueError(f"deal {deal!r} is not a deal index >= 0")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed {seed!r} is not a seed >= 0")
    from simcore.engine.replay import replay

    events, _records = replay(int(seed), int(deal), rules, policies, overrides=overrides,
                              duplicate=duplicate, as_frame=False)
    return events


def position_fields(events: Sequence[Event], seat: int, step: int) -> PositionFields:
    """The fields of the position of ``seat`` at decision step ``step`` of a replay log
    (:func:`simcore.advice.position.position_at` builds it)."""
    _check_seat(events, seat)
    if isinstance(step, bool) or not isinstance(step, int | np.integer):
        raise ValueError(f"step {step!r} is not an event number")
    for found in _decisions(events, seat, want=int(step)):
        return found.fields
    steps = decision_steps(events, seat)
    raise ValueError(_not_a_decision(events, seat, int(step), steps))


def decision_steps(events: Sequence[Event], seat: int) -> list[int]:
    """The steps of every decision of ``seat`` in a replay log, in order (module docstring);
    a decision with one legal action (a pass, a locked hand's throw) is listed too."""
    _check_seat(events, seat)
    return [step for step, _ in _decision_points(events, seat)]


def decision_fields(events: Sequence[Event], seat: int) -> list[DecisionFields]:
    """Every decision of ``seat`` in a replay log: its step, the fields of its position and the
    action taken (:func:`simcore.advice.position.replayed_decisions` builds the positions)."""
    _check_seat(events, seat)
    return list(_decisions(events, seat))


def true_hidden(events: Sequence[Event], seat: int, step: int
                ) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """What ``seat`` could not see at decision step ``step``: each other seat's concealed
    tiles (``int8[27]``, concealed kongs apart; at an ``on-kong`` decision the kong maker's
    hand without the tile on offer) and the wall's tiles left, in draw order."""
    position_fields(events, seat, step)  # the step is a decision of the seat
    table = Table.from_deal(events[0])
    for n, ev in enumerate(events[1:step + 1], start=1):
        offer = _kong_offer(ev, seat, table)
        if n == step and offer:
            hands = {k: table.hand[k].astype(np.int8) for k in table.seats() if k != seat}
            hands[ev["seat"]][ev["tile"]] -= 1
            return hands, np.array(table.wall[table.pos:], np.int8)
        table.apply(ev)
    hands = {k: table.hand[k].astype(np.int8) for k in table.seats() if k != seat}
    return hands, np.array(table.wall[table.pos:], np.int8)


# --------------------------------------------------------------------------------------------
# finding decisions


def _check_seat(events: Sequence[Event], seat: int) -> None:
    if not events or events[0].get("type") != "deal":
        raise ValueError("a replay log starts with its deal event")
    players = len(events[0]["hands"])
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
            or not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not a seat 0..{players - 1}")


def _setup_end(events: Sequence[Event]) -> int:
    """The step of the last setup event (deal, exchange, void)."""
    n = 0
    while n + 1 < len(events) and events[n + 1]["type"] in SETUP_EVENTS:
        n += 1
    return n


def _kong_offer(ev: Event, seat: int, table: Table) -> bool:
    """Whether ``ev`` is another seat's added kong that ``seat`` (in play) may rob."""
    return (ev["type"] == "kong" and ev["kind"] == "added" and ev["seat"] != seat
            and table.in_play[seat])


def _decision_points(events: Sequence[Event], seat: int) -> Iterator[tuple[int, str]]:
    """``(step, kind)`` of each decision of ``seat``, walking the log without the table."""
    first = _setup_end(events)
    dealer = int(events[0]["dealer"])
    river = bool(events[0]["rules"].get("blood_river", False))
    in_play = True
    if seat == dealer:
        yield first, "turn"
    for n, ev in enumerate(events[first + 1:], start=first + 1):
        kind, who = ev["type"], ev.get("seat")
        if not in_play:
            return
        if who == seat and kind in ("draw", "pung"):
            yield n, "turn"
        elif who != seat and kind == "discard":
            yield n, "on-discard"
        elif who != seat and kind == "kong" and ev["kind"] == "added":
            yield n, "on-kong"
        elif who == seat and kind == "win" and not river:
            in_play = False


def _not_a_decision(events: Sequence[Event], seat: int, step: int, steps: list[int]) -> str:
    if 0 <= step < len(events):
        ev = events[step]
        what = ev["type"] + (f" by S{ev['seat']}" if "seat" in ev else "")
        head = f"step {step} ({what}) is not a decision of S{seat}"
    else:
        head = f"step {step} is not a step of this deal (0..{len(events) - 1})"
    if not steps:
        return f"{head}; S{seat} has no decision in this deal"
    before = [s for s in steps if s < step][-2:]
    after = [s for s in steps if s > step][:2]
    near = ", ".join(str(s) for s in before + after)
    return (f"{head}; its nearest decision steps are {near} (decision_steps lists all "
            f"{len(steps)})")


def _decisions(events: Sequence[Event], seat: int,
               want: int | None = None) -> Iterator[DecisionFields]:
    """Walk the log with a :class:`Table` and build the position at each decision of
    ``seat`` (only at step ``want`` when given)."""
    points = dict(_decision_points(events, seat))
    if want is not None and want not in points:
        return
    rules = Rules.from_dict(events[0]["rules"])
    table = Table.from_deal(events[0])
    track = _Track(table.players)
    if (want is None or want == 0) and points.get(0) == "turn":
        yield _found(events, 0, table, track, seat, rules, Decision("turn"))
    for n, ev in enumerate(events[1:], start=1):
        kind = points.get(n)
        if kind == "on-kong":
            decision = Decision("on-kong", int(ev["tile"]), int(ev["seat"]))
            if want is None or want == n:
                yield _found(events, n, table, track, seat, rules, decision)
        after_kong = ev["type"] == "discard" and table.after_kong[ev["seat"]]
        track.before(ev, table)
        table.apply(ev)
        track.after(ev, table, n)
        if kind is None or kind == "on-kong" or (want is not None and want != n):
            continue
        if kind == "turn":
            drawn = int(ev["tile"]) if ev["type"] == "draw" else None
            decision = Decision("turn", after_kong=ev["type"] == "draw"
                                and bool(ev["replacement"]))
        else:
            drawn = None
            decision = Decision("on-discard", int(ev["tile"]), int(ev["seat"]),
                                bool(after_kong))
        yield _found(events, n, table, track, seat, rules, decision, drawn=drawn)
        if want is not None:
            return


class _Track:
    """What the table does not keep: which discards were won on, the wall at each win and
    each seat's last draw."""

    def __init__(self, players: int) -> None:
        self.won: set[tuple[int, int]] = set()  # (discarder, index of the discard)
        self.wall_at: dict[int, int] = {}  # step -> tiles left in the wall
        self.last_draw = [0] * players

    def before(self, ev: Event, table: Table) -> None:
        if ev["type"] == "win" and ev["kind"] == "discard":
            fed = int(ev["from"])
            self.won.add((fed, len(table.discards[fed]) - 1))

    def after(self, ev: Event, table: Table, n: int) -> None:
        self.wall_at[n] = table.wall_left
        if ev["type"] == "draw":
            self.last_draw[ev["seat"]] = n


def _found(events: Sequence[Event], n: int, table: Table, track: _Track, seat: int,
           rules: Rules, decision: Decision, *, drawn: int | None = None) -> DecisionFields:
    fields = _position(events, table, track, seat, rules, decision, drawn, n)
    return DecisionFields(n, fields, _action_taken(events, n, seat, decision))


def _position(events: Sequence[Event], table: Table, track: _Track, seat: int, rules: Rules,
              decision: Decision, drawn: int | None, n: int) -> PositionFields:
    hand = table.hand[seat].astype(np.int64)
    if drawn is not None:
        hand[drawn] -= 1
    views = []
    for k in table.seats():
        discards = tuple(
            Discard(d.tile, d.drawn, d.claimed_by >= 0 and (k, i) not in track.won,
                    (k, i) in track.won)
            for i, d in enumerate(table.discards[k]))
        wins = []
        for w in table.wins[k]:
            fed = int(events[w.step].get("from", -1))
            wins.append(Win(w.tile, w.kind, None if fed < 0 else fed, track.wall_at[w.step]))
        void = table.void[k]
        views.append(SeatView(void=None if void < 0 else void, melds=tuple(table.melds[k]),
                              discards=discards, wins=tuple(wins)))
    exchange = None
    seen = table.seen_by(seat)
    if seen.exchange is not None:
        passed, to, received = seen.exchange
        exchange = Exchange(tuple(passed), to, tuple(received))
    declined: tuple[Declined, ...] = ()
    if rules.pass_win_rule != "none":
        declined = tuple(Declined(x.tile, x.fan) for x in table.passes[seat]
                         if x.step > track.last_draw[seat])
    values = dict(rules=rules, seat=seat, dealer=table.dealer, wall=table.wall_left,
                  hand=tuple(int(x) for x in hand), seats=tuple(views), decision=decision,
                  drawn=drawn, exchange=exchange, declined=declined)
    return PositionFields(n, values, table.where)


def _action_taken(events: Sequence[Event], n: int, seat: int, decision: Decision) -> Action:
    """The action ``seat`` took at the decision of step ``n``."""
    if decision.kind == "turn":
        for ev in events[n + 1:]:
            if ev.get("seat") != seat:
                continue
            if ev["type"] == "discard":
                return Action("discard", int(ev["tile"]))
            if ev["type"] == "kong":
                return Action("kong", int(ev["tile"]))
            if ev["type"] == "win":
                return Action("win")
            break
        raise ReconstructionError(f"S{seat} takes no action after its turn at step {n}")
    action = Action("pass")
    for ev in events[n + 1:]:
        kind = ev["type"]
        if kind in ("pass", "win") and ev["tile"] == decision.tile and (
                kind == "pass" or ev["kind"] in ("discard", "robbed_kong")):
            if ev["seat"] == seat and kind == "win":
                action = Action("win")
            continue
        if kind in ("pung", "kong") and ev["seat"] == seat and decision.kind == "on-discard" \
                and ev["tile"] == decision.tile and ev.get("kind", "direct") == "direct":
            action = Action(kind, int(ev["tile"]))
        break
    return action
