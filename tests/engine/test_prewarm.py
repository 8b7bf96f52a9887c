"""A cold compile in two processes (simcore/engine/compile/prewarm.py): the second process's roots
are the ones the entry kernel calls (none compiled twice), and the second process never outlives the
process that started it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from helpers.processes import HAS_PROC, descendants, still_running
from numba import types
from numba.core.registry import CPUDispatcher

from simcore.engine import kernel, play
from simcore.engine.compile import ensure, prewarm
from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.state import new_state


def _greedy_entry():
    """The signature of play_deals without an optional policy family (policies/dispatch.py)."""
    def families(signature):
        plans = signature[prewarm.ARG_PLANS]
        return dict(zip(plans.fields, plans.types, strict=True))["families"]
    return next(s for s in kernel.play_deals.signatures
                if all(t == types.none for t in families(s)) and s[-1] == types.none)


def test_every_root_has_a_dispatcher_and_a_signature_and_one_side():
    found = prewarm.roots()
    both = prewarm.CHILD_ROOTS + prewarm.MAIN_ROOTS + prewarm.SHARED_ROOTS
    assert len(set(both)) == len(both)  # no root on both sides
    assert set(both) == set(found)
    assert set(prewarm.TURN_ROOTS) <= set(prewarm.MAIN_ROOTS)  # those it may leave out
    assert all(isinstance(d, CPUDispatcher) for d in found.values())
    play(1, rules="classic", policies="speed", seed=1)
    entry = _greedy_entry()
    signatures = prewarm.root_signatures(entry)
    assert set(signatures) == set(found)
    for name, signature in signatures.items():  # as many types as the function has arguments
        assert len(signature) == found[name].py_func.__code__.co_argcount, name


def _report_of_a_cold_compile(tmp_path, policies: str) -> dict:
    """Compile the kernel into empty caches in a fresh process and return its report."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               SIMCORE_CACHE_DIR=str(tmp_path / "simcore"), SIMCORE_PARALLEL_COMPILE="1")
    code = textwrap.dedent(f"""
        from simcore.engine import play
        from simcore.engine.compile import ensure
        play(1, rules="classic", policies={policies!r}, seed=1)
        print(ensure.report_path({('expert',) if 'expert' in policies else ()!r}))
    """)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=600, check=True)
    return json.loads(open(done.stdout.strip().splitlines()[-1]).read())


@pytest.mark.parametrize("policies", ["speed", "expert/speed/speed/speed"])
def test_the_entry_compile_loads_every_root_of_the_second_process(tmp_path, policies):
    """The report of the cold compile that built this process's kernel: this test session's
    first (CI starts on an empty cache), else a cold compile made for the test."""
    families = ("expert",) if "expert" in policies else ()
    play(1, rules="classic", policies=policies, seed=1)
    path = ensure.report_path(families)
    report = json.loads(path.read_text()) if path.exists() else None
    if report is None or report.get("fingerprint") != engine_fingerprint():
        report = _report_of_a_cold_compile(tmp_path, policies)
    assert report["fingerprint"] == engine_fingerprint()
    assert report["child_exit"] == 0, report["child_errors"]
    assert report["misses"] == [], report  # a root typed unlike its call site
    assert report["child_roots"] == list(prewarm.CHILD_ROOTS)


def test_a_batch_run_compiles_no_rollout_loop():
    """Batch chunks, a replay and a what-if load only the batch kernel (the rollout kernel is
    the one advice compiles, issue 27); in a fresh process,
    so that no rollout kernel an earlier test loaded is counted."""
    code = textwrap.dedent("""
        from simcore import whatif
        from simcore.engine import kernel, play
        from simcore.engine.replay import replay
        play(4, rules="classic", policies="speed/expert/speed/speed", seed=1)
        replay(7, 3, rules="river", policies="speed")
        whatif("1123455789m46p9s", deals=50)
        print(sorted({str(s[-1]) for s in kernel.play_deals.signatures}),
              len(kernel.play_rollouts.signatures))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['none'] 0"


def test_the_rollout_kernel_loads_the_turn_loop_a_batch_run_compiled(tmp_path):
    """A first advice after a first batch run (issue 28: at most 30 s more): the rollout
    kernel's compile, in a process of its own on the batch run's cache, loads the turn loop
    (deal.resume_deal) from the disk instead of compiling it, and compiles none of the roots
    only the turn loop reaches."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               SIMCORE_CACHE_DIR=str(tmp_path / "simcore"), SIMCORE_PARALLEL_COMPILE="1")
    batch = "from simcore.engine import play; play(1, rules='classic', policies='speed', seed=1)"
    subprocess.run([sys.executable, "-c", batch], env=env, capture_output=True, text=True,
                   timeout=600, check=True)
    code = textwrap.dedent("""
        import json
        from numba.core import event
        from simcore.engine.compile import ensure, prewarm
        from simcore.engine.deal import resume_deal
        from simcore.engine.kernel import load_rollout_kernel
        compiles = prewarm._Compiles({id(resume_deal): "resume_deal"})
        with event.install_listener("numba:compile", compiles):
            load_rollout_kernel(["speed"] * 4)
        report = json.loads(ensure.report_path(("rollouts",)).read_text())
        print(len(compiles.seen), len(resume_deal.signatures),
              sorted(set(report["main_roots"]) & set(prewarm.TURN_ROOTS)), report["misses"])
    """)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=600, check=True)
    assert done.stdout.strip().splitlines()[-1] == "0 1 [] []", done.stderr[-2000:]


def test_warming_up_one_process_loads_its_rollout_kernel():
    """The advisor's threads play in this process: ``warm_up(1)`` loads the rollout kernel
    here (in a fresh process, which has loaded none)."""
    code = textwrap.dedent("""
        from simcore.advice.advisor import warm_up
        from simcore.engine import kernel
        before = len(kernel.play_rollouts.signatures)
        warm_up(1, ("speed",))
        print(before, len(kernel.play_rollouts.signatures), len(kernel.play_deals.signatures))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=True)
    assert done.stdout.strip().splitlines()[-1] == "0 1 0"


def test_rollouts_are_given_exactly_with_the_rollout_layout():
    st = new_state()
    no = np.zeros(0, np.int64)
    with pytest.raises(ValueError, match="layout 0: rollouts are given exactly with"):
        kernel.call(st, None, None, no, no, no, 0, 0, 1, kernel.LAYOUT_DEALS, out=no,
                    rollouts=kernel.Rollouts(no, no, no, st))
    with pytest.raises(ValueError, match="layout 5: rollouts are given exactly with"):
        kernel.call(st, None, None, no, no, no, 0, 0, 1, kernel.LAYOUT_ROLLOUT, out=no)


def test_the_cache_index_knows_the_compiled_kernel_only():
    play(1, rules="classic", policies="speed", seed=1)
    entry = _greedy_entry()
    assert prewarm.is_cached(kernel.play_deals, entry)
    other = list(entry)
    other[prewarm.ARG_RUN] = types.Array(types.float32, 3, "C")  # never compiled
    assert not prewarm.is_cached(kernel.play_deals, tuple(other))


def test_one_process_when_told_or_when_one_core(monkeypatch):
    monkeypatch.setenv(prewarm.ENV_SWITCH, "0")
    assert not prewarm.wanted()
    monkeypatch.setenv(prewarm.ENV_SWITCH, "1")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not prewarm.wanted()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert prewarm.wanted()


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc")
def test_the_second_process_ends_with_a_killed_parent(tmp_path):
    """SIGKILL a process in the middle of a cold compile: its compile helper is gone within
    5 s (simcore/engine/compile/prewarm.py arms the same watchdog as the run's workers)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               SIMCORE_CACHE_DIR=str(tmp_path / "simcore"), SIMCORE_PARALLEL_COMPILE="1")
    code = "from simcore.engine import play; play(1, rules='classic', policies='speed', seed=1)"
    parent = subprocess.Popen([sys.executable, "-c", code], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        helpers: dict[int, int] = {}
        while not helpers and time.monotonic() < deadline:
            time.sleep(0.5)
            helpers = {pid: start for pid, start in descendants(parent.pid).items()
                       if b"simcore.engine.compile.prewarm" in _cmdline(pid)}
        assert helpers, "the cold compile started no second process"
        time.sleep(3)  # the helper is compiling now, past reading its arguments
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 5
        while still_running(helpers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not still_running(helpers)
    finally:
        if parent.poll() is None:
            parent.kill()


def _cmdline(pid: int) -> bytes:
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        return b""
