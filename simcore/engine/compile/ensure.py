"""The first call of the entry kernel in a process: compile (or load) it once per machine.

:func:`ensure_compiled` compiles or loads the kernel under a file lock, so that processes
starting together on a cold cache wait for one compile instead of each compiling, and says on
stderr that it is compiling (or loading, when numba's disk cache holds the kernel) when that
takes more than a moment. A cold compile runs in two processes (:mod:`.prewarm`) and leaves a
report. Python only: editing this file does not recompile the engine (fingerprint.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import threading
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

from numba import typeof
from numba._dispatcher import compute_fingerprint

from simcore._files import write_atomic
from simcore.engine.compile import prewarm
from simcore.engine.compile.fingerprint import engine_fingerprint

# seconds: a cache load is faster than this (1-2 s on a busy machine), a compile is not
COMPILE_NOTICE_AFTER = 2.0
# cold `simcore run --deals 100000`, benchmarks/bench_compile.py: 75.6 s wall with speed
# seats, the compile split over two processes (prewarm.py)
COMPILE_ESTIMATE = "about a minute on 2 cores"
# a kernel that also seats an optional family is a second compile, the first time it is used
# (a cold `simcore run --policies expert --deals 2000`: 86 s)
COMPILE_ESTIMATE_OPTIONAL = "about a minute and a half on 2 cores, with the {} family"
# the rollout kernel (kernel.py: LAYOUT_ROLLOUT), a kernel of its own, compiled by the first
# advice asked on a machine; it loads the turn loop a batch run of the same policy families
# compiled (prewarm.SHARED_ROOTS): benchmarks/bench_compile.py, 21 s after `simcore run`
COMPILE_ESTIMATE_ROLLOUTS = ("under half a minute on 2 cores after a batch run of these "
                             "policies, else about a minute and a half; once: the rollout engine")

_ready: set[tuple] = set()  # the kernel signatures this process has compiled or loaded
# the same, by the fingerprints numba's dispatcher reads types from: typeof of the rollout
# kernel's arguments took 3 ms a call (about 3% of an advice batch), their fingerprint 20 us
_ready_fingerprints: set[tuple] = set()
_in_process = threading.Lock()  # threads of one process (the advisor's) compile once too


def ensure_compiled(kernel, args: tuple, families: tuple[str, ...] = (), *,
                    estimate: str | None = None, parallel: bool = True) -> None:
    """Compile (or load from the disk cache) ``kernel`` (the entry kernel,
    :func:`.kernel.play_deals`, or another cached kernel) for these arguments' types, once per
    process, holding the machine-wide compile lock (``families``: the optional policy families
    compiled in, :func:`.policies.dispatch.compiled_families`, and any name that sets the
    kernel apart; the lock's name and, unless ``estimate`` says otherwise, the notice's
    estimate follow from them). ``parallel`` (the entry kernel only) lets a cold compile use
    the second process of :mod:`.prewarm`."""
    try:
        fingerprint = (kernel, compute_fingerprint(args))
    except (TypeError, ValueError, NotImplementedError):  # a value it cannot fingerprint
        fingerprint = None
    if fingerprint in _ready_fingerprints:
        return
    _ensure_signature(kernel, tuple(typeof(a) for a in args), families, estimate, parallel)
    if fingerprint is not None:
        _ready_fingerprints.add(fingerprint)


def _ensure_signature(kernel, signature: tuple, families: tuple[str, ...],
                      estimate: str | None, parallel: bool) -> None:
    """:func:`ensure_compiled` for the arguments' numba types."""
    if signature in _ready:
        return
    if estimate is None:
        estimate = (COMPILE_ESTIMATE_OPTIONAL.format(" and ".join(families)) if families
                    else COMPILE_ESTIMATE)
    with _in_process, compile_lock(families):
        if signature in _ready:  # another thread of this process loaded it meanwhile
            return
        # asked under the lock: a process that held it may just have compiled the kernel
        # (an index an older simcore wrote and this one cannot read is dropped here)
        cached = prewarm.is_cached(kernel, signature)
        with compile_notice(estimate=estimate, loading=cached):
            if parallel and prewarm.wanted() and not cached:
                report = prewarm.compile_in_parallel(kernel, signature)
                report["fingerprint"] = engine_fingerprint()
                write_report(report_path(families), report)
            else:
                kernel.compile(signature)
        _ready.add(signature)


def lock_path(families: tuple[str, ...] = ()) -> Path:
    """The machine-wide lock file of one kernel's compile (beside the lookup-table cache).

    One file per kernel (the optional families compiled in) and per numba cache folder: a
    process whose kernel is cached must not wait while another process compiles another
    kernel, or the same one into another cache.
    """
    return _compile_file(families, ".lock")


def report_path(families: tuple[str, ...] = ()) -> Path:
    """Where the last cold compile of one kernel into this numba cache says how it went
    (JSON: :func:`.prewarm.compile_in_parallel`'s report and the engine fingerprint)."""
    return _compile_file(families, ".json")


def _compile_file(families: tuple[str, ...], suffix: str) -> Path:
    from numba.core.config import CACHE_DIR  # type: ignore[attr-defined]  # set at run time

    from simcore.hand.tables import cache_dir

    kind = "-".join(families) or "greedy"  # "greedy": the families always compiled in
    where = zlib.crc32(os.path.abspath(CACHE_DIR).encode()) if CACHE_DIR else 0
    return cache_dir() / f"engine-compile-{kind}-{where:08x}{suffix}"


def write_report(path: Path, report: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(report, indent=1).encode())


@contextmanager
def compile_lock(families: tuple[str, ...] = ()):
    """Hold an exclusive lock on :func:`lock_path` (other processes wait for it)."""
    path = lock_path(families)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def compile_notice(after: float | None = None, stream=None,
                   estimate: str = COMPILE_ESTIMATE, loading: bool = False):
    """Say on stderr that the engine is compiling (``loading``: loading from numba's disk cache)
    when the block takes longer than ``after`` (default :data:`COMPILE_NOTICE_AFTER`)."""
    after = COMPILE_NOTICE_AFTER if after is None else after
    stream = stream or sys.stderr
    done = threading.Event()
    t0 = time.perf_counter()
    said = []

    def notice() -> None:
        if not done.wait(after):
            said.append(True)
            if loading:
                text = f"loading the compiled engine from the disk cache (pid {os.getpid()})"
            else:
                text = (f"compiling the engine once for this machine ({estimate}; cached "
                        f"afterwards, pid {os.getpid()})")
            print(f"simcore: {text} ...", file=stream, flush=True)

    thread = threading.Thread(target=notice, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if said:
            print(f"simcore: engine ready ({time.perf_counter() - t0:.0f} s)", file=stream,
                  flush=True)
