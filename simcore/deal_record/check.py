"""``simcore check RECORD``: replay a deal record against the rules and name the first event
that is impossible.

Each event is applied to a :class:`simcore.table.Table` (every tile accounted for: a seat gives
up only what it holds, every draw is the wall's next tile when the wall is known, no fifth copy
of a tile comes into view, a winning hand is the hand the seat holds) after the checks the rules
add here: the turn order (a seat discards, kongs from its hand or wins by self-draw only on its
turn), the claims (a pung, kong or win takes the discard on offer, by another seat in play, not
of its void suit), the void (under ``void_first`` a known hand throws its void suit first; no
meld or winning hand holds it) and the money (each win's fan and units scored again from its
hand, every winner paid by the right seats the right amount, every payment between two seats,
and the end's nets the sum of the payments, summing to zero). Reading a record changes nothing
on disk.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from simcore.deal_record.format import Event, Record, RecordError, read_record
from simcore.rules import Rules
from simcore.table import SELF_DRAWN, SUITS, ReconstructionError, Table, tile_text
from simcore.tiles import parse, tile_str


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_record` found: ``ok``, the ``events`` checked, and for a record that
    is refused the ``step`` of the first impossible event and ``error`` saying why."""

    ok: bool
    events: int
    complete: bool
    step: int | None = None
    error: str | None = None
    net: tuple[int, ...] | None = None

    def __str__(self) -> str:
        known = "every seat's tiles and the wall" if self.complete else "one seat's tiles"
        if self.ok:
            net = "" if self.net is None else f"; nets {list(self.net)} sum to zero"
            return f"ok: {self.events} events replayed against the rules ({known}){net}"
        if self.step is None:
            return f"refused: {self.error}"
        return f"refused at event {self.step}: {self.error}"

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "complete": self.complete,
                "step": self.step, "error": self.error,
                "net": None if self.net is None else list(self.net)}


def check_record(source: str | Path | Record | Any) -> CheckReport:
    """Check a record (a :class:`Record`, or anything :func:`read_record` reads)."""
    try:
        record = source if isinstance(source, Record) else read_record(source)
    except RecordError as exc:
        return CheckReport(False, 0, False, exc.step, str(exc))
    checker = _Checker(record)
    try:
        checker.run()
    except RecordError as exc:
        return CheckReport(False, checker.step, record.complete, exc.step, str(exc))
    net = tuple(int(x) for x in checker.paid) if checker.all_paid() else None
    return CheckReport(True, len(record.events), record.complete, net=net)


def describe(ev: Event) -> str:
    """An event in a few words, tiles in notation (for messages)."""
    kind = ev["type"]
    name = tile_text(ev.get("tile"))
    if kind in ("draw", "discard", "pung", "pass"):
        verb = {"draw": "draws", "discard": "discards", "pung": "pungs", "pass": "passes on"}
        return f"S{ev['seat']} {verb[kind]} {name}"
    if kind == "kong":
        return f"S{ev['seat']} {ev['kind']} kong of {name}"
    if kind == "win":
        return f"S{ev['seat']} wins on {name} ({ev['kind']})"
    return kind


class _Checker:
    def __init__(self, record: Record) -> None:
        self.record = record
        self.rules: Rules = record.rules
        self.step = 0
        self.paid = np.zeros(record.players, np.int64)
        self.on_turn = -1  # the seat that must discard (or kong, or win by self-draw) next
        self.thrown_other = [False] * record.players  # a discard outside the void so far
        self.last_kong: Event | None = None  # the kong whose replacement draw was last
        self.offer_winners: set[int] = set()  # the seats that won on the tile on offer

    def fail(self, what: str) -> NoReturn:
        ev = self.record.events[self.step]
        raise RecordError(f"event {self.step} ({describe(ev)}): {what}", self.step)

    def run(self) -> None:
        events = self.record.events
        try:
            table = Table.from_deal(events[0])
        except ReconstructionError as exc:
            raise RecordError(f"event 0 (deal): {_reason(exc, events[0].get('where'))}",
                              0) from exc
        self.on_turn = table.dealer
        for n, ev in enumerate(events[1:], start=1):
            self.step = n
            self.before(table, ev)
            try:
                table.apply(ev)
            except ReconstructionError as exc:
                self.fail(_reason(exc, events[0].get("where")))
            self.after(table, ev)
        self.step = len(events) - 1
        if events[-1]["type"] != "end":
            self.fail("the record does not end with the deal's end")

    # ---- the rules' checks before the table moves on ----------------------------------------

    def before(self, table: Table, ev: Event) -> None:
        kind, seat = ev["type"], int(ev.get("seat", -1))
        if kind == "draw":
            if self.on_turn >= 0:
                self.fail(f"S{self.on_turn} has not discarded yet")
            self.on_turn = seat
            if not ev["replacement"]:
                self.last_kong = None
        elif kind == "discard":
            self.offer_winners = set()
            self._own_turn(seat, "discards")
            self._void_first(table, seat, ev["tile"])
            self.on_turn = -1
        elif kind in ("pung", "kong"):
            if kind == "pung" or ev["kind"] == "direct":
                self._claim(table, ev)
                self.on_turn = seat if kind == "pung" else -1
            else:
                self._own_turn(seat, "kongs")
                self.on_turn = -1  # the replacement draw follows
            self.last_kong = ev
            if table.void[seat] == ev["tile"] // 9:
                self.fail(f"a meld of S{seat}'s void suit {SUITS[table.void[seat]]}")
        elif kind == "win":
            self._win(table, ev)
            self.offer_winners.add(seat)
            if ev["kind"] in SELF_DRAWN:
                self.on_turn = -1
        self._payments(ev)

    def after(self, table: Table, ev: Event) -> None:
        if ev["type"] == "discard" and table.void[ev["seat"]] != ev["tile"] // 9:
            self.thrown_other[ev["seat"]] = True
        if ev["type"] == "end":
            self._end(table, ev)

    def _own_turn(self, seat: int, what: str) -> None:
        if seat != self.on_turn:
            turn = f"S{self.on_turn}'s turn" if self.on_turn >= 0 else "nobody's turn"
            self.fail(f"S{seat} {what} on {turn}")

    def _void_first(self, table: Table, seat: int, tile: int) -> None:
        void = table.void[seat]
        if not self.rules.void_first or void < 0 or tile // 9 == void:
            return
        if table.known[seat] and table.holds_void(seat):
            self.fail(f"S{seat} throws {tile_str(tile)} while it holds tiles of its void "
                      f"suit {SUITS[void]}, which go first")

    def _claim(self, table: Table, ev: Event) -> None:
        seat, tile = ev["seat"], ev["tile"]
        offer = table.offer
        if offer is None or offer[1] != tile or offer[0] == seat:
            self.fail(f"{tile_str(tile)} is not another seat's discard on offer")
        if not table.in_play[seat]:
            self.fail(f"S{seat} has left play")
        if ev.get("from", offer[0]) not in (-1, offer[0]):
            self.fail(f"the tile came from S{offer[0]}, not S{ev['from']}")
        if self.on_turn >= 0 and self.on_turn != offer[0]:
            self.fail("a claim out of turn")

    def _win(self, table: Table, ev: Event) -> None:
        from simcore.scoring import HEAVEN_EARTH, score

        seat, kind = ev["seat"], ev["kind"]
        if kind in SELF_DRAWN:
            self._own_turn(seat, "wins by self-draw")
        elif kind == "discard":
            offer = table.offer
            if offer is None or offer[1] != ev["tile"] or offer[0] == seat:
                self.fail(f"{tile_str(ev['tile'])} is not another seat's discard on offer")
        void = table.void[seat]
        hand = parse(ev["hand"])
        if void >= 0 and (hand.counts[9 * void: 9 * void + 9].any()
                          or any(m.tile // 9 == void for m in hand.melds)):
            self.fail(f"S{seat} wins with {ev['hand']}, which holds its void suit "
                      f"{SUITS[void]}")
        bonuses = [b for b in ev.get("bonuses", ()) if b != HEAVEN_EARTH]
        as_discard = self._kong_flower_as_discard(ev)
        try:
            scored = score(ev["hand"], self.rules, self_draw=kind in SELF_DRAWN and not as_discard,
                           bonuses=bonuses, void=void if void >= 0 else None,
                           heaven_earth=HEAVEN_EARTH in ev.get("bonuses", ()))
        except ValueError as exc:
            self.fail(f"{ev['hand']} does not score: {exc}")
        if not scored.win or scored.units is None:
            self.fail(f"{ev['hand']} is not a winning hand")
        if "fan" not in ev:  # a record written down may leave the fan and the money out
            return
        if scored.fan != ev["fan"]:
            self.fail(f"{ev['hand']} scores {scored.fan} fan under these rules, the record "
                      f"says {ev['fan']}")
        wins = [p for p in ev.get("payments") or () if p[3] == "win"]
        due: int | None = scored.units
        pays_all = (kind == "discard" and self.rules.kong_discard_pays_all
                    and "kong_discard" in ev.get("bonuses", ()))
        if pays_all:  # what every other seat in play would pay for a self-drawn win
            others = sum(1 for s in table.seats() if s != seat and (
                table.in_play[s] or s in self.offer_winners))
            bonus = {"base": 1, "none": 0}.get(self.rules.self_draw_bonus)
            due = None if bonus is None else (scored.units + bonus) * others
        for payer, payee, units, _ in wins:
            if payee != seat or (due is not None and units != due):
                self.fail(f"S{payer} pays S{payee} {units} units for the win; the hand is "
                          f"worth {due} from each payer to S{seat}")
        payers = Counter(p[0] for p in wins)
        if ev.get("payments") is not None:
            want = self._payers(table, ev, as_discard)
            if set(payers) != want or any(c > 1 for c in payers.values()):
                self.fail(f"the win is paid by {_seats(payers)}, the rules make "
                          f"{_seats(want)} pay")

    def _kong_flower_as_discard(self, ev: Event) -> bool:
        """A win on a direct kong's replacement draw scored and paid as a win on the kong
        tile's discarder (``direct_kong_flower = discard``)."""
        k = self.last_kong
        return (ev["kind"] == "kong_flower" and self.rules.direct_kong_flower == "discard"
                and k is not None and k["kind"] == "direct" and k["seat"] == ev["seat"])

    def _payers(self, table: Table, ev: Event, as_discard: bool) -> set[int]:
        seat, kind = ev["seat"], ev["kind"]
        if as_discard:
            assert self.last_kong is not None
            return {int(self.last_kong["from"])}
        if kind == "discard":
            return {table.offer[0]} if table.offer else set()
        if kind == "robbed_kong":
            return {int(ev["from"])}
        return {s for s in table.seats() if s != seat and table.in_play[s]}

    def _payments(self, ev: Event) -> None:
        for payer, payee, units, what in ev.get("payments") or ():
            if payer == payee or units <= 0:
                self.fail(f"payment {[payer, payee, units, what]} is not a positive payment "
                          f"between two seats")
            self.paid[payer] -= units
            self.paid[payee] += units

    def _end(self, table: Table, ev: Event) -> None:
        in_play = sum(table.in_play)
        if table.wall_left > 0 and in_play > 1 and not self.rules.blood_river:
            self.fail(f"the deal ends with {in_play} seats in play and {table.wall_left} "
                      f"tiles in the wall")
        net = ev.get("net")
        if net is None:
            return
        if sum(net) != 0:
            self.fail(f"the nets {net} do not sum to zero")
        if self.all_paid() and list(net) != self.paid.tolist():
            self.fail(f"the nets {net} are not the sum of the payments "
                      f"{self.paid.tolist()}")

    def all_paid(self) -> bool:
        """Every win, kong and settlement gives its payments (a record may leave all out)."""
        return all("payments" in ev for ev in self.record.events
                   if ev["type"] in ("win", "settle") or (ev["type"] == "kong"
                                                          and not ev.get("robbed")))


def _seats(seats: Any) -> str:
    return ", ".join(f"S{s}" for s in sorted(seats)) or "nobody"


def _reason(exc: ReconstructionError, where: str | None) -> str:
    """The table's message without the deal's name (the record's event says where)."""
    text = str(exc)
    head, sep, rest = text.partition(": ")
    return rest if sep and (head.startswith("deal ") or head in ("the record", where)) else text
