"""Policy specs: the grammar shared by the command line and the Python API.

``speed``, ``flush:k=8,g=12``, ``pungs:k=4,kong=never``; one spec for all seats or four separated
by ``/`` (``flush:k=8/speed/speed/speed``). Boolean options take 0/1. A spec becomes a policy id
and a float parameter vector that the jitted policies read through the ``O_*`` indices.

Policies: ``random``, ``speed`` (the greedy baseline), ``flush:k,g``, ``pungs:k``, ``pairs:k``;
every policy but ``random`` takes the common options ``kong``, ``min_fan``, ``until``,
``exchange``, ``void``, ``watch`` and ``ukeire``. ``describe_policies()`` (``simcore policies``)
lists them with their meanings and defaults.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported by policy_arrays only: `simcore policies` never needs it
    import numpy as np

N_PARAMS = 16

# Parameter slots shared by every policy (options of every policy) ...
O_KONG = 0  # KONG_* below
O_MIN_FAN = 1  # decline wins worth less than this many fan ...
O_UNTIL = 2  # ... while more than this many tiles remain in the wall
O_EXCHANGE = 3  # EXCH_* below
O_VOID = 4  # VOID_* below
O_WATCH = 5  # 1: avoid discarding into an opponent's apparent flush
O_UKEIRE = 6  # 1: break shanten ties by the count of useful unseen tiles
# ... and slots a policy may use for its own parameters.
O_K = 8
O_G = 9

KONG_ALWAYS, KONG_NEVER, KONG_KEEP_SHAPE, KONG_PUNG_THEN_ADD = 0, 1, 2, 3
EXCH_SHORTEST, EXCH_RANDOM, EXCH_KEEP_LONG = 0, 1, 2
VOID_FEWEST, VOID_WEAKEST = 0, 1
VOID_FIXED = 2  # void=m|p|s: VOID_FIXED + the suit


@dataclass(frozen=True)
class Option:
    name: str
    slot: int
    default: float
    meaning: str
    choices: tuple[str, ...] = ()  # named values, stored as their index
    kind: str = "int"  # "int", "bool" or "choice"


@dataclass(frozen=True)
class PolicyDef:
    name: str
    pid: int
    meaning: str
    options: tuple[Option, ...] = field(default_factory=tuple)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        if not self.options:
            raise ValueError(f"policy '{self.name}' takes no options (got '{name}')")
        known = [o.name for o in self.options]
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f"; options: {', '.join(known)}"
        raise ValueError(f"policy '{self.name}' has no option '{name}'{hint}")


COMMON_OPTIONS = (
    Option("kong", O_KONG, KONG_KEEP_SHAPE,
           "when to kong a tile the plan may meld: always; never; keep_shape (only when neither "
           "the shanten nor the number of useful unseen tiles gets worse); pung_then_add (with "
           "three in hand pung a discard instead of konging it, then add the kong on a later "
           "own turn; other kongs as keep_shape)",
           ("always", "never", "keep_shape", "pung_then_add"), "choice"),
    Option("min_fan", O_MIN_FAN, 0,
           "decline wins worth less than this many fan (uncapped) ... (a win forced by "
           "must-win-last-four is always taken; the passed-win rule applies to a declined one)"),
    Option("until", O_UNTIL, 0, "... while more than this many tiles remain in the wall"),
    Option("exchange", O_EXCHANGE, EXCH_SHORTEST,
           "exchange three: shortest (the three least useful tiles of the shortest suit holding "
           "three), random (three random tiles of a random suit holding three), keep_long "
           "(never the longest suit: the other suit whose three least useful tiles leave the "
           "lowest shanten)",
           ("shortest", "random", "keep_long"), "choice"),
    Option("void", O_VOID, VOID_FEWEST,
           "void choice: fewest (the suit with fewest tiles, ties by lower shanten), weakest "
           "(the suit whose removal leaves the lowest shanten, ties by fewer tiles), or m, p, s "
           "(always that suit: a forced void, for what-if studies)",
           ("fewest", "weakest", "m", "p", "s"), "choice"),
    Option("watch", O_WATCH, 0,
           "1: when an opponent still in play shows two or more exposed melds, all of one suit "
           "(an apparent flush), prefer a discard of another suit among those of equal shanten",
           kind="bool"),
    Option("ukeire", O_UKEIRE, 1,
           "1: break shanten ties by the number of useful unseen tiles", kind="bool"),
)

POLICY_RANDOM = 0
POLICY_SPEED = 1
POLICY_FLUSH = 2
POLICY_PUNGS = 3
POLICY_PAIRS = 4

REGISTRY: dict[str, PolicyDef] = {}


def register(policy: PolicyDef) -> PolicyDef:
    """Add a policy to the registry (a policy module calls this at import)."""
    if policy.name in REGISTRY:
        raise ValueError(f"policy '{policy.name}' is registered twice")
    REGISTRY[policy.name] = policy
    return policy


register(PolicyDef("random", POLICY_RANDOM,
                   "a uniformly random legal action at every decision (void-suit tiles first "
                   "when void_first); it has no options"))
register(PolicyDef("speed", POLICY_SPEED,
                   "greedy: win whenever possible; discard the tile that minimises shanten, ties "
                   "by the most useful unseen tiles, then outer ranks first; pung only when "
                   "shanten does not grow; void-suit tiles first (the one held fewest times)",
                   COMMON_OPTIONS))
register(PolicyDef("flush", POLICY_FLUSH,
                   "full flush: when, after the exchange and the void, the longest non-void suit "
                   "holds at least k tiles, discard the other suits first, keep that suit's "
                   "tiles (shanten of the suit alone), pung or kong only that suit; falls back "
                   "to speed when the flush is out of reach (no unseen tile brings it closer) or "
                   "fewer than g tiles remain; plays speed from the start if the suit is short",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 8, "play for the flush when the longest non-void suit "
                           "holds at least k tiles after the exchange and the void"),
                    Option("g", O_G, 12, "give the flush up when fewer than g tiles remain in "
                           "the wall"))))
register(PolicyDef("pungs", POLICY_PUNGS,
                   "all pungs (对对胡): when, after the exchange and the void, at least k tile "
                   "types are held twice or more, keep pairs and triplets (distance to four "
                   "triplets and a pair, live copies only), pung every discard allowed; speed "
                   "otherwise",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 4, "play for all pungs when holding at least k pairs or "
                           "triplets of non-void suits after the exchange and the void"))))
register(PolicyDef("pairs", POLICY_PAIRS,
                   "seven pairs (七对): when, after the exchange and the void, at least k pairs "
                   "are held (four of a kind is two), keep pairs and live singles, never pung or "
                   "kong (the kong option applies only when the hand plays speed); speed "
                   "otherwise",
                   (*COMMON_OPTIONS,
                    Option("k", O_K, 5, "play for seven pairs when holding at least k pairs of "
                           "non-void suits after the exchange and the void"))))


@dataclass(frozen=True)
class PolicySpec:
    """One parsed spec: its canonical text, policy id and parameter vector."""

    text: str
    policy: PolicyDef
    params: tuple[float, ...]


def _parse_value(policy: PolicyDef, opt: Option, text: str) -> float:
    where = f"option '{opt.name}' of policy '{policy.name}'"
    if opt.kind == "choice":
        if text in opt.choices:
            return float(opt.choices.index(text))
        raise ValueError(f"{where}: '{text}' is not one of {', '.join(opt.choices)}")
    if opt.kind == "bool":
        if text in ("0", "1"):
            return float(text)
        raise ValueError(f"{where}: '{text}' is not 0 or 1")
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{where}: '{text}' is not an integer") from None
    if value < 0:
        raise ValueError(f"{where}: '{text}' is negative")
    return float(value)


def _format_value(opt: Option, value: float) -> str:
    if opt.kind == "choice":
        return opt.choices[int(value)]
    return str(int(value))


def parse_spec(text: str) -> PolicySpec:
    """Parse one seat's spec like ``flush:k=8,g=12`` (options left out keep their default)."""
    raw = text.strip()
    name, _, rest = raw.partition(":")
    name = name.strip()
    if not name:
        raise ValueError(
            f"empty policy spec '{text}': expected NAME[:OPTION=VALUE,...] "
            f"(policies: {', '.join(REGISTRY)})"
        )
    if name not in REGISTRY:
        close = difflib.get_close_matches(name, list(REGISTRY), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise ValueError(
            f"unknown policy '{name}' in spec '{text}'{hint} (known: {', '.join(REGISTRY)})"
        )
    policy = REGISTRY[name]
    params = [0.0] * N_PARAMS
    for opt in policy.options:
        params[opt.slot] = opt.default
    given: dict[str, float] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise ValueError(f"malformed option '{item}' in spec '{text}': expected NAME=VALUE")
            opt = policy.option(key)
            if key in given:
                raise ValueError(f"option '{key}' given twice in spec '{text}'")
            given[key] = _parse_value(policy, opt, value)
            params[opt.slot] = given[key]
    elif _:
        raise ValueError(f"spec '{text}' has ':' but no options after it")
    # canonical text: options that differ from their default, in declaration order
    parts = [
        f"{o.name}={_format_value(o, params[o.slot])}"
        for o in policy.options
        if params[o.slot] != o.default
    ]
    canonical = name + (":" + ",".join(parts) if parts else "")
    return PolicySpec(canonical, policy, tuple(float(x) for x in params))


def parse_policies(spec: str | Sequence[str]) -> list[str]:
    """One spec for all seats or four separated by ``/`` -> four canonical spec strings."""
    parts = spec.split("/") if isinstance(spec, str) else list(spec)
    if len(parts) == 1:
        parts = parts * 4
    if len(parts) != 4:
        raise ValueError(
            f"policies '{spec if isinstance(spec, str) else '/'.join(spec)}' name "
            f"{len(parts)} seats; give one spec for all seats or four separated by '/'"
        )
    return [parse_spec(p).text for p in parts]


def policy_names(seat_policies: Sequence[str]) -> list[str]:
    """The distinct specs in first-seen order (the categories of the ``policy`` column)."""
    return list(dict.fromkeys(seat_policies))


def policy_arrays(seat_policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kernel inputs for four seat specs: policy ids, parameter rows, index into policy_names."""
    import numpy as np

    names = policy_names(seat_policies)
    specs = [parse_spec(s) for s in seat_policies]
    pid = np.array([s.policy.pid for s in specs], dtype=np.int64)
    params = np.array([s.params for s in specs], dtype=np.float64)
    index = np.array([names.index(s) for s in seat_policies], dtype=np.int64)
    return pid, params, index


def describe_policies() -> list[dict[str, object]]:
    """Every policy with its options, meanings and defaults (for ``simcore policies``)."""
    out: list[dict[str, object]] = []
    for p in REGISTRY.values():
        out.append({
            "name": p.name,
            "meaning": p.meaning,
            "options": [
                {"name": o.name, "default": _format_value(o, o.default), "meaning": o.meaning,
                 "choices": list(o.choices)}
                for o in p.options
            ],
        })
    return out
