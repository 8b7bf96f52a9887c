"""What ``simcore tune`` searches: the tuned options of one policy, the field and the budget.

Numba-free: the command line validates its input with this module before the engine loads.

A tuned option is written ``NAME=LOW..HIGH`` (an integer or 0/1 option, both ends included) or
``NAME=a|b|c`` (a named-value option, or 0|1). Everything is checked against the policy
registry (:mod:`simcore.engine.policies.registry`): the option must exist, the range must hold
at least two values, and every value must be one the spec grammar accepts (integers >= 0,
0/1, the option's names). The policy itself is a spec: options written there (``flush:g=10``)
are kept in every trial unless tuned, and they are the *starting setting* every trial is
compared with (tuned options not written there start at their default).

>>> policy = start_spec("flush")
>>> parse_param("k=5..11", policy)
Param(name='k', kind='int', low=5, high=11, choices=())
>>> parse_param("kong=always|never", policy).values()
('always', 'never')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from simcore._input import did_you_mean
from simcore.engine.spec import PolicySpec, parse_policies, parse_spec


@dataclass(frozen=True)
class Param:
    """One tuned option: an integer range ``low..high`` or a tuple of value names."""

    name: str
    kind: str  # "int" (a range) or "choice" (named values, or 0|1 of a boolean option)
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()

    def values(self) -> tuple[int, ...] | tuple[str, ...]:
        """Every value the search may try (as the spec grammar writes them)."""
        if self.kind == "int":
            return tuple(range(self.low, self.high + 1))
        return self.choices

    @property
    def text(self) -> str:
        """The ``NAME=...`` form (what ``--param`` takes)."""
        if self.kind == "int":
            return f"{self.name}={self.low}..{self.high}"
        return f"{self.name}={'|'.join(self.choices)}"


def start_spec(policy: str) -> PolicySpec:
    """The starting setting: the policy spec as given (its options, defaults for the rest)."""
    if not isinstance(policy, str) or not policy.strip():
        raise ValueError(f"no policy to tune (got {policy!r}); e.g. 'flush' or 'flush:g=10'")
    if "/" in policy:
        raise ValueError(f"tune one policy, not seats: '{policy}' contains '/' (the other "
                         f"seats are the field)")
    return parse_spec(policy)


def _as_int(text: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"{where}: '{text.strip()}' is not an integer") from None


def parse_param(text: str, policy: PolicySpec) -> Param:
    """Parse one ``--param`` of ``policy`` (:class:`PolicySpec`); errors name the bad part."""
    name, eq, values = (part.strip() for part in text.partition("="))
    if not eq or not name or not values:
        raise ValueError(f"malformed --param '{text}': expected NAME=LOW..HIGH or NAME=a|b|c")
    opt = policy.policy.option(name)  # an unknown option is an error naming it
    where = f"--param '{text}' (option '{name}' of policy '{policy.policy.name}')"
    if ".." in values:
        if opt.kind == "choice":
            raise ValueError(f"{where}: the option takes names, not a range; use "
                             f"{name}={'|'.join(opt.choices)}")
        low_text, _, high_text = values.partition("..")
        low, high = _as_int(low_text, where), _as_int(high_text, where)
        top = 1 if opt.kind == "bool" else math.inf
        for bound in (low, high):
            if not 0 <= bound <= top:
                takes = "0 or 1" if opt.kind == "bool" else "integers >= 0"
                raise ValueError(f"{where}: {bound} is out of range (the option takes "
                                 f"{takes})")
        if low > high:
            raise ValueError(f"{where}: the range {low}..{high} is empty ({low} > {high})")
        if low == high:
            raise ValueError(f"{where}: the range {low}..{high} holds one value: nothing to "
                             f"tune (write it in the policy spec instead, e.g. "
                             f"{policy.policy.name}:{name}={low})")
        return Param(name, "int", low, high)
    names = tuple(v.strip() for v in values.split("|"))
    allowed = opt.choices if opt.kind == "choice" else ("0", "1") if opt.kind == "bool" else ()
    if not allowed:
        raise ValueError(f"{where}: an integer option takes a range LOW..HIGH, not names")
    for value in names:
        if value not in allowed:
            raise ValueError(f"{where}: '{value}' is not one of {', '.join(allowed)}"
                             + did_you_mean(value, allowed))
    if len(set(names)) != len(names):
        twice = next(v for v in names if names.count(v) > 1)
        raise ValueError(f"{where}: '{twice}' is given twice")
    if len(names) < 2:
        raise ValueError(f"{where}: one value is nothing to tune (write it in the policy "
                         f"spec instead, e.g. {policy.policy.name}:{name}={names[0]})")
    return Param(name, "choice", choices=names)


def parse_params(texts: Sequence[str] | Mapping[str, str], policy: PolicySpec) -> tuple[Param,
                                                                                        ...]:
    """Parse every tuned option (``["k=5..11", "g=0..30"]`` or ``{"k": "5..11"}``)."""
    if isinstance(texts, str):
        texts = [texts]
    items = ([f"{k}={v}" for k, v in texts.items()] if isinstance(texts, Mapping)
             else list(texts))
    if not items:
        raise ValueError(f"nothing to tune: give at least one --param NAME=LOW..HIGH of "
                         f"policy '{policy.policy.name}' (options: "
                         f"{', '.join(o.name for o in policy.policy.options)})")
    params = [parse_param(item, policy) for item in items]
    seen: set[str] = set()
    for p in params:
        if p.name in seen:
            raise ValueError(f"option '{p.name}' is tuned twice (--param {p.text})")
        seen.add(p.name)
    return tuple(params)


def field_seats(text: str) -> tuple[str, str, str]:
    """The canonical specs of the three other seats of a tune's ``--field``: one spec for all
    three or three separated by ``/`` (:func:`simcore.engine.spec.parse_policies`)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"no field given (got {text!r}); e.g. 'speed' or "
                         f"'expert/flush:k=8/pungs:k=4'")
    a, b, c = parse_policies(text, 3, "field '{text}' names {n} seats; give one spec for the "
                                      "three other seats or three separated by '/'")
    return a, b, c


def setting_spec(policy: PolicySpec, setting: Mapping[str, object]) -> str:
    """The canonical spec of ``policy`` with the tuned options set to ``setting``."""
    values: dict[str, str | None] = {o.name: None for o in policy.policy.options}
    if ":" in policy.text:
        for item in policy.text.split(":", 1)[1].split(","):
            key, _, given = item.partition("=")
            values[key] = given
    for key, value in setting.items():
        values[key] = str(value)
    options = ",".join(f"{k}={v}" for k, v in values.items() if v is not None)
    return parse_spec(policy.policy.name + (":" + options if options else "")).text


def start_setting(policy: PolicySpec, params: Sequence[Param]) -> dict[str, int | str]:
    """The tuned options' values in the starting setting (the spec's, else the defaults)."""
    out: dict[str, int | str] = {}
    for p in params:
        opt = policy.policy.option(p.name)
        raw = policy.params[opt.slot]
        if p.kind == "int":
            out[p.name] = int(raw)
        elif opt.kind == "choice":
            out[p.name] = opt.choices[int(raw)]
        else:
            out[p.name] = str(int(raw))
    return out


def in_space(setting: Mapping[str, object], params: Sequence[Param]) -> bool:
    """Whether ``setting`` is one of the points the search can try."""
    return all(setting[p.name] in p.values() for p in params)


def space_size(params: Sequence[Param]) -> int:
    """The number of distinct settings of the search space."""
    return math.prod(len(p.values()) for p in params)
