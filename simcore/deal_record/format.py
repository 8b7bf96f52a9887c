"""The Sichuan deal record: simcore's replay events as a documented, versioned file format.

**Version 1** is the list that ``simcore replay --json`` prints: events with tiles as type
indices 0..26 (``0`` = 1m, ``9`` = 1p, ``18`` = 1s), the deal event carrying the rules, the
seed, the deal number, the full wall and every hand. **Version 2** (``simcore replay
--record``) wraps the same events in an object and writes tiles in the ``123m456p`` notation a
person reads::

    {"format": "simcore-deal-record", "version": 2,
     "rules": {...}, "seat": null, "source": {"seed": 1, "deal": 0, "policies": [...]},
     "events": [{"type": "deal", "dealer": 0, "hands": ["157m3345678p4567s", ...],
                 "wall": ["1m", "5m", ...]}, {"type": "void", "suits": ["m", "p", "p", "m"]},
                {"type": "discard", "seat": 0, "tile": "1m"}, ...]}

A record written down at a real table knows one seat's tiles: ``"seat": K`` names it, every
other hand in the deal event is ``null``, there is no wall, another seat's draw has ``"tile":
null``, and its exchange lists ``null`` for the tiles others gave (the seat's ``received``
three named). Payments, fans and the end's nets may be left out; when present they are checked.

:func:`read_record` reads either version (a path, JSON text, a list or a dict) into a
:class:`Record` whose ``events`` are version 1 events (tiles as indices, ``None`` where not
known): the form :mod:`simcore.table` walks and :mod:`simcore.advice.replayed` turns into
positions. :func:`to_record` writes version 2. Every malformed field is a :class:`RecordError`
naming the event (its step: its index, the deal being 0) and the field. docs/guide/records.md
is the format's page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcore.rules import Rules, resolve_rules
from simcore.tiles import parse, tile_index, tile_str, tiles_from_counts, tiles_str

FORMAT = "simcore-deal-record"
VERSION = 2
VERSIONS = (1, 2)
EVENT_TYPES = ("deal", "exchange", "void", "draw", "discard", "pung", "kong", "pass", "win",
               "settle", "end")
KONG_KINDS = ("direct", "added", "concealed")
WIN_KINDS = ("self_draw", "discard", "robbed_kong", "kong_flower")
DIRECTIONS = ("next", "previous", "across")
PAYMENT_KINDS = ("win", "kong", "transfer", "refund", "pig", "ready", "drizzle")

Event = dict[str, Any]


class RecordError(ValueError):
    """A record that cannot be read or that the rules refuse: ``step`` is the event's index
    (the deal is 0; None for the record as a whole)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


@dataclass(frozen=True)
class Record:
    """A deal record read into version 1 events (tiles as indices, ``None`` not known)."""

    version: int
    rules: Rules
    events: list[Event]
    seat: int | None = None  # the seat whose tiles it knows (None: every seat's, and the wall)
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.events[0]["hands"])

    @property
    def complete(self) -> bool:
        return self.seat is None


# --------------------------------------------------------------------------------------------
# reading


def read_record(source: str | Path | Sequence[Event] | Mapping[str, Any]) -> Record:
    """A record from a file path, JSON text, a version 1 event list or a version 2 object."""
    data: Any = source
    if isinstance(source, Path) or (isinstance(source, str)
                                    and not source.lstrip().startswith(("[", "{"))):
        path = Path(source)
        if not path.is_file():
            raise RecordError(f"no record file {str(path)!r}")
        data = path.read_text(encoding="utf-8")
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from exc
    if isinstance(data, list):
        return _version_1(data)
    if isinstance(data, Mapping):
        return _version_2(data)
    raise RecordError(f"a record is a JSON list (version 1) or object (version 2), got "
                      f"{type(data).__name__}")


def _version_1(events: list[Any]) -> Record:
    if not events or not isinstance(events[0], Mapping) or events[0].get("type") != "deal":
        raise RecordError("a version 1 record is a list of events starting with the deal", 0)
    head = events[0]
    try:
        rules = Rules.from_dict(head["rules"])
    except (KeyError, ValueError, TypeError) as exc:
        raise RecordError(f"event 0 (deal): its rules are not read: {exc}", 0) from exc
    out = [dict(ev) for ev in events]
    _check_events(out, rules, tiles=_index_tile)
    source = {k: head[k] for k in ("seed", "deal") if k in head}
    return Record(1, rules, out, None, source)


def _version_2(data: Mapping[str, Any]) -> Record:
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    version = data.get("version")
    if version not in VERSIONS or version == 1:
        raise RecordError(f"version {version!r} is not a version this simcore reads as an "
                          f"object (2)")
    try:
        rules = resolve_rules(data.get("rules") or "classic")
    except ValueError as exc:
        raise RecordError(f"rules: {exc}") from exc
    events = data.get("events")
    if not isinstance(events, list) or not events:
        raise RecordError("events must be a non-empty list")
    seat = data.get("seat")
    players = rules.players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < players):
        raise RecordError(f"seat {seat!r} is not a seat 0..{players - 1} (or null)")
    out = [_from_v2(ev, n) for n, ev in enumerate(events)]
    head = out[0]
    if head.get("type") != "deal":
        raise RecordError("the events start with the deal", 0)
    source = dict(data.get("source") or {})
    head["rules"] = rules.to_dict()
    head.setdefault("seed", source.get("seed"))
    head.setdefault("deal", source.get("deal", 0))
    head["where"] = str(source.get("name", "the record"))
    _check_events(out, rules, tiles=_index_tile)
    hands = head["hands"]
    if seat is not None:
        if hands[seat] is None:
            raise RecordError(f"event 0 (deal): the record's seat S{seat} has no hand", 0)
        if head.get("wall") is not None:
            raise RecordError("event 0 (deal): a record of one seat has no wall", 0)
    elif any(h is None for h in hands) or head.get("wall") is None:
        raise RecordError("event 0 (deal): a record of every seat (seat null) gives every "
                          "hand and the wall; name the seat whose tiles it knows", 0)
    return Record(2, rules, out, seat, source)


def _from_v2(ev: Any, n: int) -> Event:
    """Event ``n`` of a version 2 record with its tiles as indices."""
    if not isinstance(ev, Mapping):
        raise RecordError(f"event {n} is not an object: {ev!r}", n)
    out = dict(ev)
    kind = out.get("type")
    try:
        if kind == "deal":
            out["hands"] = [None if h is None else _hand_tiles(h) for h in out.get("hands", [])]
            if out.get("wall") is not None:
                out["wall"] = [tile_index(t) for t in out["wall"]]
        elif kind == "exchange":
            for key in ("given", "received"):
                if out.get(key) is not None:
                    out[key] = [None if g is None else _hand_tiles(g) for g in out[key]]
        elif "tile" in out and out["tile"] is not None:
            out["tile"] = tile_index(out["tile"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"event {n} ({kind}): {exc}", n) from exc
    return out


def _hand_tiles(text: Any) -> list[int]:
    if not isinstance(text, str):
        raise ValueError(f"tiles are written as notation text like '123m45p', got {text!r}")
    counts, melds = parse(text, sizes="any")
    if melds:
        raise ValueError(f"{text!r}: concealed tiles have no melds")
    return tiles_from_counts(counts)


def _index_tile(t: Any) -> bool:
    return not isinstance(t, bool) and isinstance(t, int) and 0 <= t < 27


# --------------------------------------------------------------------------------------------
# the fields each event must have

_SEAT_FIELDS = {"draw": ("seat", "tile"), "discard": ("seat", "tile"),
                "pung": ("seat", "tile", "from"), "kong": ("seat", "tile", "kind"),
                "pass": ("seat", "tile"), "win": ("seat", "tile", "kind", "hand")}


def _check_events(events: list[Event], rules: Rules, tiles: Callable[[Any], bool]) -> None:
    players = rules.players
    for n, ev in enumerate(events):
        kind = ev.get("type")
        where = f"event {n} ({kind})"
        if kind not in EVENT_TYPES:
            raise RecordError(f"event {n}: type {kind!r} is not one of "
                              f"{', '.join(EVENT_TYPES)}", n)
        if (kind == "deal") != (n == 0):
            raise RecordError(f"{where}: the deal is the first event and only the first", n)
        for name in _SEAT_FIELDS.get(kind, ()):
            if name not in ev:
                raise RecordError(f"{where}: no {name!r}", n)
        if "seat" in ev and not _seat(ev["seat"], players):
            raise RecordError(f"{where}: seat {ev['seat']!r} is not a seat 0..{players - 1}", n)
        tile = ev.get("tile")
        if kind in _SEAT_FIELDS and not (tiles(tile) or (tile is None and kind == "draw")):
            raise RecordError(f"{where}: {tile!r} is not a tile", n)
        if kind == "deal":
            _check_deal(ev, players, n)
        elif kind == "exchange" and ev.get("direction") not in DIRECTIONS:
            raise RecordError(f"{where}: direction {ev.get('direction')!r} is not one of "
                              f"{', '.join(DIRECTIONS)}", n)
        elif kind == "void":
            suits = ev.get("suits")
            if not isinstance(suits, list) or len(suits) != players \
                    or any(v not in ("m", "p", "s", None) for v in suits):
                raise RecordError(f"{where}: suits must list one of m, p, s per seat, got "
                                  f"{suits!r}", n)
        elif kind == "kong" and ev["kind"] not in KONG_KINDS:
            raise RecordError(f"{where}: kind {ev['kind']!r} is not one of "
                              f"{', '.join(KONG_KINDS)}", n)
        elif kind == "win" and ev["kind"] not in WIN_KINDS:
            raise RecordError(f"{where}: kind {ev['kind']!r} is not one of "
                              f"{', '.join(WIN_KINDS)}", n)
        if kind in ("pung", "kong", "win"):
            ev.setdefault("from", -1)
            if not (ev["from"] == -1 or _seat(ev["from"], players)):
                raise RecordError(f"{where}: from {ev['from']!r} is not a seat", n)
        if kind == "kong":
            ev.setdefault("robbed", False)
        if kind == "draw" and "replacement" not in ev:  # a draw right after one's own kong
            before = events[n - 1]
            ev["replacement"] = (before.get("type") == "kong" and before.get("seat") == ev["seat"]
                                 and not before.get("robbed"))
        if kind == "pass":
            ev.setdefault("fan", 0)
        for p in ev.get("payments") or ():
            if not (isinstance(p, list | tuple) and len(p) == 4 and _seat(p[0], players)
                    and _seat(p[1], players) and isinstance(p[2], int)):
                raise RecordError(f"{where}: payment {p!r} is not [payer, payee, units, kind]",
                                  n)
        if kind == "end" and ev.get("net") is not None and (
                not isinstance(ev["net"], list) or len(ev["net"]) != players):
            raise RecordError(f"{where}: net must give one figure per seat", n)


def _check_deal(ev: Event, players: int, n: int) -> None:
    hands = ev.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError(f"event {n} (deal): hands must give one hand per seat "
                          f"({players} players)", n)
    if not _seat(ev.get("dealer"), players):
        raise RecordError(f"event {n} (deal): dealer {ev.get('dealer')!r} is not a seat", n)
    for h in hands:
        if h is not None and not all(_index_tile(t) for t in h):
            raise RecordError(f"event {n} (deal): a hand holds something that is not a tile", n)


def _seat(value: Any, players: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < players


# --------------------------------------------------------------------------------------------
# writing


def to_record(events: Sequence[Event], *, seat: int | None = None,
              source: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Version 2 of a version 1 event list (``simcore replay --json``). With ``seat``, what
    that seat saw: the others' hands, their draws and the wall left out (a record as a person
    at the table writes it down), the rest as played."""
    head = events[0]
    players = len(head["hands"])
    out = []
    drawn = [-1] * players  # each seat's tile just drawn: a discard of it is seen as such
    for ev in events:
        e = dict(ev)
        kind = e["type"]
        if kind == "discard" and seat is not None and e["seat"] != seat:
            e["drawn"] = e["tile"] == drawn[e["seat"]]
        if kind in ("draw", "discard", "pung", "kong"):
            drawn[e["seat"]] = e["tile"] if kind == "draw" else -1
        if kind == "deal":
            e = {"type": "deal", "dealer": head["dealer"],
                 "hands": [None if seat is not None and s != seat else tiles_str(h)
                           for s, h in enumerate(head["hands"])],
                 "wall": None if seat is not None else [tile_str(t) for t in head["wall"]]}
        elif kind == "exchange":
            given: list[str | None] = [tiles_str(g) for g in e["given"]]
            if seat is not None:
                shift = {"next": 1, "previous": players - 1, "across": 2}[e["direction"]]
                came_from = (seat - shift) % players
                e["received"] = [given[came_from] if s == seat else None
                                 for s in range(players)]
                given = [g if s == seat else None for s, g in enumerate(given)]
            e["given"] = given
        elif kind == "draw" and seat is not None and e["seat"] != seat:
            e["tile"] = None
        elif "tile" in e:
            e["tile"] = tile_str(e["tile"])
        out.append(e)
    if seat is not None:  # another seat's declined win is not seen at the table
        out = [e for e in out if e["type"] != "pass" or e["seat"] == seat]
    src = dict(source or {})
    for key in ("seed", "deal"):
        if key in head and head[key] is not None:
            src.setdefault(key, head[key])
    return {"format": FORMAT, "version": VERSION, "rules": head["rules"], "seat": seat,
            "source": src, "events": out}


def dumps_record(record: Mapping[str, Any]) -> str:
    """A version 2 record as JSON text a person can read: one field, or one event, a line."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = [f' "{key}": {one(value)}' for key, value in record.items() if key != "events"]
    events = ",\n".join(f"  {one(ev)}" for ev in record.get("events", ()))
    return "{\n" + ",\n".join(head) + ',\n "events": [\n' + events + "\n ]\n}\n"


def write_record(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a version 2 record (:func:`dumps_record`; atomically: a failure keeps the old
    file)."""
    from simcore._files import write_atomic

    write_atomic(Path(path), dumps_record(record).encode("utf-8"))
