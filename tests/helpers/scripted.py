"""Helpers for scripted-wall tests of the engine: hand-built walls that force a situation.

A wall is 108 tile types in draw order (:func:`simcore.engine.replay.play_wall`): tiles 0..51
are dealt 13 each to the seats ``dealer, dealer + 1, ...`` in blocks, tile 52 is the dealer's
14th, then every draw (replacement draws after kongs too) takes the next tile.

- :func:`build_wall` places the dealt hands and the drawn tiles, and fills the rest of the wall
  with the unused tiles in a fixed order.
- :func:`quiet_wall` builds a wall where nothing happens but what a script forces: "filler"
  seats are dealt hands that never act, and every tile not scripted is a "quiet" tile: a tile
  of the drawer's void suit (which the ``speed`` policy discards at once) that no other seat
  can pung, kong or win on. The filler hands are solved so that the wall holds exactly the
  quiet tiles needed until it is empty.
- :func:`play` plays a wall with the invariant checker on (simcore/engine/invariants.py, in
  the kernel) and checks that the payments of the event log are the record's nets: every
  scripted-wall test plays its deals through it.
- :func:`pays`, :func:`of`, :func:`nets`, :func:`wins` read the replay events and the record nets.
- ``_quiet_rounds`` and ``_drawn_end_wall``: scripts and walls shared by
  tests/engine/test_engine_scripted.py and test_rule_corrections.py.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from simcore.engine.invariants import check_records
from simcore.engine.replay import play_wall
from simcore.hand import shanten, waits
from simcore.records import DEALT, NET_PARTS, RECORD_DTYPE, WALL_SIZE
from simcore.rules import resolve_rules
from simcore.tiles import SUITS, parse, tile_index, tile_str, tiles_from_counts


def col(df, name):
    """Column ``name`` of a deal's records in seat order, as plain ints (strings kept)."""
    return [int(x) if not isinstance(x, str) else x for x in df.sort_values("seat")[name]]


def story(events):
    """Everything that happened besides draws and discards: (type, seat, tile name)."""
    return [(e["type"], e["seat"], tile_str(e["tile"])) for e in events
            if e["type"] in ("pung", "kong", "pass", "win")]


def tiles(text: str | Iterable[str | int]) -> list[int]:
    """Tile types in the given order: ``"5s 1m2m 3p"`` or ``"12m3p"`` (digits then their suit,
    order kept), or a list of tile names (``"5s"``) and tile types."""
    if not isinstance(text, str):
        return [t if isinstance(t, int) else tile_index(t) for t in text]
    out: list[int] = []
    pending: list[int] = []
    for c in text.replace(" ", ""):
        if c.isdigit():
            if c == "0":
                raise ValueError(f"rank 0 in {text!r}")
            pending.append(int(c))
        elif c in SUITS:
            if not pending:
                raise ValueError(f"suit {c!r} without ranks in {text!r}")
            out.extend(9 * SUITS.index(c) + r - 1 for r in pending)
            pending = []
        else:
            raise ValueError(f"unknown character {c!r} in {text!r}")
    if pending:
        raise ValueError(f"ranks without a suit at the end of {text!r}")
    return out


def hand_tiles(text: str) -> list[int]:
    """The concealed tiles of a hand in docs/rules notation (melds are not allowed here)."""
    counts, melds = parse(text, sizes="any")
    if melds:
        raise ValueError(f"a dealt hand has no melds: {text!r}")
    return tiles_from_counts(counts)


def build_wall(
    dealt: dict[int, str], draws: str | Sequence[str | int] = "", dealer: int = 0,
    players: int = 4, suits: int = 3,
) -> list[int]:
    """A 108-tile wall dealing ``dealt[seat]`` (13 tiles, the dealer 14) and then drawing
    ``draws`` in order; seats not in ``dealt`` and the rest of the wall take the unused tiles
    in a fixed order (ascending tile types, one copy of each type per round). A tile used more
    than four times, or a hand of the wrong size, is an error. With ``players = 3`` three seats
    are dealt; with ``suits = 2`` the wall is the 72 tiles of ``p`` and ``s`` (docs/rules 9)."""
    used: Counter[int] = Counter()
    hands: dict[int, list[int]] = {}
    first_type = 0 if suits == 3 else 9
    wall_n = 36 * suits
    dealt_n = 13 * players + 1
    for seat, text in dealt.items():
        if seat not in range(players):
            raise ValueError(f"seat {seat} is not 0..{players - 1}")
        hand = hand_tiles(text)
        size = 14 if seat == dealer else 13
        if len(hand) != size:
            raise ValueError(f"seat {seat} is dealt {len(hand)} tiles, expected {size}: {text!r}")
        hands[seat] = hand
        used.update(hand)
    drawn = tiles(draws)
    if len(drawn) > wall_n - dealt_n:
        raise ValueError(f"{len(drawn)} draws; a wall has {wall_n - dealt_n} after dealing")
    used.update(drawn)
    over = sorted(t for t, n in used.items() if n > 4)
    if over:
        raise ValueError(f"tiles used more than four times: {over}")
    outside = sorted(t for t in used if t < first_type)
    if outside:
        raise ValueError(f"tiles outside the tile set of {suits} suits: {outside}")
    rest = [t for k in range(4) for t in range(first_type, 27) if used[t] <= k]
    for k in range(players):
        seat = (dealer + k) % players
        if seat not in hands:
            n = 14 if seat == dealer else 13
            hands[seat], rest = sorted(rest[:n]), rest[n:]
    wall: list[int] = []
    for k in range(players):
        wall += hands[(dealer + k) % players][:13]
    wall.append(hands[dealer][13])  # the dealer's 14th: its highest tile
    wall += drawn + rest
    assert len(wall) == wall_n and all(n == 4 for n in Counter(wall).values())
    return wall


def _void_of(text: str) -> int:
    """The void a ``speed`` seat declares for this dealt hand: the suit it holds fewest of
    (a tie is an error: the policy would break it by shanten)."""
    counts, _ = parse(text, sizes="any")
    per = [int(counts[9 * k: 9 * k + 9].sum()) for k in range(3)]
    if sorted(per)[0] == sorted(per)[1]:
        raise ValueError(f"{text!r}: two suits tie for the void; give the void explicitly")
    return per.index(min(per))


def _danger(text: str, void: int) -> set[int]:
    """Tile types a seat holding ``text`` could claim: pairs of non-void tiles and its waits
    (for a hand of 14 - 3k tiles, the waits after any discard)."""
    counts, melds = parse(text, sizes="hand")
    bad = {t for t in range(27) if counts[t] >= 2 and t // 9 != void}
    if int(counts.sum()) == 13 - 3 * len(melds):
        return bad | set(waits(text, void))
    meld_text = "".join(f"{m.kind}{m.tile % 9 + 1}{SUITS[m.tile // 9]}" for m in melds)
    for t in range(27):
        if counts[t]:
            counts[t] -= 1
            rest = _text(tiles_from_counts(counts))
            bad |= set(waits(rest + ("|" + meld_text if melds else ""), void))
            counts[t] += 1
    return bad


FILL_RANKS = (1, 9, 5, 3, 7, 2, 8, 4, 6)  # spread ranks first: few runs, never ready
OPEN = -1  # a filler whose void the solver chooses


def _text(ts: Iterable[int]) -> str:
    return "".join(f"{t % 9 + 1}{SUITS[t // 9]}" for t in sorted(ts))


def _is_quiet_item(x: str | int) -> bool:
    return isinstance(x, str) and x.startswith("?")


def _fill(free: list[int], n: int, taken: Counter[int], thrown: set[int],
          claimable: set[int]) -> list[int] | None:
    """``n`` tiles of the types ``free`` (in order of preference): every copy left of the
    types an acting seat could claim, one copy of the other types, and more copies of a type
    only when they take its last copies (none is left in the wall to be discarded) and nobody
    is to discard it; None when impossible."""
    out: list[int] = []
    for t in free:
        left = 4 - taken[t]
        if t in claimable and t not in thrown and left <= 3 and len(out) + left <= n:
            out += [t] * left
    rest = [t for t in free if t not in out]
    for k in range(min(n - len(out), len(rest)), -1, -1):
        chosen = rest[:k]
        extra = {t: 3 - taken[t] for t in chosen if t not in thrown and 1 <= 3 - taken[t] <= 2}
        want = n - len(out) - k
        picks: list[int] = []
        for t, e in extra.items():
            if want >= e:
                picks += [t] * e
                want -= e
        if want == 0:
            return out + chosen + picks
    return None


def quiet_wall(
    dealt: dict[int, str],
    script: str | Sequence[str | int] = "",
    dealer: int = 0,
    *,
    fillers: dict[int, str] | None = None,
    tail: dict[int, str] | None = None,
    first: int | None = None,
    voids: dict[int, str] | None = None,
) -> list[int]:
    """A wall where nothing happens but what the script forces.

    - ``dealt``: the hands of the seats that act (notation);
    - ``fillers``: seats that never act. ``fillers[seat] = "p"`` deals the seat tiles of the two
      other suits, one copy per type (ranks 1, 9, 5, 3, 7, 2, 8, 4, 6 first; more copies
      only when they take the last ones), not ready; it voids p and discards every tile it
      draws. How many of each suit is solved so that the quiet end (``tail``) finds exactly
      the tiles it needs (``"*"``: the void too); ``"6m7s"`` fixes the counts. ``"p+5p"``
      also deals the listed tiles (here a void tile, discarded first);
    - ``script``: the drawn tiles in order; ``"?k"`` is a quiet tile for seat ``k``: a tile of
      its void suit that no other seat holds two of or waits on (judged on the dealt hands and
      the ``tail`` hands), the type with most unused copies first, then the lowest;
    - ``tail``, ``first``: when given, the rest of the wall is a quiet end of the deal: the
      seats of ``tail`` (``{seat: its frozen waiting hand}``, ``""`` for the dealt hand) draw in
      turn from ``first``, each a quiet tile, until the wall is empty; without ``tail`` the
      rest of the wall is filled as by :func:`build_wall`.
    ``voids`` overrides the void read from a hand (the suit with fewest tiles).
    """
    fillers = fillers or {}
    items = script.split() if isinstance(script, str) else list(script)
    fixed = [t for x in items if not _is_quiet_item(x)
             for t in tiles([x] if isinstance(x, int) else x)]
    used: Counter[int] = Counter(fixed)
    for text in dealt.values():
        used.update(hand_tiles(text))
    void: dict[int, int] = {s: SUITS.index(v) for s, v in (voids or {}).items()}
    for s, text in dealt.items():
        void.setdefault(s, _void_of(text))
    # filler specs: (void, extra tiles, fixed counts by suit or None)
    specs: dict[int, tuple[int, list[int], dict[int, int] | None]] = {}
    for seat, spec in fillers.items():
        head, _, extra_text = spec.partition("+")
        extra = tiles(extra_text) if extra_text else []
        used.update(extra)
        if head == "*" and extra and len({t // 9 for t in extra}) == 1:
            head = SUITS[extra[0] // 9]  # the extra tiles are the void tiles discarded first
        if len(head) == 1:
            specs[seat] = (OPEN if head == "*" else SUITS.index(head), extra, None)
        else:
            counts = {SUITS.index(c): int(n) for n, c in zip(head[::2], head[1::2], strict=True)}
            missing = [k for k in range(3) if k not in counts]
            if len(missing) != 1:
                raise ValueError(f"filler {seat}: {spec!r} must leave out one suit (its void)")
            specs[seat] = (missing[0], extra, counts)
        if specs[seat][0] != OPEN:
            void.setdefault(seat, specs[seat][0])
    if sorted([*dealt, *fillers]) != [0, 1, 2, 3]:
        raise ValueError(f"give every seat a hand or a filler, got {sorted([*dealt, *fillers])}")
    quiet_items = [int(x[1:]) for x in items if _is_quiet_item(x)]

    def needs(vd: dict[int, int]) -> Counter[int]:
        """What the quiet draws of the script and the quiet end need, by suit."""
        need: Counter[int] = Counter(vd[q] for q in quiet_items)
        if tail is not None:
            seats = sorted(tail)
            seat = first if first is not None else seats[0]
            for _ in range(WALL_SIZE - DEALT - len(fixed) - len(quiet_items)):
                need[vd[seat]] += 1
                seat = seats[(seats.index(seat) + 1) % len(seats)]
        return need

    def choices(seat: int, v: int) -> list[dict[int, int]]:
        _, extra, counts = specs[seat]
        if counts is not None:
            return [counts]
        n = (14 if seat == dealer else 13) - len(extra)
        a, b = (k for k in range(3) if k != v)
        xs = sorted(range(1, n), key=lambda x: (max(x, n - x) > 9, abs(2 * x - n)))
        return [{a: x, b: n - x} for x in xs]

    def pick(counts: dict[int, int], taken: Counter[int]) -> list[int] | None:
        out: list[int] = []
        for suit, n in sorted(counts.items()):
            free = [9 * suit + r - 1 for r in FILL_RANKS if taken[9 * suit + r - 1] < 4]
            # first the tiles the acting seats could claim: they are then not in the wall
            free.sort(key=lambda t: t not in claimable)
            got = _fill(free, n, taken, thrown, claimable)
            if got is None:
                return None
            out += got
        return out

    def plan(hands: dict[int, str], vd: dict[int, int], used: Counter[int]) -> list[int] | None:
        """The drawn tiles (fixed, quiet), or None when a quiet tile cannot be found."""
        states = {s: [hands[s]] for s in range(4)}
        for s, text in (tail or {}).items():
            if text:
                states[s].append(text)
        danger = {s: set().union(*(_danger(h, vd[s]) for h in states[s])) for s in range(4)}
        pool = Counter({t: 4 - used[t] for t in range(27)})

        def quiet(seat: int, others: Iterable[int]) -> int | None:
            safe = [t for t in range(27) if pool[t] > 0 and t // 9 == vd[seat]
                    and all(t not in danger[q] for q in others if q != seat)]
            if not safe:
                return None
            t = max(safe, key=lambda x: (pool[x], -x))
            pool[t] -= 1
            return t

        fixed_iter = iter(fixed)
        out: list[int | None] = []
        for x in items:
            if _is_quiet_item(x):
                out.append(quiet(int(x[1:]), range(4)))
            else:
                out += [next(fixed_iter) for _ in tiles([x] if isinstance(x, int) else x)]
        if tail is not None:
            seats = sorted(tail)
            seat = first if first is not None else seats[0]
            while len(out) < WALL_SIZE - DEALT:
                out.append(quiet(seat, seats))
                seat = seats[(seats.index(seat) + 1) % len(seats)]
        return None if None in out else out

    claimable: set[int] = set()
    for s, text in dealt.items():
        claimable |= _danger(text, void[s])
        if tail and tail.get(s):
            claimable |= _danger(tail[s], void[s])
    thrown = set(fixed)
    for s, text in dealt.items():
        thrown |= {t for t in hand_tiles(text) if t // 9 == void[s]}
    over = sorted(t for t, n in used.items() if n > 4)
    if over:
        raise ValueError(f"tiles used more than four times: {_text(over)}")
    seats_f = sorted(specs)
    open_void = [s for s in seats_f if specs[s][0] == OPEN]
    need: Counter[int] = Counter()
    for vs in itertools.product(range(3), repeat=len(open_void)):
        vd = {**void, **dict(zip(open_void, vs, strict=True))}
        need = needs(vd)
        for combo in itertools.product(*(choices(s, vd[s]) for s in seats_f)):
            taken = Counter(used)
            picked = {}
            for seat, counts in zip(seats_f, combo, strict=True):
                got = pick(counts, taken)
                if got is None:
                    break
                picked[seat] = got
                taken.update(got)
            else:
                supply = [sum(4 - taken[9 * k + r] for r in range(9)) for k in range(3)]
                if any(supply[k] != need[k] if tail is not None else supply[k] < need[k]
                       for k in range(3)):
                    continue
                hands = {**dealt, **{s: _text(picked[s] + specs[s][1]) for s in seats_f}}
                try:  # the void a speed seat declares must be the one planned
                    if any(_void_of(hands[s]) != vd[s] for s in seats_f):
                        continue
                except ValueError:
                    continue
                if any(shanten(hands[s], void=vd[s]) < 1 for s in seats_f):
                    continue  # a filler must never be ready
                drawn = plan(hands, vd, taken)
                if drawn is not None:
                    return build_wall(hands, drawn, dealer)
    raise ValueError(f"no filler hands give the script and the quiet end their tiles (they "
                     f"need, by suit m/p/s: {[need[k] for k in range(3)]})")


def play(wall: Sequence[int], rules: str = "classic", policies: str = "speed", dealer: int = 0,
         *, seed: int = 0, deal: int = 0, **overrides: object) -> tuple[list[dict], object]:
    """Play ``wall`` (:func:`simcore.engine.replay.play_wall`) and check the deal: the kernel's
    invariant checker (tiles, counts, zero-sum, winners), the record invariants, and the
    payments of the log summing to each seat's net. Returns (events, records DataFrame)."""
    events, df = play_wall(wall, rules, policies, dealer=dealer, seed=seed, deal=deal,
                           overrides=overrides, debug=True)
    table = resolve_rules(rules, overrides)
    records = np.zeros(table.players, dtype=RECORD_DTYPE)
    for name in ("deal", "seat", "void_suit", "win_order", "winners", "pattern", "pig", "net",
                 "wins", *NET_PARTS):
        column = df.sort_values("seat")[name]
        if name == "pattern":  # a name at the boundary ("" = no win), a code (-1) inside
            column = column.cat.codes - 1
        elif name == "void_suit":  # a suit letter at the boundary, missing for no void (-1)
            column = column.cat.codes
        records[name] = column.to_numpy()
    check_records(records, table.players, table.suits, blood_river=table.blood_river)
    paid = [0] * table.players
    for payer, payee, units, _reason in pays(events):
        paid[payer] -= units
        paid[payee] += units
    assert paid == nets(df)["net"] == events[-1]["net"], "payments do not make the nets"
    return events, df


def pays(events: list[dict], kind: str | None = None) -> list[tuple[int, int, int, str]]:
    """Every payment of the deal in order, as ``(payer, payee, units, reason)``; with ``kind``
    only those of events of that type ("kong", "win", "settle")."""
    return [
        tuple(p) for ev in events if "payments" in ev and (kind is None or ev["type"] == kind)
        for p in ev["payments"]
    ]


def of(events: list[dict], kind: str) -> list[dict]:
    return [ev for ev in events if ev["type"] == kind]


def nets(df) -> dict[str, list[int]]:
    """The record's net and its parts per seat: ``{"net": [..4], "net_win": [..4], ...}``."""
    df = df.sort_values("seat")
    return {c: [int(x) for x in df[c]] for c in ("net", *NET_PARTS)}


# ----------------------------------------------------------------------------- shared walls
def wins(events):
    """(seat, tile, kind, from, fan, bonuses) of every win, in order."""
    return [(e["seat"], e["tile"], e["kind"], e["from"], e["fan"], e["bonuses"])
            for e in of(events, "win")]


def _quiet_rounds(n, order=(1, 2, 3, 0)):
    """``n`` quiet draws of the seats in turn (nobody leaves play)."""
    return " ".join(f"?{order[k % 4]}" for k in range(n))


# Seat 3 (111m444m123p456p + 9p) self-draws early (plain: 2 from each); at the drawn end seat 1
# (a filler dealt a pair of its void suit, 55s, which it keeps) is a flower pig, seat 2 waits
# on 1m (123m 999m 11s 123s 789s: terminals, 2 fan) or 4m (plain, 0 fan), seat 0 is not ready.
READY_HAND = "23m999m11s123s789s"


def _drawn_end_wall():
    return quiet_wall({2: READY_HAND, 3: "111m444m123p456p9p"}, "?1 ?2 ?3 ?0 ?1 ?2 9p",
                      fillers={0: "m+5m", 1: "s+55s"}, tail={0: "", 1: "", 2: ""}, first=0)
