"""A griffe extension for the API reference: simcore's docstrings are reST-flavoured plain text
(``code``, :func:`roles`, doctests), and mkdocstrings renders Markdown. Before rendering, every
docstring gets

- its doctest blocks (a ``>>>`` line and the lines after it up to a blank line) fenced as
  ``pycon`` code, so their output is shown as code and never read as Markdown links;
- its reST roles (``:func:`~simcore.rules.get_rules```) turned into code spans.

The docstrings in the source are not changed (the doctests still run under pytest).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj|const|py:\w+):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    if match.group(1):  # ~a.b.c shows as c
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *block, f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _in_literal(text: str) -> list[tuple[int, int]]:
    """Spans of fenced blocks, where roles stay as they are."""
    return [m.span() for m in re.finditer(r"```.*?```", text, flags=re.DOTALL)]


def rewrite(text: str) -> str:
    """The Markdown form of one docstring."""
    text = _fence_doctests(text)
    spans = _in_literal(text)
    out, last = [], 0
    for start, end in spans:
        out.append(_ROLE.sub(_role, text[last:start]))
        out.append(text[start:end])
        last = end
    out.append(_ROLE.sub(_role, text[last:]))
    return "".join(out)


class DocstringsToMarkdown(griffe.Extension):
    """Rewrite every docstring of the loaded package (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        seen: set[int] = set()
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = rewrite(obj.docstring.value)
            stack.extend(m for m in obj.members.values() if not m.is_alias)
