"""Policy specs: the grammar shared by the command line and the Python API.

``speed``, ``flush:k=8,g=12``, ``pungs:k=4,kong=never``; one spec for all seats or four separated
by ``/`` (``flush:k=8/speed/speed/speed``). Boolean options take 0/1. A spec becomes a policy id
and a float parameter vector that the jitted policies read through their family's option slots.

The policies and their options are those registered in :mod:`simcore.engine.policies.registry`
(each family's ``NAME_options`` module); ``describe_policies()`` (``simcore policies``) lists
them with their meanings and defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simcore._input import did_you_mean, unknown_name

# The registry of every family's options (numba-free); each family's option slots and named
# values live in its own ``NAME_options`` module (``simcore.engine.policies.greedy_options``, ...)
from simcore.engine.policies.registry import N_PARAMS, REGISTRY, Option, PolicyDef, load_families

load_families()

if TYPE_CHECKING:  # numpy is imported by policy_arrays only: `simcore policies` never needs it
    import numpy as np


@dataclass(frozen=True)
class PolicySpec:
    """One parsed spec: its canonical text, policy id and parameter vector."""

    text: str
    policy: PolicyDef
    params: tuple[float, ...]


def give_code(types: Sequence[int]) -> int:
    """The parameter value of three tile types (``give=``): ``1 + t0 + 27 t1 + 729 t2``, the
    types in order, so that 0 stays "not given" (the kernels decode it the same way:
    policies/dispatch.py ``fixed_exchange``)."""
    t0, t1, t2 = sorted(int(t) for t in types)
    return 1 + t0 + 27 * t1 + 729 * t2


def give_types(code: float) -> tuple[int, int, int]:
    """The three tile types of a ``give=`` value (:func:`give_code`'s inverse)."""
    c = int(code) - 1
    return c % 27, c // 27 % 27, c // 729


def _parse_tiles(where: str, text: str) -> float:
    from simcore.tiles import parse, tiles_from_counts

    if text == "none":
        return 0.0
    try:
        hand = parse(text, sizes="any")
    except ValueError as exc:
        raise ValueError(f"{where}: '{text}' is not three tiles: {exc}") from None
    types = tiles_from_counts(hand.counts)
    if hand.melds or len(types) != 3 or len({t // 9 for t in types}) != 1:
        raise ValueError(f"{where}: '{text}' is not three tiles of one suit (like 159m)")
    return float(give_code(types))


def _parse_value(policy: PolicyDef, opt: Option, text: str) -> float:
    where = f"option '{opt.name}' of policy '{policy.name}'"
    if opt.kind == "tiles":
        return _parse_tiles(where, text)
    if opt.kind == "choice":
        if text in opt.choices:
            return float(opt.choices.index(text))
        raise ValueError(f"{where}: '{text}' is not one of {', '.join(opt.choices)}"
                         + did_you_mean(text, opt.choices))
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
    if opt.kind == "tiles":
        from simcore.tiles import tiles_str

        return tiles_str(list(give_types(value))) if value > 0 else "none"
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
        raise ValueError(unknown_name("policy", name, REGISTRY, where=f" in spec '{text}'",
                                      known_as="policies"))
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


SEAT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}
WRONG_COUNT = ("policies '{text}' name {n} seats; give one spec for all seats or {seats} "
               "separated by '/'")


def split_policies(spec: str | Sequence[str], seats: int, wrong: str = WRONG_COUNT) -> list[str]:
    """The field grammar, parsed here only: one policy spec for ``seats`` seats, or ``seats``
    specs joined by ``/`` -> ``seats`` spec texts, one per seat, not yet parsed (a sequence is
    taken as already split). ValueError ``wrong`` (a format string of ``text``, ``n``, the
    number of specs given, and ``seats``, the number wanted in words) for any other count.

    >>> split_policies("speed", 3)
    ['speed', 'speed', 'speed']
    >>> split_policies("expert/flush:k=8/pungs", 3)
    ['expert', 'flush:k=8', 'pungs']
    """
    parts = spec.split("/") if isinstance(spec, str) else list(spec)
    if len(parts) == 1:
        parts = parts * seats
    if len(parts) != seats:
        text = spec if isinstance(spec, str) else "/".join(spec)
        raise ValueError(wrong.format(text=text, n=len(parts),
                                      seats=SEAT_WORDS.get(seats, seats)))
    return parts


def parse_policies(spec: str | Sequence[str], players: int = 4,
                   wrong: str = WRONG_COUNT) -> list[str]:
    """One spec for all seats or ``players`` (4, or 3 in the three-player variant) separated
    by ``/`` -> ``players`` canonical spec strings (:func:`split_policies`, then
    :func:`parse_spec` each)."""
    return [parse_spec(p).text for p in split_policies(spec, players, wrong)]


def check_for_rules(seat_policies: Sequence[str], suits: int) -> None:
    """ValueError for a spec whose options the tile set makes meaningless: with two suits
    (docs/rules section 9) no void is declared, so a fixed void (``void=m``, ``p`` or ``s``) is
    bad input; ``void=m`` names a suit that is not even in the set. The void choices ``fewest``
    and ``weakest`` are accepted and have nothing to choose (no void is declared)."""
    if suits == 3:
        return
    for text in seat_policies:
        spec = parse_spec(text)
        for opt in spec.policy.options:
            if opt.name != "void":
                continue
            value = _format_value(opt, spec.params[opt.slot])
            if value == "m":
                raise ValueError(f"policy '{text}': void=m names the suit m, which is not in the "
                                 f"tile set with suits = {suits} (only p and s)")
            if value in ("p", "s"):
                raise ValueError(f"policy '{text}': void={value} fixes a void suit, but with "
                                 f"suits = {suits} no void is declared")


def policy_names(seat_policies: Sequence[str]) -> list[str]:
    """The distinct specs in first-seen order (the categories of the ``policy`` column)."""
    return list(dict.fromkeys(seat_policies))


def policy_arrays(seat_policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kernel inputs for the seat specs: policy ids, parameter rows, index into policy_names.

    The kernel's arrays have four seats; three seat specs (the three-player variant) are padded
    with a copy of seat 0's, for the seat that is never in play.
    """
    import numpy as np

    names = policy_names(seat_policies)
    seat_policies = list(seat_policies)
    seat_policies += seat_policies[:1] * (4 - len(seat_policies))
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
