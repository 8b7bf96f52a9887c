"""A position: what one seat knows at one decision, and its own hand.

A :class:`Position` holds the rules, the seat that decides, the dealer, the tiles left in the
wall, the seat's concealed tiles (and the tile it just drew), and for every seat (its own
included) a :class:`SeatView`: its void, its melds, its discards in order and its wins. Under
``exchange_three`` it also holds the seat's :class:`Exchange`; under ``pass_win_rule`` the wins
it declined that are still in force (:class:`Declined`); and the :class:`Decision` to make.
Every impossible position is a ValueError that names what is wrong; :meth:`Position.legal_actions`
lists what the rules allow.

Two forms a person can use: JSON (:meth:`Position.to_json`, ``"format": "simcore-position/1"``,
docs/guide/positions.md) and a compact text form (:meth:`Position.parse`, ``str(position)``).

Text form grammar (one statement per line; blank lines and ``#`` comments are ignored; tiles
and melds in the hand notation of docs/rules section 1)::

    POSITION := RULES PLACE HAND SEAT_LINE+ [EXCHANGE] [DECLINED] DECISION
    RULES    := 'rules' PRESET (NAME '=' VALUE)*       e.g. rules app fan_cap=3
    PLACE    := 'seat' K 'dealer' D 'wall' N           the deciding seat, the dealer, tiles left
    HAND     := 'hand' TILES ['+' TILE]                concealed tiles; '+7p' = the tile just drawn
    SEAT_LINE:= 'S' K ['void' SUIT] ['melds' MELDS] ['discards' DISCARD*] ['wins' WIN*]
    DISCARD  := TILE FLAG*   FLAG: 'd' drawn this turn and thrown (not held from an earlier
                turn), 'c' claimed by a pung or kong, 'w' won on (one or more seats won on it)
    WIN      := KIND ':' TILE [':' 'S' K] '@' N        KIND: self_draw, discard, robbed_kong,
                kong_flower; 'S' K the seat that fed it; N the tiles left in the wall then
    EXCHANGE := 'exchange' TILES 'to' 'S' K 'received' TILES
    DECLINED := 'declined' (TILE ':' FAN)+             declined wins since the seat's last draw
    DECISION := 'decision' ( 'turn' ['after-kong']     after its own draw (or a pung, or the
                                                       dealer's first turn); 'after-kong': the
                                                       drawn tile replaces its kong
                           | 'on-discard' TILE 'from' 'S' K ['after-kong']
                           | 'on-kong' TILE 'from' 'S' K )   an added kong it may rob

``void``, ``melds``, ``discards`` and ``wins`` lines without an ``S`` prefix describe the deciding
seat. Every seat has its ``S`` line (may be just ``S2`` early in a deal); ``void`` is required
under three suits and refused under two.

>>> p = Position.parse('''
... rules classic
... seat 0 dealer 3 wall 30
... hand 234567899m4556p +7p
... S0 void s discards 1s 5s 1s 7sc 7m 7m
... S1 void m melds P9pP7s discards 1m 8m 4m 4m 9s 7p 6sc 1p 9s
... S2 void m discards 7m 5m 5m 2s 9pc 5p
... S3 void m melds P6s discards 9m 6m 1m 1p 8s 4p 2p
... decision turn''')
>>> [str(a) for a in p.legal_actions()][:3], len(p.legal_actions())
(['discard 2m', 'discard 3m', 'discard 4m'], 12)
>>> Position.parse(str(p)) == p == Position.from_json(p.to_json())
True
>>> Position.parse(str(p).replace("wall 30", "wall 31"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: wall 31 does not add up: 108 tiles, 53 dealt and ... so 30 tiles left
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.advice import replayed
from simcore.advice.parts import (  # re-exported: the parts of a position
    DECISION_KINDS,
    WIN_KINDS,
    Action,
    Decision,
    Declined,
    Discard,
    Exchange,
    SeatView,
    Win,
)
from simcore.hand import reference as ref
from simcore.records import dealt_tiles, first_tile_type, wall_size
from simcore.rules import PRESETS, Rules, resolve_rules
from simcore.table import ReconstructionError
from simcore.tiles import N_TYPES, SUITS, Meld, counts_from_tiles, parse, tile_index, tile_str
from simcore.tiles import format as format_hand

FORMAT = "simcore-position/1"
LAST_FOUR = 4  # must_win_last_four: wins are forced once fewer than four tiles are left


# --------------------------------------------------------------------------------------------
# the position


@dataclass(frozen=True)
class Position:
    """What seat ``seat`` knows at one decision, and its own hand; validated when built.

    ``hand`` is the seat's concealed tiles as 27 counts, without ``drawn`` (the tile just
    drawn, at a ``turn`` decision after a draw). ``seats`` has one :class:`SeatView` per seat,
    the deciding seat's own included. ``wall`` is the number of tiles left in the wall.
    """

    rules: Rules
    seat: int
    dealer: int
    wall: int
    hand: tuple[int, ...]
    seats: tuple[SeatView, ...]
    decision: Decision
    drawn: int | None = None
    exchange: Exchange | None = None
    declined: tuple[Declined, ...] = field(default=())

    def __post_init__(self) -> None:
        arr = np.asarray(self.hand)
        if arr.shape != (27,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"hand: 27 integer counts expected, got {self.hand!r}")
        object.__setattr__(self, "hand", tuple(int(x) for x in arr))
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "declined", tuple(Declined(*x) for x in self.declined))
        if self.exchange is not None:  # the tiles as a set: stored sorted, as the forms write them
            passed, to, received = self.exchange
            object.__setattr__(self, "exchange", Exchange(
                tuple(sorted(int(t) for t in passed)), to, tuple(sorted(int(t) for t in received))))
        if self.drawn is not None and isinstance(self.drawn, np.integer):
            object.__setattr__(self, "drawn", int(self.drawn))
        _validate(self)

    # ---- derived facts ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def concealed(self) -> np.ndarray:
        """``int8[27]``: the seat's concealed tiles, the drawn tile included."""
        c = np.array(self.hand, dtype=np.int8)
        if self.drawn is not None:
            c[self.drawn] += 1
        return c

    @property
    def me(self) -> SeatView:
        return self.seats[self.seat]

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` is still in play: in blood battle until it wins; always in blood
        river."""
        return self.rules.blood_river or not self.seats[seat].wins

    def hidden_size(self, seat: int) -> int:
        """Concealed tiles of another seat: 13 - 3 per meld (the seat is not on its turn)."""
        return 13 - 3 * len(self.seats[seat].melds)

    def visible_counts(self) -> np.ndarray:
        """``int64[27]``: every tile the seat can see, each physical tile once: its own hand,
        all melds, discards not claimed (a won-on discard counts once, whatever the number of
        winners), self-drawn win tiles, robbed kong tiles, the tile of an added kong being
        robbed."""
        return _visible(self)

    def is_locked(self) -> bool:
        """Blood river: the seat has won, its hand is locked (docs/rules section 9)."""
        return bool(self.rules.blood_river and self.me.wins)

    # ---- actions ----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions of the decision, per the rules (docs/rules sections 2-5, 9)."""
        return _legal_actions(self)

    # ---- forms ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/guide/positions.md) as a dict."""
        d = self.decision
        decision: dict[str, Any] = {"kind": d.kind}
        if d.kind == "turn" and d.after_kong:
            decision["after_kong"] = True
        if d.kind != "turn":
            decision.update(tile=tile_str(d.tile), **{"from": d.by})  # type: ignore[arg-type]
            if d.kind == "on-discard":
                decision["after_kong"] = d.after_kong
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "dealer": self.dealer,
            "wall": self.wall,
            "hand": format_hand(np.array(self.hand, dtype=np.int8)),
            "drawn": None if self.drawn is None else tile_str(self.drawn),
            "seats": [
                {
                    "void": None if s.void is None else SUITS[s.void],
                    "melds": "".join(str(m) for m in s.melds),
                    "discards": [str(x) for x in s.discards],
                    "wins": [
                        {"tile": tile_str(w.tile), "kind": w.kind, "from": w.fed_by,
                         "wall": w.wall}
                        for w in s.wins
                    ],
                }
                for s in self.seats
            ],
            "exchange": None if self.exchange is None else {
                "passed": _tiles_text(self.exchange.passed), "to": self.exchange.to,
                "received": _tiles_text(self.exchange.received)},
            "declined": [{"tile": tile_str(x.tile), "fan": x.fan} for x in self.declined],
            "decision": decision,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Position:
        """The position of a JSON-form dict; unknown or missing keys are errors."""
        return _from_dict(d)

    @classmethod
    def from_json(cls, text: str) -> Position:
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"position JSON is not valid JSON ({exc})") from exc
        return _from_dict(d)

    @classmethod
    def parse(cls, text: str) -> Position:
        """The position written in the text form (module docstring, docs/guide/positions.md)."""
        return _parse_text(text)

    @classmethod
    def from_replay(cls, seed: int, deal: int, rules: str | Rules, policies: str | Sequence[str],
                    seat: int, step: int, *,
                    overrides: Sequence[str] | dict[str, object] = (),
                    duplicate: bool = False) -> Position:
        """What ``seat`` knew at decision step ``step`` of a simcore deal, replayed as
        ``simcore replay`` replays it; ``step`` is the number of the event right after which
        the seat decides (``simcore replay --steps``; :mod:`simcore.advice.replayed`).

        ValueError naming the bad value for a negative seed or deal, a seat out of range or a
        step that is not a decision of the seat (with the seat's nearest decision steps).
        """
        players = resolve_rules(rules, overrides).players
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not a seat 0..{players - 1}")  # before the engine
        events = replayed.replay_events(seed, deal, rules, policies, overrides=overrides,
                                        duplicate=duplicate)
        return position_at(events, seat, step)

    def __str__(self) -> str:
        lines = [_rules_line(self.rules), f"seat {self.seat} dealer {self.dealer} wall {self.wall}"]
        hand = "hand " + format_hand(np.array(self.hand, dtype=np.int8))
        if self.drawn is not None:
            hand += f" +{tile_str(self.drawn)}"
        lines.append(hand)
        lines += [s.line(k) for k, s in enumerate(self.seats)]
        if self.exchange is not None:
            e = self.exchange
            lines.append(f"exchange {_tiles_text(e.passed)} to S{e.to} received "
                         f"{_tiles_text(e.received)}")
        if self.declined:
            lines.append("declined " + " ".join(f"{tile_str(x.tile)}:{x.fan}"
                                               for x in self.declined))
        lines.append(f"decision {self.decision}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# small conversions


def _tiles_text(tiles: Iterable[int]) -> str:
    return format_hand(counts_from_tiles(tiles))


def _tiles_of(text: str, what: str) -> tuple[int, ...]:
    hand = parse(text, sizes="any")
    counts, melds = hand.counts, hand.melds
    if melds:
        raise ValueError(f"{what}: {text!r} names melds; expected tiles only")
    return tuple(t for t in range(27) for _ in range(int(counts[t])))


def _tile(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"{what}: {text!r} is not a tile like '5s'")
    try:
        return tile_index(text)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a tile like '5s'") from None


def _suit(text: object, what: str) -> int | None:
    if text is None:
        return None
    if not isinstance(text, str) or text not in tuple(SUITS):
        raise ValueError(f"{what}: {text!r} is not a suit m, p or s")
    return SUITS.index(text)


def _melds(text: object, what: str) -> tuple[Meld, ...]:
    if text in (None, ""):
        return ()
    if not isinstance(text, str):
        raise ValueError(f"{what}: {text!r} is not melds like 'P5sK3m'")
    if not text.strip():
        return ()
    return tuple(parse("|" + text.lstrip("|"), sizes="any").melds)


def _discard(text: object, what: str) -> Discard:
    if not isinstance(text, str) or len(text) < 2:
        raise ValueError(f"{what}: {text!r} is not a discard like '9m', '4pc' or '1sd'")
    t = _tile(text[:2], what)
    flags = text[2:]
    bad = [c for c in flags if c not in "dcw"]
    if bad or len(set(flags)) != len(flags):
        raise ValueError(f"{what}: {text!r} has flags {flags!r}; the flags are d (drawn and "
                         "thrown), c (claimed by a pung or kong), w (won on), each at most once")
    if "c" in flags and "w" in flags:
        raise ValueError(f"{what}: {text!r} is both claimed (c) and won on (w)")
    return Discard(t, "d" in flags, "c" in flags, "w" in flags)


def _win_token(text: str, what: str) -> Win:
    """``KIND:TILE[:S<k>]@N``."""
    body, at, wall = text.partition("@")
    parts = body.split(":")
    if not at or len(parts) not in (2, 3):
        raise ValueError(f"{what}: {text!r} is not a win like 'discard:5p:S2@31' or "
                         "'self_draw:3s@20'")
    kind, tile = parts[0], _tile(parts[1], what)
    fed = _seat_ref(parts[2], what) if len(parts) == 3 else None
    return Win(tile, kind, fed, _int(wall, what))


def _seat_ref(text: str, what: str) -> int:
    if not (isinstance(text, str) and len(text) >= 2 and text[0] == "S" and text[1:].isdigit()):
        raise ValueError(f"{what}: {text!r} is not a seat like 'S2'")
    return int(text[1:])


def _int(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{what}: {value!r} is not an integer")
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise ValueError(f"{what}: {value!r} is not an integer")


def _rules_line(rules: Rules) -> str:
    base_name = rules.preset if rules.preset in PRESETS else "classic"
    base = PRESETS[base_name]
    changes = []
    for f in dataclasses.fields(rules):
        if f.name == "preset":
            continue
        value = getattr(rules, f.name)
        if value != getattr(base, f.name):
            word = {True: "on", False: "off", None: "none"}.get(value, value) \
                if isinstance(value, bool | None) else value
            changes.append(f"{f.name}={word}")
    return " ".join(["rules", base_name, *changes])


# --------------------------------------------------------------------------------------------
# reading the forms


_JSON_KEYS = {"format", "rules", "seat", "dealer", "wall", "hand", "drawn", "seats", "exchange",
              "declined", "decision"}
_SEAT_KEYS = {"void", "melds", "discards", "wins"}


def _from_dict(d: Mapping[str, Any]) -> Position:
    if not isinstance(d, Mapping):
        raise ValueError(f"a position must be a JSON object, got {type(d).__name__}")
    if d.get("format") != FORMAT:
        raise ValueError(f"format: {d.get('format')!r} is not {FORMAT!r}")
    unknown = sorted(set(d) - _JSON_KEYS)
    if unknown:
        raise ValueError(f"unknown position keys: {', '.join(unknown)}")
    missing = [k for k in ("rules", "seat", "dealer", "wall", "hand", "seats", "decision")
               if k not in d]
    if missing:
        raise ValueError(f"missing position keys: {', '.join(missing)}")
    rules = resolve_rules(d["rules"])
    seats = []
    if not isinstance(d["seats"], list):
        raise ValueError(f"seats: {d['seats']!r} is not a list of seat objects")
    for k, s in enumerate(d["seats"]):
        if not isinstance(s, Mapping) or set(s) - _SEAT_KEYS:
            raise ValueError(f"seats[{k}]: {s!r} is not an object with keys "
                             f"{', '.join(sorted(_SEAT_KEYS))}")
        wins = []
        for w in s.get("wins", []):
            if not isinstance(w, Mapping) or set(w) != {"tile", "kind", "from", "wall"}:
                raise ValueError(f"seats[{k}].wins: {w!r} needs exactly tile, kind, from, wall")
            fed = None if w["from"] is None else _int(w["from"], f"seats[{k}].wins.from")
            wins.append(Win(_tile(w["tile"], f"seats[{k}].wins.tile"), w["kind"], fed,
                            _int(w["wall"], f"seats[{k}].wins.wall")))
        seats.append(SeatView(
            void=_suit(s.get("void"), f"seats[{k}].void"),
            melds=_melds(s.get("melds", ""), f"seats[{k}].melds"),
            discards=tuple(_discard(x, f"seats[{k}].discards") for x in s.get("discards", [])),
            wins=tuple(wins)))
    ex = d.get("exchange")
    exchange = None
    if ex is not None:
        if not isinstance(ex, Mapping) or set(ex) != {"passed", "to", "received"}:
            raise ValueError(f"exchange: {ex!r} needs exactly passed, to, received")
        exchange = Exchange(_tiles_of(ex["passed"], "exchange.passed"),
                            _int(ex["to"], "exchange.to"),
                            _tiles_of(ex["received"], "exchange.received"))
    declined = []
    for x in d.get("declined", []) or []:
        if not isinstance(x, Mapping) or set(x) != {"tile", "fan"}:
            raise ValueError(f"declined: {x!r} needs exactly tile and fan")
        declined.append(Declined(_tile(x["tile"], "declined.tile"),
                                 _int(x["fan"], "declined.fan")))
    dec = d["decision"]
    if not isinstance(dec, Mapping) or "kind" not in dec:
        raise ValueError(f"decision: {dec!r} is not an object with a kind")
    if dec["kind"] == "turn":
        if set(dec) - {"kind", "after_kong"}:
            raise ValueError(f"decision: a turn decision has only a kind (and after_kong), got "
                             f"{dict(dec)!r}")
        decision = Decision("turn", after_kong=bool(dec.get("after_kong", False)))
    else:
        allowed = {"kind", "tile", "from", "after_kong"}
        if set(dec) - allowed or not {"tile", "from"} <= set(dec):
            raise ValueError(f"decision: {dict(dec)!r} needs kind, tile, from "
                             "(and after_kong for on-discard)")
        decision = Decision(dec["kind"], _tile(dec["tile"], "decision.tile"),
                            _int(dec["from"], "decision.from"), bool(dec.get("after_kong", False)))
    hand_counts = _hand_counts(d["hand"])
    drawn = None if d.get("drawn") is None else _tile(d["drawn"], "drawn")
    return Position(rules=rules, seat=_int(d["seat"], "seat"), dealer=_int(d["dealer"], "dealer"),
                    wall=_int(d["wall"], "wall"), hand=hand_counts, seats=tuple(seats),
                    decision=decision, drawn=drawn, exchange=exchange, declined=tuple(declined))


def _hand_counts(text: object) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise ValueError(f"hand: {text!r} is not tiles like '123m55p'")
    hand = parse(text, sizes="any")
    counts, melds = hand.counts, hand.melds
    if melds:
        raise ValueError(f"hand: {text!r} names melds; write them on the seat's melds")
    return tuple(int(x) for x in counts)


_SEAT_WORDS = ("void", "melds", "discards", "wins")


def _parse_seat_words(words: list[str], where: str, view: dict[str, Any]) -> None:
    key: str | None = None
    for w in words:
        if w in _SEAT_WORDS:
            if w in view["seen"]:
                raise ValueError(f"{where}: {w!r} given twice")
            view["seen"].add(w)
            key = w
            if w in ("discards", "wins"):
                view[w] = []
            continue
        if key is None:
            raise ValueError(f"{where}: {w!r} is not one of {', '.join(_SEAT_WORDS)}")
        if key == "void":
            if view.get("void_set"):
                raise ValueError(f"{where}: void takes one suit, got another word {w!r}")
            view["void"] = _suit(w, f"{where} void")
            view["void_set"] = True
        elif key == "melds":
            view["melds"] = view.get("melds", ()) + _melds(w, f"{where} melds")
        elif key == "discards":
            view["discards"].append(_discard(w, f"{where} discards"))
        else:
            view["wins"].append(_win_token(w, f"{where} wins"))


def _parse_text(text: str) -> Position:
    if not isinstance(text, str):
        raise ValueError(f"a position in text form must be a string, got {text!r}")
    rules: Rules | None = None
    place: dict[str, int] = {}
    hand: tuple[int, ...] | None = None
    drawn: int | None = None
    views: dict[int, dict[str, Any]] = {}
    own: dict[str, Any] = {"seen": set()}
    exchange = None
    declined: list[Declined] = []
    decision: Decision | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        head, rest = words[0], words[1:]
        where = f"line {n} ({line!r})"
        if head == "rules":
            if not rest:
                raise ValueError(f"{where}: rules needs a preset name")
            rules = resolve_rules(rest[0], rest[1:])
        elif head == "seat":
            if len(rest) != 5 or rest[1] != "dealer" or rest[3] != "wall":
                raise ValueError(f"{where}: expected 'seat K dealer D wall N'")
            place = {"seat": _int(rest[0], where), "dealer": _int(rest[2], where),
                     "wall": _int(rest[4], where)}
        elif head == "hand":
            tiles = [w for w in rest if not w.startswith("+")]
            plus = [w for w in rest if w.startswith("+")]
            if len(plus) > 1:
                raise ValueError(f"{where}: more than one drawn tile")
            if plus and rest[-1] != plus[0]:
                raise ValueError(f"{where}: the drawn tile '+TILE' comes last")
            hand = _hand_counts("".join(tiles))
            drawn = _tile(plus[0][1:], f"{where} drawn tile") if plus else None
        elif head in _SEAT_WORDS:
            _parse_seat_words(words, where, own)
        elif head.startswith("S") and head[1:].isdigit():
            k = int(head[1:])
            if k in views:
                raise ValueError(f"{where}: S{k} described twice")
            views[k] = {"seen": set()}
            _parse_seat_words(rest, where, views[k])
        elif head == "exchange":
            if len(rest) != 5 or rest[1] != "to" or rest[3] != "received":
                raise ValueError(f"{where}: expected 'exchange TILES to S<k> received TILES'")
            exchange = Exchange(_tiles_of(rest[0], where), _seat_ref(rest[2], where),
                                _tiles_of(rest[4], where))
        elif head == "declined":
            for w in rest:
                tile, colon, fan = w.partition(":")
                if not colon:
                    raise ValueError(f"{where}: {w!r} is not TILE:FAN like '4p:1'")
                declined.append(Declined(_tile(tile, where), _int(fan, where)))
        elif head == "decision":
            decision = _parse_decision(rest, where)
        else:
            raise ValueError(f"{where}: unknown statement {head!r} (expected rules, seat, hand, "
                             "void, melds, discards, wins, S<k>, exchange, declined, decision)")
    for what, value in (("rules", rules), ("seat", place or None), ("hand", hand),
                        ("decision", decision)):
        if value is None:
            raise ValueError(f"the position has no {what} line")
    assert rules is not None and hand is not None and decision is not None
    players = rules.players
    seat = place["seat"]
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat 0..{players - 1}")
    if own["seen"]:
        if seat in views and views[seat]["seen"] & own["seen"]:
            raise ValueError(f"S{seat} (the deciding seat) is described twice")
        views.setdefault(seat, {"seen": set()})
        for key in own["seen"]:
            views[seat][key] = own[key]
            views[seat]["seen"].add(key)
        views[seat]["void_set"] = own.get("void_set", False)
    extra = sorted(k for k in views if not 0 <= k < players)
    if extra:
        raise ValueError(f"S{extra[0]} is not a seat of a {players}-player table")
    missing = [k for k in range(players) if k not in views]
    if missing:
        raise ValueError(f"no line for S{missing[0]} (write at least 'S{missing[0]} void X')")
    seats = tuple(
        SeatView(void=views[k].get("void"), melds=views[k].get("melds", ()),
                 discards=tuple(views[k].get("discards", ())), wins=tuple(views[k].get("wins", ())))
        for k in range(players))
    return Position(rules=rules, seat=seat, dealer=place["dealer"], wall=place["wall"],
                    hand=hand, seats=seats, decision=decision, drawn=drawn, exchange=exchange,
                    declined=tuple(declined))


def _parse_decision(rest: list[str], where: str) -> Decision:
    if rest == ["turn"]:
        return Decision("turn")
    if rest == ["turn", "after-kong"]:
        return Decision("turn", after_kong=True)
    if len(rest) in (4, 5) and rest[0] in ("on-discard", "on-kong") and rest[2] == "from":
        after = False
        if len(rest) == 5:
            if rest[0] != "on-discard" or rest[4] != "after-kong":
                raise ValueError(f"{where}: only 'on-discard ... after-kong' takes a fifth word")
            after = True
        return Decision(rest[0], _tile(rest[1], where), _seat_ref(rest[3], where), after)
    raise ValueError(f"{where}: expected 'decision turn [after-kong]', 'decision on-discard "
                     "TILE from S<k> "
                     "[after-kong]' or 'decision on-kong TILE from S<k>'")


# --------------------------------------------------------------------------------------------
# validation


def _visible(p: Position) -> np.ndarray:
    vis = np.array(p.concealed, dtype=np.int64)
    robbed: set[tuple[int, int, int]] = set()
    for s in p.seats:
        for m in s.melds:
            vis[m.tile] += m.size
        for x in s.discards:
            if not x.claimed:
                vis[x.tile] += 1
        for w in s.wins:
            if w.kind in ("self_draw", "kong_flower"):
                vis[w.tile] += 1
            elif w.kind == "robbed_kong":
                robbed.add((w.fed_by if w.fed_by is not None else -1, w.tile, w.wall))
    for _, t, _ in robbed:
        vis[t] += 1
    if p.decision.kind == "on-kong" and p.decision.tile is not None:
        vis[p.decision.tile] += 1
    return vis


def _check_seat(k: object, players: int, what: str) -> int:
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 0 <= k < players:
        raise ValueError(f"{what}: {k!r} is not a seat 0..{players - 1}")
    return int(k)


def _validate(p: Position) -> None:  # noqa: C901 - one check after another, each named
    if not isinstance(p.rules, Rules):
        raise ValueError(f"rules: {p.rules!r} is not a Rules record")
    r = p.rules
    players, suits = r.players, r.suits
    total, dealt = wall_size(suits), dealt_tiles(players)
    first = first_tile_type(suits)
    _check_seat(p.seat, players, "seat")
    _check_seat(p.dealer, players, "dealer")
    if isinstance(p.wall, bool) or not isinstance(p.wall, int) or not 0 <= p.wall <= total - dealt:
        raise ValueError(f"wall: {p.wall!r} is not a number of tiles 0..{total - dealt}")
    if len(p.hand) != 27 or any(not isinstance(c, int) or not 0 <= c <= 4 for c in p.hand):
        raise ValueError(f"hand: {p.hand!r} is not 27 counts 0..4")
    if len(p.seats) != players:
        raise ValueError(f"seats: {len(p.seats)} seat views for a {players}-player table")
    if p.drawn is not None:
        ref.check_tile(p.drawn)

    def tile_set(tiles: Iterable[int], where: str) -> None:
        for t in tiles:
            if t < first:
                raise ValueError(f"{where} names the tile {tile_str(t)}, which is not in the "
                                 f"tile set with suits = {suits} (only p and s)")

    tile_set([t for t in range(27) if p.hand[t]], "the hand")
    if p.drawn is not None:
        tile_set([p.drawn], "the drawn tile")
    # ---- seats: voids, melds, discards, wins
    for k, s in enumerate(p.seats):
        who = f"S{k}"
        if suits == 2 and s.void is not None:
            raise ValueError(f"{who} void {SUITS[s.void]}: there is no void with suits = 2")
        if suits == 3 and s.void is None:
            raise ValueError(f"{who} has no void; every seat declares one with suits = 3")
        if len(s.melds) > 4:
            raise ValueError(f"{who} has {len(s.melds)} melds; at most 4")
        for m in s.melds:
            Meld(*m).code  # noqa: B018 - validates the kind
            tile_set([m.tile], f"{who}'s meld {m}")
            if s.void is not None and m.tile // 9 == s.void:
                raise ValueError(f"{who}'s meld {m} is in its void suit {SUITS[s.void]}")
        tile_set([x.tile for x in s.discards], f"{who}'s discards")
        for w in s.wins:
            tile_set([w.tile], f"{who}'s win {w}")
            if w.kind not in WIN_KINDS:
                raise ValueError(f"{who}'s win kind {w.kind!r} is not one of "
                                 f"{', '.join(WIN_KINDS)}")
            if w.kind in ("discard", "robbed_kong"):
                if w.fed_by is None:
                    raise ValueError(f"{who}'s win {w} ({w.kind}) needs the seat that fed it")
                _check_seat(w.fed_by, players, f"{who}'s win {w} fed by")
                if w.fed_by == k:
                    raise ValueError(f"{who}'s win {w} is fed by itself")
            elif w.kind == "self_draw" and w.fed_by is not None:
                raise ValueError(f"{who}'s win {w} is self-drawn; it is fed by nobody")
            elif w.fed_by is not None:
                _check_seat(w.fed_by, players, f"{who}'s win {w} fed by")
            if not p.wall <= w.wall <= total - dealt:
                raise ValueError(f"{who}'s win {w}: wall {w.wall} at the win is not between "
                                 f"{p.wall} (now) and {total - dealt}")
            if s.void is not None and w.tile // 9 == s.void:
                raise ValueError(f"{who}'s win {w} is on a tile of its void suit")
        if not r.blood_river and len(s.wins) > 1:
            raise ValueError(f"{who} has {len(s.wins)} wins; in blood battle a seat wins once")
        if r.void_first and s.void is not None and not _may_keep_void(p, k):
            other_seen = False
            for x in s.discards:
                if x.tile // 9 != s.void:
                    other_seen = True
                elif other_seen and not x.drawn:
                    raise ValueError(
                        f"{who} discards {tile_str(x.tile)} of its void suit from its hand after "
                        "a discard of another suit (void_first: it held no void tile then)")
    # ---- winners
    winners = [k for k, s in enumerate(p.seats) if s.wins]
    if not r.blood_river and len(winners) > players - 2:
        raise ValueError(f"{len(winners)} winners ({', '.join(f'S{k}' for k in winners)}): the "
                         f"deal ends when {players - 1} of {players} have won")
    if not p.in_play(p.seat):
        raise ValueError(f"S{p.seat} has won and is out of play (blood battle); it has no decision")
    # ---- the exchange
    if p.exchange is not None:
        e = p.exchange
        if not r.exchange_three:
            raise ValueError("an exchange is given but exchange_three is off")
        _check_seat(e.to, players, "exchange to")
        if e.to == p.seat:
            raise ValueError(f"exchange to S{e.to}: a seat does not pass to itself")
        for name, tiles in (("passed", e.passed), ("received", e.received)):
            if len(tiles) != 3 or len({t // 9 for t in tiles}) != 1:
                raise ValueError(f"exchange {name} {_tiles_text(tiles)}: three tiles of one suit")
            tile_set(tiles, f"the exchange's {name} tiles")
    elif r.exchange_three:
        raise ValueError("exchange_three is on: give the seat's exchange (passed, to, received)")
    # ---- sizes
    me = p.me
    k_me = len(me.melds)
    n_hand = sum(p.hand) + (p.drawn is not None)
    on_turn = p.decision.kind == "turn"
    want = 14 - 3 * k_me if on_turn else 13 - 3 * k_me
    if n_hand != want:
        what = "at its turn" if on_turn else "waiting"
        raise ValueError(f"S{p.seat}'s hand has {n_hand} concealed tiles with {k_me} "
                         f"meld{'s' if k_me != 1 else ''} {what}; expected {want}")
    conc = p.concealed
    over = np.flatnonzero(conc > 4)
    if over.size:
        raise ValueError(f"the hand holds {int(conc[over[0]])} copies of {tile_str(int(over[0]))}")
    # ---- fifth copies
    vis = _visible(p)
    over = np.flatnonzero(vis > 4)
    if over.size:
        t = int(over[0])
        raise ValueError(f"{int(vis[t])} copies of {tile_str(t)} are visible (hand, melds, "
                         "discards not claimed, wins); only 4 exist")
    # ---- claimed and won-on discards against melds and wins
    for t in range(27):
        claimed = sum(1 for s in p.seats for x in s.discards if x.claimed and x.tile == t)
        exposed = sum(1 for s in p.seats for m in s.melds if m.tile == t and m.kind in "PK")
        if claimed != exposed:
            raise ValueError(f"{claimed} claimed discards of {tile_str(t)} but {exposed} pungs "
                             f"and exposed kongs of it: each pung or exposed kong claims one")
    for f, s in enumerate(p.seats):
        for t in range(27):
            marked = sum(1 for x in s.discards if x.won and x.tile == t)
            fed = {(w.wall,) for o in p.seats for w in o.wins
                   if w.kind == "discard" and w.fed_by == f and w.tile == t}
            if marked != len(fed):
                raise ValueError(f"S{f} has {marked} discards of {tile_str(t)} marked won on (w) "
                                 f"but {len(fed)} wins name S{f} as feeding {tile_str(t)}")
    # ---- wall count, seat by seat
    draws_total = total - dealt - p.wall
    draws = []
    for k, s in enumerate(p.seats):
        size = sum(p.hand) + (p.drawn is not None) if k == p.seat else p.hidden_size(k)
        if size < 0:
            raise ValueError(f"S{k} has {len(s.melds)} melds; its hidden hand would be {size}")
        meld_tiles = sum(m.size for m in s.melds)
        exposed = sum(1 for m in s.melds if m.kind in "PK")
        self_wins = sum(1 for w in s.wins if w.kind in ("self_draw", "kong_flower"))
        robbed_given = len({(w.tile, w.wall) for o in p.seats for w in o.wins
                            if w.kind == "robbed_kong" and w.fed_by == k})
        pending = 1 if p.decision.kind == "on-kong" and p.decision.by == k else 0
        dealt_k = 14 if k == p.dealer else 13
        d = size + meld_tiles + len(s.discards) + robbed_given + pending + self_wins \
            - dealt_k - exposed
        draws.append(d)
    if sum(draws) != draws_total:
        raise ValueError(
            f"wall {p.wall} does not add up: {total} tiles, {dealt} dealt and the seats' hands, "
            f"melds, discards and wins imply {sum(draws)} draws from the wall so far, so "
            f"{total - dealt - sum(draws)} tiles left")
    for k, s in enumerate(p.seats):
        kongs = sum(1 for m in s.melds if m.kind in "KC")
        thrown = sum(1 for x in s.discards if x.drawn)
        self_wins = sum(1 for w in s.wins if w.kind in ("self_draw", "kong_flower"))
        # the dealer's heavenly win is self-drawn on the dealt fourteenth tile: no draw
        heavenly = int(k == p.dealer and any(w.kind == "self_draw" and w.wall == total - dealt
                                             for w in s.wins))
        need = max(kongs, thrown + self_wins - heavenly)
        if draws[k] < need:
            raise ValueError(
                f"S{k}'s tiles imply {draws[k]} draws from the wall, fewer than its "
                f"{kongs} kongs' replacement draws or its {thrown} drawn-and-thrown discards "
                f"and {self_wins} self-drawn wins need ({need})")
    # ---- the deciding seat's own hand under its void and its wins
    _validate_own(p, first)
    _validate_decision(p)
    # ---- constraints on the hidden hands must be satisfiable (voids against passed tiles)
    c = hidden_constraints(p)
    for j, seat in enumerate(c.seats):
        bad = np.flatnonzero(c.lower[j] > np.where(c.allowed[j], c.unseen, 0))
        if bad.size:
            t = int(bad[0])
            raise ValueError(
                f"S{seat} must still hold {int(c.lower[j, t])} of {tile_str(t)} (the seat passed "
                f"it {tile_str(t)} and it has not shown it since), but it cannot hold that tile "
                "(its void, after a discard of another suit, or none left unseen)")


def _may_keep_void(p: Position, k: int) -> bool:
    """Whether seat ``k`` may have kept a void tile it drew: it declared a kong on its own turn
    instead of discarding (a concealed kong, or an exposed one, as an added kong is written like a
    direct one), or an added kong of its was robbed (the seat keeps the tile it drew and draws
    again on its next turn)."""
    return any(m.kind in "KC" for m in p.seats[k].melds) or any(
        w.kind == "robbed_kong" and w.fed_by == k for s in p.seats for w in s.wins)


def holds_no_void(p: Position, k: int) -> bool:
    """Under ``void_first``, whether seat ``k`` (not the deciding seat) holds no tile of its
    void suit, as the deciding seat can tell.

    After a discard outside its void suit a seat holds none. Without kongs it never holds one
    again: a void tile it draws is the only one it holds, so it must throw it at once. A seat
    that has made a concealed or added kong, or whose added kong was robbed, may have kept a void
    tile it drew before the kong and then drawn another, so for it only its latest discard tells
    (outside the void suit: it holds none). The maker of an added kong being robbed (an
    ``on-kong`` decision) is treated like the others (a void tile drawn this turn and kept is
    not modelled).
    """
    s = p.seats[k]
    if not p.rules.void_first or s.void is None or not s.discards:
        return False
    if _may_keep_void(p, k):
        return s.discards[-1].tile // 9 != s.void
    return any(x.tile // 9 != s.void for x in s.discards)


def _validate_own(p: Position, first: int) -> None:
    r, me = p.rules, p.me
    conc = p.concealed
    if me.void is not None and r.void_first:
        if _may_keep_void(p, p.seat):  # a void tile drawn before a kong may be kept
            last_other = p.drawn is None and bool(me.discards) \
                and me.discards[-1].tile // 9 != me.void
        else:
            last_other = any(x.tile // 9 != me.void for x in me.discards)
        held = conc.copy()
        if p.drawn is not None:
            held[p.drawn] -= 1
        void_held = int(held[9 * me.void: 9 * me.void + 9].sum())
        if last_other and void_held:
            raise ValueError(f"S{p.seat} holds {void_held} tile(s) of its void suit "
                             f"{SUITS[me.void]} after discarding a tile of another suit "
                             "(void_first)")
    if p.is_locked():
        hand = list(p.hand)
        for w in me.wins:
            h = list(hand)
            if h[w.tile] >= 4 or not ref.is_complete(
                    _plus(h, w.tile), me.melds, _void(me.void)):
                raise ValueError(f"S{p.seat}'s locked hand {format_hand(np.array(hand, np.int8))}"
                                 f" does not win on {tile_str(w.tile)}, a tile it won on "
                                 "(blood river)")
    if p.declined and p.decision.kind == "turn" and p.drawn is not None:
        raise ValueError("declined wins are forgiven at the seat's next draw; a turn after a draw "
                         "has none in force")
    if p.declined and r.pass_win_rule == "none":
        raise ValueError("declined wins are given but pass_win_rule is none")


def _validate_decision(p: Position) -> None:
    d, r = p.decision, p.rules
    if d.kind not in DECISION_KINDS:
        raise ValueError(f"decision kind {d.kind!r} is not one of {', '.join(DECISION_KINDS)}")
    if d.kind == "turn":
        if d.tile is not None or d.by is not None:
            raise ValueError("a turn decision names no tile and no seat")
        if d.after_kong and (p.drawn is None or not any(m.kind in "KC" for m in p.me.melds)):
            raise ValueError("a turn after-kong needs a drawn tile (the replacement) and a kong "
                             "among the seat's melds")
        if p.drawn is None:
            opening = (p.seat == p.dealer and p.wall == wall_size(r.suits) - dealt_tiles(r.players)
                       and not any(s.discards or s.melds for s in p.seats))
            after_pung = bool(p.me.melds) and p.me.melds[-1].kind == "P"
            if not (opening or after_pung):
                raise ValueError("a turn decision without a drawn tile is the dealer's first turn "
                                 "or a turn after a pung (the seat's last meld a pung); "
                                 "give the drawn tile as '+TILE'")
            if p.is_locked():
                raise ValueError("a locked hand (blood river) has a turn only after a draw")
        return
    assert d.tile is not None
    _check_seat(d.by, r.players, "decision from")
    if d.by == p.seat:
        raise ValueError(f"decision {d}: the seat reacts to another seat's tile, not its own")
    if not p.in_play(d.by):  # type: ignore[arg-type]
        raise ValueError(f"decision {d}: S{d.by} is out of play (it has won)")
    if p.drawn is not None:
        raise ValueError(f"decision {d}: the seat has no drawn tile while another seat acts")
    src = p.seats[d.by]  # type: ignore[index]
    if d.kind == "on-discard":
        last = src.discards[-1] if src.discards else None
        if last is None or last.tile != d.tile or last.claimed or last.won:
            raise ValueError(f"decision {d}: S{d.by}'s last discard is "
                             f"{last if last is not None else 'none'}, not an unclaimed "
                             f"{tile_str(d.tile)}")
    else:
        if d.after_kong:
            raise ValueError("after-kong belongs to an on-discard decision")
        if not any(m.kind == "P" and m.tile == d.tile for m in src.melds):
            raise ValueError(f"decision {d}: S{d.by} has no pung of {tile_str(d.tile)} to add "
                             "to")
        if p.wall == 0:
            raise ValueError(f"decision {d}: no kong on an empty wall")


def _plus(counts: Sequence[int], t: int) -> list[int]:
    out = list(counts)
    out[t] += 1
    return out


def _void(void: int | None) -> int:
    return -1 if void is None else void


# --------------------------------------------------------------------------------------------
# legal actions


def _win_fan(p: Position, counts: Sequence[int], bonuses: tuple[str, ...]) -> int | None:
    res = ref.score(counts, p.me.melds, rules=p.rules, void=_void(p.me.void), bonuses=bonuses)
    return None if res is None else res.fan_uncapped


def _legal_actions(p: Position) -> list[Action]:
    r, me, d = p.rules, p.me, p.decision
    void = _void(me.void)
    conc = [int(x) for x in p.concealed]
    must = r.must_win_last_four and p.wall < LAST_FOUR
    locked = p.is_locked()
    if d.kind == "turn":
        opening = p.drawn is None and not me.melds
        after_pung = p.drawn is None and not opening
        can_win = not after_pung and ref.is_complete(conc, me.melds, void)
        if locked:
            acts = [Action("win")] if can_win else []
            t = p.drawn
            assert t is not None
            if p.wall > 0 and _locked_kong_ok(p, t):
                acts.append(Action("kong", t))
            acts.append(Action("discard", t))
            return [Action("win")] if must and can_win else acts
        acts = [Action("win")] if can_win else []
        if must and can_win and p.drawn is not None:
            return acts
        if p.wall > 0 and not after_pung:
            for t in range(27):
                if t // 9 == void:
                    continue
                if conc[t] == 4 or (conc[t] >= 1 and any(m.kind == "P" and m.tile == t
                                                         for m in me.melds)):
                    acts.append(Action("kong", t))
        held = [t for t in range(27) if conc[t]]
        if r.void_first and void >= 0 and any(t // 9 == void for t in held):
            held = [t for t in held if t // 9 == void]
        acts += [Action("discard", t) for t in held]
        return acts
    t = d.tile
    assert t is not None
    hand = list(p.hand)
    win_counts = _plus(hand, t)
    can_win = hand[t] < 4 and ref.is_complete(win_counts, me.melds, void)
    if can_win:
        bonuses: tuple[str, ...] = ("robbed_kong",) if d.kind == "on-kong" else ()
        if d.after_kong:
            bonuses += ("kong_discard",)
        if p.wall == 0:
            bonuses += ("last_tile",)
        if p.declined and r.pass_win_rule == "same_tile":
            can_win = all(x.tile != t for x in p.declined)
        elif p.declined and r.pass_win_rule == "unless_higher":
            fan = _win_fan(p, win_counts, bonuses)
            can_win = fan is not None and fan > max(x.fan for x in p.declined)
    acts = [Action("win")] if can_win else []
    if must and can_win:
        return acts
    if d.kind == "on-discard" and not locked and p.wall > 0 and t // 9 != void:
        if hand[t] == 3:
            acts.append(Action("kong", t))
        if hand[t] >= 2:
            acts.append(Action("pung", t))
    acts.append(Action("pass"))
    return acts


def _locked_kong_ok(p: Position, t: int) -> bool:
    """A locked hand's kong of the tile it drew: an added kong, or a concealed kong that keeps
    its winning tiles (docs/rules section 9)."""
    me = p.me
    if any(m.kind == "P" and m.tile == t for m in me.melds):
        return True
    conc = [int(x) for x in p.concealed]
    if conc[t] != 4 or t // 9 == _void(me.void):
        return False
    before = ref.waits(list(p.hand), me.melds, _void(me.void))
    after_counts = list(conc)
    after_counts[t] = 0
    after = ref.waits(after_counts, (*me.melds, Meld("C", t)), _void(me.void))
    return before == after


# --------------------------------------------------------------------------------------------
# what a position implies of the hidden tiles (the sampler draws within it)


@dataclass(frozen=True)
class HiddenConstraints:
    """What constrains the hidden tiles of a position; ``j`` indexes :attr:`seats`.

    ``unseen`` int64[27]; ``sizes`` the hidden hand sizes; ``allowed`` bool[m, 27] (False:
    the seat cannot hold the type); ``lower`` int64[m, 27] (copies the seat must hold);
    ``wins[j]`` the tiles seat ``j``'s hidden hand must win on (empty: not a winner), with its
    ``melds[j]`` and ``voids[j]`` (-1 none); ``wall`` the tiles left in the wall.
    """

    seats: tuple[int, ...]
    sizes: tuple[int, ...]
    unseen: np.ndarray
    allowed: np.ndarray
    lower: np.ndarray
    wins: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[tuple[str, int], ...], ...]
    voids: tuple[int, ...]
    wall: int


def hidden_constraints(p: Position) -> HiddenConstraints:
    """The constraints on the hidden tiles that ``p`` implies (module docstring)."""
    r = p.rules
    first = first_tile_type(r.suits)
    vis = p.visible_counts()
    unseen = np.where(np.arange(N_TYPES) >= first, 4 - vis, 0).astype(np.int64)
    seats = tuple(k for k in range(r.players) if k != p.seat)
    m = len(seats)
    allowed = np.ones((m, N_TYPES), dtype=bool)
    allowed[:, :first] = False
    lower = np.zeros((m, N_TYPES), dtype=np.int64)
    wins, melds, voids = [], [], []
    for j, k in enumerate(seats):
        s = p.seats[k]
        if s.void is not None and holds_no_void(p, k):
            allowed[j, 9 * s.void: 9 * s.void + 9] = False
        wins.append(tuple(sorted({w.tile for w in s.wins})))
        melds.append(tuple((mm.kind, mm.tile) for mm in s.melds))
        voids.append(-1 if s.void is None else s.void)
    if p.exchange is not None:
        j = seats.index(p.exchange.to)
        s = p.seats[p.exchange.to]
        for t in set(p.exchange.passed):
            shown = sum(1 for x in s.discards if x.tile == t)
            shown += sum(mm.size - (1 if mm.kind in "PK" else 0) for mm in s.melds if mm.tile == t)
            shown += len({w.wall for o in p.seats for w in o.wins
                          if w.kind == "robbed_kong" and w.fed_by == p.exchange.to
                          and w.tile == t})
            if p.decision.kind == "on-kong" and p.decision.by == p.exchange.to and \
                    p.decision.tile == t:
                shown += 1
            lower[j, t] = max(0, p.exchange.passed.count(t) - shown)
    sizes = tuple(p.hidden_size(k) for k in seats)
    if int(unseen.sum()) != sum(sizes) + p.wall:
        raise ValueError(f"{int(unseen.sum())} unseen tiles but the hidden hands ({sum(sizes)}) "
                         f"and the wall ({p.wall}) hold {sum(sizes) + p.wall}")
    return HiddenConstraints(seats, sizes, unseen, allowed, lower, tuple(wins), tuple(melds),
                             tuple(voids), p.wall)


# --------------------------------------------------------------------------------------------
# positions from a replayed deal (the walk itself: simcore.advice.replayed)


@dataclass(frozen=True)
class ReplayedDecision:
    """One decision of a seat in a replayed deal: its ``step``
    (:mod:`simcore.advice.replayed`), the :class:`Position` the seat saw and the
    :class:`Action` its policy took."""

    step: int
    position: Position
    action: Action


def position_at(events: Sequence[replayed.Event], seat: int, step: int) -> Position:
    """The position of ``seat`` at decision step ``step`` of a replay log."""
    return _built(replayed.position_fields(events, seat, step))


def replayed_decisions(events: Sequence[replayed.Event], seat: int) -> list[ReplayedDecision]:
    """Every decision of ``seat`` in a replay log: its step, position and the action taken."""
    return [ReplayedDecision(d.step, _built(d.fields), d.action)
            for d in replayed.decision_fields(events, seat)]


def _built(fields: replayed.PositionFields) -> Position:
    try:
        return Position(**fields.values)
    except ValueError as exc:
        raise ReconstructionError(f"{fields.where}: the position of S{fields.values['seat']} "
                                  f"at step {fields.step} is refused: {exc}") from exc
