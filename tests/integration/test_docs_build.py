"""The documentation site builds with ``mkdocs build --strict`` (no broken link, anchor or
reference), and its generated tables say what the code says (docs/hooks.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simcore import records, rules

# mkdocs, mkdocs-material, mkdocstrings[python] and mkdocs-jupyter are in the test extra: a
# missing one fails the build below instead of skipping it
ROOT = Path(__file__).resolve().parents[2]


def _hooks():
    spec = importlib.util.spec_from_file_location("simcore_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _rows(table: str) -> list[list[str]]:
    """The body cells of a Markdown table."""
    lines = [line for line in table.splitlines() if line.startswith("|")]
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines[2:]]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-4000:]
    return out


def test_the_site_builds_strict_with_every_generated_block_filled(site: Path) -> None:
    for page in site.rglob("*.html"):
        assert "<!-- gen:" not in page.read_text(encoding="utf-8"), page
    rules_page = (site / "rules" / "index.html").read_text(encoding="utf-8")
    for n in range(1, 10):  # the docstrings cite "the rules reference, section N"
        assert f'id="section-{n}"' in rules_page
    data_page = (site / "reference" / "data" / "index.html").read_text(encoding="utf-8")
    for name in (*records.RECORD_DTYPE.names, *records.WIN_DTYPE.names):
        assert f"<code>{name}</code>" in data_page


def test_every_notebook_is_a_page_of_the_site(site: Path) -> None:
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        page = site / "notebooks" / nb.stem / "index.html"
        assert page.exists(), f"{nb.name} is not rendered"
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [nb.name for nb in (ROOT / "notebooks").glob("*.ipynb")
               if f"notebooks/{nb.name}" not in nav]
    assert not missing, f"notebooks missing from the nav of mkdocs.yml: {missing}"


def test_the_preset_table_is_every_parameter_under_every_preset() -> None:
    hooks = _hooks()
    table = _rows(hooks.gen_rules_presets())
    assert [row[0] for row in table] == [f"`{name}`" for name in rules.PARAMETERS]
    for row in table:
        name = row[0].strip("`")
        for preset, cell in zip(rules.PRESETS, row[1:], strict=True):
            assert cell == hooks._value(getattr(rules.PRESETS[preset], name)), (name, preset)


def test_the_fan_tables_follow_the_presets() -> None:
    hooks = _hooks()
    text = hooks.gen_rules_fan_tables()
    baike = text.split("**`baike`**")[1].split("**`")[0]
    row = next(r for r in _rows(baike) if r[0].startswith("seven pairs"))
    # seven pairs is 2 fan in baike (4 units), with a flush 4 fan, capped at 3 fan: 8 units
    assert row[1:] == ["2", "4", "4", "8", "8"]
    row = next(r for r in _rows(baike) if r[0].startswith("258 pungs"))
    assert row[1:] == ["4", "8", "–", "–", "8"]  # capped; never a full flush
    app = text.split("**`app`**")[1].split("**`")[0]
    row = next(r for r in _rows(app) if r[0].startswith("258 pungs"))
    assert row[1:3] == ["1", "2"]  # absent in app: scores as all pungs


def test_every_parameter_has_a_chinese_term() -> None:
    hooks = _hooks()
    assert set(hooks.PARAMETER_TERMS) == set(rules.PARAMETERS)
    rows = _rows(hooks.gen_rules_parameters())
    assert [r[0] for r in rows] == [f"`{name}`" for name in rules.PARAMETERS]


def test_an_unknown_generated_block_fails_the_build() -> None:
    hooks = _hooks()
    from mkdocs.exceptions import PluginError

    class _Page:
        class file:  # noqa: N801 (the attribute mkdocs pages have)
            src_uri = "x.md"

    with pytest.raises(PluginError, match="unknown generated block 'nope'"):
        hooks.on_page_markdown("a\n<!-- gen:nope -->\n", _Page(), {}, None)
