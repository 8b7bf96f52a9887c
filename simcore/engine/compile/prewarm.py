"""A cold compile on two cores: the policies' half of the engine compiled by a second process.

Numba compiles on one thread. A cold compile of the entry kernel compiles, one after the
other, every function the deal calls (each once per argument types, with everything below it),
then the entry itself, which links them and optimises the whole. The policies' decisions
(:data:`CHILD_ROOTS`) and the engine's own phases, scoring and records (:data:`MAIN_ROOTS`) are
independent halves of about the same cost: a second process compiles the first half into the
disk cache while this one compiles the second, and the entry's compile then loads the first
half from the cache (benchmarks/bench_compile.py: 89 s of compile became about 60 s).

A root is called from the deal with argument types that follow from the entry kernel's: the
state, rules and tables tuples, ``families`` (or the expert's switch in it), a seat's parameter
row, and scalars (numba code passes them as ``int64``, :func:`simcore._jit.plain`, or
``bool``). :func:`root_signatures` writes them down beside their call sites' argument lists.
A root whose types drift from its call site costs only a second compile of it in the entry's
compile: the report says which (``misses``), and tests/engine/test_prewarm.py fails on any.

The child roots are cached with the engine's fingerprint in their key
(:class:`EngineRootCache`): numba's own key covers only a function's source file, and a root
links everything it calls from other files.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from numba import types
from numba.core import event
from numba.core.caching import FunctionCache

from simcore._process import watch_parent
from simcore.engine import deal, dealing, drawn_end, evaluate, invariants, kongs, recording, wins
from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.policies import dispatch
from simcore.hand import scoring_kernels as _scoring

# The entry kernel's first arguments (kernel.play_deals: st, R, T, plans, run, outputs, work,
# then rollouts), by position; the roots are called with these or with fields of the last
# four (records).
ARG_STATE, ARG_RULES, ARG_TABLES, ARG_PLANS, ARG_RUN, ARG_OUTPUTS, ARG_WORK = range(7)

INT, BOOL = types.int64, types.boolean

# Compiled by the second process into the disk cache, loaded from it here.
CHILD_ROOTS = ("dispatch_kong", "dispatch_discard", "dispatch_claim", "dispatch_self_win",
               "settle_drawn_end")
# Compiled here meanwhile, in this order (the deal's setup last: it calls the two decisions
# before it, which are then already compiled).
MAIN_ROOTS = ("update_wait", "settle_self_win", "claim_wins", "make_kong", "score_seat",
              "check_deal",
              "is_winning_hand", "locked_kong_kind", "write_records", "write_wins",
              "note_dealt", "note_start", "dispatch_exchange", "dispatch_void", "setup_deal")

# Reached from the deal's setup only: the rollout kernel, which plays deals on from a
# decision (deal.resume_deal), calls none of them.
SETUP_ROOTS = ("note_dealt", "note_start", "dispatch_exchange", "dispatch_void", "setup_deal")

# The turn loop, which both entry kernels call with the same types: cached on disk by the
# first kernel compiled (a batch run's, most often), loaded by the second instead of being
# optimised again (the rollout kernel's own compile was 47 s of LLVM, most of it this loop).
SHARED_ROOTS = ("resume_deal",)
# Reached by the rollout kernel only through the turn loop: when that is cached, they are
# linked in with it and this process need not compile them.
TURN_ROOTS = ("settle_self_win", "claim_wins", "make_kong", "score_seat", "locked_kong_kind")

# SIMCORE_PARALLEL_COMPILE=0 compiles in one process (as numba alone would).
ENV_SWITCH = "SIMCORE_PARALLEL_COMPILE"


class EngineRootCache(FunctionCache):
    """Numba's disk cache of one function, keyed by the engine's fingerprint as well."""

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), engine_fingerprint())


# The modules the roots are defined in (or imported into, as the same dispatcher).
_HOMES = (dispatch, dealing, wins, kongs, drawn_end, recording, evaluate, invariants,
          _scoring, deal)


def roots() -> dict:
    """Every root by name: the dispatchers the inlined deal calls that cost most to compile."""
    return {name: next(getattr(m, name) for m in _HOMES if hasattr(m, name))
            for name in CHILD_ROOTS + MAIN_ROOTS + SHARED_ROOTS}


def _row(array_type):
    """The type of ``a[i]`` for an array ``a`` of type ``array_type``."""
    return array_type.copy(ndim=array_type.ndim - 1, layout="C")


def _fields(record_type) -> dict:
    """The field types of a NamedTuple's numba type, by name."""
    return dict(zip(record_type.fields, record_type.types, strict=True))


def root_signatures(entry: tuple) -> dict[str, tuple]:
    """The argument types each root is called with in the entry kernel of signature ``entry``
    (the call sites are in the deal's modules and kernel.py; their argument lists are
    repeated here)."""
    st, R, T = entry[ARG_STATE], entry[ARG_RULES], entry[ARG_TABLES]
    plans, outputs, work = (_fields(entry[k]) for k in (ARG_PLANS, ARG_OUTPUTS, ARG_WORK))
    families = plans["families"]
    sw = tuple(families)  # the optional families' switches, as dispatch.py's decide_* unpack it
    pid, P, pol = work["pid"], work["P"], work["pol"]
    out, wins = outputs["out"], outputs["wins"]
    field = dict(zip(st.fields, st.types, strict=True))
    packed = dict(zip(T.fields, T.types, strict=True))["packed"]
    hand, pl = field["hand"], field["pl"]
    seat_p = _row(P)
    return {
        # dispatch_kong(pid, P, *switches, st, seat, last_drawn, R, T)
        "dispatch_kong": (INT, seat_p, *sw, st, INT, INT, R, T),
        # dispatch_discard(pid, P, *switches, st, seat, R, T)
        "dispatch_discard": (INT, seat_p, *sw, st, INT, R, T),
        # dispatch_claim(pid, P, *switches, st, seat, tile, can_kong, R, T)
        "dispatch_claim": (INT, seat_p, *sw, st, INT, INT, BOOL, R, T),
        # dispatch_self_win(pid, P, *switches, st, seat, tile, fan, wall_left, R)
        "dispatch_self_win": (INT, seat_p, *sw, st, INT, INT, INT, INT, R),
        # dispatch_exchange(pid, P, *switches, st, seat, R, T, out)
        "dispatch_exchange": (INT, seat_p, *sw, st, INT, R, T, _row(field["given"])),
        # dispatch_void(pid, P, *switches, st, seat, R, T)
        "dispatch_void": (INT, seat_p, *sw, st, INT, R, T),
        # setup_deal(st, R, T, pid, P, families, seed, deal, wall_id, dealer, fixed_wall)
        "setup_deal": (st, R, T, pid, P, families, INT, INT, INT, INT, BOOL),
        # update_wait(st, seat, T)
        "update_wait": (st, INT, T),
        "settle_drawn_end": (st, R, T),
        # settle_self_win(st, seat, tile, flags, kong_from, R)
        "settle_self_win": (st, INT, INT, INT, INT, R),
        # claim_wins(st, discarder, tile, flags, kind, kong_id, R, T, pid, P, families, winners)
        "claim_wins": (st, INT, INT, INT, INT, INT, R, T, pid, P, families, field["winners"]),
        # make_kong(st, seat, tile, kind, source, just_drawn, log_event, R)
        "make_kong": (st, INT, INT, INT, INT, BOOL, BOOL, R),
        # score_seat(st, seat, tile, added, self_draw, flags, R)
        "score_seat": (st, INT, INT, BOOL, BOOL, INT, R),
        "check_deal": (st,),
        # is_winning_hand(concealed, meld_kind, meld_tile, n_melds, void)
        "is_winning_hand": (_row(hand), _row(field["meld_kind"]), _row(field["meld_tile"]),
                            INT, INT),
        # locked_kong_kind(st, seat, tile, T)
        "locked_kong_kind": (st, INT, INT, T),
        # write_records(st, out, row, deal, wall_id, rotation, policy_index)
        "write_records": (st, out, INT, INT, INT, INT, pol),
        "write_wins": (st, wins, INT, INT, INT, INT, pol),
        # note_dealt(hand, pl, packed), note_start(hand, void, pl, packed, exchanged)
        "note_dealt": (hand, pl, packed),
        "note_start": (hand, field["void"], pl, packed, BOOL),
        # resume_deal(st, R, T, pid, P, families, max_steps)
        "resume_deal": (st, R, T, pid, P, families, INT),
    }


def enable_root_caches() -> None:
    """Cache :data:`CHILD_ROOTS` and :data:`SHARED_ROOTS` on disk (both processes: one writes
    the cache, one reads it; and each entry kernel's compile)."""
    found = roots()
    for name in CHILD_ROOTS + SHARED_ROOTS:
        if not isinstance(found[name]._cache, EngineRootCache):
            found[name]._cache = EngineRootCache(found[name].py_func)
        cache_index(found[name])  # an unreadable index is dropped before the compile


def main_roots(entry: tuple) -> tuple[str, ...]:
    """The roots this process compiles for the entry kernel of signature ``entry``: the
    rollout kernel's (its last argument not None) leave out :data:`SETUP_ROOTS`, and
    :data:`TURN_ROOTS` too when the turn loop is cached (the batch kernel compiled it)."""
    if entry[-1] == types.none:
        return MAIN_ROOTS
    skip = set(SETUP_ROOTS)
    found, signatures = roots(), root_signatures(entry)
    if all(is_cached(found[name], signatures[name]) for name in SHARED_ROOTS):
        skip |= set(TURN_ROOTS)
    return tuple(name for name in MAIN_ROOTS if name not in skip)


def compile_roots(entry: tuple, names) -> None:
    """Compile the roots ``names`` for the entry kernel's signature ``entry``."""
    found, signatures = roots(), root_signatures(entry)
    for name in names:
        found[name].compile(signatures[name])


def cache_index(kernel) -> dict | None:
    """``kernel``'s numba cache index (empty when there is none), or None when numba's
    internals moved. An index that cannot be read is removed and read as empty: numba unpickles
    the index before it checks the source stamp, so an index written by an older simcore whose
    argument types lived in modules since moved raises instead of being treated as stale;
    without it the kernel compiles (or is found) afresh."""
    try:
        cache_file = kernel._cache._cache_file
        index_path = Path(cache_file._index_path)
    except AttributeError:
        return None
    if not index_path.exists():
        return {}
    try:
        return cache_file._load_index()
    except Exception:  # noqa: BLE001  (any unreadable index is stale)
        index_path.unlink(missing_ok=True)
        return {}


def is_cached(kernel, signature: tuple) -> bool:
    """True when numba's disk cache holds ``kernel`` compiled for ``signature`` (a question of
    numba's cache index, read by :func:`cache_index`; any doubt answers True, and the compile
    then takes its usual way)."""
    index = cache_index(kernel)
    if index is None:
        return True
    try:
        key = kernel._cache._index_key(signature, kernel.targetctx.codegen())
    except Exception:  # noqa: BLE001  (numba internals moved: compile as before)
        return True
    return index.get(key) is not None


def wanted() -> bool:
    """Compile in two processes: on by default where this process may use two cores."""
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except AttributeError:  # no affinity API (macOS)
        return (os.cpu_count() or 1) >= 2


class _Compiles(event.Listener):
    """The roots that compile while it is installed."""

    def __init__(self, names_by_id: dict):
        self.names_by_id = names_by_id
        self.seen: list[str] = []

    def on_start(self, ev):
        name = self.names_by_id.get(id(ev.data["dispatcher"]))
        if name is not None:
            self.seen.append(name)

    def on_end(self, ev):
        pass


def compile_in_parallel(kernel, entry: tuple) -> dict:
    """Compile ``kernel`` for the signature ``entry`` with :data:`CHILD_ROOTS` compiled by a
    second process meanwhile. Returns the report: seconds (``main`` for this process's roots,
    ``waited`` for the child, ``total``), ``child_exit`` (its exit code) and ``misses`` (the
    roots the entry's compile had to compile again: none when the signatures are right)."""
    enable_root_caches()
    start = time.perf_counter()
    env = dict(os.environ)
    from numba.core.config import CACHE_DIR  # type: ignore[attr-defined]  # set at run time
    if CACHE_DIR:
        env["NUMBA_CACHE_DIR"] = CACHE_DIR
    # the child imports this very package, wherever this process found it
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryFile("w+") as errors:
        child = subprocess.Popen([sys.executable, "-m", "simcore.engine.compile.prewarm"], env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=errors)
        assert child.stdin is not None  # stdin=PIPE
        mine = main_roots(entry)
        try:
            child.stdin.write(pickle.dumps((os.getpid(), entry)))
            child.stdin.close()
            compile_roots(entry, mine)
            main = time.perf_counter() - start
            child_exit = child.wait()
        except BaseException:
            child.kill()
            raise
        waited = time.perf_counter() - start - main
        errors.seek(0)
        child_errors = errors.read()[-2000:]
    found = roots()
    listener = _Compiles({id(found[name]): name for name in CHILD_ROOTS + MAIN_ROOTS})
    with event.install_listener("numba:compile", listener):
        kernel.compile(entry)
    return {"main": round(main, 1), "waited": round(waited, 1),
            "total": round(time.perf_counter() - start, 1), "child_exit": child_exit,
            "child_errors": child_errors, "misses": listener.seen,
            "child_roots": list(CHILD_ROOTS), "main_roots": list(mine)}


def main() -> None:
    """The second process: read (parent pid, entry signature) from stdin, compile the child
    roots into the disk cache, and end with its parent if that goes first."""
    parent_pid, entry = pickle.loads(sys.stdin.buffer.read())
    watch_parent(parent_pid)
    enable_root_caches()
    compile_roots(entry, CHILD_ROOTS)


if __name__ == "__main__":
    main()
