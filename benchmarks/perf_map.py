"""Name the engine's compiled functions for ``perf``: where an expert rollout spends its time.

numba loads the cached engine as object code, so ``perf report`` shows its functions as bare
addresses of ``[JIT]``. This script plays advice rollouts (or batch deals) after writing
``/tmp/perf-PID.map``, the file ``perf`` reads a JIT's symbols from: each function of the
object code numba loaded (``nm`` on it), at the address the execution engine gave it, named
as its Python path (``simcore.engine.policies.expert._value``). Run it under perf, which
this script tells (through a FIFO) to sample the rollouts only, not the loading before them::

    mkfifo /tmp/perf.ctl
    perf record -D -1 --control fifo:/tmp/perf.ctl -o /tmp/perf.data \
        python benchmarks/perf_map.py --policies expert --control /tmp/perf.ctl
    perf report -i /tmp/perf.data --no-children --sort symbol

``--deals N`` samples N batch deals of four ``--policies`` seats under ``classic`` instead
(what ``bench_expert.py --throughput`` times): four expert seats at ba028e9 spent 26% + 4% in
``_value``, 15% in ``choose_discard``, 11% in the turn loop, 8% in ``_best_discard``, 6% in
``_read_table``, 5% in ``_mask_two`` and 3% in ``_dead_waits_back``.

Found this way (b374127, eight positions of ``bench_advise.py``): an expert rollout spends 32%
in ``_value``, 12% in the turn loop (``resume_deal``), 12% in ``choose_discard``, 10% in
``_best_discard`` and 5% in ``_read_table``; the scoring kernels, the table lookups
(``_mask_two``, ``_wait_mask``) and ``win_probability`` about 2% each. Needs ``nm``
(binutils); ``perf`` only to read the result.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from numba.core import codegen

sys.path.insert(0, str(Path(__file__).parent))

_loaded: list[bytes] = []  # the object code of every library numba loads from its cache


def _keep_object_code() -> None:
    """Keep the object code numba loads from its cache (it drops it once linked)."""
    unserialize = codegen.CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]

    def keeping(cls, codegen_, state):
        if state[1] == "object":
            _loaded.append(state[2][0])
        return unserialize(cls, codegen_, state)

    codegen.CPUCodeLibrary._unserialize = classmethod(keeping)  # type: ignore[method-assign]


def readable(symbol: str) -> str:
    """``_ZN7simcore6engine4deal11resume_dealB4v267...`` -> ``simcore.engine.deal.resume_deal``
    (numba's mangled names: the Itanium nested-name parts, then the ABI tags and types)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        m = re.match(r"\d+", symbol[i:])
        assert m is not None
        n = int(m.group())
        i += len(m.group())
        parts.append(symbol[i:i + n])
        i += n
    name = ".".join(parts).replace("_3clocals_3e", "<locals>")
    return name or symbol


def write_map(path: Path) -> int:
    """Write ``path`` (perf's JIT map: start, size and name in hex) for every function of the
    loaded object code; returns how many."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine._ee
    lines, seen = [], set()
    for code in _loaded:
        with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as fh:
            fh.write(code)
        try:
            table = subprocess.run(["nm", "-S", "--defined-only", fh.name], check=True,
                                   capture_output=True, text=True).stdout
        finally:
            os.unlink(fh.name)
        for row in table.splitlines():
            fields = row.split()
            if len(fields) != 4 or fields[2] not in "tTwW" or fields[3] in seen:
                continue
            address = engine.get_function_address(fields[3])
            if address:
                seen.add(fields[3])
                lines.append(f"{address:x} {int(fields[1], 16):x} {readable(fields[3])}")
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def _tell_perf(fifo: str | None, command: str) -> None:
    if fifo:
        with open(fifo, "w") as fh:
            fh.write(command + "\n")


def _sampled(control: str | None, what: str, work: Callable[[], int]) -> None:
    """Name the loaded functions for perf, then run ``work`` (which returns how many ``what``
    it played) with perf sampling it alone, and print the rate."""
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    print(f"{write_map(path)} functions named in {path}", file=sys.stderr)
    _tell_perf(control, "enable")
    t0 = time.perf_counter()
    count = work()
    seconds = time.perf_counter() - t0
    _tell_perf(control, "disable")
    print(f"{count:,} {what} in {seconds:.1f} s: {count / seconds:,.0f}/s, one thread",
          file=sys.stderr)


def _batch_deals(args: argparse.Namespace) -> None:
    from simcore.engine.api import simulate
    from simcore.rules import get_rules

    rules = get_rules("classic")
    simulate(rules, [args.policies] * 4, 0, 0, 10)  # loaded (or compiled) before sampling

    def play() -> int:
        simulate(rules, [args.policies] * 4, 0, 0, args.deals)
        return args.deals

    _sampled(args.control, "deals", play)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="expert", help="rollout and field policy")
    ap.add_argument("--positions", type=int, default=8, help="of bench_advise.py's 20")
    ap.add_argument("--samples", type=int, default=2048, help="hidden states a position")
    ap.add_argument("--control", help="perf's control FIFO: enabled for the rollouts (or the "
                                      "deals) only")
    ap.add_argument("--deals", type=int, default=0,
                    help="instead of rollouts, this many batch deals of four --policies seats "
                         "under classic (what bench_expert.py --throughput times)")
    args = ap.parse_args()
    if args.deals < 0:
        ap.error(f"--deals must be 0 (rollouts) or more, not {args.deals}")
    _keep_object_code()
    if args.deals > 0:
        _batch_deals(args)
        return
    from bench_advise import loaded_positions

    from simcore import advise

    positions = loaded_positions(args.policies, args.positions)

    def roll() -> int:
        rollouts = 0
        for p in positions:
            table = advise(p, args.policies, args.policies, samples=args.samples, seconds=None,
                           confirm=False, threads=1, allocation=False)
            rollouts += table.attrs["rollouts"]
        return rollouts

    _sampled(args.control, "rollouts", roll)


if __name__ == "__main__":
    main()
