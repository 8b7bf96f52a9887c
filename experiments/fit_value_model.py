"""Fit the expert's value model on self-play: P(win), P(self-draw) and the fan of a win (issue 30)

Usage: python experiments/fit_value_model.py [--deals N] [--rules R ...] [--policies SPEC]
       [--seed S] [--table PATH] [--out DIR]

Replays N deals per preset (simcore.analysis.value_model.collect_states: one row per discard a
seat chooses, the hand it keeps read from what it sees, and whether it went on to win), fits the
tables of simcore.analysis.value_model.fit_table and the logistic WinChance on the even deals and
scores them on the odd ones against the expert's hand-built win_probability: a reliability table
per decile and the Brier scores, in DIR/expert_value_model.txt (default DIR docs/results). Then
fits the tables on every deal and writes them as a Python module (default
simcore/engine/policies/expert_value_table.py): generated, never typed.
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.analysis.value_model import (
    DRAWS_EDGES,
    LIVE_EDGES,
    PRIOR_ROWS,
    collect_states,
    fit_table,
    value_report,
)

TABLE = Path("simcore/engine/policies/expert_value_table.py")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals per preset")
    ap.add_argument("--rules", nargs="+", default=["classic", "app"])
    ap.add_argument("--policies", default="expert")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--table", default=str(TABLE))
    ap.add_argument("--out", default="docs/results")
    args = ap.parse_args()
    states = pd.concat([collect_states(args.deals, r, args.policies, seed=args.seed)
                        for r in args.rules], ignore_index=True)
    text = value_report(states, args.deals, args.rules, args.policies, args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "expert_value_model.txt").write_text(text)
    print(text)
    write_table(states, args, Path(args.table))


def write_table(states: pd.DataFrame, args: argparse.Namespace, path: Path) -> None:
    won = states[states["won"]]
    tables = {"WIN": fit_table(states, "won"), "SELF_DRAW": fit_table(won, "self_draw"),
              "FAN": fit_table(won, "fan")}
    body = [
        f'"""P(win), P(self-draw | win) and the mean fan of a win, by the hand kept: generated '
        f"by\nexperiments/fit_value_model.py from {args.deals} deals per preset "
        f"({', '.join(args.rules)}), policies\n{args.policies}, seed {args.seed}; do not "
        'edit.\n\nIndexed [shanten (4: four or more), live useful tiles, own turns left], '
        "the ranges' lower\nbounds in LIVE_EDGES and DRAWS_EDGES; each cell shrunk toward its "
        f"(shanten, turns) margin by\n{PRIOR_ROWS:g} rows "
        '(simcore.analysis.value_model.fit_table).\n"""',
        "",
        "import numpy as np",
        "",
        f"LIVE_EDGES = {LIVE_EDGES!r}",
        f"DRAWS_EDGES = {DRAWS_EDGES!r}",
    ]
    for name, table in tables.items():
        rows = np.array2string(np.round(table, 4), separator=", ", threshold=10**6,
                               max_line_width=96, formatter={"float": lambda x: f"{x:.4f}"})
        body += ["", f"{name} = np.array(",
                 *(("    " + line).rstrip() for line in rows.splitlines()), ")"]
    path.write_text("\n".join(body) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
