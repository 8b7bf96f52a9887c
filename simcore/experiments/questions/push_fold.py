"""Push or fold? ``expert`` against each field, with and without its danger model, and folding.

``expert`` in the seat with its danger model (``defence=25``, the default), without
it (``expert:defence=0``: pure value, it pushes) and folding (``expert:fold=100``: it throws the
safest tile when the weighted danger of its best discard exceeds the value that discard keeps),
each against every field, with ``speed`` baseline arms as in every strategy experiment (so each
gets a switching gain from ``speed``). Two paired contrasts on the same walls answer the
question: ``defence_value`` (expert minus expert:defence=0) and ``fold_value`` (expert:fold=100
minus expert).

*Where* folding pays needs the seat's shanten and the wall left when an opponent first looks
ready, which the records do not hold (the engine is not changed here). Every deal (a wall and
the seat's position) is classified by what happened on it in the *baseline arm* -- ``speed`` in
the same seat against the same field, on the same wall: a function of the wall only, so the same
for both arms of a contrast (a pre-treatment covariate; classifying by either arm's own play
would bias the contrast). Two breakdowns (column ``breakdown``; column ``sample`` says which
walls):

* ``threat`` -- the breakdown the question asks for, on a subsample: the first
  ``threat_walls`` walls (default :data:`THREAT_WALLS`, every rotation) of each baseline arm are
  replayed with their event log (:func:`classify_threats`, checked against the run's records),
  the hands rebuilt as :mod:`simcore.analysis.danger` rebuilds them, and the moment an opponent
  of the seat first *looks ready* is found: its ready probability in the expert's public model
  (:func:`simcore.engine.policies.expert_reference.ready_probability` of its discards, declared
  melds and drawn-tile streak: what ``expert``'s ``_read_table`` reads) first exceeds
  :data:`LOOKS_READY`. The cell is the seat's own shanten then (``ready``, ``1 away``,
  ``2+ away``) x the wall left then (``35+``, ``20-34``, ``<20``), or ``never`` (no opponent
  looked ready before the deal ended or the seat won): :data:`THREAT_CELLS`. The classification
  is cached per baseline arm and subsample in ``threat/`` of the experiment's directory; a cache
  made for other walls, seed, table, rules or threshold is replaced. Row ``subsample_contrast``
  is the contrast on the subsample's walls (what its cells add up to).
* full-sample proxies, on every wall, from the baseline arm's records: ``table``, the wall left
  when the first opponent won (55 tiles are drawn after the deal): ``early`` (35 or more left),
  ``middle`` (20-34), ``late`` (under 20), ``none``; ``own``, how fast the seat's hand is, as
  ``speed`` played it: ``fast`` (won with 30 or more tiles left), ``slow`` (won later),
  ``no_win``. Coarser, but on all the walls, so narrower; kept beside the replayed cells.

Per cell (column ``situation``) two rows: ``cell_contribution``, the contrast's per-deal value
carried by the cell (per wall: the sum of the differences over the wall's deals in the cell,
over the wall's deals; :func:`~simcore.analysis.stats.paired_interval` over walls: the cells
add up to the contrast on their walls), and ``cell_effect``, the contrast per deal *within* the
cell (:func:`~simcore.analysis.stats.cluster_ratio`, clustered by wall), with the cell's
``share`` of deals. The headline names the replayed cells whose ``fold_vs_push`` interval lies
above or below 0 (cells met on fewer than :data:`THREAT_MIN_WALLS` walls are not read).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.analysis.stats import cluster_ratio, paired_interval
from simcore.experiments.base import Arm, Experiment, format_interval
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields
from simcore.experiments.paired import between_arms, canonical
from simcore.experiments.strategy import (
    FAMILY,
    TWO_PRESETS,
    baseline_arms,
    field_arms,
    field_words,
    net_lines,
    reduction_text,
    replicate_variants,
    seat_table,
    split_arms,
)
from simcore.records import DEALT, WALL_SIZE
from simcore.runner.store import Dataset

PLACE = 80  # its place among the questions (the results page, run_all.py)

DRAWS = WALL_SIZE - DEALT  # 55 wall tiles are drawn after the deal


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
# the replayed breakdown: the first THREAT_WALLS walls of each baseline arm are replayed, and an
# opponent "looks ready" when the expert's public ready probability first exceeds LOOKS_READY
THREAT_WALLS = 2_000
LOOKS_READY = 0.5
THREAT_SHANTEN = ("ready", "1 away", "2+ away")
THREAT_LEFT = ("35+ left", "20-34 left", "<20 left")
THREAT_CELLS = (*(f"{s}, {w}" for s in THREAT_SHANTEN for w in THREAT_LEFT), "never")
THREAT_DIR = "threat"  # the cached classifications, in the experiment's directory
THREAT_FORMAT = 1
FULL_SAMPLE = "all walls (proxy)"
THREAT_MIN_WALLS = 20  # a cell met on fewer walls is not read in the headline


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


def threat_moments(events: Sequence[dict[str, Any]],
                   threshold: float = LOOKS_READY) -> list[dict[str, Any]]:
    """Per seat of one replayed deal: the first moment one of its opponents *looks ready*.

    ``events`` are those of :func:`simcore.engine.replay.replay`. The deal is walked by
    :func:`simcore.table.walk`, as :func:`simcore.analysis.danger.discard_situations` walks it (with
    the same checks against the log: every draw the wall's next tile, the winners' hands, the
    drawn-end pigs and ready hands, every tile accounted for at the end). An opponent looks ready
    when :func:`simcore.engine.policies.expert_reference.ready_probability` of what the expert reads
    of it (``_read_table``: its discards, its declared melds, concealed kongs included, and its
    streak of discarding the tile it had just drawn) first exceeds ``threshold``; the inputs change
    only at its discards, pungs and kongs, so it is evaluated after each of those. The moment counts
    for a seat still in play; a seat that has won before it, or a deal that ends first, is
    ``never``.

    Returns four dicts (seat 0..3): ``wall_left`` and ``shanten`` (the seat's own, void
    respected, from its rebuilt hand of ``13 - 3k`` tiles: an opponent has just acted) at the
    moment, -1 for never; ``opp`` (the opponent, -1), ``p_ready`` and ``hand`` (its notation),
    and ``why`` (``ready``, ``seat_won`` or ``end``).
    """
    from simcore.engine.policies.expert_reference import ready_probability
    from simcore.hand import shanten
    from simcore.table import walk

    moves = walk(events, after=True)
    players = len(events[0]["hands"])
    out: list[dict[str, Any]] = [{"wall_left": -1, "shanten": -1, "opp": -1, "p_ready": np.nan,
                                  "hand": "", "why": "end"} for _ in range(players)]
    done = [False] * players
    for _, ev, tab in moves:  # the table after each event
        kind = ev["type"]
        if kind in ("discard", "pung", "kong"):
            o = ev["seat"]
            p = ready_probability(len(tab.discards[o]), len(tab.melds[o]), tab.streak[o])
            if p <= threshold:
                continue
            for s in tab.seats():
                if s == o or done[s] or tab.has_won(s):
                    continue
                void = tab.void[s] if tab.void[s] >= 0 else None
                hand = tab.as_hand(s)
                out[s] = {"wall_left": tab.wall_left, "opp": o, "p_ready": p,
                          "shanten": int(shanten(hand, void=void)), "hand": str(hand),
                          "why": "ready"}
                done[s] = True
        elif kind == "win" and not done[ev["seat"]]:
            out[ev["seat"]]["why"], done[ev["seat"]] = "seat_won", True
    return out


def threat_cell(shanten: int, wall_left: int) -> str:
    """The cell of :data:`THREAT_CELLS`: own shanten x wall left (``never`` for -1).

    >>> threat_cell(0, 40), threat_cell(3, 12), threat_cell(-1, -1)
    ('ready, 35+ left', '2+ away, <20 left', 'never')
    """
    if shanten < 0:
        return "never"
    own = THREAT_SHANTEN[min(shanten, 2)]
    left = THREAT_LEFT[0 if wall_left >= EARLY_LEFT else 1 if wall_left >= LATE_LEFT else 2]
    return f"{own}, {left}"


def _threat_key(ds: Dataset, walls: int, threshold: float) -> dict[str, Any]:
    """What a cached classification of ``ds`` must match: its walls, seed, table and rules."""
    return {"format": THREAT_FORMAT, "walls": walls, "seed": int(ds.meta["seed"]),
            "policies": list(ds.meta["seat_policies"]), "rules_id": ds.meta["rules_id"],
            "duplicate": bool(ds.meta["duplicate"]), "threshold": threshold}


def threat_path(ds: Dataset, walls: int) -> Path:
    """Where the classification of the first ``walls`` walls of arm ``ds`` is cached."""
    return ds.path.parent / THREAT_DIR / f"{ds.path.name}-{walls}walls.parquet"


def classify_threats(ds: Dataset, walls: int = THREAT_WALLS,
                     threshold: float = LOOKS_READY) -> pd.DataFrame:
    """The seat's threat cell on every deal of the first ``walls`` walls of baseline arm ``ds``.

    Each deal is replayed (:func:`simcore.engine.replay.replay`, checked against the run's
    records) and classified by :func:`threat_moments`, for the seat in table position 0 (a
    duplicate run: rotation ``r`` puts it in seat ``(-r) % 4``, deal ``4 * wall + r``); a run
    of each wall once (``speed`` in every seat) classifies its four seats as the four rotations'
    seat, deal ``4 * wall + r`` again, as the variant arms number them. Columns ``deal``,
    ``wall``, ``rotation``, ``wall_left``, ``shanten``, ``why``, ``cell``.

    Cached in :func:`threat_path` (parquet, with the walls, seed, table and rules it was made
    for in its metadata); a cache that does not match is replaced.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simcore.engine.replay import replay
    from simcore.rules import Rules

    duplicate = bool(ds.meta["duplicate"])
    n_walls = min(walls, int(ds.meta["walls"] if duplicate else ds.meta["deals"]))
    key = _threat_key(ds, n_walls, threshold)
    path = threat_path(ds, walls)
    if path.exists():
        cached = pq.read_table(path)
        stored = json.loads((cached.schema.metadata or {}).get(b"simcore_threat", b"{}"))
        if stored == key:
            return cached.to_pandas()
    rules = Rules.from_dict(ds.meta["rules"])
    policies = list(ds.meta["seat_policies"])
    records = ds.records(["deal", "seat", "net"])
    nets = records[records["deal"].to_numpy(np.int64) < (4 * n_walls if duplicate
                                                           else n_walls)]
    nets = nets.sort_values(["deal", "seat"])["net"].to_numpy(np.int64).reshape(-1, 4)
    rows = []
    for i in range(len(nets)):
        events, out = replay(key["seed"], i, rules=rules, policies=policies,
                             duplicate=duplicate, as_frame=False)
        if not np.array_equal(out["net"].astype(np.int64), nets[i]):
            raise ValueError(f"the replay of deal {i} of {ds.path} does not give its recorded "
                             f"nets: was the engine changed since the run?")
        moments = threat_moments(events, threshold)
        wall, rot = divmod(i, 4) if duplicate else (i, None)
        for r in range(4) if rot is None else (rot,):
            m = moments[(-r) % 4]
            rows.append((4 * wall + r, wall, r, m["wall_left"], m["shanten"], m["why"]))
    frame = pd.DataFrame(rows, columns=["deal", "wall", "rotation", "wall_left", "shanten",
                                        "why"])
    frame["cell"] = [threat_cell(s, w) for s, w in zip(frame["shanten"], frame["wall_left"],
                                                        strict=True)]
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"simcore_threat": json.dumps(key).encode()})
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return frame


def _threat_cells(baselines: Sequence[Dataset], walls: int) -> pd.DataFrame:
    """Per deal of the variant arms on the subsample (index (run, deal)): ``wall``, and the
    ``threat`` cell read from the baseline arm(s) (:func:`classify_threats`)."""
    parts = []
    for i, ds in enumerate(baselines):
        frame = classify_threats(ds, walls)
        parts.append(pd.DataFrame({"run": i, "deal": frame["deal"].to_numpy(np.int64),
                                   "wall": frame["wall"].to_numpy(np.int64),
                                   "threat": frame["cell"].to_numpy()}))
    return pd.concat(parts, ignore_index=True).set_index(["run", "deal"])


def _breakdown(first: pd.DataFrame, second: pd.DataFrame, cells: pd.DataFrame,
               labels: dict[str, object],
               breakdowns: Sequence[tuple[str, Sequence[str]]] = (("table", TABLE_CELLS),
                                                                  ("own", OWN_CELLS)),
               sample: str = FULL_SAMPLE, total: bool = False) -> list[dict[str, object]]:
    """Rows ``cell_contribution`` and ``cell_effect`` of ``first - second`` per cell, on the
    deals ``cells`` classifies (columns: the breakdowns' names); with ``total`` also a row
    ``subsample_contrast``: the contrast on those deals, which the contributions add up to."""
    common = first.index.intersection(second.index).intersection(cells.index)
    diff = pd.DataFrame({"wall": first.loc[common, "wall"],
                         "net": first.loc[common, "net"] - second.loc[common, "net"],
                         "deal_in": first.loc[common, "deal_in"] - second.loc[common, "deal_in"],
                         **{b: cells.loc[common, b] for b, _ in breakdowns}})
    per_wall_deals = diff.groupby("wall").size()
    rows = []
    if total:
        for metric in ("net", "deal_in"):
            mean = diff.groupby("wall")[metric].sum() / per_wall_deals
            rows.append({**labels, "breakdown": breakdowns[0][0], "situation": "all",
                         "sample": sample, "estimand": "subsample_contrast", "metric": metric,
                         "share": 1.0, **paired_interval(mean.to_numpy())})
    for breakdown, names in breakdowns:
        for cell in names:
            inside = diff[diff[breakdown] == cell]
            share = len(inside) / max(len(diff), 1)
            count = inside.groupby("wall").size().reindex(per_wall_deals.index, fill_value=0)
            for metric in ("net", "deal_in"):
                total_ = inside.groupby("wall")[metric].sum().reindex(per_wall_deals.index,
                                                                      fill_value=0.0)
                contribution = paired_interval((total_ / per_wall_deals).to_numpy())
                rows.append({**labels, "breakdown": breakdown, "situation": cell,
                             "sample": sample, "estimand": "cell_contribution",
                             "metric": metric, "share": share, **contribution})
                if count.sum() == 0:
                    continue
                ratio = cluster_ratio(total_.to_numpy(), count.to_numpy())
                rows.append({**labels, "breakdown": breakdown, "situation": cell,
                             "sample": sample, "estimand": "cell_effect", "metric": metric,
                             "share": share, "walls": int((count > 0).sum()),
                             "estimate": ratio["estimate"], "se": ratio["se"],
                             "ci_low": ratio["ci_low"], "ci_high": ratio["ci_high"],
                             "method": "cluster(wall) ratio",
                             "p_value": _two_sided(ratio["estimate"], ratio["se"])})
    return rows


def _two_sided(estimate: float, se: float) -> float:
    from simcore.analysis.stats import two_sided_p

    if not np.isfinite(se) or se <= 0:
        return float("nan")
    return float(two_sided_p(np.array([estimate / se]))[0])


def _push_fold_analysis(arms: Sequence[Arm], datasets: Sequence[Dataset],
                        threat_walls: int = THREAT_WALLS) -> pd.DataFrame:
    table, per_wall, groups = seat_table(arms, datasets, PUSH_FOLD_METRICS)
    _, baselines = split_arms(arms, datasets)
    base_arms = {(a.labels["preset"], a.labels.get("field")): a for a in arms
                 if a.labels.get("role") == "baseline"}
    index = {(g.labels["preset"], g.labels["field"], canonical(g.variant)): i
             for i, g in enumerate(groups)}
    extra: list[pd.DataFrame] = []
    rows: list[dict[str, object]] = []
    for preset, field in dict.fromkeys((p, f) for p, f, _ in index):
        cells = threats = None
        if (preset, field) in baselines:
            cells = _cells(baselines[(preset, field)], base_arms[(preset, field)].one_rotation)
            if threat_walls > 0:
                threats = _threat_cells(baselines[(preset, field)], threat_walls)
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
            if cells is None:
                continue
            mine, theirs = _seat_deals(groups[i].datasets), _seat_deals(groups[j].datasets)
            rows += _breakdown(mine, theirs, cells, labels)
            if threats is not None:
                rows += _breakdown(mine, theirs, threats, labels, (("threat", THREAT_CELLS),),
                                   sample=f"first {threats['wall'].nunique():,} walls "
                                          f"(replayed)", total=True)
    out = pd.concat([table, *extra, pd.DataFrame(rows)], ignore_index=True)
    # blank, not NaN: rows of the tables
    for column in ("contrast", "breakdown", "situation", "sample"):
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


def _threat_text(first: pd.DataFrame, threat: pd.DataFrame, preset: object,
                 field: object) -> str:
    """Where folding pays, from the replayed cells: those whose interval is above 0, below 0,
    and how many cover 0."""
    total = first[(first["estimand"] == "subsample_contrast") & (first["metric"] == "net")
                  & (first["preset"] == preset) & (first["field"] == field)
                  & (first["contrast"] == "fold_vs_push")]
    size = "the replayed subsample"
    if len(total):
        r = total.iloc[0]
        size = (f"{r['sample'].split(' (')[0]}, every rotation; "
                f"fold_vs_push there {format_interval(r.estimate, r.ci_low, r.ci_high)}")
    few = threat[threat["walls"] < THREAT_MIN_WALLS]
    threat = threat[threat["walls"] >= THREAT_MIN_WALLS]
    pays = threat[threat["ci_low"] > 0]
    costs = threat[threat["ci_high"] < 0]

    def listed(rows: pd.DataFrame) -> str:
        return "; ".join(f"{r.situation} ({r.share:.0%} of deals) "
                         f"{format_interval(r.estimate, r.ci_low, r.ci_high)}"
                         for r in rows.itertuples()) or "no cell"
    rest = len(threat) - len(pays) - len(costs)
    return (f"where folding pays, by the seat's shanten and the wall left when an opponent "
            f"first looks ready (the expert's ready probability > {LOOKS_READY:g}, replayed "
            f"with speed in the seat; {size}): folding beats pushing in {listed(pays)}; it "
            f"loses in {listed(costs)}; {rest} cell{'s' * (rest != 1)} cover 0"
            + (f" ({len(few)} met on fewer than {THREAT_MIN_WALLS} walls not read)"
               if len(few) else ""))


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
        threat = cells[cells["breakdown"] == "threat"]
        if len(threat):
            lines.append("  " + _threat_text(first, threat, preset, field))
        cells = cells[cells["breakdown"] != "threat"]
        if len(cells):
            lines.append("  full-sample proxies: folding instead of pushing, per deal, by when "
                         "an opponent first won (speed in the seat on the same wall): "
                         + _cell_text(cells, "table", TABLE_CELLS))
            lines.append("  by how fast the seat's own hand was (as speed played it): "
                         + _cell_text(cells, "own", OWN_CELLS))
    return ("Push or fold? expert with its danger model (expert), without it "
            f"({PUSH}: push) and folding ({FOLD}); paired contrasts in units/deal on the same "
            "walls (defence_value = expert - push, fold_value = fold - expert, fold_vs_push = "
            "fold - push):\n" + "\n".join(lines)
            + "\n\nSwitching gains from speed:\n" + net_lines(table, ("preset", "policy"))
            + "\n\n" + reduction_text(table))


def build(fields: Sequence[str] = DEFAULT_FIELDS,
              threat_walls: int = THREAT_WALLS) -> Experiment:
    """Push or fold: ``expert``, ``expert:defence=0`` and ``expert:fold=100`` in the seat;
    ``threat_walls``: the first walls of each baseline arm replayed for the threat breakdown
    (0: none)."""
    if isinstance(threat_walls, bool) or not isinstance(threat_walls, int) or threat_walls < 0:
        raise ValueError(f"threat_walls must be a non-negative integer, got {threat_walls!r}")
    parsed = parse_fields(fields)
    arms: list[Arm] = []
    for preset in TWO_PRESETS:
        for spec, name in PUSH_FOLD_VARIANTS:
            arms += field_arms(preset, spec, name, parsed, stance=name)
    arms += [b for p in TWO_PRESETS for b in baseline_arms(p, parsed)]
    return Experiment(
        name="push_fold",
        question="Push or fold? expert with and without its danger model (defence=0) and "
                 "folding (fold=100), under classic and app, against each field: what defence "
                 "and folding are worth, and where folding pays: by the seat's own shanten and "
                 "the wall left when an opponent first looks ready (replayed on a subsample of "
                 "walls with speed in the seat), and on every wall by the proxies when an "
                 "opponent first wins and how fast the seat's own hand is.",
        arms=tuple(arms),
        analyse=partial(_push_fold_analysis, threat_walls=threat_walls),
        headline=_push_fold_headline,
        markdown_rows=("preset", "policy", "baseline", "estimand", "breakdown", "situation",
                       "sample"),
        family=(*FAMILY, "contrast", "breakdown"),
        replicate=replicate_variants(arms),
        fields=tuple(fields),
        answer_rows=("preset", "policy"),
    )
