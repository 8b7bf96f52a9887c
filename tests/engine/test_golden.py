"""Regression: the engine's records, replay logs and what-if runs equal the stored golden hashes
(tests/engine/golden/golden.json, quick set: 532 hashes over the eight presets and every policy
family and option), and a few replay logs equal their readable text
(tests/engine/golden/replay_*.txt), so a change shows line by line in a diff. A speed-up must keep
every hash and every log; a deliberate rule, policy or log change regenerates them:
``python benchmarks/golden_check.py --write tests/engine/golden/golden.json [--quick]`` and
``python benchmarks/golden_replays.py --write``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden_module(name: str = "golden_check"):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_engine_output_equals_the_golden_hashes():
    stored = json.loads((GOLDEN / "golden.json").read_text())["quick"]
    computed = _golden_module().compute(quick=True)
    assert computed.keys() == stored.keys()
    changed = sorted(k for k in stored if computed[k] != stored[k])
    assert not changed, f"{len(changed)} of {len(stored)} golden hashes changed, e.g. {changed[:3]}"


def test_replay_logs_equal_the_golden_text():
    module = _golden_module("golden_replays")
    computed = module.logs()
    assert len(computed) == len(module.CASES) >= 5
    assert {name.split("_")[1] for name in computed} == {"classic", "baike", "qq", "app", "tfmj"}
    diffs = module.differences(computed)
    assert not diffs, (
        f"{len(diffs)} replay logs changed (if deliberate: python benchmarks/golden_replays.py "
        "--write):\n" + "\n".join(diffs)[:6000])
