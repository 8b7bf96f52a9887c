"""The engine's one entry kernel: every entry point shares one compiled signature, the first
call of a process compiles under a machine-wide lock, and a long compile says so on stderr."""

from __future__ import annotations

import io
import multiprocessing
import time

import numpy as np
import pytest
from numba import types

from simcore.engine import kernel, play
from simcore.engine.compile import ensure
from simcore.engine.compile.prewarm import ARG_PLANS
from simcore.engine.replay import replay

EXPERT = ("expert",)  # the optional families of the kernel that seats the expert


def _families(signature) -> tuple:
    """The type of ``plans.families`` in a signature of play_deals (policies/dispatch.py)."""
    plans = signature[ARG_PLANS]
    return dict(zip(plans.fields, plans.types, strict=True))["families"]


def test_batch_replay_and_whatif_share_one_compiled_kernel():
    # issue 12: one entry kernel, so the engine is compiled once, not once per command
    import simcore

    play(4, rules="app", policies="speed/random/flush:k=8/pungs:k=4", seed=3)
    play(2, rules="classic", policies="random", seed=3)
    replay(3, 1, rules="baike", policies="speed")
    simcore.whatif("1123455789m46p9s", plans=["speed", "flush:k=0"], deals=20)
    # one batch signature without the expert family (earlier tests may have added the one
    # with it, and the rollout specializations: tests/engine/test_prewarm.py)
    assert len(_greedy_signatures()) == 1, kernel.play_deals.signatures


def _batch_signatures() -> list:
    """The entry kernel's batch specializations (its last argument, the rollouts, None)."""
    return [s for s in kernel.play_deals.signatures if s[-1] == types.none]


def _greedy_signatures() -> list:
    return [s for s in _batch_signatures() if all(t == types.none for t in _families(s))]


def test_expert_seats_use_the_second_kernel_and_only_they():
    # the expert family is compiled only into the kernel that seats it (policies/dispatch.py)
    play(2, rules="classic", policies="speed", seed=4)
    play(2, rules="classic", policies="expert/speed/speed/speed", seed=4)
    with_expert = [s for s in _batch_signatures()
                   if any(t != types.none for t in _families(s))]
    assert len(with_expert) == 1 and len(_greedy_signatures()) == 1, kernel.play_deals.signatures


def _hold_lock(path, held, release):
    ensure.lock_path = lambda families=(): path  # the child's module: the test's lock
    with ensure.compile_lock():
        held.set()
        release.wait(10)


def test_the_compile_lock_makes_other_processes_wait(tmp_path, monkeypatch):
    path = tmp_path / "engine-compile.lock"
    monkeypatch.setattr(ensure, "lock_path", lambda families=(): path)
    ctx = multiprocessing.get_context("fork")
    held, release = ctx.Event(), ctx.Event()
    child = ctx.Process(target=_hold_lock, args=(path, held, release))
    child.start()
    try:
        assert held.wait(10)
        t0 = time.perf_counter()
        releaser = ctx.Process(target=lambda: (time.sleep(0.5), release.set()))
        releaser.start()
        with ensure.compile_lock():
            waited = time.perf_counter() - t0
        releaser.join(5)
    finally:
        release.set()
        child.join(5)
    assert waited >= 0.4, waited


def test_each_kernel_and_numba_cache_has_its_own_lock(monkeypatch, tmp_path):
    # a process whose kernel is cached must not wait for the compile of the other kernel, or
    # of the same kernel into another numba cache folder
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "a"))
    greedy, expert = ensure.lock_path(), ensure.lock_path(EXPERT)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "b"))
    assert len({greedy, expert, ensure.lock_path(), ensure.lock_path(EXPERT)}) == 4
    assert ensure.lock_path() == ensure.lock_path()


def test_a_long_compile_is_announced_and_a_quick_load_is_not():
    out = io.StringIO()
    with ensure.compile_notice(after=0.05, stream=out):
        time.sleep(0.3)
    text = out.getvalue()
    assert "compiling the engine once" in text and ensure.COMPILE_ESTIMATE in text
    assert "engine ready" in text
    quiet = io.StringIO()
    with ensure.compile_notice(after=5, stream=quiet):
        pass
    assert quiet.getvalue() == ""


def test_a_slow_load_from_the_disk_cache_says_loading_not_compiling():
    out = io.StringIO()
    with ensure.compile_notice(after=0.05, stream=out, loading=True):
        time.sleep(0.3)
    text = out.getvalue()
    assert "loading the compiled engine from the disk cache" in text, text
    assert "compiling" not in text and "engine ready" in text


class _SlowKernel:
    """Stands in for ``play_deals``: its compile (or load) takes a while."""

    def __init__(self):
        self.compiled = []

    def compile(self, signature):
        time.sleep(0.3)
        self.compiled.append(signature)


@pytest.mark.parametrize(("cached", "words"), [(True, "loading the compiled engine"),
                                               (False, "compiling the engine once")])
def test_the_first_call_says_loading_when_the_kernel_is_cached(monkeypatch, capsys, tmp_path,
                                                               cached, words):
    from simcore.engine.compile import prewarm

    slow = _SlowKernel()
    monkeypatch.setattr(ensure, "_ready", set())
    monkeypatch.setattr(ensure, "_ready_fingerprints", set())
    monkeypatch.setattr(ensure, "COMPILE_NOTICE_AFTER", 0.05)
    monkeypatch.setattr(ensure, "lock_path", lambda families=(): tmp_path / "lock")
    monkeypatch.setattr(prewarm, "is_cached", lambda k, signature: cached)
    monkeypatch.setattr(prewarm, "wanted", lambda: False)  # one process: compile() either way
    ensure.ensure_compiled(slow, (np.zeros(3, np.float32),))
    err = capsys.readouterr().err
    assert words in err and "engine ready" in err, err
    assert ("compiling" in err) == (not cached), err
    assert len(slow.compiled) == 1  # what is compiled, and how, does not change


def test_the_notice_is_cleared_when_the_compile_fails():
    out = io.StringIO()
    with pytest.raises(RuntimeError, match="boom"), ensure.compile_notice(after=5, stream=out):
        raise RuntimeError("boom")
    assert out.getvalue() == ""
