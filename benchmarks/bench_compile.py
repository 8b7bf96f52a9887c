"""Cold-cache cost of the first commands a new user runs: wall time, CPU time, peak memory.

    python benchmarks/bench_compile.py [--deals 100000] [--keep DIR]

Runs, in a fresh numba cache (``NUMBA_CACHE_DIR`` in a new temporary folder, so nothing of an
earlier compile is reused; the lookup tables stay in their own cache), one after the other:
``simcore run --deals N``, ``simcore replay``, ``simcore score``, ``simcore whatif``,
``simcore advise`` (a discard of the replayed deal), then the same again warm. The first ``run``
pays for compiling the engine; ``replay``, ``score`` and ``whatif`` should only load it (one
entry kernel, issue 12); ``advise`` compiles the rollout kernel (``play_rollouts``), a kernel
of its own, so that a batch run does not compile rollouts (issue 27), loading the turn loop the
run compiled (prewarm.SHARED_ROOTS). A cold compile runs in two processes
(simcore/engine/compile/prewarm.py). Then a first ``simcore run`` seating the expert family
compiles the second kernel, and an ``advise`` at its defaults (expert rollouts in an expert
field) the expert's rollout kernel. Each row is one process tree: wall seconds,
CPU seconds of the command and its helpers, the peak resident memory of the largest process,
and the peak of the whole tree's memory at once (sampled every 0.1 s from /proc).

Measured on the 2-core VM, cold ``run --deals 100000`` (issue 12's target: 90 s, 1.5 GB):

    at the issue's filing          5 min 45 s   2.7 GB   (three entry kernels, each compiled)
    one entry kernel with the      268 s        1.15 GB   (session 4)
      expert family compiled in
    LLVM inlining, expert apart    202 s        950 MB   (session 5)
    one compile per type, the      99 s         699 MB   (session 6)
      deal's layers IR-inlined
    two processes (prewarm.py)     75.6 s       1.27 GB for the tree, 623 MB the largest
                                                         (session 7; expert kernel 86 s)
    rollouts in the entry kernel   85.3 s       1.71 GB   (--deals 2000; d63d7e0: 49.7 s)
    rollouts a kernel of their own 52.7 s       1.27 GB   (--deals 2000; a first advise 91 s)
    play_rollouts, no batch loop   69.3 s       1.37 GB   (--deals 2000 on a slower day;
      nor setup in it                                     advise after it 69.0 s, 99.9 s
                                                          before, the same day)
    the turn loop one cached      63.5 s       1.23 GB   (--deals 2000; advise after it 21.2 s,
      function of both kernels                           71.7 s before, the same hour)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

COMMANDS = {
    "run": ["run", "--deals", "{deals}", "--out", "{tmp}/run", "--force"],
    "replay": ["replay", "--seed", "7", "--deal", "3"],
    "score": ["score", "123567234888s99s"],
    "whatif": ["whatif", "1123455789m46p9s", "--deals", "2000"],
    # a discard decision of the replayed deal: the rollout kernel, a kernel of its own (issue 27)
    "advise": ["advise", "--seed", "7", "--deal", "3", "--seat", "0", "--step", "31",
               "--policy", "speed", "--field", "speed", "--samples", "2000", "--seconds", "0"],
    "run --policies expert": ["run", "--policies", "expert/speed/speed/speed", "--deals", "2000",
                              "--out", "{tmp}/run-expert", "--force"],
    # advice's defaults (expert rollouts in an expert field) after a run seating the expert
    "advise --policy expert": ["advise", "--seed", "7", "--deal", "3", "--seat", "0", "--step",
                               "31", "--samples", "500", "--seconds", "0"],
}


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, peak tree RSS MB, exit code) of ``simcore ARGS``:
    ``os.wait4`` gives the process's own usage plus that of the helpers it waited for (CPU
    summed, memory the largest process's peak); a thread samples the tree's total."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "simcore.cli", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    tree_peak = [0.0]
    done = threading.Event()
    sampler = threading.Thread(target=_sample_tree, args=(proc.pid, tree_peak, done),
                               daemon=True)
    sampler.start()
    stderr = proc.stderr.read() if proc.stderr else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    sampler.join()
    code = os.waitstatus_to_exitcode(status)
    if code:
        print(stderr, file=sys.stderr)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, tree_peak[0], code


def _sample_tree(root: int, peak: list[float], done: threading.Event) -> None:
    """Keep in ``peak[0]`` the largest total RSS (MB) of ``root`` and its descendants."""
    while not done.wait(0.1):
        parent_of, rss = {}, {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            parent_of[int(entry.name)] = int(fields.get("PPid", "0"))
            rss[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0]) / 1024
        tree, frontier = {root}, [root]
        while frontier:
            parent = frontier.pop()
            children = [pid for pid, ppid in parent_of.items() if ppid == parent]
            tree.update(children)
            frontier += children
        peak[0] = max(peak[0], sum(rss.get(pid, 0.0) for pid in tree))


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
    print(f"{'command':28} {'pass':5} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'tree MB':>8}")
    failed = 0
    try:
        for state in ("first", "again"):
            for name, template in COMMANDS.items():
                cmd = [a.format(deals=args.deals, tmp=tmp) for a in template]
                wall, cpu, rss, tree, rc = measure(cmd, env)
                failed |= rc != 0
                label = {"run": f"run --deals {args.deals}", "replay": "replay --seed 7",
                         "score": "score 123567234888s99s",
                         "whatif": "whatif 1123455789m46p9s",
                         "advise": "advise --step 31"}.get(name, name)
                print(f"{label[:28]:28} {state:5} {wall:8.1f} {cpu:8.1f} {rss:8.0f} {tree:8.0f}"
                      + ("  FAILED" if rc else ""), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
