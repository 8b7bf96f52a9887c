"""Fields: who the other three seats are when one seat switches strategy (issue 16).

An answer measured against one kind of opponent is an answer about that opponent, so every
strategy experiment is played against several *fields*. A field is the policy spec of the three
other seats: one policy (three copies, ``expert``) or three joined by ``/``, the opponents in
seat order after the switching seat (``expert/flush:k=8/pungs:k=4``: the next seat plays
``expert``, the one across ``flush``, the previous one ``pungs``).

A field of three different policies is *rotated*: its three cyclic orders around the switching
seat (``A/B/C``, ``B/C/A``, ``C/A/B``) each get a third of the deals, as separate runs on the same
walls (the seed is shared), and the per-wall values of the three are averaged, so every wall is
met once in every order and every seat position (the duplicate layout already rotates the whole
table over the four seats). Relative order matters: it decides who passes to whom in the
exchange and who discards to whom.

>>> [f.name for f in parse_fields(DEFAULT_FIELDS)]
['speed', 'expert', 'expert/flush/pungs']
>>> parse_field("expert/flush:k=8/pungs:k=4").orders
(('expert', 'flush', 'pungs'), ('flush', 'pungs', 'expert'), ('pungs', 'expert', 'flush'))
>>> parse_field("speed").table("flush:k=9")
'flush:k=9/speed/speed/speed'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from simcore.engine.spec import parse_spec, split_policies

# speed, expert, and the mixed table expert/speed/flush:k=8/pungs:k=4 with the switching
# seat in the speed place: its field is the three others, rotated over the three seats
DEFAULT_FIELDS = ("speed", "expert", "expert/flush:k=8/pungs:k=4")
SPEED_FIELD = "speed"
WRONG_COUNT = ("field {text!r} has {n} policies: a field is one policy (three copies) or three "
               "joined by '/' (the opponents in seat order after the switching seat)")


@dataclass(frozen=True)
class Field:
    """The three opponents of the switching seat (canonical specs, in seat order after it)."""

    opponents: tuple[str, str, str]

    @property
    def name(self) -> str:
        """``speed`` for three copies of one policy, else ``A/B/C`` (the label of its rows)."""
        if len(set(self.opponents)) == 1:
            return self.opponents[0]
        return "/".join(self.opponents)

    @property
    def orders(self) -> tuple[tuple[str, str, str], ...]:
        """The distinct cyclic orders of the opponents (one for three copies of a policy)."""
        a, b, c = self.opponents
        return tuple(dict.fromkeys([(a, b, c), (b, c, a), (c, a, b)]))

    @property
    def slug(self) -> str:
        """The field in arm directory names: ``expert``, ``expert-flush-pungs``."""
        text = self.name.replace("/", "-").replace(":", "").replace("=", "").replace(",", "-")
        return text.replace(".", "p")

    @property
    def is_speed(self) -> bool:
        return self.opponents == (SPEED_FIELD,) * 3

    def table(self, seat: str, order: int = 0) -> str:
        """The four-seat spec with ``seat`` first and the ``order``-th cyclic order after it."""
        return "/".join((seat, *self.orders[order]))


def parse_field(spec: str) -> Field:
    """One field spec as a :class:`Field`; ValueError naming the spec when it is not one
    policy or three ``/``-separated ones, or names an unknown policy or option."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a field is one policy spec or three joined by '/', got {spec!r}")
    parts = split_policies(spec, 3, WRONG_COUNT)
    try:
        canon = [parse_spec(p).text for p in parts]
    except ValueError as exc:
        raise ValueError(f"field {spec!r}: {exc}") from None
    return Field((canon[0], canon[1], canon[2]))


def parse_fields(specs: Iterable[str] | str) -> tuple[Field, ...]:
    """Several field specs (a string is one field), duplicates dropped, order kept."""
    if isinstance(specs, str):
        specs = [specs]
    fields = tuple(dict.fromkeys(parse_field(s) for s in specs))
    if not fields:
        raise ValueError("at least one field is needed")
    return fields


def field_names(fields: Sequence[Field]) -> list[str]:
    return [f.name for f in fields]
