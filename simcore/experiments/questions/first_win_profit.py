"""What is the first win worth? A descriptive table per field.

Per field ``F`` (:mod:`simcore.experiments.fields`) it describes the table ``speed/F``: one
``speed`` seat and the field (``speed`` in every seat for the speed field, as before). A rotated
field is played in its first cyclic order only: these tables pool every seat, and the order of
the three opponents changes little there. Fields other than speed play half the deals (as in
the strategy experiments).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from simcore.analysis import first_win_profit as first_win_table
from simcore.experiments.base import GAME_PRESETS, Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields
from simcore.experiments.strategy import OTHER_FIELD_SHARE
from simcore.runner.store import Dataset

PLACE = 60  # its place among the questions (the results page, run_all.py)


def _first_win_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    tables = []
    for arm, ds in zip(arms, datasets, strict=True):
        part = first_win_table(ds.path, by=("preset",))
        part.insert(1, "field", arm.labels.get("field", "speed"))
        tables.append(part)
    table = pd.concat(tables, ignore_index=True)
    return table[table["fan"] == "all"].drop(columns="fan").reset_index(drop=True)


def _first_win_headline(table: pd.DataFrame) -> str:
    lines = []
    fields = list(dict.fromkeys(table["field"])) if "field" in table.columns else []
    for (preset, field), rows in table.groupby(["preset", "field"] if fields else ["preset"],
                                               sort=False):
        negative = rows[rows["metric"] == "first_winner_negative"].iloc[0]
        net = rows[rows["metric"] == "net"].set_index("level")
        first, none = net.loc["1"], net.loc["none"]
        where = f"{preset}, speed/{field}" if fields else preset
        lines.append(
            f"- {where}: {negative.estimate:.1%} [{negative.ci_low:.1%}, {negative.ci_high:.1%}]"
            f" of first winners still lose money; a first winner nets "
            f"{format_interval(first.estimate, first.ci_low, first.ci_high, 2)}, "
            f"a player who never wins "
            f"{format_interval(none.estimate, none.ci_low, none.ci_high, 2)} units/deal."
        )
    return ("How often does the first winner still lose money (at the table speed/FIELD: "
            "speed/speed is speed on all seats)?\n" + "\n".join(lines))


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """The first win and the final result at the table ``speed/FIELD`` for each field."""
    parsed = parse_fields(fields)
    arms = []
    for preset in GAME_PRESETS:
        for field in parsed:
            if field.is_speed:
                arms.append(Arm(f"{preset}-speed", preset, "speed",
                                {"preset": preset, "field": field.name}, duplicate=False))
            else:
                arms.append(Arm(f"{preset}-{field.slug}", preset, field.table("speed"),
                                {"preset": preset, "field": field.name}, duplicate=False,
                                share=OTHER_FIELD_SHARE))
    return Experiment(
        name="first_win_profit",
        question="How does the first win relate to the final result? Net by win order and the "
                 "share of first winners who still end the deal with a loss, at the table "
                 "speed/FIELD for each field (speed on all seats first), under each of the five "
                 "presets.",
        arms=tuple(arms),
        analyse=_first_win_analysis,
        headline=_first_win_headline,
        markdown_rows=("field", "metric", "level", "stat"),
        markdown_pivot="preset",
        fields=tuple(fields),
    )
