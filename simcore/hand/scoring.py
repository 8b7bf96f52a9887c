"""Score a hand (docs/rules section 7): the Python API over the :mod:`simcore.hand.scoring_kernels`
kernels.

>>> r = score("111444222999m66m")
>>> r.win, r.pattern, r.flush, r.fan, r.units
(True, 'all_pungs', True, 3, 8)
>>> score("123456789m123m99m", "app", self_draw=True).units
3
>>> r = score("11123456789999m", "baike", bonuses=["last_tile"])
>>> r.pattern, r.flush, r.roots, r.fan_uncapped, r.fan, r.units
('plain', True, 1, 4, 3, 8)
>>> score("123456789m1p23p5p").to_dict()
{'win': False, 'shanten': 0, 'waits': ['5p']}
>>> ready_value("1112345678999m", "baike")
8
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore._input import unknown_name
from simcore.hand import scoring_kernels as _scoring
from simcore.rules import PRESETS, Rules, resolve_rules
from simcore.tiles import (
    SUITS,
    Hand,
    check_tile_set,
    format,
    hand_tiles,
    melds_to_arrays,
    parse,
    tile_str,
)

BONUS_NAMES = _scoring.BONUS_NAMES
PATTERN_NAMES = _scoring.PATTERN_NAMES

PATTERN_LABELS = {
    "plain": ("平胡", "plain"),
    "all_pungs": ("对对胡", "all pungs"),
    "seven_pairs": ("七对", "seven pairs"),
    "golden_hook": ("金钩钓", "golden hook"),
    "pungs_258": ("将对", "258 pungs"),
}
BONUS_LABELS = {
    "kong_flower": ("杠上花", "kong flower"),
    "kong_discard": ("杠上炮", "kong discard"),
    "robbed_kong": ("抢杠", "robbing a kong"),
    "last_tile": ("海底", "last tile"),
}
HEAVEN_EARTH = "heaven_earth"  # listed among a result's bonuses when given


@dataclass(frozen=True)
class ScoreResult:
    """The score of a hand, or why it does not win.

    For a winning hand: ``fan`` (capped; exactly ``max_fan`` for a heavenly/earthly win under
    ``heaven_earth = max``), ``fan_uncapped``, ``pattern`` (a :data:`PATTERN_NAMES` name),
    ``flush``, ``terminals``, ``roots``, ``bonuses`` (the situational bonuses, plus
    ``"heaven_earth"`` when given) and ``units``, what each payer pays (``2**fan`` plus the
    self-draw base unit). For a hand that does not win: ``shanten`` and, for a waiting hand
    (13 - 3k concealed tiles), ``waits`` in notation. :meth:`to_dict` gives the JSON object of
    ``simcore score --json``.
    """

    win: bool
    hand: str
    rules: Rules = field(repr=False)
    void: int = -1
    self_draw: bool = False
    fan: int | None = None
    fan_uncapped: int | None = None
    pattern: str | None = None
    flush: bool | None = None
    terminals: bool | None = None
    roots: int | None = None
    bonuses: tuple[str, ...] = ()
    units: int | None = None
    shanten: int | None = None
    waits: tuple[str, ...] | None = None
    ready_units: int | None = None  # ready-check value of a waiting hand (not in the JSON)

    def to_dict(self) -> dict[str, object]:
        """The JSON object of the ``simcore score --json`` contract."""
        if self.win:
            return {
                "win": True,
                "fan": self.fan,
                "fan_uncapped": self.fan_uncapped,
                "pattern": self.pattern,
                "flush": self.flush,
                "terminals": self.terminals,
                "roots": self.roots,
                "bonuses": list(self.bonuses),
                "units": self.units,
            }
        out: dict[str, object] = {"win": False, "shanten": self.shanten}
        if self.waits is not None:
            out["waits"] = list(self.waits)
        return out

    def describe(self) -> str:
        """Readable lines: pattern in Chinese and English, modifiers, roots, bonuses, fan, units."""
        rules = self.rules
        void = SUITS[self.void] if self.void >= 0 else "none"
        lines = [f"hand:      {self.hand}", f"rules:     {_rules_label(rules)} (void: {void})"]
        if not self.win:
            lines.append(f"no win:    shanten {self.shanten}")
            if self.waits is not None:
                lines.append(f"waits:     {' '.join(self.waits) if self.waits else 'none'}")
            if self.ready_units:
                lines.append(
                    f"ready:     查大叫 ready check pays {self.ready_units} units "
                    f"(ready_pay={rules.ready_pay})"
                )
            return "\n".join(lines)
        assert self.pattern is not None and self.roots is not None
        zh, en = PATTERN_LABELS[self.pattern]
        if self.pattern == "seven_pairs" and self.roots:
            zh = "龙七对"  # seven pairs with a four-of-a-kind: dragon seven pairs
        lines.append(f"pattern:   {zh} {en} ({_signed(_pattern_fan(rules, self.pattern))} fan)")
        mods = []
        if self.flush:
            mods.append(f"清一色 full flush ({_signed(rules.fan_flush)} fan)")
        if self.terminals:
            mods.append(f"带幺 terminals ({_signed(rules.fan_terminals or 0)} fan)")
        lines.append(f"modifiers: {', '.join(mods) if mods else 'none'}")
        lines.append(f"roots:     根 {self.roots} ({_signed(self.roots)} fan)")
        bonuses = [
            f"{BONUS_LABELS[b][0]} {BONUS_LABELS[b][1]} (+1 fan)"
            for b in self.bonuses
            if b in BONUS_LABELS
        ]
        if self.self_draw:
            bonuses.append(
                {
                    "base": "自摸 self-draw (+1 base unit from each payer)",
                    "fan": "自摸 self-draw (+1 fan)",
                    "none": "自摸 self-draw (no bonus)",
                }[rules.self_draw_bonus]
            )
        he = HEAVEN_EARTH in self.bonuses
        if he:
            bonuses.append(
                f"天胡/地胡 heavenly/earthly win (worth exactly max_fan = {rules.max_fan} fan)"
                if rules.heaven_earth == "max"
                else "天胡/地胡 heavenly/earthly win (scored like any hand)"
            )
        lines.append(f"bonuses:   {', '.join(bonuses) if bonuses else 'none'}")
        cap = "no cap" if rules.fan_cap is None else f"cap {rules.fan_cap}"
        if he and rules.heaven_earth == "max":
            cap = "max_fan, not capped"
        lines.append(f"fan:       {self.fan} (uncapped {self.fan_uncapped}, {cap})")
        base = 1 if self.self_draw and rules.self_draw_bonus == "base" else 0
        detail = f"2^{self.fan}" + (" + 1 self-draw base unit" if base else "")
        payers = "each other player in play pays" if self.self_draw else "the discarder pays"
        lines.append(f"units:     {self.units} per payer ({detail}; {payers})")
        return "\n".join(lines)


def _rules_label(rules: Rules) -> str:
    """The preset name and the parameters changed from it, e.g. ``classic, fan_cap=3``."""
    base = PRESETS.get(rules.preset)
    if base is None:
        return rules.preset
    changed = [
        f"{name}={'none' if value is None else value}"
        for name, value in rules.to_dict().items()
        if getattr(base, name) != value
    ]
    return ", ".join([rules.preset, *changed])


def _signed(x: int) -> str:
    return f"+{x}" if x >= 0 else str(x)


def _pattern_fan(rules: Rules, pattern: str) -> int:
    value = getattr(rules, f"fan_{pattern}")
    return rules.fan_all_pungs if value is None else int(value)


# --------------------------------------------------------------------------------------------
# input checks


def _check_hand(hand: str | Hand) -> Hand:
    """``hand`` parsed (notation) or re-validated (a :class:`Hand`)."""
    if isinstance(hand, str):
        return parse(hand)
    if isinstance(hand, tuple) and len(hand) == 2:
        counts, melds = hand
        return parse(format(counts, melds))  # validates counts, melds, copies and size
    raise ValueError(f"hand must be notation like '123m456p77s|P5s' or a Hand, got {hand!r}")


def _suits_held(hand: Hand) -> list[int]:
    counts, melds = hand
    held = {t // 9 for t in np.flatnonzero(counts)} | {m.tile // 9 for m in melds}
    return sorted(int(s) for s in held)


def _check_tile_set(hand: Hand, text: str, rules: Rules, void: int | str | None) -> None:
    """With two suits (docs/rules section 9): a hand naming an ``m`` tile is an error naming the
    tile, and so is a void (none is declared)."""
    if rules.suits == 3:
        return
    check_tile_set(hand_tiles(hand), rules.suits, f"hand {text!r}")
    if void is not None:
        raise ValueError(f"void: {void!r} given, but with suits = {rules.suits} no void is "
                         "declared")


def _check_void(void: int | str | None, hand: Hand, text: str) -> int:
    """The void suit as 0..2: given (index or letter) or the first suit the hand lacks (with two
    suits: m, the absent suit, so that no tile of the hand is void)."""
    held = _suits_held(hand)
    if len(held) == 3:
        raise ValueError(f"hand {text!r} holds tiles of all three suits and cannot win")
    if void is None:
        lacking = [s for s in range(3) if s not in held]
        return lacking[0]
    if isinstance(void, str) and len(void) == 1 and void in SUITS:
        v = SUITS.index(void)
    elif not isinstance(void, bool) and isinstance(void, int | np.integer) and 0 <= void <= 2:
        v = int(void)
    else:
        raise ValueError(f"void: {void!r} is not a suit (m, p, s or 0, 1, 2)")
    if v in held:
        raise ValueError(f"hand {text!r} holds tiles of its void suit {SUITS[v]!r} and cannot win")
    return v


def _check_bonuses(bonuses: Iterable[str], self_draw: bool, rules: Rules) -> tuple[str, ...]:
    if isinstance(bonuses, str):
        raise ValueError(f"bonuses must be a list of names, got the string {bonuses!r}")
    given = list(bonuses)
    for b in given:
        if b not in BONUS_NAMES:
            raise ValueError(unknown_name("bonus", b, BONUS_NAMES, known_as="bonuses"))
        if given.count(b) > 1:
            raise ValueError(f"bonus {b!r} given more than once")
    if self_draw:
        for b in ("kong_discard", "robbed_kong"):
            if b in given:
                raise ValueError(f"bonus {b!r} is a win on a discard, not a self-drawn win")
    elif "kong_flower" in given and rules.direct_kong_flower == "self_draw":
        raise ValueError(
            "bonus 'kong_flower' is a self-drawn win under direct_kong_flower='self_draw'; "
            "add self-draw"
        )
    if "kong_flower" in given:
        for b in ("kong_discard", "robbed_kong"):
            if b in given:
                raise ValueError(f"bonuses 'kong_flower' and {b!r} cannot happen together")
    return tuple(b for b in BONUS_NAMES if b in given)  # canonical order


# --------------------------------------------------------------------------------------------
# API


def score(
    hand: str | Hand,
    rules: str | Rules | Mapping[str, object] | None = "classic",
    *,
    self_draw: bool = False,
    bonuses: Iterable[str] = (),
    void: int | str | None = None,
    heaven_earth: bool = False,
    overrides: Mapping[str, object] | Sequence[str] = (),
) -> ScoreResult:
    """Score ``hand`` (notation with the winning tile, or a :class:`simcore.tiles.Hand`).

    ``rules``: a preset name, a :class:`Rules` or a mapping, changed by ``overrides``
    (``"NAME=VALUE"`` strings or a mapping). ``bonuses``: names from :data:`BONUS_NAMES`.
    ``void``: the void suit (``"m"``/``"p"``/``"s"`` or 0..2); default: the first suit the hand
    lacks. ``heaven_earth``: a heavenly or earthly win. A hand of 13 - 3k tiles, or one that is
    not complete, gives ``win=False`` with its shanten (and waits when 13 - 3k). A hand with
    tiles of three suits or of the void suit is a ValueError: it can never win.
    """
    text = hand if isinstance(hand, str) else "<Hand>"
    h = _check_hand(hand)
    text = format(h)
    r = resolve_rules(rules, overrides)
    _check_tile_set(h, text, r, void)
    v = _check_void(void, h, text)
    if not isinstance(self_draw, bool | np.bool_):
        raise ValueError(f"self_draw must be True or False, got {self_draw!r}")
    if not isinstance(heaven_earth, bool | np.bool_):
        raise ValueError(f"heaven_earth must be True or False, got {heaven_earth!r}")
    names = _check_bonuses(bonuses, bool(self_draw), r)
    counts, melds = h
    kind, tile, n = melds_to_arrays(melds)
    n_concealed = int(counts.sum())
    common: dict[str, Any] = {"hand": text, "rules": r, "void": v if r.suits == 3 else -1,
              "self_draw": bool(self_draw)}
    if n_concealed == 14 - 3 * n:
        flags = sum(_scoring.BONUS_FLAGS[BONUS_NAMES.index(b)] for b in names)
        if heaven_earth:
            flags |= _scoring.B_HEAVEN_EARTH
        fan, fan_uncapped, pattern, flush, terminals, roots, units = _scoring.score_hand(
            counts, kind, tile, n, v, bool(self_draw), flags, r.encode()
        )
        if pattern != _scoring.PAT_NONE:
            if fan_uncapped > 62:
                raise ValueError(f"the hand scores {fan_uncapped} fan; at most 62 are supported")
            return ScoreResult(
                win=True,
                fan=int(fan),
                fan_uncapped=int(fan_uncapped),
                pattern=PATTERN_NAMES[pattern],
                flush=bool(flush),
                terminals=bool(terminals),
                roots=int(roots),
                bonuses=names + ((HEAVEN_EARTH,) if heaven_earth else ()),
                units=int(units),
                **common,
            )
    from simcore import hand as hand_api  # the hand evaluator (imported on first use)

    sh = int(hand_api.shanten(h, void=v))
    waits = ready = None
    if n_concealed == 13 - 3 * n:
        waits = tuple(tile_str(int(t)) for t in hand_api.waits(h, v))
        ready = int(_scoring.ready_value(counts.copy(), kind, tile, n, v, r.encode()))
    return ScoreResult(win=False, shanten=sh, waits=waits, ready_units=ready, **common)


def ready_value(
    hand: str | Hand,
    rules: str | Rules | Mapping[str, object] | None = "classic",
    void: int | str | None = None,
    *,
    overrides: Mapping[str, object] | Sequence[str] = (),
) -> int:
    """Units the ready check pays for a waiting hand (13 - 3k concealed tiles): its best or
    worst winning tile (``ready_pay``) as a win on a discard, no bonus, capped; 0 if not ready.

    >>> ready_value("1112345678999m", "app"), ready_value("1112345678999m", "classic")
    (4, 4)
    """
    h = _check_hand(hand)
    text = format(h)
    r = resolve_rules(rules, overrides)
    _check_tile_set(h, text, r, void)
    v = _check_void(void, h, text)
    counts, melds = h
    kind, tile, n = melds_to_arrays(melds)
    if int(counts.sum()) != 13 - 3 * n:
        raise ValueError(
            f"hand {text!r} has {int(counts.sum())} concealed tiles with {n} melds; "
            f"a waiting hand has {13 - 3 * n}"
        )
    return int(_scoring.ready_value(counts.copy(), kind, tile, n, v, r.encode()))
