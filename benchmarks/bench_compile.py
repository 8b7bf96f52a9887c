"""Cold-cache cost of the first commands a new user runs: wall time, CPU time, peak memory.

    python benchmarks/bench_compile.py [--deals 100000] [--keep DIR]

Runs, in a fresh numba cache (``NUMBA_CACHE_DIR`` in a new temporary folder, so nothing of an
earlier compile is reused; the lookup tables stay in their own cache), one after the other:
``simcore run --deals N``, ``simcore replay``, ``simcore score``, ``simcore whatif``, then the
same four again warm. The first ``run`` pays for compiling the engine; the commands after it
should only load it (the engine has one entry kernel, issue 12). Each row is one process tree:
wall seconds, CPU seconds of the command and its workers, and the peak resident memory of the
largest process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

COMMANDS = {
    "run": ["run", "--deals", "{deals}", "--out", "{tmp}/run", "--force"],
    "replay": ["replay", "--seed", "7", "--deal", "3"],
    "score": ["score", "123567234888s99s"],
    "whatif": ["whatif", "1123455789m46p9s", "--deals", "2000"],
}


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, exit code) of ``simcore ARGS``: ``os.wait4`` gives the
    process's own usage plus that of the workers it waited for (CPU summed, memory the peak)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "simcore.cli", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read() if proc.stderr else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code:
        print(stderr, file=sys.stderr)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--keep", help="use this numba cache folder (default: a new temporary one)")
    args = parser.parse_args()
    print(describe_machine())
    tmp = Path(tempfile.mkdtemp(prefix="simcore-bench-compile-"))
    cache = Path(args.keep) if args.keep else tmp / "numba-cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    print(f"numba cache: {cache} ({'reused' if args.keep else 'new, cold'})")
    print(f"{'command':28} {'pass':5} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
    failed = 0
    try:
        for state in ("first", "again"):
            for name, template in COMMANDS.items():
                cmd = [a.format(deals=args.deals, tmp=tmp) for a in template]
                wall, cpu, rss, rc = measure(cmd, env)
                failed |= rc != 0
                label = f"{name} " + " ".join(cmd[1:3]) if name != "run" else \
                    f"run --deals {args.deals}"
                print(f"{label[:28]:28} {state:5} {wall:8.1f} {cpu:8.1f} {rss:8.0f}"
                      + ("  FAILED" if rc else ""), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
