"""Replay one deal: the same kernel as a batch run, with its event log turned on.

``replay(seed, deal, ...)`` gives the deal as a list of JSON-ready events (the contract of
``simcore replay --json``); :func:`render` turns them into a readable log in the hand notation.
:func:`play_wall` plays a hand-built wall (scripted deals in tests, conditional dealing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from simcore.engine.invariants import ERROR_TEXT
from simcore.engine.kernel import LAYOUT_ONE, call
from simcore.engine.spec import check_for_rules, parse_policies, policy_arrays, policy_names
from simcore.engine.state import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_EXCHANGE,
    EV_KONG,
    EV_PASS,
    EV_PAY,
    EV_PUNG,
    EV_READY,
    EV_SETTLE,
    EV_VOID,
    EV_WIN,
    EV_WIN_HAND,
    REASON_NAMES,
    S_N_EVENTS,
    S_OVERFLOW,
    new_state,
)
from simcore.hand.scoring_kernels import B_HEAVEN_EARTH, BONUS_FLAGS, BONUS_NAMES
from simcore.hand.tables import load_tables
from simcore.records import (
    EXCHANGE_NAMES,
    PATTERN_NAMES,
    RECORD_DTYPE,
    SUIT_LETTERS,
    WALL_SIZE,
    WIN_KIND_NAMES,
    first_tile_type,
    to_dataframe,
    wall_size,
)
from simcore.rules import Rules, resolve_rules
from simcore.tiles import MELD_LETTERS, Meld, tile_str, tiles_str
from simcore.tiles import format as format_hand

KONG_KIND_NAMES = {1: "direct", 2: "added", 3: "concealed"}


def dealt_hands(wall: Sequence[int], dealer: int, players: int = 4) -> list[list[int]]:
    """The tiles each seat is dealt from ``wall`` (dealer first, 13 each, the dealer a 14th)."""
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(players):
        seat = (dealer + k) % players
        hands[seat] = sorted(int(t) for t in wall[13 * k: 13 * k + 13])
    hands[dealer] = sorted(hands[dealer] + [int(wall[13 * players])])
    return hands


_MELD_KIND_LETTER = {code: letter for letter, code in MELD_LETTERS.items()}


def _unpack_hand(k0: int, k1: int, k2: int, melds: int) -> str:
    """The notation of a hand logged as three base-5 suit keys and 7-bit meld codes."""
    counts = np.zeros(27, np.int8)
    for suit, key in enumerate((k0, k1, k2)):
        for r in range(9):
            key, counts[9 * suit + r] = divmod(key, 5)
    out = []
    while melds:
        code, melds = melds & 0x7F, melds >> 7
        out.append(Meld(_MELD_KIND_LETTER[code >> 5], code & 0x1F))
    return format_hand(counts, out)


def _bonus_names(flags: int) -> list[str]:
    names = [n for n, f in zip(BONUS_NAMES, BONUS_FLAGS, strict=True) if flags & f]
    if flags & B_HEAVEN_EARTH:
        names.append("heaven_earth")
    return names


def _plain_event(kind: int, a: int, b: int, c: int, d: int, e: int, f: int, g: int, h: int,
                 i: int, players: int) -> dict[str, Any]:
    """The event of one row that stands alone (no state across rows)."""
    if kind == EV_DRAW:
        return {"type": "draw", "seat": a, "tile": b, "replacement": bool(c)}
    if kind == EV_DISCARD:
        return {"type": "discard", "seat": a, "tile": b}
    if kind == EV_PUNG:
        return {"type": "pung", "seat": a, "tile": b, "from": c}
    if kind == EV_KONG:
        return {"type": "kong", "seat": a, "tile": b, "kind": KONG_KIND_NAMES[c], "from": d,
                "robbed": bool(e), "payments": []}
    if kind == EV_PASS:
        return {"type": "pass", "seat": a, "tile": b, "fan": c}
    if kind == EV_WIN:
        return {"type": "win", "seat": a, "tile": b, "kind": WIN_KIND_NAMES[c], "from": d,
                "fan": e, "fan_uncapped": f, "pattern": PATTERN_NAMES[g], "roots": h,
                "bonuses": _bonus_names(i), "payments": []}
    if kind == EV_END:
        return {"type": "end", "net": [a, b, c, d][:players], "wall_left": e}
    raise RuntimeError(f"unknown event type {kind} in the replay log")


def _events_to_json(raw: np.ndarray, *, seed: int, deal: int, rules: Rules, dealer: int,
                    wall: np.ndarray) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    players = rules.players
    current: dict[str, Any] | None = None  # the event that collects the payments that follow
    exchange: dict[str, Any] | None = None
    ready: dict[str, Any] | None = None
    for row in raw:
        kind, a, b, c, d, e, f, g, h, i = (int(x) for x in row)
        if kind == EV_DEAL:
            ev = {"type": "deal", "deal": deal, "seed": seed, "rules": rules.to_dict(),
                  "dealer": dealer, "wall": [int(t) for t in wall[: wall_size(rules.suits)]],
                  "hands": dealt_hands(cast("Sequence[int]", wall), dealer, players)}
        elif kind == EV_EXCHANGE:
            if exchange is None:
                exchange = {"type": "exchange", "direction": EXCHANGE_NAMES[e],
                            "given": [[] for _ in range(players)]}
                events.append(exchange)
            exchange["given"][a] = [b, c, d]
            continue
        elif kind == EV_VOID:
            if not events or events[-1]["type"] != "void":
                events.append({"type": "void", "suits": [""] * players})
            events[-1]["suits"][a] = SUIT_LETTERS[b]
            continue
        elif kind == EV_WIN_HAND:
            win = events[-1]
            assert win["type"] == "win" and win["seat"] == a, "a win's hand follows the win"
            win.update(hand=_unpack_hand(b, c, d, e), flush=bool(f), terminals=bool(g), units=h,
                       self_draw=win["kind"] in ("self_draw", "kong_flower") and win["from"] < 0)
            continue
        elif kind == EV_SETTLE:
            ready = {"type": "settle", "pigs": [], "ready": [], "ready_value": [0] * players,
                     "payments": []}
            ev = ready
        elif kind == EV_READY:
            assert ready is not None
            if d:
                ready["pigs"].append(a)
            if b:
                ready["ready"].append(a)
                ready["ready_value"][a] = c
            continue
        elif kind == EV_PAY:
            assert current is not None, "a payment must follow a kong, a win or the settlement"
            current["payments"].append([a, b, c, REASON_NAMES[d]])
            continue
        else:
            ev = _plain_event(kind, a, b, c, d, e, f, g, h, i, players)
        if "payments" in ev:
            current = ev
        events.append(ev)
    return events


def _run_logged(record: Rules, seats: list[str], seed: int, deal: int, wall_id: int,
                dealer: int, wall: np.ndarray | None, policy_rotation: int = 0,
                debug: bool = False, as_frame: bool = True, names: list[str] | None = None):
    """Play one logged deal; ``names`` are the run's policy specs in the run's order (the
    records' ``policy`` categories), by default those of ``seats``."""
    names = policy_names(seats) if names is None else names
    pid, params, _index = policy_arrays(seats)
    index = np.array([names.index(s) for s in seats], np.int64)
    st = new_state(log=True)
    fixed = wall is not None
    if fixed:
        st.wall[:] = wall
    out = np.zeros(record.players, dtype=RECORD_DTYPE)
    one = np.array([deal, wall_id, dealer, fixed, policy_rotation], np.int64)
    errors = call(st, record.encode(), load_tables(), pid[None], params[None], index[None], seed,
                  deal, 1, LAYOUT_ONE, one, out=out, debug=debug)
    if errors[0]:
        raise RuntimeError(f"invariant broken in deal {deal} of seed {seed} ({record.preset}, "
                           f"{'/'.join(seats)}): {ERROR_TEXT[int(errors[0])]}")
    if st.sc[S_OVERFLOW]:
        raise RuntimeError(f"the event log of deal {deal} overflowed; raise MAX_EVENTS")
    raw = st.events[: st.sc[S_N_EVENTS]].copy()
    events = _events_to_json(raw, seed=seed, deal=deal, rules=record, dealer=dealer,
                             wall=st.wall.copy())
    if not as_frame:
        return events, out
    return events, to_dataframe(out, names, preset=record.preset)


def replay(
    seed: int,
    deal: int,
    rules: str | Rules = "classic",
    policies: str | Sequence[str] = "speed",
    *,
    overrides: Sequence[str] | dict[str, object] = (),
    duplicate: bool = False,
    as_frame: bool = True,
) -> tuple[list[dict[str, Any]], Any]:
    """Events and records of deal ``deal`` of ``seed``, exactly as a batch run plays it.

    With ``duplicate``, ``deal`` is ``players * wall + rotation`` of a duplicate run (``players``
    = ``rules.players``: 4, or 3). The records are
    the public DataFrame, or with ``as_frame=False`` the ``RECORD_DTYPE`` array (no pandas
    import: what ``simcore replay`` uses, as it prints only the events).
    """
    if deal < 0 or seed < 0:
        raise ValueError(f"seed and deal must be >= 0, got seed={seed}, deal={deal}")
    record = resolve_rules(rules, overrides)
    players = record.players
    seats = parse_policies(policies, players)
    check_for_rules(seats, record.suits)
    names = policy_names(seats)  # the run's order, as a batch run's records name them
    if duplicate:
        wall_id, rotation = divmod(deal, players)
        seats = [seats[(s + rotation) % players] for s in range(players)]
        dealer = wall_id % players
    else:
        wall_id, rotation, dealer = deal, 0, deal % players
    return _run_logged(record, seats, seed, deal, wall_id, dealer, None, rotation,
                       as_frame=as_frame, names=names)


def play_wall(
    wall: Sequence[int],
    rules: str | Rules = "classic",
    policies: str | Sequence[str] = "speed",
    *,
    dealer: int = 0,
    seed: int = 0,
    deal: int = 0,
    overrides: Sequence[str] | dict[str, object] = (),
    debug: bool = False,
) -> tuple[list[dict[str, Any]], Any]:
    """Play a given wall (tile types in draw order: 108, or 72 of types 9..26 under
    ``suits = 2``): scripted deals for tests.

    ``debug`` checks the deal's invariants (:func:`.invariants.check_deal`) and raises
    RuntimeError naming the first one broken.
    """
    record = resolve_rules(rules, overrides)
    size = wall_size(record.suits)
    first = first_tile_type(record.suits)
    arr = np.asarray(wall, dtype=np.int64)
    if arr.shape != (size,):
        raise ValueError(f"a wall has {size} tiles with suits = {record.suits}, got {arr.shape}")
    counts = np.bincount(arr.clip(0, 26), minlength=27)
    if arr.min() < first or arr.max() > 26 or (counts[first:] != 4).any():
        raise ValueError(f"a wall must hold each of the tile types {first}..26 exactly four "
                         "times")
    if dealer not in range(record.players):
        raise ValueError(f"dealer must be a seat 0..{record.players - 1}, got {dealer}")
    seats = parse_policies(policies, record.players)
    check_for_rules(seats, record.suits)
    full = np.full(WALL_SIZE, -1, np.int8)
    full[:size] = arr
    return _run_logged(record, seats, seed, deal, deal, dealer, full, debug=debug)


# ----------------------------------------------------------------------------- text log
def _pay_text(payments: list[list[Any]]) -> str:
    return ", ".join(f"S{p}->S{q} {u} ({r})" for p, q, u, r in payments)


def _win_text(ev: dict[str, Any], self_draw_bonus: str, number: int = 1) -> str:
    """A win with everything its fan is made of: pattern, modifiers, roots, bonuses, the cap,
    and what the self-draw adds under the rules' ``self_draw_bonus``; ``number`` > 1 (blood
    river) says which of the seat's wins it is."""
    src = f" from S{ev['from']}" if ev["from"] >= 0 else ""
    parts = [ev["pattern"]] + [m for m in ("flush", "terminals") if ev[m]]
    if ev["roots"]:
        parts.append(f"{ev['roots']} root" + ("s" if ev["roots"] > 1 else ""))
    parts += ev["bonuses"]
    if ev["self_draw"] and self_draw_bonus == "fan":
        parts.append("self-draw")
    fan = f"{ev['fan']} fan"
    if ev["fan_uncapped"] != ev["fan"]:
        fan += f" ({ev['fan_uncapped']} before the cap)"
    units = f"{ev['units']} unit{'s' if ev['units'] != 1 else ''} per payer"
    if ev["self_draw"] and self_draw_bonus == "base":
        units += f" (2^{ev['fan']} + 1 for the self-draw)"
    again = f" AGAIN (win {number})" if number > 1 else ""
    return (f"S{ev['seat']} WINS{again} on {tile_str(ev['tile'])} ({ev['kind']}{src}) with "
            f"{ev['hand']}: {' + '.join(parts)} = {fan}, {units} - {_pay_text(ev['payments'])}")


def _plain_line(ev: dict[str, Any], wins: list[int]) -> str:
    """The line of an event that needs nothing from earlier ones but the wins so far."""
    kind = ev["type"]
    if kind == "draw":
        extra = " (replacement)" if ev["replacement"] else ""
        return f"S{ev['seat']} draws {tile_str(ev['tile'])}{extra}"
    if kind == "discard":
        locked = " (locked hand)" if wins[ev["seat"]] else ""
        return f"S{ev['seat']} discards {tile_str(ev['tile'])}{locked}"
    if kind == "pung":
        return f"S{ev['seat']} pungs {tile_str(ev['tile'])} from S{ev['from']}"
    if kind == "kong":
        src = f" from S{ev['from']}" if ev["from"] >= 0 else ""
        robbed = " - ROBBED" if ev["robbed"] else ""
        pay = f": {_pay_text(ev['payments'])}" if ev["payments"] else ""
        return f"S{ev['seat']} {ev['kind']} kong {tile_str(ev['tile'])}{src}{robbed}{pay}"
    if kind == "pass":
        return f"S{ev['seat']} passes a win on {tile_str(ev['tile'])} ({ev['fan']} fan)"
    return f"end: nets {ev['net']}, {ev['wall_left']} tiles left in the wall"


def render(events: list[dict[str, Any]], steps: bool = False) -> str:
    """A readable log of a replayed deal, tiles in the ``123m456p`` notation; with ``steps``
    each event's first line starts with its step, its index in the events (the deal is 0), as
    :func:`simcore.advice.position.position_at` takes it."""
    lines: list[str] = []
    hands: list[list[int]] = []
    wins = [0, 0, 0, 0]  # wins so far per seat: blood river's winners play on, locked
    width = len(str(len(events) - 1))
    first = 0
    for step, ev in enumerate(events):
        if steps and step:
            _number(lines, first, step - 1, width)
        first = len(lines)
        kind = ev["type"]
        if kind == "deal":
            hands = [list(h) for h in ev["hands"]]
            rules = ev["rules"]
            lines.append(f"deal {ev['deal']} of seed {ev['seed']} - rules {rules['preset']}, "
                         f"dealer S{ev['dealer']}")
            for s, hand in enumerate(ev["hands"]):
                lines.append(f"  S{s} dealt {tiles_str(hand)}")
        elif kind == "exchange":
            given = "; ".join(f"S{s} gives {tiles_str(t)}" for s, t in enumerate(ev["given"]))
            lines.append(f"exchange three ({ev['direction']}): {given}")
            players = len(ev["given"])
            shift = {"next": 1, "previous": players - 1, "across": 2}[ev["direction"]]
            for s, tiles in enumerate(ev["given"]):
                for t in tiles:
                    hands[s].remove(t)
                    hands[(s + shift) % players].append(t)
        elif kind == "void":
            lines.append("void: " + ", ".join(f"S{s} {v}" for s, v in enumerate(ev["suits"])))
            for s, hand in enumerate(hands):
                lines.append(f"  S{s} holds {tiles_str(hand)} (void {ev['suits'][s]})")
        elif kind == "win":
            wins[ev["seat"]] += 1
            lines.append(_win_text(ev, rules["self_draw_bonus"], wins[ev["seat"]]))
        elif kind == "settle":
            among = ""
            if rules.get("blood_river") and any(wins):
                never = [s for s in range(4) if not wins[s]]
                among = f" (among the players who never won: {never or 'none'})"
            lines.append(f"drawn end{among}: pigs {ev['pigs'] or 'none'}, "
                         f"ready {ev['ready'] or 'none'}")
            if ev["payments"]:
                lines.append(f"  settlement: {_pay_text(ev['payments'])}")
        else:
            lines.append(_plain_line(ev, wins))
    if steps and events:
        _number(lines, first, len(events) - 1, width)
    return "\n".join(lines)


def _number(lines: list[str], first: int, step: int, width: int) -> None:
    """Prefix the lines of one event from ``first`` on: its step, then blanks."""
    for i in range(first, len(lines)):
        head = str(step).rjust(width) if i == first else " " * width
        lines[i] = f"{head}  {lines[i]}"

