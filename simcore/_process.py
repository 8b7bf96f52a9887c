"""A helper process that must not outlive the process that started it: the run's workers
(runner/execute.py) and the second process of a cold compile (simcore/engine/compile/prewarm.py)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

# How often a helper's watchdog thread checks that its parent process is still there.
PARENT_POLL_S = 0.5
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def watch_parent(
    parent_pid: int, poll_s: float = PARENT_POLL_S, death_signal: bool = True
) -> None:
    """End this process when the process that started it is gone (a worker initializer).

    A ``kill -9`` of ``simcore run`` used to leave its workers alive for minutes: they wait on
    the pool's call queue, whose write end they hold themselves, so they never see EOF. Two
    mechanisms, because the engine's kernels hold the GIL for a whole chunk:

    - on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker as soon as
      its parent dies, GIL or not. The parent is the forkserver (which exits when the run's
      process dies, at EOF on its pipe) or, under "spawn", the run's process itself;
    - everywhere, a daemon thread that polls every ``poll_s`` seconds whether the direct parent
      changed or ``parent_pid`` no longer exists, and then exits at once (``os._exit``): a
      worker's state is never worth saving, the parent alone writes the run directory.

    ``death_signal=False`` leaves out the first (the tests check each mechanism alone).
    """
    start_ppid = os.getppid()
    if death_signal and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the thread alone watches
            pass
    if os.getppid() != start_ppid or not _pid_alive(parent_pid):
        os._exit(1)  # the parent died before the death signal was armed
    thread = threading.Thread(
        target=_poll_parent, args=(parent_pid, start_ppid, poll_s), daemon=True,
        name="simcore-parent-watchdog",
    )
    thread.start()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (the pid was reused)
        return False
    return True


def _poll_parent(parent_pid: int, start_ppid: int, poll_s: float) -> None:
    while True:
        time.sleep(poll_s)
        if os.getppid() != start_ppid or not _pid_alive(parent_pid):
            os._exit(1)
