"""Regression: the engine's records, replay logs and what-if runs equal the stored golden hashes
(benchmarks/golden.json, quick set: 137 cases over five presets and every policy family and
option). A speed-up must keep every hash; a deliberate rule or policy change regenerates them:
``python benchmarks/golden_check.py --write benchmarks/golden.json [--quick]``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _golden_module():
    spec = importlib.util.spec_from_file_location("golden_check", BENCHMARKS / "golden_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_engine_output_equals_the_golden_hashes():
    stored = json.loads((BENCHMARKS / "golden.json").read_text())["quick"]
    computed = _golden_module().compute(quick=True)
    assert computed.keys() == stored.keys()
    changed = sorted(k for k in stored if computed[k] != stored[k])
    assert not changed, f"{len(changed)} of {len(stored)} golden hashes changed, e.g. {changed[:3]}"
