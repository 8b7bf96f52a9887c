"""The results page's table of answers x fields, made from the experiments' result tables.

One row per strategy answer (an experiment's variant in the seat, per preset), one column per
field: the switching gain in net (units per deal, first seed) with its 95% interval, bold where
the interval excludes 0, and a last column saying whether the sign holds in every field.
``experiments/run_all.py`` writes it into the results page of the documentation,
``docs/results/index.md``, between :data:`README_START` and :data:`README_END` (and into any
other page given with ``--readme``), so the page never shows a figure the code no longer gives.

>>> t = pd.DataFrame({"preset": ["classic"] * 2, "policy": ["speed:kong=always"] * 2,
...                   "baseline": ["speed"] * 2, "field": ["speed", "expert"],
...                   "estimand": ["switching_gain"] * 2, "metric": ["net"] * 2, "seed": [0, 0],
...                   "estimate": [0.155, 0.12], "ci_low": [0.14, -0.01],
...                   "ci_high": [0.17, 0.25]})
>>> row = answer_rows("kong_timing", t, ("speed", "expert"))[0]
>>> row["in the seat"], row["speed"], row["expert"], row["sign"]
('kong=always', '**+0.155** [+0.140, +0.170]', '+0.120 [−0.010, +0.250]', 'holds')
>>> answers_markdown({"kong_timing": t}, ("speed", "expert")).splitlines()[0]
'| question | preset | in the seat | speed | expert | sign |'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

README_START = "<!-- answers x fields: written by experiments/run_all.py -->"
README_END = "<!-- end of the answers x fields -->"
HEADLINE = "switching_gain"


def _number(x: float) -> str:
    return f"{x:+.3f}".replace("-", "−")


def _cell(row: pd.Series) -> str:
    strong = row["ci_low"] > 0 or row["ci_high"] < 0
    estimate = _number(row["estimate"])
    return (f"{'**' + estimate + '**' if strong else estimate} "
            f"[{_number(row['ci_low'])}, {_number(row['ci_high'])}]")


def _short(policy: str, baseline: str) -> str:
    """The variant as a reader says it: ``kong=always`` for ``speed:kong=always``."""
    prefix = baseline + ":"
    return policy[len(prefix):] if policy.startswith(prefix) else policy


def _sign_text(rows: Sequence[dict], fields: Sequence[str]) -> str:
    """``holds``, or the fields where the sign differs from the first field's, marked n.s.
    when every interval involved covers 0 (a flip of noise, not of the answer)."""
    signs = [float(np.sign(r["estimate"])) for r in rows]
    nonzero = [(s, f, r) for s, f, r in zip(signs, fields, rows, strict=True) if s != 0]
    if not nonzero:
        return "0 everywhere"
    first = nonzero[0][0]
    flips = [(f, r) for s, f, r in nonzero if s != first]
    if not flips:
        return "holds"
    involved = [nonzero[0][2], *(r for _, r in flips)]
    noise = all(r["ci_low"] <= 0 <= r["ci_high"] for r in involved)
    return "flips under " + ", ".join(f for f, _ in flips) + (" (n.s.)" if noise else "")


def answer_rows(name: str, table: pd.DataFrame, fields: Sequence[str]) -> list[dict[str, str]]:
    """The rows of one experiment: its net switching gains against ``speed`` in the seat, first
    seed, for the answers measured in more than one of ``fields``."""
    needed = {"estimand", "metric", "field", "policy", "baseline", "estimate"}
    if not needed <= set(table.columns):
        return []
    gains = table[(table["estimand"] == HEADLINE) & (table["metric"] == "net")
                  & table["field"].isin(fields)].dropna(subset=["estimate"])
    if "seed" in gains.columns and len(gains):
        gains = gains[gains["seed"] == gains["seed"].min()]
    keys = [k for k in ("preset", "policy", "baseline") if k in gains.columns]
    rows = []
    for key, part in gains.groupby(keys, sort=False):
        values = dict(zip(keys, key, strict=True))
        by_field = {f: r for f, r in zip(part["field"], part.to_dict("records"), strict=True)}
        present = [f for f in fields if f in by_field]
        if len(present) < 2:
            continue
        seat = _short(str(values["policy"]), str(values["baseline"]))
        if "k" in part.columns and "k=" not in seat and pd.notna(part["k"].iloc[0]):
            # canonical specs drop defaults (flush:k=8 is "flush"): the threshold is the answer
            seat += f"{',' if ':' in seat else ':'}k={int(part['k'].iloc[0])}"
        row = {"question": name, "preset": str(values.get("preset", "")), "in the seat": seat}
        for f in fields:
            row[f] = _cell(pd.Series(by_field[f])) if f in by_field else ""
        row["sign"] = _sign_text([by_field[f] for f in present], present)
        rows.append(row)
    return rows


def answers_markdown(tables: Mapping[str, pd.DataFrame], fields: Sequence[str]) -> str:
    """The markdown table of every experiment's answers (``tables``: name -> result table)."""
    rows = [r for name, table in tables.items() for r in answer_rows(name, table, fields)]
    if not rows:
        return ""
    columns = ["question", "preset", "in the seat", *fields, "sign"]
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    lines += ["| " + " | ".join(r[c] for c in columns) + " |" for r in rows]
    return "\n".join(lines)


def replace_in_readme(readme: Path, text: str) -> bool:
    """Put ``text`` between the markers of a page (the results page, a README); False (the page
    unchanged) without them."""
    content = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(README_START) + r".*?" + re.escape(README_END), re.S)
    if not pattern.search(content):
        return False
    block = f"{README_START}\n{text}\n{README_END}"
    readme.write_text(pattern.sub(lambda _m: block, content), encoding="utf-8")
    return True


PAGE = "index.md"  # the results page, in the figures' folder (docs/results/index.md)


def write_answers(tables: Mapping[str, pd.DataFrame], fields: Sequence[str], seed: int,
                  out_dir: Path, readme: Path | None = None) -> Path:
    """Put the table between the markers of ``out_dir/index.md`` (the results page) and, when
    given, of ``readme``; returns the page. A missing page is created (a heading, the seed, the
    marked table); a page without the markers gets the marked table appended."""
    text = answers_markdown(tables, fields)
    path = Path(out_dir) / PAGE
    if not path.exists():
        path.write_text(f"# Answers x fields\n\nSwitching gain in net (units per deal, seed "
                        f"{seed}, 95% intervals; bold: the interval excludes 0). Regenerate "
                        "with `python experiments/run_all.py`.\n\n"
                        f"{README_START}\n{README_END}\n", encoding="utf-8")
    if not replace_in_readme(path, text):
        with path.open("a", encoding="utf-8") as page:
            page.write(f"\n{README_START}\n{text}\n{README_END}\n")
    if readme is not None:
        replace_in_readme(readme, text)
    return path
