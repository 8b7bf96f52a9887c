"""Two questions of defence against each field: push or fold, and holding a dangerous void tile.

**push_fold** -- ``expert`` in the seat with its danger model (``defence=50``, the default), without
it (``expert:defence=0``: pure value, it pushes) and folding (``expert:fold=100``: it throws the
safest tile when the weighted danger of its best discard exceeds the value that discard keeps),
each against every field, with ``speed`` baseline arms as in every strategy experiment (so each
gets a switching gain from ``speed``). Two paired contrasts on the same walls answer the
question: ``defence_value`` (expert minus expert:defence=0) and ``fold_value`` (expert:fold=100
minus expert).

*Where* folding pays needs the seat's shanten and the wall left when an opponent first looks
ready, which the records do not hold (the engine is not changed here). The breakdown instead
classifies every deal (a wall and the seat's position) by what happened on it in the *baseline
arm* -- ``speed`` in the same seat against the same field, on the same wall: a function of the
wall only, so the same for both arms of a contrast (a pre-treatment covariate; classifying by
either arm's own outcome would bias the contrast):

* ``table``: the wall left when the first opponent won (55 tiles are drawn after the deal):
  ``early`` (35 or more left), ``middle`` (20-34), ``late`` (under 20), ``none`` -- the deals
  where an opponent gets ready early are those with an early opponent win;
* ``own``: how fast the seat's hand is, as ``speed`` played it: ``fast`` (won with 30 or more
  tiles left), ``slow`` (won later), ``no_win`` -- a proxy for its own shanten.

Per cell (column ``situation``) two rows: ``cell_contribution``, the contrast's per-deal value
carried by the cell (per wall: the sum of the differences over the wall's deals in the cell,
over the wall's deals; :func:`~simcore.analysis.stats.paired_interval` over walls: the cells
add up to the overall contrast), and ``cell_effect``, the contrast per deal *within* the cell
(:func:`~simcore.analysis.stats.cluster_ratio`, clustered by wall), with the cell's ``share``
of deals.

**keep_void** -- with ``void_first=false`` a player may keep a void-suit tile; ``expert``'s
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

import numpy as np
import pandas as pd

from simcore.analysis.stats import cluster_ratio, paired_interval
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields
from simcore.experiments.paired import SeatWalls, between_arms, canonical, interval_rows
from simcore.experiments.strategy import (
    BASELINE,
    FAMILY,
    TWO_PRESETS,
    _all_variants,
    _arms,
    _baseline_arms,
    _net_lines,
    _reduction_text,
    _seat_table,
    _split,
    field_words,
)
from simcore.records import DEALT, WALL_SIZE
from simcore.rules import PRESETS
from simcore.runner.store import Dataset

DRAWS = WALL_SIZE - DEALT  # 55 wall tiles are drawn after the deal

# 1. push or fold -----------------------------------------------------------------------------

PUSH = "expert:defence=0"
DEFEND = "expert"
FOLD = "expert:fold=100"
PUSH_FOLD_VARIANTS = ((PUSH, "push"), (DEFEND, "defend"), (FOLD, "fold"))
# (name, first, second): first minus second, paired by wall
CONTRASTS = (("defence_value", DEFEND, PUSH), ("fold_value", FOLD, DEFEND),
             ("fold_vs_push", FOLD, PUSH))
PUSH_FOLD_METRICS = ("net", "win", "deal_in", "fan", "net_win")
TABLE_CELLS = ("early", "middle", "late", "none")
OWN_CELLS = ("fast", "slow", "no_win")
EARLY_LEFT, LATE_LEFT, FAST_LEFT = 35, 20, 30


def _seat_deals(datasets: Sequence[Dataset]) -> pd.DataFrame:
    """Per deal of the seat (table position 0), over one or several runs on the same walls:
    ``run``, ``deal``, ``wall`` and the seat's ``net``, ``deal_in``; indexed by (run, deal)."""
    parts = []
    for i, ds in enumerate(datasets):
        r = ds.records(["deal", "wall", "seat", "rotation", "net", "deal_ins"])
        mine = r[r["seat"].to_numpy(np.int64) == (-r["rotation"].to_numpy(np.int64)) % 4]
        parts.append(pd.DataFrame({"run": i, "deal": mine["deal"].to_numpy(np.int64),
                                   "wall": mine["wall"].to_numpy(np.int64),
                                   "net": mine["net"].to_numpy(np.float64),
                                   "deal_in": (mine["deal_ins"] > 0).to_numpy(np.float64)}))
    return pd.concat(parts, ignore_index=True).set_index(["run", "deal"])


def _cells(baselines: Sequence[Dataset], one_rotation: bool) -> pd.DataFrame:
    """Per deal of the variant arms (index (run, deal)): the ``table`` and ``own`` cells read
    from the baseline arm(s) on the same wall, with ``speed`` in the seat's position."""
    parts = []
    for i, ds in enumerate(baselines):
        r = ds.records(["deal", "wall", "seat", "rotation", "win_order", "win_draw"])
        frame = pd.DataFrame({"wall": r["wall"].to_numpy(np.int64),
                              "seat": r["seat"].to_numpy(np.int64),
                              "rotation": r["rotation"].to_numpy(np.int64),
                              "deal": r["deal"].to_numpy(np.int64),
                              "won": (r["win_order"] > 0).to_numpy(),
                              "draw": r["win_draw"].to_numpy(np.float64)})
        frame.loc[~frame["won"], "draw"] = np.nan
        if one_rotation:  # one deal per wall, speed everywhere: the seat may be any seat
            rows = []
            for rot in range(4):
                seat = (-rot) % 4
                own = frame[frame["seat"] == seat].set_index("wall")
                opp = frame[frame["seat"] != seat].groupby("wall")["draw"].min()
                rows.append(pd.DataFrame({"run": i, "deal": 4 * own.index.to_numpy() + rot,
                                          "own_draw": own["draw"].to_numpy(),
                                          "opp_draw": opp.reindex(own.index).to_numpy()}))
            parts.append(pd.concat(rows, ignore_index=True))
            continue
        mine = (frame["seat"] == (-frame["rotation"]) % 4).to_numpy()
        own = frame[mine].set_index("deal")
        opp = frame[~mine].groupby("deal")["draw"].min()
        parts.append(pd.DataFrame({"run": i, "deal": own.index.to_numpy(),
                                   "own_draw": own["draw"].to_numpy(),
                                   "opp_draw": opp.reindex(own.index).to_numpy()}))
    cells = pd.concat(parts, ignore_index=True).set_index(["run", "deal"])
    opp_left = DRAWS - cells["opp_draw"]
    own_left = DRAWS - cells["own_draw"]
    table = np.select([opp_left >= EARLY_LEFT, opp_left >= LATE_LEFT, opp_left < LATE_LEFT],
                      ["early", "middle", "late"], "none")
    own = np.select([own_left >= FAST_LEFT, own_left < FAST_LEFT], ["fast", "slow"], "no_win")
    return pd.DataFrame({"table": table, "own": own}, index=cells.index)


def _breakdown(first: pd.DataFrame, second: pd.DataFrame, cells: pd.DataFrame,
               labels: dict[str, object]) -> list[dict[str, object]]:
    """Rows ``cell_contribution`` and ``cell_effect`` of ``first - second`` per cell."""
    common = first.index.intersection(second.index).intersection(cells.index)
    diff = pd.DataFrame({"wall": first.loc[common, "wall"],
                         "net": first.loc[common, "net"] - second.loc[common, "net"],
                         "deal_in": first.loc[common, "deal_in"] - second.loc[common, "deal_in"],
                         "table": cells.loc[common, "table"], "own": cells.loc[common, "own"]})
    per_wall_deals = diff.groupby("wall").size()
    rows = []
    for breakdown, names in (("table", TABLE_CELLS), ("own", OWN_CELLS)):
        for cell in names:
            inside = diff[diff[breakdown] == cell]
            share = len(inside) / max(len(diff), 1)
            count = inside.groupby("wall").size().reindex(per_wall_deals.index, fill_value=0)
            for metric in ("net", "deal_in"):
                total = inside.groupby("wall")[metric].sum().reindex(per_wall_deals.index,
                                                                     fill_value=0.0)
                contribution = paired_interval((total / per_wall_deals).to_numpy())
                rows.append({**labels, "breakdown": breakdown, "situation": cell,
                             "estimand": "cell_contribution", "metric": metric,
                             "share": share, **contribution})
                if count.sum() == 0:
                    continue
                ratio = cluster_ratio(total.to_numpy(), count.to_numpy())
                rows.append({**labels, "breakdown": breakdown, "situation": cell,
                             "estimand": "cell_effect", "metric": metric, "share": share,
                             "walls": int((count > 0).sum()), "estimate": ratio["estimate"],
                             "se": ratio["se"], "ci_low": ratio["ci_low"],
                             "ci_high": ratio["ci_high"], "method": "cluster(wall) ratio",
                             "p_value": _two_sided(ratio["estimate"], ratio["se"])})
    return rows


def _two_sided(estimate: float, se: float) -> float:
    from simcore.analysis.stats import two_sided_p

    if not np.isfinite(se) or se <= 0:
        return float("nan")
    return float(two_sided_p(np.array([estimate / se]))[0])


def _push_fold_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset]) -> pd.DataFrame:
    table, per_wall, groups = _seat_table(arms, datasets, PUSH_FOLD_METRICS)
    _, baselines = _split(arms, datasets)
    base_arms = {(a.labels["preset"], a.labels.get("field")): a for a in arms
                 if a.labels.get("role") == "baseline"}
    index = {(g.labels["preset"], g.labels["field"], canonical(g.variant)): i
             for i, g in enumerate(groups)}
    extra: list[pd.DataFrame] = []
    rows: list[dict[str, object]] = []
    for preset, field in dict.fromkeys((p, f) for p, f, _ in index):
        cells = None
        if (preset, field) in baselines:
            cells = _cells(baselines[(preset, field)], base_arms[(preset, field)].one_rotation)
        for name, a, b in CONTRASTS:
            i, j = index.get((preset, field, canonical(a))), index.get((preset, field,
                                                                         canonical(b)))
            if i is None or j is None:
                continue
            labels = {"preset": preset, "policy": canonical(a), "baseline": canonical(b),
                      "field": field, "contrast": name}
            part = between_arms(per_wall[i], per_wall[j])
            for key, value in reversed(labels.items()):
                part.insert(0, key, value)
            part.insert(len(labels), "estimand", name)
            extra.append(part)
            if cells is not None:
                rows += _breakdown(_seat_deals(groups[i].datasets),
                                   _seat_deals(groups[j].datasets), cells, labels)
    out = pd.concat([table, *extra, pd.DataFrame(rows)], ignore_index=True)
    for column in ("contrast", "breakdown", "situation"):  # blank, not NaN: rows of the tables
        out[column] = out[column].fillna("") if column in out.columns else ""
    return out


def _cell_text(rows: pd.DataFrame, breakdown: str, names: Sequence[str]) -> str:
    parts = []
    for cell in names:
        r = rows[(rows["breakdown"] == breakdown) & (rows["situation"] == cell)]
        if not len(r):
            continue
        r = r.iloc[0]
        mark = "" if (r.ci_low > 0 or r.ci_high < 0) else " n.s."
        parts.append(f"{cell} ({r.share:.0%} of deals) "
                     f"{format_interval(r.estimate, r.ci_low, r.ci_high)}{mark}")
    return "; ".join(parts)


def _push_fold_headline(table: pd.DataFrame) -> str:
    seed = int(table["seed"].min())
    first = table[table["seed"] == seed]
    lines = []
    contrasts = first[first["estimand"].isin([c[0] for c in CONTRASTS])
                      & (first["metric"] == "net")]
    for (preset, field), rows in contrasts.groupby(["preset", "field"], sort=False):
        parts = [f"{r.estimand} {format_interval(r.estimate, r.ci_low, r.ci_high)} "
                 f"(Holm p {r.p_holm:.2g})" for r in rows.itertuples()]
        lines.append(f"- {preset}, {field_words(str(field))}: " + "; ".join(parts))
        cells = first[(first["estimand"] == "cell_effect") & (first["metric"] == "net")
                      & (first["preset"] == preset) & (first["field"] == field)
                      & (first["contrast"] == "fold_vs_push")]
        if len(cells):
            lines.append("  folding instead of pushing, per deal, by when an opponent first "
                         "won (speed in the seat on the same wall): "
                         + _cell_text(cells, "table", TABLE_CELLS))
            lines.append("  by how fast the seat's own hand was (as speed played it): "
                         + _cell_text(cells, "own", OWN_CELLS))
    return ("Push or fold? expert with its danger model (expert), without it "
            f"({PUSH}: push) and folding ({FOLD}); paired contrasts in units/deal on the same "
            "walls (defence_value = expert - push, fold_value = fold - expert, fold_vs_push = "
            "fold - push):\n" + "\n".join(lines)
            + "\n\nSwitching gains from speed:\n" + _net_lines(table, ("preset", "policy"))
            + "\n\n" + _reduction_text(table))


def push_fold(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """Push or fold: ``expert``, ``expert:defence=0`` and ``expert:fold=100`` in the seat."""
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset in TWO_PRESETS:
        for spec, name in PUSH_FOLD_VARIANTS:
            arms += _arms(preset, spec, name, parsed, stance=name)
    arms += [b for p in TWO_PRESETS for b in _baseline_arms(p, parsed)]
    return Experiment(
        name="push_fold",
        question="Push or fold? expert with and without its danger model (defence=0) and "
                 "folding (fold=100), under classic and app, against each field: what defence "
                 "and folding are worth, and where folding pays (by when an opponent first wins "
                 "and how fast the seat's own hand is, read on the same walls with speed in "
                 "the seat).",
        arms=tuple(arms),
        analyse=_push_fold_analysis,
        headline=_push_fold_headline,
        markdown_rows=("preset", "policy", "baseline", "estimand", "breakdown", "situation"),
        family=(*FAMILY, "contrast", "breakdown"),
        replicate=_all_variants(arms),
        fields=tuple(fields),
        answer_rows=("preset", "policy"),
    )


# 2. keep a void tile -------------------------------------------------------------------------

HOLD_OVERRIDES = ("void_first=false",)
KEEP_VOID_PRESETS = tuple(PRESETS)
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


def keep_void(fields: Sequence[str] = DEFAULT_FIELDS) -> Experiment:
    """``expert`` under ``void_first=false`` (may hold) and ``true`` (void first), five
    presets, against each field."""
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset in KEEP_VOID_PRESETS:
        arms += _arms(preset, SEAT, "hold", parsed, HOLD_OVERRIDES, void_play="hold")
        arms += _arms(preset, SEAT, "discard", parsed, void_play="discard")

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


PUSH_FOLD = push_fold()
KEEP_VOID = keep_void()
