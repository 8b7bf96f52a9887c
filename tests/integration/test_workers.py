"""Workers of a run end when the run's process is killed (no orphans): each mechanism of
:func:`simcore.runner.execute.watch_parent` alone, on an idle worker, without the engine. The
whole story (kill -9 of ``simcore run`` mid-run, then ``--resume``) is in test_runner.py."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.processes import HAS_PROC, descendants, still_running

ROOT = Path(__file__).resolve().parents[2]

WATCHED_POOL = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from simcore.runner.execute import _process_context, watch_parent
if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=_process_context(), initializer=watch_parent,
                               initargs=(os.getpid(), 0.1, sys.argv[1] == "1"))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(600)
"""


@pytest.mark.skipif(not HAS_PROC, reason="finds the workers in /proc")
@pytest.mark.parametrize("death_signal", [True, False], ids=["pdeathsig", "polling"])
def test_a_worker_ends_when_its_parent_is_killed(tmp_path: Path, death_signal: bool) -> None:
    """Either mechanism of execute.watch_parent alone ends an idle worker within 5 s."""
    parent = subprocess.Popen([sys.executable, "-c", WATCHED_POOL, str(int(death_signal))],
                              stdout=subprocess.PIPE, cwd=ROOT, start_new_session=True)
    try:
        worker = int(parent.stdout.readline())  # type: ignore[union-attr]
        children = descendants(parent.pid)
        assert worker in children
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 5
        while still_running(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not still_running(children)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
