"""The table of a replayed deal, rebuilt event by event and checked against the log.

A replay log (the JSON events of :func:`simcore.engine.replay.replay`, ``simcore replay
--json``) says what happened; :class:`Table` holds the table as it stands after any prefix of
it: every seat's concealed tiles and melds, its discards in order (each marked drawn-and-thrown
or from the hand, and claimed or not), its void, its wins, whether it is in play, the tiles
left in the wall, the exchange of three, and the public tiles. :func:`walk` goes through a log
and yields ``(step, event, table)`` for each event after the deal, with the table *before* the
event (or, with ``after=True``, after it); every event is checked as it is applied (every draw
is the wall's next tile, a seat holds what it gives up, every winning hand equals the hand the
win shows, the drawn-end pigs and ready hands are those the settlement names, every tile is
accounted for at the end), and a disagreement raises :class:`ReconstructionError` naming the
deal and what is wrong. :meth:`Table.seen_by` is what one seat knows of it.

The danger model's measurements (:mod:`simcore.analysis.danger`), the deal-in anatomy
(:mod:`simcore.analysis.deal_ins`) and the push/fold threat moments
(:mod:`simcore.experiments.questions.push_fold`) all read replayed deals through it. Every
variant is covered: three players, two suits (no void event: every void stays -1) and blood river (a
winner stays in play; its wins are listed in order).

Conventions (those of the engine's ``visible_counts``): public tiles are discards (a claimed
discard stays counted once, inside its meld), the tiles of pungs and exposed kongs, a robbed
kong's tile and a self-drawn winner's shown winning tile; a concealed kong is seen only by its
owner. ``streak`` is a seat's most recent discards in a row that were the tile it had just
drawn (a replacement draw included); a pung or kong (robbed or not) resets it, and so does a
discard that keeps the drawn tile. No pandas here: this is the floor an advisor builds on.

**Partial logs.** A deal written down at a real table knows one seat's tiles only: the deal
event gives ``None`` for every other seat's hand and no wall, another seat's draw has tile
``None``, its exchange gives ``None`` (the recording seat's ``received`` tiles named). Such a
seat is not ``known``: the table counts its concealed tiles (``hidden``) without knowing them,
and every tile that comes into view is checked against the four copies there are (a fifth copy
is an error at the event that shows it). :mod:`simcore.deal_record` reads such records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from simcore.hand import waits
from simcore.tiles import Hand, Meld, parse, tile_str, tiles_str

SUITS = "mps"
# the exchange of three with four players: the receiver is (seat + STEP[direction]) % 4
STEP = {"next": 1, "previous": 3, "across": 2}
SELF_DRAWN = ("self_draw", "kong_flower")  # win kinds whose winning tile the winner shows
ON_DISCARD = ("discard", "robbed_kong")  # win kinds on another seat's tile

Event = dict[str, Any]


def receiver(seat: int, direction: str, players: int) -> int:
    """The seat that receives ``seat``'s three tiles in an exchange ``direction``.

    >>> receiver(0, "previous", 4), receiver(0, "previous", 3), receiver(1, "across", 4)
    (3, 2, 3)
    """
    return (seat + {"next": 1, "previous": players - 1, "across": 2}[direction]) % players


class ReconstructionError(AssertionError):
    """The table rebuilt from a replay's events disagrees with what the log says."""


class Discard(NamedTuple):
    """One discard of a seat, in its order: the tile, ``drawn`` (the tile it had just drawn,
    thrown at once) and ``claimed_by`` (the seat that won, punged or konged it; -1 none)."""

    tile: int
    drawn: bool
    claimed_by: int


class Win(NamedTuple):
    """One win of a seat: the tile, its ``kind`` (``self_draw``, ``discard``,
    ``robbed_kong``, ``kong_flower``), ``fed_by`` (the seat whose tile it was, -1 self-drawn)
    and ``step`` (the event's number in the log)."""

    tile: int
    kind: str
    fed_by: int
    step: int


class Exchange(NamedTuple):
    """The exchange of three: its direction and, per seat, the tiles it gave and received."""

    direction: str
    given: tuple[tuple[int, ...], ...]
    received: tuple[tuple[int, ...], ...]


class Pass(NamedTuple):
    """A win a seat declined: the tile, its fan and the event's ``step``."""

    tile: int
    fan: int
    step: int


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` knows at one moment of a replayed deal (the table as it sees it).

    Its own ``concealed`` counts (the tile just drawn included; ``drawn`` is that tile, -1 if
    none), ``melds`` and ``void``; for every seat (its own too) ``voids``, ``shown_melds`` (the
    face-up melds: a concealed kong's tile is hidden, only their number ``concealed_kongs``),
    ``discards``, ``wins`` and ``in_play``; ``wall_left``, ``dealer``, its ``exchange`` (the
    tiles it gave, to which seat, and the tiles it received; None without an exchange),
    ``passes`` (its declined wins) and ``unseen`` (27 counts: tiles it cannot see).
    """

    seat: int
    players: int
    dealer: int
    wall_left: int
    concealed: np.ndarray
    drawn: int
    melds: tuple[Meld, ...]
    void: int
    voids: tuple[int, ...]
    shown_melds: tuple[tuple[Meld, ...], ...]
    concealed_kongs: tuple[int, ...]
    discards: tuple[tuple[Discard, ...], ...]
    wins: tuple[tuple[Win, ...], ...]
    in_play: tuple[bool, ...]
    exchange: tuple[tuple[int, ...], int, tuple[int, ...]] | None
    passes: tuple[Pass, ...]
    unseen: np.ndarray


@dataclass
class Table:
    """A replayed deal's table, built from the log's ``deal`` event (:meth:`from_deal`) and
    moved on by :meth:`apply`.

    ``hand[s]`` holds seat ``s``'s concealed tiles (concealed kongs apart, in ``melds[s]``),
    ``public`` the tiles everyone sees, ``pos`` the index of the wall's next tile.
    """

    where: str
    players: int
    dealer: int
    wall: list[int]
    rules: dict[str, Any]
    hand: np.ndarray
    pos: int
    melds: list[list[Meld]] = field(default_factory=list)
    public: np.ndarray = field(default_factory=lambda: np.zeros(27, np.int16))
    void: list[int] = field(default_factory=list)
    in_play: list[bool] = field(default_factory=list)
    discards: list[list[Discard]] = field(default_factory=list)
    wins: list[list[Win]] = field(default_factory=list)
    passes: list[list[Pass]] = field(default_factory=list)
    streak: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)  # the tile drawn this turn, -1 if none
    after_kong: list[bool] = field(default_factory=list)  # its draw replaced its own kong
    exchange: Exchange | None = None
    offer: tuple[int, int] | None = None  # (discarder, tile) of the discard on offer
    step: int = 0  # events applied (the deal event is step 0)
    known: list[bool] = field(default_factory=list)  # the seat's concealed tiles are known
    hidden: list[int] = field(default_factory=list)  # concealed tiles of a seat not known
    _last_kong_by: int = -1  # the seat whose kong's replacement draw comes next
    _version: list[int] = field(default_factory=list)  # bumped when a seat's tiles change
    _waits: dict[int, tuple[int, frozenset[int]]] = field(default_factory=dict)

    @classmethod
    def from_deal(cls, ev: Event) -> Table:
        """The table as dealt, from the log's first event (type ``deal``)."""
        if ev.get("type") != "deal":
            raise ValueError("the events of a replay start with the deal")
        players = len(ev["hands"])
        dealer = int(ev["dealer"])
        hand = np.zeros((players, 27), np.int16)
        known = [tiles is not None for tiles in ev["hands"]]
        for s, tiles in enumerate(ev["hands"]):
            for t in tiles or ():
                hand[s, t] += 1
        n = players
        dealt = [14 if s == dealer else 13 for s in range(n)]
        wall = ev.get("wall")
        if wall is None:  # a partial log: the wall's size from the tile set, its tiles unseen
            wall = [-1] * (36 * int(ev["rules"].get("suits", 3)))
        where = (f"deal {ev['deal']} of seed {ev['seed']} ({ev['rules']['preset']})"
                 if ev.get("seed") is not None else ev.get("where", "the record"))
        tab = cls(where=where, players=players, dealer=dealer, wall=[int(t) for t in wall],
                  rules=ev["rules"], hand=hand, pos=sum(dealt),
                  melds=[[] for _ in range(n)], void=[-1] * n, in_play=[True] * n,
                  discards=[[] for _ in range(n)], wins=[[] for _ in range(n)],
                  passes=[[] for _ in range(n)], streak=[0] * n, drawn=[-1] * n,
                  after_kong=[False] * n, known=known,
                  hidden=[0 if known[s] else dealt[s] for s in range(n)], _version=[0] * n)
        for s in range(n):
            if known[s]:
                tab.check(int(hand[s].sum()) == dealt[s],
                          f"S{s} is dealt {int(hand[s].sum())} tiles, not {dealt[s]}")
        # a complete wall holds the dealt tiles too; a partial log knows one hand
        counts = (np.bincount(tab.wall, minlength=27) if ev.get("wall") is not None
                  else hand.sum(axis=0))
        tab.check(bool((counts <= 4).all()), "the deal holds more than four of "
                  + ", ".join(tile_str(int(t)) for t in np.flatnonzero(counts > 4)))
        return tab

    @property
    def partial(self) -> bool:
        """Some seat's concealed tiles (and so the wall) are not known."""
        return not all(self.known)

    # ---------------------------------------------------------------------------------------
    # reading the table

    @property
    def wall_left(self) -> int:
        return len(self.wall) - self.pos

    @property
    def blood_river(self) -> bool:
        return bool(self.rules.get("blood_river", False))

    def seats(self) -> range:
        return range(self.players)

    def opponents(self, seat: int) -> list[int]:
        """The other seats in turn order after ``seat``."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def has_won(self, seat: int) -> bool:
        return bool(self.wins[seat])

    def as_hand(self, seat: int) -> Hand:
        return Hand._make((self.hand[seat].astype(np.int8), tuple(self.melds[seat])))

    def waits_of(self, seat: int) -> frozenset[int]:
        """Winning tiles of ``seat`` (holding ``13 - 3k`` tiles), its void respected."""
        cached = self._waits.get(seat)
        if cached is not None and cached[0] == self._version[seat]:
            return cached[1]
        k = len(self.melds[seat])
        self.check(int(self.hand[seat].sum()) == 13 - 3 * k,
                   f"S{seat} holds {int(self.hand[seat].sum())} tiles with {k} melds between "
                   f"turns")
        void = self.void[seat] if self.void[seat] >= 0 else None
        w = frozenset(waits(self.as_hand(seat), void=void))
        self._waits[seat] = (self._version[seat], w)
        return w

    def own_seen(self, seat: int) -> np.ndarray:
        """What ``seat`` sees of its own: concealed tiles and concealed kongs."""
        own = self.hand[seat].copy()
        for m in self.melds[seat]:
            if m.kind == "C" and m.tile >= 0:
                own[m.tile] += 4
        return own

    def unseen(self, seat: int) -> np.ndarray:
        """``4 - public - own_seen(seat)``: the tiles ``seat`` cannot see (checked >= 0)."""
        unseen = 4 - self.public - self.own_seen(seat)
        self.check(bool((unseen >= 0).all()), f"negative unseen counts for S{seat}")
        return unseen

    def flush_suit(self, seat: int) -> int:
        """The suit of two or more face-up melds all of one suit, else -1."""
        face_up = [m.tile // 9 for m in self.melds[seat] if m.kind != "C"]
        return face_up[0] if len(face_up) >= 2 and len(set(face_up)) == 1 else -1

    def holds_void(self, seat: int) -> bool:
        v = self.void[seat]
        return v >= 0 and bool(self.hand[seat, 9 * v: 9 * v + 9].any())

    def seen_by(self, seat: int) -> SeatView:
        """What ``seat`` knows now (:class:`SeatView`): a replayed position's table."""
        exchange = None
        if self.exchange is not None:
            to = receiver(seat, self.exchange.direction, self.players)
            exchange = (self.exchange.given[seat], to, self.exchange.received[seat])
        shown = tuple(tuple(m for m in ms if m.kind != "C") for ms in self.melds)
        return SeatView(
            seat=seat, players=self.players, dealer=self.dealer, wall_left=self.wall_left,
            concealed=self.hand[seat].astype(np.int8), drawn=self.drawn[seat],
            melds=tuple(self.melds[seat]), void=self.void[seat], voids=tuple(self.void),
            shown_melds=shown,
            concealed_kongs=tuple(sum(m.kind == "C" for m in ms) for ms in self.melds),
            discards=tuple(tuple(d) for d in self.discards),
            wins=tuple(tuple(w) for w in self.wins), in_play=tuple(self.in_play),
            exchange=exchange, passes=tuple(self.passes[seat]),
            unseen=self.unseen(seat).astype(np.int8))

    # ---------------------------------------------------------------------------------------
    # moving it on

    def check(self, ok: bool, what: str) -> None:
        """Raise :class:`ReconstructionError` naming the deal and ``what`` unless ``ok``."""
        if not ok:
            raise ReconstructionError(f"{self.where}: {what}")

    def take(self, seat: int, tile: int, n: int = 1) -> None:
        if not self.known[seat]:
            self.check(self.hidden[seat] >= n, f"S{seat} gives up {n} tiles but holds "
                       f"{self.hidden[seat]}")
            self.hidden[seat] -= n
            return
        self.check(self.hand[seat, tile] >= n, f"S{seat} gives up {n} {tile_str(tile)} but "
                   f"holds {self.hand[seat, tile]}")
        self.hand[seat, tile] -= n
        self._version[seat] += 1

    def give(self, seat: int, tile: int, n: int = 1) -> None:
        if not self.known[seat]:
            self.hidden[seat] += n
            return
        self.hand[seat, tile] += n
        self._version[seat] += 1

    def held(self, seat: int) -> int:
        """How many concealed tiles ``seat`` holds (concealed kongs apart)."""
        return int(self.hand[seat].sum()) + self.hidden[seat]

    def copies_seen(self, tile: int) -> int:
        """Copies of ``tile`` in view of the whole table: public, in known hands and known
        concealed kongs (in a complete log, every copy outside the wall)."""
        n = int(self.public[tile])
        for s in self.seats():
            if self.known[s]:
                n += int(self.hand[s, tile])
            n += 4 * sum(1 for m in self.melds[s] if m.kind == "C" and m.tile == tile)
        return n

    def check_copies(self, tile: int, extra: int = 0) -> None:
        """No fifth copy of ``tile`` in view (``extra``: copies about to be shown)."""
        if self.partial:
            seen = self.copies_seen(tile) + extra
            self.check(seen <= 4, f"a fifth copy of {tile_str(tile)}: {seen} are in view")

    def apply(self, ev: Event) -> None:
        """Move the table on by one event of the log (after the deal), checking it."""
        kind = ev["type"]
        self.step += 1
        offer, self.offer = self.offer, None
        if kind == "exchange":
            self._exchange(ev)
        elif kind == "void":
            self.void = [SUITS.index(v) if v else -1 for v in ev["suits"]]
        elif kind == "draw":
            self._draw(ev["seat"], ev["tile"], bool(ev["replacement"]))
        elif kind == "discard":
            self._discard(ev["seat"], ev["tile"], ev.get("drawn"))
        elif kind == "pung":
            self._claimed(offer, ev["seat"], ev["tile"])
            self._pung(ev["seat"], ev["tile"])
        elif kind == "kong":
            if ev["kind"] == "direct":
                self._claimed(offer, ev["seat"], ev["tile"])
            self._kong(ev["seat"], ev["tile"], ev["kind"], bool(ev["robbed"]))
        elif kind == "pass":
            self.offer = offer
            self.passes[ev["seat"]].append(Pass(ev["tile"], int(ev["fan"]), self.step))
        elif kind == "win":
            self.offer = offer
            self._win(ev, offer)
        elif kind == "settle":
            self._check_settle(ev)
        elif kind == "end":
            self._check_end(ev)
        else:
            raise ValueError(f"unknown event type {kind!r}")

    def _exchange(self, ev: Event) -> None:
        given = ev["given"]
        named = ev.get("received") or [None] * self.players
        received: list[list[int] | None] = [None] * self.players
        for s, tiles in enumerate(given):
            if tiles is None:
                self.check(not self.known[s], f"S{s}'s own exchange must name its tiles")
                self.take(s, -1, 3)
                continue
            self.check(len(tiles) == 3 and len({t // 9 for t in tiles}) == 1,
                       f"S{s} passes {tiles_str(tiles)}: not three tiles of one suit")
            for t in tiles:
                self.take(s, t)
        for s, tiles in enumerate(given):
            to = receiver(s, ev["direction"], self.players)
            got = tiles if tiles is not None else named[to]
            if got is None:
                self.check(not self.known[to], f"S{to} receives tiles the record does not "
                           f"name")
                self.give(to, -1, 3)
                continue
            self.check(tiles is None or named[to] is None or sorted(named[to]) == sorted(tiles),
                       f"S{to} receives {tiles_str(named[to] or [])}, S{s} gave "
                       f"{tiles_str(tiles or [])}")
            for t in got:
                self.give(to, t)
                self.check_copies(t)
            received[to] = list(got)
        self.exchange = Exchange(ev["direction"],
                                 tuple(tuple(g) if g is not None else () for g in given),
                                 tuple(tuple(r) if r is not None else () for r in received))

    def _draw(self, s: int, t: int | None, replacement: bool) -> None:
        end = len(self.wall)
        self.check(self.pos < end, f"S{s} draws from an empty wall")
        if self.wall[self.pos] >= 0 or t is None:
            self.check(self.wall[self.pos] == t or (t is None and not self.known[s]),
                       f"S{s} draws {tile_text(t)}, the wall's next tile is "
                       f"{tile_text(self.wall[self.pos])}")
        self.check(self.in_play[s], f"S{s} draws after leaving play")
        self.pos += 1
        self.give(s, -1 if t is None else t)
        if t is not None:
            self.check_copies(t)
        self.drawn[s] = -1 if t is None else t
        self.after_kong[s] = replacement and self._last_kong_by == s

    def _discard(self, s: int, t: int, drawn_flag: bool | None = None) -> None:
        self.check(self.in_play[s], f"S{s} discards after leaving play")
        self.take(s, t)
        self.public[t] += 1
        self.check_copies(t)
        drawn = t == self.drawn[s] if drawn_flag is None else bool(drawn_flag)
        self.discards[s].append(Discard(t, drawn, -1))
        self.streak[s] = self.streak[s] + 1 if drawn else 0
        self.drawn[s] = -1
        self.after_kong[s] = False
        self.offer = (s, t)

    def _claimed(self, offer: tuple[int, int] | None, s: int, t: int) -> None:
        self.check(offer is not None and offer[1] == t and offer[0] != s,
                   f"S{s} claims tile {t}, which is not the discard on offer")
        assert offer is not None
        last = self.discards[offer[0]][-1]
        self.discards[offer[0]][-1] = last._replace(claimed_by=s)

    def _pung(self, s: int, t: int) -> None:
        self.check(self.in_play[s], f"S{s} pungs after leaving play")
        self.take(s, t, 2)
        self.public[t] += 2
        self.check_copies(t)
        self.melds[s].append(Meld("P", t))
        self.streak[s], self.drawn[s] = 0, -1

    def _kong(self, s: int, t: int, how: str, robbed: bool) -> None:
        """A ``direct``, ``added`` (robbed or not) or concealed kong."""
        self.check(self.in_play[s], f"S{s} kongs after leaving play")
        if how == "direct":
            self.take(s, t, 3)
            self.public[t] += 3
            self.check_copies(t)
            self.melds[s].append(Meld("K", t))
        elif how == "added":
            self.take(s, t)
            self.public[t] += 1
            self.check_copies(t)
            self.check(Meld("P", t) in self.melds[s], f"S{s} adds a kong of tile {t} without "
                       f"a pung of it")
            if not robbed:
                self.melds[s][self.melds[s].index(Meld("P", t))] = Meld("K", t)
            else:
                self.offer = (s, t)  # the robbed tile is on offer to the robbers
        else:
            self.take(s, t, 4)
            self.check_copies(t, 0 if self.known[s] else 4)
            self.melds[s].append(Meld("C", t))
        self.streak[s], self.drawn[s] = 0, -1
        self._last_kong_by = -1 if robbed else s

    def _win(self, ev: Event, offer: tuple[int, int] | None) -> None:
        s, t, kind = ev["seat"], ev["tile"], ev["kind"]
        self.check(self.in_play[s], f"S{s} wins twice")
        self._check_win(ev)
        fed_by = -1
        if kind in SELF_DRAWN:
            self.take(s, t)  # the winner shows the winning tile: public
            self.public[t] += 1
        elif kind == "discard":
            self.check(offer is not None and offer[1] == t and offer[0] != s,
                       f"S{s} wins on a discard of tile {t} that was not on offer")
            assert offer is not None
            fed_by = offer[0]
            last = self.discards[fed_by][-1]
            if last.claimed_by < 0:  # the first of several winners on it
                self.discards[fed_by][-1] = last._replace(claimed_by=s)
        else:  # robbed kong
            fed_by = int(ev["from"])
        self.wins[s].append(Win(t, kind, fed_by, self.step))
        if not self.blood_river:
            self.in_play[s] = False

    def _check_win(self, ev: Event) -> None:
        s, tile = ev["seat"], ev["tile"]
        shown = parse(ev["hand"])
        if not self.known[s]:
            self._check_shown_win(ev, shown)
            return
        counts = self.hand[s].copy()
        if ev["kind"] in ON_DISCARD:
            counts[tile] += 1
        self.check(np.array_equal(counts, shown.counts.astype(np.int16)),
                   f"S{s} wins with {ev['hand']} but the rebuilt hand holds "
                   f"{Hand._make((counts.astype(np.int8), tuple(self.melds[s])))}")
        self.check(Counter(self.melds[s]) == Counter(shown.melds),
                   f"S{s} wins with the melds of {ev['hand']} but the rebuilt melds are "
                   f"{self.melds[s]}")

    def _check_shown_win(self, ev: Event, shown: Hand) -> None:
        """The winning hand of a seat whose tiles are not known: its size, its melds, its
        winning tile and no fifth copy of anything it shows."""
        s, tile = ev["seat"], ev["tile"]
        on_discard = ev["kind"] in ON_DISCARD
        size = self.hidden[s] + (1 if on_discard else 0)
        self.check(int(shown.counts.sum()) == size and bool(shown.counts[tile] >= 1),
                   f"S{s} wins with {ev['hand']}, which is not the {size} concealed tiles it "
                   f"holds with {tile_text(tile)}")
        self.check(Counter(self.melds[s]) == Counter(shown.melds),
                   f"S{s} wins with the melds of {ev['hand']} but its melds are "
                   f"{''.join(str(m) for m in self.melds[s]) or 'none'}")
        for t in np.flatnonzero(shown.counts):
            self.check_copies(int(t), int(shown.counts[t]) - (on_discard and t == tile))

    def _check_settle(self, ev: Event) -> None:
        """The drawn end's pigs and ready hands, among the seats that never won."""
        dead_wait_counts = bool(self.rules["dead_wait_counts"])
        pigs, ready = set(), set()
        for s in self.seats():
            if not self.in_play[s] or self.wins[s]:
                continue
            if not self.known[s]:  # its hand is not in the record: take the settlement's word
                pigs |= {s} & set(ev["pigs"])
                ready |= {s} & set(ev["ready"])
                continue
            if self.holds_void(s):
                pigs.add(s)
                continue
            w = self.waits_of(s)
            seen = self.public + self.own_seen(s)
            dead = all(seen[t] >= 4 for t in w)
            if w and (dead_wait_counts or not dead):
                ready.add(s)
        self.check(pigs == set(ev["pigs"]), f"pigs {sorted(pigs)} rebuilt, the settlement "
                   f"names {ev['pigs']}")
        self.check(ready == set(ev["ready"]), f"ready hands {sorted(ready)} rebuilt, the "
                   f"settlement names {ev['ready']}")

    def _check_end(self, ev: Event) -> None:
        if ev.get("wall_left") is not None:  # a record written down may leave it out
            self.check(self.wall_left == ev["wall_left"],
                       f"{self.wall_left} tiles left in the rebuilt wall, the log says "
                       f"{ev['wall_left']}")
        total = self.public.copy()
        for s in self.seats():
            k = len(self.melds[s])
            self.check(self.held(s) == 13 - 3 * k,
                       f"S{s} ends with {self.held(s)} tiles and {k} melds")
            total += self.own_seen(s)
        if self.partial:
            return
        for t in self.wall[self.pos:]:
            total[t] += 1
        in_set = np.zeros(27, bool)
        in_set[sorted(set(self.wall))] = True
        self.check(bool((total[in_set] == 4).all() and (total[~in_set] == 0).all()),
                   f"the tiles do not add up to four of each type at the end: "
                   f"{total.tolist()}")


def tile_text(tile: int | None) -> str:
    """A tile in notation, or "an unknown tile" (``None`` or -1: another seat's draw)."""
    return "an unknown tile" if tile is None or tile < 0 else tile_str(tile)


def walk(events: Sequence[Event], *, after: bool = False) -> Iterator[tuple[int, Event, Table]]:
    """``(step, event, table)`` for each event of a replay log after the deal (``step`` 1, 2,
    ...), with the table before the event is applied, or after it with ``after``.

    The table is one object moved on in place: copy what must outlive the step. Each event is
    checked as it is applied (:meth:`Table.apply`), so a log that disagrees with itself raises
    :class:`ReconstructionError` at the first event that does. Before the event, the table is
    what the acting seat saw when it decided (``table.seen_by(seat)``). A log that does not
    start with the deal is refused at once (``ValueError``), not at the first step.
    """
    return _walk(Table.from_deal(events[0]), events, after)


def _walk(table: Table, events: Sequence[Event],
          after: bool) -> Iterator[tuple[int, Event, Table]]:
    for step, ev in enumerate(events[1:], start=1):
        if after:
            table.apply(ev)
            yield step, ev, table
        else:
            yield step, ev, table
            table.apply(ev)


def replayed(events: Sequence[Event]) -> Table:
    """The table at the end of a replay log, every event checked."""
    table = Table.from_deal(events[0])
    for ev in events[1:]:
        table.apply(ev)
    return table
