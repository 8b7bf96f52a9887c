"""The policy registry: every policy's name, id, family and options, numba-free.

Each family registers its policies from its own ``NAME_options`` module, listed in
:data:`FAMILIES` and imported in that order by :func:`load_families` (the spec grammar calls
it). The spec grammar (:mod:`simcore.engine.spec`), ``simcore policies`` and the docs read
options, meanings and defaults from these records only. A policy's options are float slots of
the parameter vector its family's kernels read."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from simcore._input import known_names

N_PARAMS = 16  # slots of a seat's parameter vector

# each family has NAME.py (its kernels) and NAME_options.py (its registration)
FAMILIES = ("random", "greedy", "expert")


@dataclass(frozen=True)
class Option:
    name: str
    slot: int
    default: float
    meaning: str
    choices: tuple[str, ...] = ()  # named values, stored as their index
    kind: str = "int"  # "int", "bool", "choice" or "tiles" (three of one suit: spec.give_code)


@dataclass(frozen=True)
class PolicyDef:
    name: str
    pid: int
    meaning: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    family: str = ""

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        if not self.options:
            raise ValueError(f"policy '{self.name}' takes no options (got '{name}')")
        known = [o.name for o in self.options]
        raise ValueError(f"policy '{self.name}' has no option '{name}'"
                         + known_names(name, known, "options"))


REGISTRY: dict[str, PolicyDef] = {}

# Each family's per-seat memory: the columns of ``st.memory[seat]`` its kernels keep between two
# decisions of a seat (a plan, a target), declared by its options module. A seat plays one
# family, so the families share the columns; the state has as many as the widest needs.
MEMORY: dict[str, int] = {}


def declare_memory(family: str, width: int) -> None:
    """Say that ``family`` keeps ``width`` integers of per-seat memory (its options module)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family '{family}'")
    MEMORY[family] = width


def memory_width() -> int:
    """The columns of the state's per-seat memory: the widest family's (at least one)."""
    load_families()
    return max([1, *MEMORY.values()])


def register(policy: PolicyDef) -> PolicyDef:
    """Add a policy to the registry (a family's options module calls this at import)."""
    if policy.family not in FAMILIES:
        raise ValueError(f"policy '{policy.name}': unknown family '{policy.family}'")
    if policy.name in REGISTRY:
        raise ValueError(f"policy '{policy.name}' is registered twice")
    if any(p.pid == policy.pid for p in REGISTRY.values()):
        raise ValueError(f"policy '{policy.name}': id {policy.pid} is taken")
    slots = [o.slot for o in policy.options]
    if len(set(slots)) != len(slots) or any(not 0 <= s < N_PARAMS for s in slots):
        raise ValueError(f"policy '{policy.name}': option slots {slots} overlap or exceed "
                         f"{N_PARAMS}")
    REGISTRY[policy.name] = policy
    return policy


def load_families() -> dict[str, PolicyDef]:
    """Import every family's options module (in :data:`FAMILIES` order): the full registry."""
    for family in FAMILIES:
        importlib.import_module(f"{__package__}.{family}_options")
    ordered = sorted(REGISTRY.values(), key=lambda p: (FAMILIES.index(p.family), p.pid))
    REGISTRY.clear()
    REGISTRY.update((p.name, p) for p in ordered)
    return REGISTRY
