"""The Python layer type-checks: ``mypy`` over ``simcore`` reports no error (the configuration,
python 3.11 and the libraries without stubs, is ``[tool.mypy]`` in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr
