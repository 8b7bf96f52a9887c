"""Warm start-up of the quick commands: median wall (and CPU) seconds over several runs.

Run ``python benchmarks/bench_commands.py [--repeats R] [--phases]``. Each command runs in a
fresh interpreter (``python -m simcore.cli ...``), as a user's shell would run it, after one
untimed run that fills numba's and the suit tables' disk caches ("warm"). The issue's targets:

    simcore --help                      <= 0.3 s   (no numba import)
    simcore policies                    <= 0.3 s   (no numba import)
    simcore score 123567234888s99s      <= 1.0 s
    simcore replay --seed 7 --deal 3    <= 1.5 s

Wall time on a shared machine includes waiting for a core, so CPU time (user + system of the
child) is printed beside it, with the load average. ``--phases`` splits a warm ``replay`` into
its steps (imports, suit tables, loading the cached kernel, playing the deal, the text log).

Measured on the 2-core VM (Xeon 2.80 GHz, load ~1.3), median wall of 7 warm runs:

    command                 before (42b1045)   after    what changed
    simcore --help               1.8 s         0.04 s   command modules imported lazily
    simcore policies             1.8 s         0.06 s   ... and engine.spec free of numba/numpy
    simcore score HAND           2.6 s         0.66 s   only the score module is imported
    simcore replay               ~4 s (issue)  1.45 s   no other command, no pandas

A warm replay is then python + numpy 0.11 s, import numba 0.17 s, the engine modules 0.08 s,
the suit tables 0.07 s and 0.86 s in the first call of the cached kernel: numba's
``load_overload``, about half of it ``BaseContext.refresh`` importing numba's typing
registries, the rest loading the engine's object code (the kernel's size is the lead's part).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "simcore --help": (["--help"], 0.3),
    "simcore policies": (["policies"], 0.3),
    "simcore score 123567234888s99s": (["score", "123567234888s99s"], 1.0),
    "simcore replay --seed 7 --deal 3": (["replay", "--seed", "7", "--deal", "3"], 1.5),
}

PHASES = r"""
import json, sys, time
t0 = time.perf_counter()
marks = {}
def mark(name):
    marks[name] = round(time.perf_counter() - t0 - sum(marks.values()), 3)
import numpy; mark("python + numpy")
import numba; mark("import numba")
import simcore.engine.replay as r; mark("import the engine modules")
from simcore.hand.tables import load_tables; load_tables(); mark("load the suit tables")
events, rec = r.replay(7, 3, as_frame=False); mark("first deal (loads the cached kernel)")
events, rec = r.replay(7, 3, as_frame=False); mark("second deal (kernel loaded)")
text = r.render(events); mark("render the log")
import pandas; mark("import pandas (replay(as_frame=True) only)")
print(json.dumps(marks))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def time_command(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m simcore.cli ARGS`` in a fresh interpreter."""
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "simcore.cli", *args], cwd=ROOT, env=_env(),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    return wall, cpu


def bench_commands(repeats: int = 7) -> list[dict[str, object]]:
    """One row per command: median wall and CPU seconds over ``repeats`` warm runs."""
    rows: list[dict[str, object]] = []
    for name, (args, target) in COMMANDS.items():
        time_command(args)  # warm the caches; not timed
        samples = [time_command(args) for _ in range(repeats)]
        rows.append({
            "command": name,
            "wall_s": round(statistics.median(w for w, _ in samples), 3),
            "cpu_s": round(statistics.median(c for _, c in samples), 3),
            "min_wall_s": round(min(w for w, _ in samples), 3),
            "target_s": target,
        })
    return rows


def replay_phases() -> dict[str, float]:
    """Seconds of each step of a warm ``replay`` in one fresh interpreter."""
    subprocess.run([sys.executable, "-c", PHASES], cwd=ROOT, env=_env(), check=True,
                   capture_output=True)  # warm
    done = subprocess.run([sys.executable, "-c", PHASES], cwd=ROOT, env=_env(), check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per command")
    parser.add_argument("--phases", action="store_true", help="also split a warm replay")
    args = parser.parse_args(argv)
    print(describe_machine())
    rows = bench_commands(args.repeats)
    width = max(len(str(r["command"])) for r in rows)
    print(f"{'command':{width}}  median wall  median CPU  min wall  target")
    for r in rows:
        flag = "ok" if float(r["wall_s"]) <= float(r["target_s"]) else "OVER"  # type: ignore[arg-type]
        print(f"{r['command']:{width}}  {r['wall_s']:9.3f} s  {r['cpu_s']:8.3f} s  "
              f"{r['min_wall_s']:6.3f} s  {r['target_s']:.1f} s {flag}")
    print(f"(median of {args.repeats} warm runs each; load average after: "
          f"{os.getloadavg()[0]:.2f})")
    if args.phases:
        print("\nwarm replay --seed 7 --deal 3, step by step (one process):")
        for step, seconds in replay_phases().items():
            print(f"  {step:45} {seconds:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
