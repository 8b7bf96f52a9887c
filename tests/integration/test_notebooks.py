"""Every notebook is paired with its jupytext script and the two hold the same cells; pytest runs
the notebooks themselves through nbmake (see pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import jupytext
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
REQUIRED = ("01_overview", "02_speed_vs_flush", "03_rules_compared", "04_strategy_choices",
            "whatif")


def test_required_notebooks_exist():
    for name in REQUIRED:
        assert (NOTEBOOKS / f"{name}.ipynb").exists(), name
        assert (NOTEBOOKS / f"{name}.py").exists(), name


@pytest.mark.parametrize("notebook", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_matches_its_script(notebook):
    script = notebook.with_suffix(".py")
    assert script.exists(), f"{notebook.name} has no paired jupytext script"
    cells = [(c.cell_type, c.source.strip()) for c in jupytext.read(notebook).cells]
    scripted = [(c.cell_type, c.source.strip()) for c in jupytext.read(script).cells]
    assert cells == scripted, (
        f"{notebook.name} and {script.name} differ: run jupytext --sync {script}"
    )


@pytest.mark.parametrize("script", sorted(NOTEBOOKS.glob("[0-9]*.py")), ids=lambda p: p.stem)
def test_experiment_notebooks_take_a_deal_count(script):
    """Every numbered notebook has its size in one constant: ``DEALS`` for those that read an
    experiment's results (or run it small), ``SAMPLES`` (hidden states) for the advisor's and
    the review's."""
    text = script.read_text(encoding="utf-8")
    if "simcore.advise(" in text or "review_deal(" in text:
        assert "\nSAMPLES = " in text
    else:
        assert "\nDEALS = " in text and "result_or_run" in text
    assert "simcore.engine" not in text  # analysis only: no engine code in cells
