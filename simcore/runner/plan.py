"""What a run computes: validated parameters, the chunk plan, and per-chunk sufficient statistics.

A :class:`RunPlan` is a pure value: the same plan always produces the same records, whatever the
number of workers or the backend, because every deal is a pure function of (rules, policies, seed,
deal index) and chunks are fixed ranges of deals.

>>> from simcore.rules import get_rules
>>> plan = RunPlan(get_rules(), ("speed",) * 4, seed=0, deals=10, duplicate=False, chunk_size=4)
>>> [(c.start, c.count) for c in plan.chunks()]
[(0, 4), (4, 4), (8, 2)]
>>> plan.run_name()
'classic-speed-s0-n10'
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore._input import positive_int, seed_int
from simcore.rules import PRESETS, Rules

# 50,000 deals = 200,000 rows = 14.6 MB of records, about 4.6 s of one core (10,900 deals per
# CPU-second, speed policy) plus ~0.2 s to encode the zstd part (in the worker). Memory depends
# on the chunk, not the run: a 1,000,000-deal run peaked at 318 MB (parent) + 360 MB per worker
# (benchmarks/bench_run.py), and RSS stayed flat from 20 to 200 chunks, so 10 million deals fit
# well under 2 GB. Chunks are coarse enough that per-part costs (hand-off, footer, fsync) are
# noise, fine enough for a live progress bar and cheap --resume. A multiple of 4 (duplicate mode).
DEFAULT_CHUNK_SIZE = 50_000
# Smaller runs get smaller chunks (never below MIN_AUTO_CHUNK deals, where per-part overhead
# starts to show) so there are at least AUTO_CHUNKS of them: several chunks per worker keep all
# workers busy to the end. Derived from the deals only, so the layout never depends on workers.
AUTO_CHUNKS = 16
MIN_AUTO_CHUNK = 1_000
ROTATIONS = 4  # duplicate mode: each wall is played once per rotation of the seat policies
MAX_SEED = 2**63 - 1  # seeds travel through int64 columns and JSON; keep them non-negative int64
_NAME_SAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def default_chunk_size(deals: int, players: int = ROTATIONS) -> int:
    """The chunk size used when none is given: a multiple of ``players`` (the rotations of a
    duplicate run: 4, or 3), at most ``DEFAULT_CHUNK_SIZE`` (rounded up to that multiple).

    >>> default_chunk_size(10_000_000), default_chunk_size(100_000), default_chunk_size(500)
    (50000, 6252, 1000)
    >>> default_chunk_size(100_000, players=3)
    6252
    """
    size = min(DEFAULT_CHUNK_SIZE, max(MIN_AUTO_CHUNK, -(-deals // AUTO_CHUNKS)))
    return -(-size // players) * players


def default_workers() -> int:
    """The cores this process may use (CPU affinity, e.g. under taskset or a container)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Chunk:
    """One unit of work and one Parquet part: ``count`` deals (walls in duplicate mode)."""

    index: int
    start: int  # first deal (duplicate: first wall) passed to ``simulate``
    count: int  # deals (duplicate: walls) passed to ``simulate``
    deals: int  # deals played: ``count``, or ``players * count`` in duplicate mode


@dataclass(frozen=True)
class ChunkStats:
    """Integer sufficient statistics of some deals, so the summary never re-reads the data."""

    deals: int = 0
    winners: int = 0  # player-deal rows that won
    pigs: int = 0  # player-deal rows that ended as flower pig
    abs_net: int = 0  # sum over rows of |net|

    @classmethod
    def from_records(cls, records: np.ndarray, players: int = 4) -> ChunkStats:
        """The statistics of a record array (``players`` rows per deal)."""
        return cls(
            deals=len(records) // players,
            winners=int(np.count_nonzero(records["win_order"] > 0)),
            pigs=int(np.count_nonzero(records["pig"])),
            # int64 first: |int32 min| overflows and large chunks could overflow int32 sums
            abs_net=int(np.abs(records["net"].astype(np.int64)).sum()),
        )

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ChunkStats:
        """The inverse of :meth:`to_dict` (ValueError on missing or non-integer fields)."""
        try:
            values = {name: d[name] for name in ("deals", "winners", "pigs", "abs_net")}
        except (KeyError, TypeError) as exc:
            raise ValueError(f"chunk statistics {d!r} lack field {exc}") from None
        for name, value in values.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"chunk statistic {name} = {value!r} is not an integer >= 0")
        return cls(**values)

    def to_dict(self) -> dict[str, int]:
        """JSON-ready fields."""
        return {
            "deals": self.deals,
            "winners": self.winners,
            "pigs": self.pigs,
            "abs_net": self.abs_net,
        }

    def __add__(self, other: ChunkStats) -> ChunkStats:
        return ChunkStats(
            self.deals + other.deals,
            self.winners + other.winners,
            self.pigs + other.pigs,
            self.abs_net + other.abs_net,
        )

    def rates(self, players: int = 4) -> dict[str, float | None]:
        """Winners per deal, flower pigs per player-deal, mean |net| per player-deal."""
        if self.deals == 0:
            return {"winners_per_deal": None, "flower_pig_rate": None, "mean_abs_net": None}
        rows = players * self.deals
        return {
            "winners_per_deal": self.winners / self.deals,
            "flower_pig_rate": self.pigs / rows,
            "mean_abs_net": self.abs_net / rows,
        }


@dataclass(frozen=True)
class RunPlan:
    """Everything that determines a run's records, and its fixed split into chunks.

    ``deals`` counts deals played. In duplicate mode it must be a multiple of the players
    (``rules.players``: 4, or 3): ``deals // players`` walls, each played under the ``players``
    rotations of the seat policies (so comparisons between policies see the same tiles);
    ``chunk_size`` (deals) must then be a multiple of the players too. ``seat_policies`` has one
    spec per player.
    """

    rules: Rules
    seat_policies: tuple[str, ...]
    seed: int
    deals: int
    duplicate: bool
    chunk_size: int

    def __post_init__(self) -> None:
        # plain ints and tuples: numpy scalars would not survive json.dumps into run.json
        object.__setattr__(self, "deals", positive_int("deals", self.deals))
        object.__setattr__(self, "chunk_size", positive_int("chunk size", self.chunk_size))
        object.__setattr__(self, "seat_policies", tuple(self.seat_policies))
        object.__setattr__(self, "seed", seed_int(self.seed))  # the words of every command
        if not isinstance(self.duplicate, bool | np.bool_):
            raise ValueError(f"duplicate must be True or False, got {self.duplicate!r}")
        object.__setattr__(self, "duplicate", bool(self.duplicate))
        players = self.rules.players
        if len(self.seat_policies) != players:
            raise ValueError(f"need {players} seat policies (players = {players}), got "
                             f"{list(self.seat_policies)!r}")
        if self.duplicate:
            if self.deals % players:
                raise ValueError(
                    f"duplicate runs play every wall {players} times (players = {players}), so "
                    f"deals must be a multiple of {players}, got {self.deals}"
                )
            if self.chunk_size % players:
                raise ValueError(
                    f"duplicate runs need a chunk size that is a multiple of {players}, "
                    f"got {self.chunk_size} (players = {players})"
                )

    @property
    def policy_names(self) -> tuple[str, ...]:
        """Distinct seat policies in first-seen order (the ``policy`` column's categories)."""
        return tuple(dict.fromkeys(self.seat_policies))

    @property
    def walls(self) -> int | None:
        """Walls of a duplicate run (``deals // players``), None otherwise."""
        return self.deals // self.rules.players if self.duplicate else None

    @property
    def players(self) -> int:
        """Players at the table: rows per deal, rotations of a duplicate run."""
        return self.rules.players

    @property
    def _unit(self) -> int:
        return self.rules.players if self.duplicate else 1

    @property
    def n_chunks(self) -> int:
        """Number of chunks (= Parquet parts)."""
        return -(-self.deals // self.chunk_size)

    def chunk(self, index: int) -> Chunk:
        """Chunk ``index``: ``chunk_size`` deals, the last one possibly shorter."""
        if not 0 <= index < self.n_chunks:
            raise ValueError(f"chunk index {index} is not in 0..{self.n_chunks - 1}")
        per_chunk = self.chunk_size // self._unit
        total = self.deals // self._unit
        start = index * per_chunk
        count = min(per_chunk, total - start)
        return Chunk(index, start, count, count * self._unit)

    def chunks(self) -> list[Chunk]:
        """All chunks in order."""
        return [self.chunk(k) for k in range(self.n_chunks)]

    @property
    def rules_overridden(self) -> bool:
        """True when the rules differ from their named preset (or the preset is not built in)."""
        preset = PRESETS.get(self.rules.preset)
        return preset is None or preset.id != self.rules.id

    def parameters(self) -> dict[str, Any]:
        """The run.json fields that define the data (``--resume`` checks them)."""
        return {
            "rules": self.rules.to_dict(),
            "rules_id": self.rules.id,
            "preset": self.rules.preset,
            "policies": list(self.policy_names),
            "seat_policies": list(self.seat_policies),
            "seed": self.seed,
            "deals": self.deals,
            "walls": self.walls,
            "duplicate": self.duplicate,
            "chunk_size": self.chunk_size,
            "n_chunks": self.n_chunks,
        }

    @classmethod
    def from_parameters(cls, meta: Mapping[str, Any]) -> RunPlan:
        """The plan stored in a run.json mapping; ValueError if fields are missing or disagree."""
        try:
            rules = Rules.from_dict(meta["rules"])
            plan = cls(
                rules=rules,
                seat_policies=tuple(meta["seat_policies"]),
                seed=meta["seed"],
                deals=meta["deals"],
                duplicate=meta["duplicate"],
                chunk_size=meta["chunk_size"],
            )
        except KeyError as exc:
            raise ValueError(f"missing field {exc}") from None
        except TypeError as exc:
            raise ValueError(f"malformed field ({exc})") from None
        stored = {k: meta.get(k) for k in plan.parameters()}
        bad = [k for k, v in plan.parameters().items() if stored[k] != v]
        if bad:
            raise ValueError(f"fields {', '.join(bad)} are inconsistent with each other")
        return plan

    def run_name(self) -> str:
        """A filesystem-safe directory name derived from the parameters.

        ``<preset>[-<rules id if overridden>]-<policies>-s<seed>-n<deals>[-dup]``; policies are
        one spec if all seats agree, else the four joined by ``+``. Characters outside
        ``[A-Za-z0-9._+-]`` become ``_`` and then a hash of the exact specs keeps names distinct.
        """
        same = len(set(self.seat_policies)) == 1
        policies = self.seat_policies[0] if same else "+".join(self.seat_policies)
        safe = _NAME_SAFE.sub("_", policies)
        if safe != policies or len(safe) > 60:
            digest = hashlib.sha256("/".join(self.seat_policies).encode()).hexdigest()[:8]
            safe = f"{safe[:50]}_{digest}"
        parts = [_NAME_SAFE.sub("_", self.rules.preset)]
        if self.rules_overridden:
            parts.append(self.rules.id)
        parts += [safe, f"s{self.seed}", f"n{self.deals}"]
        if self.duplicate:
            parts.append("dup")
        return "-".join(parts)
