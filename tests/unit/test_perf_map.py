"""benchmarks/perf_map.py names numba's compiled functions by their Python paths for perf."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "perf_map.py"


def _module():
    spec = importlib.util.spec_from_file_location("perf_map", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_numba_symbols_read_as_python_paths() -> None:
    readable = _module().readable
    assert readable("_ZN7simcore6engine4deal11resume_dealB4v267B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMV"
                     "C_2fAwA_3dE891DealState") == "simcore.engine.deal.resume_deal"
    assert readable("_ZN7simcore6engine6kernel20_build_entry_kernels12_3clocals_3e13play_rollouts"
                    "B3v30B48c8tJ") == ("simcore.engine.kernel._build_entry_kernels.<locals>."
                                        "play_rollouts")
    assert readable("cfunc_wrapper") == "cfunc_wrapper"  # not a mangled name: as it is
