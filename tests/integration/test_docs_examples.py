"""Every code example of the README and the documentation site runs, and shows what it prints.

The conventions (also in docs/developer/docs.md, for the writers):

- a ```python block runs as its own script, in a fresh process whose working directory is a
  temporary folder, so an example that starts worker processes needs its
  ``if __name__ == "__main__":`` guard, as it would pasted into a user's file;
- a ```text block right after it (blank lines between at most) is that script's expected
  standard output, compared as doctest compares (``...`` matches anything, runs of whitespace
  are equal);
- a ```console block is a shell session: each ``$ `` line runs in the page's temporary folder
  (shared by the console blocks of one page, in page order), and the lines up to the next
  ``$ `` are what it prints (standard output, plus standard error when the
  command fails, as a terminal shows an error);
- ```bash blocks, and any block right after a ``<!-- no-run -->`` line, are not run (installs,
  hour-long jobs).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NO_RUN = "<!-- no-run -->"
FENCE = re.compile(r"^```(\w*)\s*$")
TIMEOUT = 600
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Example:
    """One runnable block: where it is, its language, its code, the output it shows (or None)."""

    page: Path
    line: int
    lang: str
    code: str
    shown: str | None

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _blocks(text: str) -> list[tuple[int, str, str, bool]]:
    """``(line, lang, body, runnable)`` of every fenced block, in page order."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        start, lang = i, opened.group(1)
        previous = next((x.strip() for x in reversed(lines[:start]) if x.strip()), "")
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            i += 1
        body = "\n".join(lines[start + 1 : i]) + "\n"
        blocks.append((start + 1, lang, body, previous != NO_RUN))
        i += 1
    return blocks


def _adjacent(text: str, first_line: int, second_line: int) -> bool:
    """Whether only blank lines separate the block ending before ``second_line``'s fence."""
    lines = text.splitlines()[first_line - 1 : second_line - 1]
    closing = max(k for k, x in enumerate(lines) if x.rstrip() == "```")
    return all(not x.strip() for x in lines[closing + 1 :])


def examples(page: Path) -> list[Example]:
    """The page's runnable ``python`` and ``console`` blocks, each with its shown output."""
    text = page.read_text(encoding="utf-8")
    blocks = _blocks(text)
    found = []
    for k, (line, lang, body, runnable) in enumerate(blocks):
        if not runnable or lang not in ("python", "console"):
            continue
        shown = None
        if lang == "python" and k + 1 < len(blocks):
            next_line, next_lang, next_body, _ = blocks[k + 1]
            if next_lang == "text" and _adjacent(text, line, next_line):
                shown = next_body
        found.append(Example(page, line, lang, body, shown))
    return found


ALL = [e for page in PAGES for e in examples(page)]
# a page's console blocks are one session: a later block reads what an earlier one wrote
_page_folders: dict[Path, Path] = {}


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    # the examples import this checkout's simcore whatever the working directory
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _check(shown: str, got: str, where: str) -> None:
    if not CHECKER.check_output(shown, got, FLAGS):
        raise AssertionError(f"{where} shows\n{shown}\nbut printed\n{got}")


def _run_python(example: Example, folder: Path) -> None:
    script = folder / "example.py"
    script.write_text(example.code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=folder, env=_environment(),
                          capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0:
        raise AssertionError(f"{example.id} exited {done.returncode}:\n{done.stderr[-3000:]}")
    if example.shown is not None:
        _check(example.shown, done.stdout, example.id)


def _commands(body: str) -> list[tuple[str, str]]:
    """``(command, shown output)`` pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console text before the first '$ ' command: {line!r}")
    return [(command, "\n".join(out).strip() + "\n" if any(out) else "") for command, out in pairs]


def _run_console(example: Example, folder: Path) -> None:
    folder = _page_folders.setdefault(example.page, folder)
    bin_dir = str(Path(sys.executable).parent)
    env = _environment()
    env["PATH"] = os.pathsep.join([bin_dir, env.get("PATH", "")])
    for command, shown in _commands(example.code):
        done = subprocess.run(command, shell=True, cwd=folder, env=env, capture_output=True,
                              text=True, timeout=TIMEOUT)
        where = f"{example.id} `{command}`"
        got = done.stdout
        if done.returncode != 0:
            if not shown:
                raise AssertionError(f"{where} exited {done.returncode}:\n{done.stderr[-3000:]}")
            got = done.stdout + done.stderr
        if shown:
            _check(shown, got, where)


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_example_runs_and_prints_what_it_shows(example: Example, tmp_path: Path) -> None:
    if example.lang == "python":
        _run_python(example, tmp_path)
    else:
        _run_console(example, tmp_path)


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120, f"README.md has {len(lines)} lines; the site holds the rest"


USER_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
              *sorted((ROOT / "notebooks").glob("*.py"))]
HISTORY = re.compile(r"\b(session|issue)s? #?\d+", re.IGNORECASE)


@pytest.mark.parametrize("page", USER_PAGES, ids=[str(p.relative_to(ROOT)) for p in USER_PAGES])
def test_no_session_or_issue_numbers_in_user_documents(page: Path) -> None:
    hits = [m.group(0) for m in HISTORY.finditer(page.read_text(encoding="utf-8"))]
    assert not hits, f"{page.relative_to(ROOT)} names {hits[:5]}: history belongs in git"


def test_the_parser_reads_every_convention() -> None:
    page = ROOT / "tests" / "example_page.md"
    text = (
        "```python\nprint(1)\n```\n\n```text\n1\n```\n"
        "<!-- no-run -->\n```python\nraise SystemExit(3)\n```\n"
        "```bash\npip install .\n```\n"
        "```console\n$ echo a\na\n$ true\n```\n"
    )
    blocks = _blocks(text)
    assert [(lang, runnable) for _, lang, _, runnable in blocks] == [
        ("python", True), ("text", True), ("python", False), ("bash", True), ("console", True)]
    try:
        page.write_text(text, encoding="utf-8")
        found = examples(page)
    finally:
        page.unlink()
    assert [(e.lang, e.shown) for e in found] == [("python", "1\n"), ("console", None)]
    assert _commands(found[1].code) == [("echo a", "a\n"), ("true", "")]
    with pytest.raises(AssertionError, match="shows"):
        _check("2\n", "1\n", "here")
    _check("a ... c\n", "a b  c\n", "here")
