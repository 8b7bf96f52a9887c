"""The parts of a position: one discard, one win, a declined win, the exchange of three, the
decision, an action, and what one seat shows (:class:`SeatView`).

Plain records below :mod:`simcore.advice.position` (which validates them as a whole) and
:mod:`simcore.advice.replayed` (which reads them off a replayed deal).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from simcore.tiles import SUITS, Meld, tile_str

WIN_KINDS = ("self_draw", "discard", "robbed_kong", "kong_flower")
DECISION_KINDS = ("turn", "on-discard", "on-kong")


# --------------------------------------------------------------------------------------------
# the parts of a position


class Discard(NamedTuple):
    """One discard, in order: its tile, ``drawn`` (drawn this turn and thrown, not held from an
    earlier turn), ``claimed`` (punged or konged: the tile is in the claimer's meld) and ``won``
    (one or more seats won on it; the tile is the win tile of each)."""

    tile: int
    drawn: bool = False
    claimed: bool = False
    won: bool = False

    def __str__(self) -> str:
        return tile_str(self.tile) + "d" * self.drawn + "c" * self.claimed + "w" * self.won


class Win(NamedTuple):
    """A win: its tile, its kind (:data:`WIN_KINDS`), the seat that fed it (the discarder, the
    robbed kong maker; None for a self-drawn win) and when: the tiles left in the wall then."""

    tile: int
    kind: str
    fed_by: int | None
    wall: int

    def __str__(self) -> str:
        src = f":S{self.fed_by}" if self.fed_by is not None else ""
        return f"{self.kind}:{tile_str(self.tile)}{src}@{self.wall}"


class Declined(NamedTuple):
    """A win on a discard the seat declined since its last draw: the tile and the fan (before
    the cap) the win would have scored (``pass_win_rule``, docs/rules section 3)."""

    tile: int
    fan: int


class Exchange(NamedTuple):
    """The deciding seat's exchange of three (``exchange_three``): the three tiles it passed,
    the seat it passed them to, the three it received."""

    passed: tuple[int, ...]
    to: int
    received: tuple[int, ...]


class Decision(NamedTuple):
    """The decision: ``"turn"`` (after the seat's own draw, a pung, or the dealer's first
    turn: discard, self-drawn win, concealed or added kong; ``after_kong`` when the drawn tile
    is the replacement of the seat's kong), ``"on-discard"`` (``tile`` discarded by seat ``by``:
    win, kong, pung, pass; ``after_kong`` when that discard follows the discarder's kong) or
    ``"on-kong"`` (seat ``by`` adds ``tile`` to its pung: rob or pass).
    """

    kind: str
    tile: int | None = None
    by: int | None = None
    after_kong: bool = False

    def __str__(self) -> str:
        if self.kind == "turn":
            return "turn after-kong" if self.after_kong else "turn"
        assert self.tile is not None
        tail = " after-kong" if self.after_kong else ""
        return f"{self.kind} {tile_str(self.tile)} from S{self.by}{tail}"


class Action(NamedTuple):
    """A legal action: ``kind`` one of ``discard``, ``win``, ``kong``, ``pung``, ``pass`` and
    its tile (None for ``win`` and ``pass``)."""

    kind: str
    tile: int | None = None

    def __str__(self) -> str:
        return self.kind if self.tile is None else f"{self.kind} {tile_str(self.tile)}"


@dataclass(frozen=True)
class SeatView:
    """What every seat shows: its void (a suit 0..2, None under two suits), its melds, its
    discards in order and its wins (at most one in blood battle)."""

    void: int | None = None
    melds: tuple[Meld, ...] = ()
    discards: tuple[Discard, ...] = ()
    wins: tuple[Win, ...] = ()

    def __post_init__(self) -> None:
        # lists and plain pairs are accepted; stored as tuples of the named records
        for name, kind in (("melds", Meld), ("discards", Discard), ("wins", Win)):
            items = getattr(self, name)
            if isinstance(items, str) or not isinstance(items, Iterable):
                raise ValueError(f"{name}: {items!r} is not a sequence")
            try:
                value = tuple(x if isinstance(x, kind) else kind(*x) for x in items)
            except TypeError:
                raise ValueError(f"{name}: {items!r} are not {kind.__name__} records") from None
            object.__setattr__(self, name, value)

    def line(self, seat: int) -> str:
        """This seat's line of the text form."""
        parts = [f"S{seat}"]
        if self.void is not None:
            parts.append(f"void {SUITS[self.void]}")
        if self.melds:
            parts.append("melds " + "".join(str(m) for m in self.melds))
        if self.discards:
            parts.append("discards " + " ".join(str(d) for d in self.discards))
        if self.wins:
            parts.append("wins " + " ".join(str(w) for w in self.wins))
        return " ".join(parts)
