"""Every script of ``benchmarks/`` and ``experiments/`` answers ``--help`` (argparse formats help
texts with ``%``: a section's docstring saying "15%" once broke ``bench_expert.py --help``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SCRIPTS = sorted(p for folder in ("benchmarks", "experiments") for p in (ROOT / folder).glob("*.py")
                 if not p.name.startswith("_") and "argparse" in p.read_text())


def test_the_scripts_are_found() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"bench_expert.py", "run_all.py", "review_policies.py"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_help(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
