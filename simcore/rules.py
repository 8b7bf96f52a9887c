"""The rules record: one frozen :class:`Rules` with named presets (docs/rules sections 2-8).

Every rule variant is a field; presets are just values. Kernels receive ``Rules.encode()``, a
numpy record with one ``int32`` field per parameter, read by name (``R.drizzle``); see
docs/ARCHITECTURE.md, "Rules encoding".

>>> rules = get_rules("baike", pig_penalty=4)
>>> rules.fan_cap, rules.pig_penalty, rules.preset
(3, 4, 'baike')
>>> int(rules.encode().pig_penalty)
4
>>> resolve_rules("app", ["fan_cap=4"]).fan_cap
4
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore._input import did_you_mean, unknown_name

# --------------------------------------------------------------------------------------------
# encoding constants (docs/ARCHITECTURE.md): kernels read a rules record by field name
# (``R.drizzle``); enumerations arrive as the position of their value below

PASS_NONE, PASS_SAME_TILE, PASS_UNLESS_HIGHER = 0, 1, 2
DKF_SELF_DRAW, DKF_DISCARD = 0, 1
PAYEES_IN_PLAY, PAYEES_ALL = 0, 1
READY_MAX, READY_MIN = 0, 1
SDB_BASE, SDB_FAN, SDB_NONE = 0, 1, 2
HE_NORMAL, HE_MAX = 0, 1
PIG_FLAT, PIG_WINNER_HAND = 0, 1

OFF = -1  # encoding of None ("off" / "no cap") for optional integers

DEFAULT_PRESET = "classic"

# field kinds; _CHOICE: an integer from a short list (encoded as itself)
_BOOL, _INT, _OPT_INT, _ENUM, _CHOICE = "bool", "int", "int|None", "enum", "int choice"

PLAYER_COUNTS = (4, 3)  # allowed values of ``players`` (docs/rules section 9)
SUIT_COUNTS = (3, 2)  # allowed values of ``suits``


def _param(kind: str, meaning: str, section: str, seeds: str, allowed: tuple[str, ...] = ()) -> Any:
    """A required keyword field whose metadata documents and types the parameter."""
    return field(
        metadata={
            "kind": kind,
            "meaning": meaning,
            "section": section,
            "seeds": seeds,
            "allowed": allowed,
        }
    )


def _added_later(kind: str, meaning: str, default: object, allowed: tuple[object, ...] = (),
                 section: str = "9", seeds: str = "000 names it") -> Any:
    """A parameter added after rules ids and run directories were first written.

    It has a default; a rules record at the default has the id it had before the parameter
    existed (:meth:`Rules.to_dict` leaves it out), and a stored record without it reads as the
    default. Every parameter added from now on is declared this way, whatever its section, so
    that no stored run or experiment arm is refused or replayed because the rule book grew.
    The variants of docs/rules section 9 were the first ones.
    """
    return field(
        default=default,
        metadata={
            "kind": kind,
            "meaning": meaning,
            "section": section,
            "seeds": seeds,
            "allowed": allowed,
            "added_later": True,
        },
    )


# enumeration values in code order: the value's position is its encoded integer
_PASS = ("none", "same_tile", "unless_higher")
_DKF = ("self_draw", "discard")
_PAYEES = ("in_play", "all")
_READY = ("max", "min")
_SDB = ("base", "fan", "none")
_HE = ("normal", "max")
_PIG_PAY = ("flat", "winner_hand")


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One complete set of rule parameters; build it with :func:`get_rules` or
    :func:`resolve_rules`. Frozen and validated: derive variants with :meth:`replace`.
    """

    preset: str = field(
        default="custom",
        compare=True,
        metadata={"meaning": "preset the record was derived from (informational, not in the id)"},
    )
    exchange_three: bool = _param(
        _BOOL, "exchange three tiles of one suit after dealing (换三张)", "2", "004"
    )
    void_first: bool = _param(
        _BOOL, "while holding void-suit tiles, every discard must be one", "2", "all"
    )
    pass_win_rule: str = _param(
        _ENUM,
        "after declining a win, until the next draw: no limit, not the same tile type, "
        "or not unless the win scores more fan (过手胡)",
        "3",
        "001 same_tile, 000 unless_higher",
        _PASS,
    )
    must_win_last_four: bool = _param(
        _BOOL,
        "the last four tiles must be won on: the draws of the fourth-last to the last tile, "
        "discards after the fourth-last was drawn, kongs robbed with them (最后四张必须胡)",
        "3",
        "000",
    )
    added_kong_only_on_draw: bool = _param(
        _BOOL, "an added kong is paid only when made with the tile just drawn", "4", "001"
    )
    drizzle: bool = _param(
        _BOOL, "a direct kong also takes 1 unit from each other player in play (毛毛雨)", "4", "001"
    )
    kong_discard_transfer: bool = _param(
        _BOOL,
        "a discard after a kong that is won on also hands that kong's money to each winner "
        "(呼叫转移)",
        "4",
        "001",
    )
    kong_discard_pays_all: bool = _param(
        _BOOL,
        "a discard after a kong that is won on pays what every other player in play would pay "
        "for a self-drawn win",
        "4",
        "004",
    )
    direct_kong_flower: str = _param(
        _ENUM,
        "kong flower after a direct kong is paid as a self-drawn win, or by the kong tile's "
        "discarder alone",
        "4",
        "001 self_draw, 000 discard",
        _DKF,
    )
    refund_kongs_if_not_ready: bool = _param(
        _BOOL,
        "at a drawn end a player in play who is not ready returns the kong money received (退税)",
        "4, 6",
        "000, 001",
    )
    pig_penalty: int = _param(
        _INT, "base units a flower pig pays each payee at a drawn end (查花猪)", "6", "000-004"
    )
    pig_payees: str = _param(
        _ENUM,
        "who a flower pig pays: non-pig players in play, or every non-pig player",
        "6",
        "000-002 in_play, 004 all",
        _PAYEES,
    )
    pig_pay: str = _param(
        _ENUM,
        "what a flower pig pays: pig_penalty units to each payee (flat), or to every player who "
        "has won the value of that winner's hand, 2^fan (winner_hand)",
        "6",
        "000-002 flat, 004 winner_hand",
        _PIG_PAY,
    )
    pig_pays_ready: bool = _param(
        _BOOL, "flower pigs also pay the ready check (查大叫)", "6", "004"
    )
    ready_pay: str = _param(
        _ENUM,
        "the ready check pays the fan of the best or the worst winning tile",
        "6",
        "000 min, others max",
        _READY,
    )
    dead_wait_counts: bool = _param(
        _BOOL,
        "a hand whose winning tiles are all visible to it still counts as ready (死叫)",
        "6",
        "001",
    )
    self_draw_bonus: str = _param(
        _ENUM,
        "self-draw bonus: +1 base unit per payer after the cap, +1 fan before the cap, or none",
        "7",
        "000, 001, 004 base",
        _SDB,
    )
    heaven_earth: str = _param(
        _ENUM,
        "heavenly/earthly win (天胡/地胡) scored like any hand, or worth exactly max_fan",
        "7",
        "000 normal, 001/004 max",
        _HE,
    )
    max_fan: int | None = _param(
        _OPT_INT, "fan of a heavenly/earthly win when heaven_earth = max", "7", "001, 004"
    )
    fan_cap: int | None = _param(_OPT_INT, "cap on a hand's fan (None: no cap)", "7", "001")
    fan_plain: int = _param(_INT, "fan of the plain pattern (平胡)", "7", "all")
    fan_all_pungs: int = _param(_INT, "fan of all pungs (对对胡)", "7", "all")
    fan_seven_pairs: int = _param(_INT, "fan of seven pairs (七对)", "7", "all")
    fan_golden_hook: int | None = _param(
        _OPT_INT, "fan of golden hook (金钩钓); None: scores as all pungs", "7", "001, 004"
    )
    fan_pungs_258: int | None = _param(
        _OPT_INT, "fan of 258 pungs (将对); None: scores as all pungs", "7", "000-002"
    )
    fan_flush: int = _param(_INT, "fan added for a full flush (清一色)", "7", "all")
    fan_terminals: int | None = _param(
        _OPT_INT, "fan added for terminals (带幺); None: no modifier", "7", "000-002"
    )
    players: int = _added_later(
        _CHOICE,
        "players at the table: 4, or 3 (seats 0..2; the deal ends at 2 winners) (三人)",
        4,
        PLAYER_COUNTS,
    )
    suits: int = _added_later(
        _CHOICE,
        "suits in the tile set: 3, or 2 (dots p and bamboo s only, 72 tiles; no void, no "
        "flower pig) (两房)",
        3,
        SUIT_COUNTS,
    )
    blood_river: bool = _added_later(
        _BOOL,
        "blood river (血流成河): a winner stays in play with a locked hand and may win again; the "
        "deal ends only when the wall is empty",
        False,
        seeds="none (the apps' companion of blood battle)",
    )

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str):
            raise ValueError(f"preset: {self.preset!r} is not a string")
        for f in dataclasses.fields(self):
            if f.name != "preset":
                # ints may arrive as numpy integers; store plain Python values so ids are stable
                object.__setattr__(self, f.name, _validate(f.name, getattr(self, f.name)))
        if self.heaven_earth == "max" and self.max_fan is None:
            raise ValueError(
                "heaven_earth: 'max' requires max_fan to be an integer, got max_fan=None"
            )

    # ---- derivation -------------------------------------------------------------------------

    def replace(self, **overrides: Any) -> Rules:
        """A validated copy with some parameters changed (the preset name is kept).

        >>> get_rules().replace(drizzle=True).drizzle
        True
        """
        for name in overrides:
            _check_name(name)
        return dataclasses.replace(self, **overrides)

    # ---- identity and serialisation ---------------------------------------------------------

    @property
    def id(self) -> str:
        """Stable 12-hex-digit id of the parameters (the preset name is not part of it).

        >>> get_rules("qq").id == get_rules("classic").replace(
        ...     pig_penalty=16, ready_pay="max", must_win_last_four=False).id
        True
        """
        params = {k: v for k, v in self.to_dict().items() if k != "preset"}
        text = json.dumps(params, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def to_dict(self) -> dict[str, object]:
        """All fields, preset first, as JSON-compatible values; a parameter added later (the
        variants of docs/rules section 9 and any parameter after them) only when it is not at its
        default, so that the records, replay logs, run files and ids of the games before it read
        and write as they always did.

        >>> "players" in get_rules().to_dict(), get_rules("two_suit3").to_dict()["players"]
        (False, 3)
        """
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if not (f.name in ADDED_LATER and getattr(self, f.name) == f.default)
        }

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Rules:
        """The record of a complete :meth:`to_dict` mapping (``preset`` optional).

        Unknown or missing parameters are errors.
        """
        if not isinstance(d, Mapping):
            raise ValueError(f"rules must be a mapping of parameters, got {d!r}")
        for name in d:
            if name != "preset":
                _check_name(name)
        missing = [name for name in PARAMETERS if name not in d and name not in ADDED_LATER]
        if missing:
            raise ValueError(f"missing rule parameters: {', '.join(missing)}")
        return cls(**d)  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """The record of :meth:`to_json` text."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"rules JSON is not valid JSON ({exc}): {text[:80]!r}") from exc
        return cls.from_dict(d)

    # ---- kernels ----------------------------------------------------------------------------

    def encode(self) -> np.record:
        """The rules as kernels read them: a numpy record, one ``int32`` field per parameter.

        Booleans are 0/1, enumerations the position of their value (the ``PASS_*``, ``DKF_*``,
        ... constants), None is -1 (``OFF``). Kernels read fields by name (``R.fan_cap``) and
        compile for this one record type. Computed on each call (it is cheap).

        >>> R = get_rules().encode()
        >>> int(R.pass_win_rule) == PASS_UNLESS_HIGHER, int(R.fan_cap), int(R.fan_seven_pairs)
        (True, -1, 2)
        """
        out = np.zeros(1, dtype=RULES_DTYPE)
        for name in PARAMETERS:
            value = getattr(self, name)
            kind = _FIELDS[name].metadata["kind"]
            if kind == _ENUM:
                out[name] = _FIELDS[name].metadata["allowed"].index(value)
            elif value is None:
                out[name] = OFF
            else:
                out[name] = int(value)
        return out.view(np.recarray)[0]  # a np.record: fields read as attributes in Python too


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
PARAMETERS: tuple[str, ...] = tuple(name for name in _FIELDS if name != "preset")
# the parameters added later: optional in stored records, left out of the id at their defaults,
# so that every record and run directory written before them keeps its id
ADDED_LATER: tuple[str, ...] = tuple(
    n for n in PARAMETERS if _FIELDS[n].metadata.get("added_later"))
# the variants (docs/rules section 9): the added-later parameters of that section
VARIANTS: tuple[str, ...] = tuple(n for n in ADDED_LATER if _FIELDS[n].metadata["section"] == "9")
RULES_DTYPE = np.dtype([(name, np.int32) for name in PARAMETERS], align=True)


# --------------------------------------------------------------------------------------------
# validation and conversion


def _check_name(name: str) -> None:
    """ValueError naming ``name`` (with close matches) unless it is a rule parameter."""
    if name in _FIELDS and name != "preset":
        return
    if name == "preset":
        raise ValueError(
            "preset is not a rule parameter; start from a preset with get_rules(preset) instead"
        )
    raise ValueError(unknown_name("rule parameter", name, PARAMETERS, known_as="parameters",
                                  n=3))


def _is_int(value: object) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _validate(name: str, value: object) -> object:
    """``value`` checked against the type of parameter ``name`` (ints as plain ``int``)."""
    meta = _FIELDS[name].metadata
    kind = meta["kind"]
    if kind == _BOOL:
        if not isinstance(value, bool | np.bool_):
            raise ValueError(f"{name}: {value!r} is not a boolean (True or False)")
        return bool(value)
    if kind == _ENUM:
        allowed = meta["allowed"]
        if not isinstance(value, str) or value not in allowed:
            raise ValueError(
                f"{name}: {value!r} is not one of {', '.join(repr(a) for a in allowed)}"
                + did_you_mean(value, allowed)
            )
        return value
    if kind == _CHOICE:
        allowed = meta["allowed"]
        if not _is_int(value) or value not in allowed:
            raise ValueError(
                f"{name}: {value!r} is not one of {', '.join(str(a) for a in allowed)}"
            )
        return int(value)  # type: ignore[call-overload]
    if value is None and kind == _OPT_INT:
        return None
    if not _is_int(value):
        what = "an integer >= 0 or None" if kind == _OPT_INT else "an integer >= 0"
        raise ValueError(f"{name}: {value!r} is not {what}")
    if value < 0:  # type: ignore[operator]
        raise ValueError(f"{name}: {value!r} is negative; it must be >= 0")
    return int(value)  # type: ignore[call-overload]


_TRUE = ("on", "true", "1", "yes")
_FALSE = ("off", "false", "0", "no")
_NONE = ("none", "off", "null")


def _convert(name: str, text: str) -> object:
    """The value of parameter ``name`` written as ``text`` (CLI and JSON convenience)."""
    kind = _FIELDS[name].metadata["kind"]
    word = text.strip()
    low = word.lower()
    if kind == _BOOL:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"{name}: {text!r} is not a boolean (on/off, true/false, 1/0, yes/no)"
                         + did_you_mean(low, _TRUE + _FALSE))
    if kind == _ENUM:
        return word  # validated by the record, which lists the allowed values
    if kind == _OPT_INT and low in _NONE:
        return None
    try:
        return int(word)
    except ValueError:
        what = "an integer or none/off/null" if kind == _OPT_INT else "an integer"
        raise ValueError(f"{name}: {text!r} is not {what}") from None


def parse_override(text: str) -> tuple[str, object]:
    """Split and convert a CLI ``NAME=VALUE`` override (the value is validated when applied).

    >>> parse_override("drizzle=on"), parse_override("fan_cap=none")
    (('drizzle', True), ('fan_cap', None))
    >>> parse_override("pig_penalty=8")
    ('pig_penalty', 8)
    """
    if not isinstance(text, str) or "=" not in text:
        raise ValueError(f"override {text!r} is not of the form NAME=VALUE")
    name, _, value = text.partition("=")
    name = name.strip()
    _check_name(name)
    return name, _convert(name, value)


# --------------------------------------------------------------------------------------------
# presets


def _preset(name: str, **values: object) -> Rules:
    common = {"void_first": True, "drizzle": False, "dead_wait_counts": True, "pig_pay": "flat"}
    common.update({"self_draw_bonus": "base", "fan_plain": 0, "fan_all_pungs": 1})
    return Rules(preset=name, **(common | values))  # type: ignore[arg-type]


PRESETS: dict[str, Rules] = {
    "classic": _preset(
        "classic",
        exchange_three=False,
        pass_win_rule="unless_higher",
        must_win_last_four=True,
        added_kong_only_on_draw=False,
        kong_discard_transfer=False,
        kong_discard_pays_all=False,
        direct_kong_flower="discard",
        refund_kongs_if_not_ready=True,
        pig_penalty=10,
        pig_payees="in_play",
        pig_pays_ready=False,
        ready_pay="min",
        heaven_earth="normal",
        max_fan=None,
        fan_cap=None,
        fan_seven_pairs=2,
        fan_golden_hook=None,
        fan_pungs_258=2,
        fan_flush=2,
        fan_terminals=2,
    ),
    "baike": _preset(
        "baike",
        exchange_three=False,
        pass_win_rule="same_tile",
        must_win_last_four=True,
        added_kong_only_on_draw=True,
        kong_discard_transfer=True,
        kong_discard_pays_all=False,
        direct_kong_flower="self_draw",
        refund_kongs_if_not_ready=True,
        pig_penalty=8,
        pig_payees="in_play",
        pig_pays_ready=False,
        ready_pay="max",
        heaven_earth="max",
        max_fan=3,
        fan_cap=3,
        fan_seven_pairs=2,
        fan_golden_hook=2,
        fan_pungs_258=4,
        fan_flush=2,
        fan_terminals=2,
    ),
    "qq": _preset(
        "qq",
        exchange_three=False,
        pass_win_rule="unless_higher",
        must_win_last_four=False,
        added_kong_only_on_draw=False,
        kong_discard_transfer=False,
        kong_discard_pays_all=False,
        direct_kong_flower="discard",
        refund_kongs_if_not_ready=True,
        pig_penalty=16,
        pig_payees="in_play",
        pig_pays_ready=False,
        ready_pay="max",
        heaven_earth="normal",
        max_fan=None,
        fan_cap=None,
        fan_seven_pairs=2,
        fan_golden_hook=None,
        fan_pungs_258=2,
        fan_flush=2,
        fan_terminals=2,
    ),
    "app": _preset(
        "app",
        exchange_three=True,
        pass_win_rule="none",
        must_win_last_four=False,
        added_kong_only_on_draw=False,
        kong_discard_transfer=False,
        kong_discard_pays_all=True,
        direct_kong_flower="self_draw",
        refund_kongs_if_not_ready=False,
        pig_penalty=16,
        pig_payees="all",
        pig_pay="winner_hand",
        pig_pays_ready=True,
        ready_pay="max",
        heaven_earth="max",
        max_fan=5,
        fan_cap=None,
        fan_seven_pairs=1,
        fan_golden_hook=2,
        fan_pungs_258=None,
        fan_flush=1,
        fan_terminals=None,
    ),
    "tfmj": _preset(
        "tfmj",
        exchange_three=False,
        pass_win_rule="unless_higher",
        must_win_last_four=False,
        added_kong_only_on_draw=False,
        kong_discard_transfer=True,
        kong_discard_pays_all=False,
        direct_kong_flower="self_draw",
        refund_kongs_if_not_ready=True,
        pig_penalty=0,
        pig_payees="in_play",
        pig_pays_ready=True,
        ready_pay="max",
        heaven_earth="normal",
        max_fan=3,
        fan_cap=3,
        fan_seven_pairs=2,
        fan_golden_hook=2,
        fan_pungs_258=None,
        fan_flush=2,
        fan_terminals=None,
    ),
}


# the variants of docs/rules section 9: classic with fewer players or suits, or blood river
PRESETS["two_suit3"] = dataclasses.replace(PRESETS["classic"], preset="two_suit3", players=3,
                                           suits=2)  # 三人两房
PRESETS["two_suit4"] = dataclasses.replace(PRESETS["classic"], preset="two_suit4", suits=2)
# 四人两房
PRESETS["river"] = dataclasses.replace(PRESETS["classic"], preset="river", blood_river=True)
# 血流成河


def get_rules(preset: str = DEFAULT_PRESET, **overrides: object) -> Rules:
    """The rules of a named preset, with some parameters changed.

    >>> get_rules().preset, get_rules("app").exchange_three
    ('classic', True)
    """
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ValueError(unknown_name("preset", preset, PRESETS))
    return PRESETS[preset].replace(**overrides)


def resolve_rules(
    rules: str | Rules | Mapping[str, object] | None = None,
    overrides: Mapping[str, object] | Sequence[str] = (),
) -> Rules:
    """The one entry point for every command and API: a base plus overrides.

    ``rules``: None (the default preset), a preset name, a :class:`Rules`, or a JSON mapping —
    complete (as written by :meth:`Rules.to_dict`) or partial (its ``preset``, default
    ``classic``, plus the parameters it names). ``overrides``: a mapping of parameter values
    (strings are converted as on the command line, so ``{"drizzle": "on"}`` works) or a list of
    ``"NAME=VALUE"`` strings.

    >>> resolve_rules(None, {"fan_cap": "4"}).fan_cap
    4
    >>> resolve_rules({"preset": "tfmj", "pig_penalty": 2}).pig_penalty
    2
    """
    if rules is None:
        base = PRESETS[DEFAULT_PRESET]
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, str):
        base = get_rules(rules)
    elif isinstance(rules, Mapping):
        if all(name in rules for name in PARAMETERS if name not in ADDED_LATER):
            base = Rules.from_dict(rules)
        else:
            params = {k: v for k, v in rules.items() if k != "preset"}
            base = get_rules(rules.get("preset", DEFAULT_PRESET), **params)  # type: ignore[arg-type]
    else:
        raise ValueError(
            f"rules must be a preset name, a Rules record, a mapping or None, got {rules!r}"
        )
    changes: dict[str, object] = {}
    if isinstance(overrides, Mapping):
        for name, value in overrides.items():
            _check_name(name)
            changes[name] = _convert(name, value) if isinstance(value, str) else value
    elif isinstance(overrides, str):
        # a bare string would otherwise be split into characters
        raise ValueError(f"overrides must be a list of NAME=VALUE strings, got {overrides!r}")
    else:
        for text in overrides:
            name, value = parse_override(text)
            changes[name] = value
    return base.replace(**changes) if changes else base


def describe_parameters() -> list[dict[str, object]]:
    """One dict per parameter (name, type, allowed, default, meaning, section, seeds) for help.

    >>> describe_parameters()[2]["allowed"]
    ['none', 'same_tile', 'unless_higher']
    """
    default = PRESETS[DEFAULT_PRESET]
    out = []
    for name in PARAMETERS:
        meta = _FIELDS[name].metadata
        kind = meta["kind"]
        allowed: list[object]
        if kind == _ENUM:
            allowed = list(meta["allowed"])
        elif kind == _BOOL:
            allowed = [True, False]
        elif kind == _CHOICE:
            allowed = list(meta["allowed"])
        elif kind == _OPT_INT:
            allowed = ["integer >= 0", None]
        else:
            allowed = ["integer >= 0"]
        out.append(
            {
                "name": name,
                "type": "str" if kind == _ENUM else ("int" if kind == _CHOICE else kind),
                "allowed": allowed,
                "default": getattr(default, name),
                "meaning": meta["meaning"],
                "section": meta["section"],
                "seeds": meta["seeds"],
            }
        )
    return out
