"""Keep a dangerous void tile, or discard the void suit first? ``expert`` against each field.

With ``void_first=false`` a player may keep a void-suit tile; ``expert``'s
danger model then sometimes keeps a dangerous one and discards another tile (its void tiles are
candidates like any other among the discards of lowest shanten). The greedy family (``speed``,
``flush``, ``pungs``, ``pairs``) discards its void suit first whatever the rule, so no greedy
policy can hold one; ``expert`` has no option to force void-first play, so the "discard it
first" arm is ``expert`` under ``void_first=true`` (every preset's default). The contrast
``hold_minus_discard`` is the expert seat's own per-wall mean in the two arms, paired by wall.
Against the speed field it is the seat's choice alone (speed plays the same under both rules);
against a field with ``expert`` players the rule is lifted for them too, so it measures the table
without the void-first rule from the seat's chair. Five presets, whose pig payments differ
(classic flat 10 to the players in play, baike 8, qq 16, app the winners' hands, tfmj none: a pig
pays the ready check). Rows ``level`` give each arm's own pig rate, deal-in rate, ... side by
side.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from simcore.experiments.base import GAME_PRESETS, Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields
from simcore.experiments.paired import SeatWalls, between_arms, canonical, interval_rows
from simcore.experiments.strategy import (
    BASELINE,
    field_arms,
    field_words,
)
from simcore.rules import PRESETS
from simcore.runner.store import Dataset

PLACE = 90  # its place among the questions (the results page, run_all.py)


HOLD_OVERRIDES = ("void_first=false",)
KEEP_VOID_PRESETS = GAME_PRESETS  # two suits declare no void
KEEP_VOID_METRICS = ("net", "pig", "deal_in", "net_pig", "net_ready", "win")
SEAT = "expert"


def pig_payment(preset: str) -> str:
    """What a flower pig pays under ``preset``, in words."""
    r = PRESETS[preset]
    if r.pig_pay == "winner_hand":
        text = "each winner's hand"
    elif r.pig_penalty == 0:
        text = "no penalty"
    else:
        text = f"{r.pig_penalty} to each {'non-pig' if r.pig_payees == 'all' else 'player in play'}"
    return text + (" + the ready check" if r.pig_pays_ready else "")


def _keep_void_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    groups: dict[tuple[str, str, str], list[Dataset]] = {}
    for arm, ds in zip(arms, datasets, strict=True):
        key = (arm.labels["preset"], arm.labels["field"], arm.labels["void_play"])
        groups.setdefault(key, []).append(ds)
    tables = []
    for preset, field in dict.fromkeys((p, f) for p, f, _ in groups):
        walls = {}
        for play in ("hold", "discard"):
            if (preset, field, play) not in groups:
                continue
            seat = SeatWalls(groups[(preset, field, play)], canonical(SEAT),
                             KEEP_VOID_METRICS, position=0)
            walls[play] = seat.own
            rows = interval_rows(seat.own)
            rows.insert(0, "estimand", "level")
            rows.insert(0, "void_play", play)
            tables.append(_label(rows, preset, field))
        if len(walls) == 2:
            rows = between_arms(walls["hold"], walls["discard"])
            rows.insert(0, "estimand", "hold_minus_discard")
            rows.insert(0, "void_play", "hold - discard")
            tables.append(_label(rows, preset, field))
    return pd.concat(tables, ignore_index=True)


def _label(rows: pd.DataFrame, preset: str, field: str) -> pd.DataFrame:
    rows.insert(0, "field", field)
    rows.insert(0, "pig_payment", pig_payment(preset))
    rows.insert(0, "policy", canonical(SEAT))
    rows.insert(0, "preset", preset)
    return rows


def _keep_void_headline(table: pd.DataFrame) -> str:
    seed = int(table["seed"].min())
    first = table[table["seed"] == seed].set_index(["preset", "field", "void_play", "metric"])
    lines = []
    for preset, field in dict.fromkeys(zip(table["preset"], table["field"], strict=True)):
        def cell(play: str, metric: str, pct: bool = False, preset: str = preset,
                 field: str = field) -> str:
            key = (preset, field, play, metric)
            if key not in first.index:
                return "n/a"
            r = first.loc[key]
            if isinstance(r, pd.DataFrame):
                r = r.iloc[0]
            if pct:
                return f"{r.estimate:.3%} [{r.ci_low:.3%}, {r.ci_high:.3%}]"
            return format_interval(r.estimate, r.ci_low, r.ci_high)

        diff = "hold - discard"
        note = (" (expert in every seat: net is 0 by symmetry, the rates are the whole "
                "table's)" if set(str(field).split("/")) == {canonical(SEAT)} else
                " (its expert opponents are freed too)" if canonical(SEAT) in str(field).split(
                    "/") else "")
        lines.append(
            f"- {preset} (a pig pays {pig_payment(preset)}), {field_words(str(field))}{note}: "
            f"holding gains {cell(diff, 'net')} units/deal; pigs {cell('hold', 'pig', True)} "
            f"holding vs {cell('discard', 'pig', True)} void first; deal-ins "
            f"{cell('hold', 'deal_in', True)} vs {cell('discard', 'deal_in', True)} "
            f"(difference {cell(diff, 'deal_in')}); pig money {cell(diff, 'net_pig')}")
    return ("Keep a dangerous void tile? One expert seat with void_first=false (its danger "
            "model may hold a void-suit tile) against the same seat under void_first=true "
            "(void first), paired by wall; the seat's pig and deal-in rates side by side:\n"
            + "\n".join(lines))


def build(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """``expert`` under ``void_first=false`` (may hold) and ``true`` (void first), five
    presets, against each field."""
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset in KEEP_VOID_PRESETS:
        arms += field_arms(preset, SEAT, "hold", parsed, HOLD_OVERRIDES, void_play="hold")
        arms += field_arms(preset, SEAT, "discard", parsed, void_play="discard")

    def replicate(table: pd.DataFrame) -> list[str]:
        return [a.name for a in arms if a.labels["field"] == BASELINE]

    return Experiment(
        name="keep_void",
        question="With void_first=false, is it worth holding a dangerous void-suit tile instead "
                 "of discarding it into a likely ready opponent? expert (its danger model may "
                 "hold one) against expert under void_first=true, five presets (their pig "
                 "payments differ), against each field: the pig rate and the deal-in rate side "
                 "by side.",
        arms=tuple(arms),
        analyse=_keep_void_analysis,
        headline=_keep_void_headline,
        default_deals=40_000,
        markdown_rows=("preset", "pig_payment", "void_play", "estimand"),
        family=("field", "estimand", "metric", "void_play"),
        replicate=replicate,
        headline_rows=(("estimand", "hold_minus_discard"), ("metric", "net")),
        fields=tuple(fields),
    )
