"""What an experiment is: named arms (one duplicate run each), an analysis, a result table.

An *arm* is one run: a preset, four seat policies and the deal count. Every arm of an experiment
uses the same seed, so deal ``i`` of every arm is dealt from the same wall: arms are compared on
common walls as well as seats within an arm (duplicate runs play each wall under the four seat
rotations). Arms live in ``ROOT/NAME/ARM/`` (ordinary run directories); the result table is
written beside them as ``results.csv`` and ``results.md``, with ``experiment.json`` holding the
parameters, the deal counts and the time each arm took.

An arm already on disk with the same parameters is reused (an interrupted one is resumed), so
re-running an experiment after a crash or after adding an arm only plays what is missing; an arm
with different parameters is an error unless ``force``.

Every result table carries the columns of :data:`RESULT_COLUMNS`: the ``estimand`` and the
interval ``method`` of each row, the walls that carry the difference (``informative_walls``),
the unpaired standard error and the variance reduction of the paired design, the ``p_value``,
``p_holm`` (Holm-adjusted within the row's family: the rows of one seed with equal values of
``Experiment.family``) and the ``seed``. *Replication*: the arms an experiment names as its
headline (``Experiment.replicate``) are run again on ``seed + 1`` into ``ARM-seedS/``, analysed
the same way, and their rows appended; ``experiment.json`` lists each headline on both seeds with
``z`` = their difference over the combined standard error, flagged when ``|z| > 3``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore._version import __version__
from simcore.analysis.stats import holm
from simcore.rules import PRESETS
from simcore.runner.driver import run
from simcore.runner.store import META_NAME, Dataset

# The presets the experiments compare: the four-player, three-suit games of docs/rules sections
# 2-8. The variants of section 9 (two_suit3, two_suit4) are other games (other seats, other
# tiles), not settings of one game; an experiment that wants them names them.
GAME_PRESETS: tuple[str, ...] = tuple(
    name for name, rules in PRESETS.items() if (rules.players, rules.suits) == (4, 3)
)

DEFAULT_ROOT = Path("data") / "experiments"
RESULTS_CSV = "results.csv"
RESULTS_MD = "results.md"
EXPERIMENT_META = "experiment.json"
# the columns every result table has (NaN where a row has no such value)
RESULT_COLUMNS = ("estimand", "method", "informative_walls", "se_unpaired", "variance_reduction",
                  "p_value", "p_holm", "seed")
REPLICATION_LIMIT = 3.0  # |z| of a headline's two seeds above which run_all flags it


@dataclass(frozen=True)
class Arm:
    """One run of an experiment: ``name`` is its directory, ``labels`` its columns in tables."""

    name: str
    rules: str
    policies: str
    labels: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = True
    # play each wall once (deals / 4 plain deals on walls 0, 1, ...: the same walls and dealers
    # as the duplicate arms): for a table of one policy, whose four rotations seat the same four
    one_rotation: bool = False
    # rules parameters changed from the preset ("void_first=false", ...)
    overrides: tuple[str, ...] = ()
    # play the first 1/share of the experiment's walls (a cyclic order of a rotated field gets a
    # third; a costly field fewer walls); they are the first walls of every arm, so still paired
    share: int = 1

    def deals_for(self, deals: int) -> int:
        """The deals this arm plays when the experiment plays ``deals`` per arm."""
        walls = max(deals // 4 // self.share, 2)
        return walls if self.one_rotation else 4 * walls


@dataclass(frozen=True)
class Experiment:
    """A strategy question: its arms, and how their runs become a result table.

    ``analyse(arms, datasets)`` returns the result table (a tidy DataFrame); ``headline(table)``
    states the answer in one or two sentences with the numbers.
    """

    name: str
    question: str
    arms: tuple[Arm, ...]
    analyse: Callable[[Sequence[Arm], Sequence[Dataset]], pd.DataFrame]
    headline: Callable[[pd.DataFrame], str]
    default_deals: int = 80_000  # 20,000 walls: 95% CIs of about ±0.03-0.05 units/deal
    # results.md shows one row per distinct ``markdown_rows`` and one column per value of
    # ``markdown_pivot``, each cell "estimate [ci_low, ci_high]"; results.csv has everything
    markdown_rows: tuple[str, ...] = ("preset", "policy", "baseline")
    markdown_pivot: str = "metric"
    # rows of one seed sharing these columns (those present) form one family for Holm
    family: tuple[str, ...] = ("estimand", "metric", "baseline")
    # the headline arms to run again on seed + 1 (names), given the first seed's table
    replicate: Callable[[pd.DataFrame], Sequence[str]] | None = None
    # the rows a headline is made of: (column, value) pairs; one replication line each
    headline_rows: tuple[tuple[str, object], ...] = (("estimand", "switching_gain"),
                                                     ("metric", "net"))
    # the field specs the arms were built for (empty: the experiment has no fields)
    fields: tuple[str, ...] = ()
    # results.md: a first table of the headline rows, one row per distinct ``answer_rows`` and
    # one column per field (empty: none)
    answer_rows: tuple[str, ...] = ()


@dataclass
class ExperimentResult:
    """What :func:`run_experiment` and :func:`load_result` return."""

    name: str
    path: Path
    table: pd.DataFrame
    meta: dict[str, Any]

    @property
    def headline(self) -> str:
        return str(self.meta.get("headline", ""))


def check_deals(deals: object) -> int:
    """``deals`` as a positive multiple of 4 (a duplicate arm plays each wall 4 times, and all
    arms of an experiment play the same count), else ValueError."""
    if isinstance(deals, bool) or not isinstance(deals, int) or deals <= 0:
        raise ValueError(f"deals per arm must be a positive integer, got {deals!r}")
    if deals % 4:
        raise ValueError(
            f"deals per arm must be a multiple of 4 (each wall is played under the 4 seat "
            f"rotations), got {deals}"
        )
    return deals


def _arm_dataset(
    arm: Arm, deals: int, seed: int, out: Path, workers: int | None, force: bool, progress: bool
) -> Dataset:
    """Run one arm, or reuse / resume the same arm already in ``out``."""
    resume = (out / META_NAME).exists() and not force
    try:
        return run(arm.deals_for(deals), rules=arm.rules, policies=arm.policies,
                           seed=seed, out=out, duplicate=arm.duplicate and not arm.one_rotation,
                           resume=resume, force=force, overrides=list(arm.overrides),
                           workers=workers, progress=progress)
    except ValueError as exc:
        if not resume:
            raise
        raise ValueError(
            f"arm {arm.name} in {out} differs from this experiment's arm ({exc}); pass "
            f"--force (force=True) to replace it, or choose another --root"
        ) from None


def format_interval(estimate: float, low: float, high: float, digits: int = 3) -> str:
    """``+0.123 [+0.045, +0.201]`` (signed, for differences)."""
    return f"{estimate:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


def _cell(estimate: float, low: float, high: float) -> str:
    if not np.isfinite(low) or not np.isfinite(high):
        return f"{estimate:.4g}"
    digits = max(0, min(4, 2 - int(np.floor(np.log10(max(high - low, 1e-9))))))
    return f"{estimate:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def wide_table(
    table: pd.DataFrame, rows: Sequence[str], pivot: str, scale: float = 1.0
) -> pd.DataFrame:
    """One row per distinct ``rows``, one column per value of ``pivot``; each cell is
    "estimate [ci_low, ci_high]" (times ``scale``: 100 for percentages), rounded to the
    interval's precision."""
    cells = table.assign(cell=[_cell(scale * e, scale * lo, scale * hi) for e, lo, hi in
                               zip(table["estimate"], table["ci_low"], table["ci_high"],
                                   strict=True)])
    wide = cells.pivot_table(index=list(rows), columns=pivot, values="cell", aggfunc="first",
                             sort=False)
    wide.columns.name = None
    return wide[[c for c in dict.fromkeys(table[pivot]) if c in wide.columns]]


def markdown_table(table: pd.DataFrame, rows: Sequence[str], pivot: str) -> str:
    """:func:`wide_table` as GitHub markdown."""
    return wide_table(table, rows, pivot).reset_index().to_markdown(index=False)


def with_result_columns(table: pd.DataFrame, seed: int, family: Sequence[str]) -> pd.DataFrame:
    """``table`` with every column of :data:`RESULT_COLUMNS` (missing ones NaN or blank), the
    ``seed`` filled in where it is missing, and ``p_holm`` recomputed within each family."""
    out = table.copy()
    for col in RESULT_COLUMNS:
        if col not in out.columns:
            out[col] = "" if col in ("estimand", "method") else np.nan
    out["seed"] = out["seed"].fillna(seed).astype(np.int64)
    keys = ["seed", *(c for c in family if c in out.columns)]
    out["p_holm"] = np.nan
    for _, rows in out.groupby(keys, sort=False, dropna=False):
        out.loc[rows.index, "p_holm"] = holm(rows["p_value"].to_numpy(np.float64))
    return out


def replication_rows(
    table: pd.DataFrame, experiment: Experiment, first: int, second: int
) -> list[dict[str, Any]]:
    """Each headline row present on both seeds: its two estimates, ``z`` = their difference
    over ``sqrt(se1**2 + se2**2)``, and ``flag`` when ``|z|`` exceeds
    :data:`REPLICATION_LIMIT`."""
    chosen = table
    for column, value in experiment.headline_rows:
        if column in chosen.columns:
            chosen = chosen[chosen[column] == value]
    keys = [c for c in chosen.columns if c not in {"seed", "walls", "informative_walls",
                                                   "estimate", "se", "ci_low", "ci_high",
                                                   "p_value", "p_holm", "method", "kurtosis",
                                                   "se_unpaired", "variance_reduction", "n",
                                                   "count"}]
    a = chosen[chosen["seed"] == first].set_index(keys)
    b = chosen[chosen["seed"] == second].set_index(keys)
    rows = []
    for key in a.index.intersection(b.index):
        x, y = a.loc[key], b.loc[key]
        if isinstance(x, pd.DataFrame):  # repeated keys: not a headline row
            continue
        se = float(np.hypot(x["se"], y["se"]))
        z = float((x["estimate"] - y["estimate"]) / se) if se > 0 else 0.0
        label = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        rows.append({**{k: (v.item() if hasattr(v, "item") else v) for k, v in label.items()},
                     "seeds": [first, second],
                     "estimates": [float(x["estimate"]), float(y["estimate"])],
                     "ses": [float(x["se"]), float(y["se"])], "z": z,
                     "flag": bool(abs(z) > REPLICATION_LIMIT)})
    return rows


def replication_text(rows: Sequence[dict[str, Any]]) -> str:
    """The replication lines of results.md and RESULTS.md."""
    if not rows:
        return ""
    lines = [f"Replication (headline arms on a second seed; flagged when the two seeds differ by "
             f"more than {REPLICATION_LIMIT:g} combined standard errors):"]
    for row in rows:
        label = ", ".join([*(str(row[k]) for k in ("preset", "policy") if k in row),
                           *(f"k={row['k']}" for _ in [0] if "k" in row),
                           *(f"field {row['field']}" for _ in [0] if "field" in row)])
        s1, s2 = row["seeds"]
        e1, e2 = row["estimates"]
        flag = "  <-- FLAG: the seeds disagree" if row["flag"] else ""
        lines.append(f"- {label}: seed {s1} {e1:+.3f}, seed {s2} {e2:+.3f} "
                     f"(z = {row['z']:+.2f}){flag}")
    return "\n".join(lines)


def _size_text(experiment: Experiment, deals: int) -> str:
    arms = [a for a in experiment.arms if not a.one_rotation]
    once = [a for a in experiment.arms if a.one_rotation]
    extra = (f", plus {len(once)} baseline arm{'s' * (len(once) > 1)} of "
             f"{once[0].deals_for(deals):,} deals (each wall once, the baseline in every seat)"
             ) if once else ""
    counts: dict[int, int] = {}
    for arm in arms:
        counts[arm.deals_for(deals)] = counts.get(arm.deals_for(deals), 0) + 1
    if len(counts) > 1:  # fields with fewer walls, rotated fields' orders
        parts = ", ".join(f"{n} x {d:,}" for d, n in sorted(counts.items(), reverse=True))
        kind = " (duplicate runs: walls x 4 seat rotations)" if all(
            a.duplicate for a in arms) else ""
        return f"{len(arms)} arms: {parts} deals{kind}{extra}"
    if all(a.duplicate for a in arms):
        return (f"{len(arms)} arms x {deals:,} deals ({deals // 4:,} walls x 4 seat rotations, "
                f"duplicate runs){extra}")
    return f"{len(arms)} arms x {deals:,} deals{extra}"


def answers_by_field(table: pd.DataFrame, rows: Sequence[str]) -> str:
    """Markdown: the headline switching gains in net, one row per ``rows``, one column per
    field (first seed), each cell "estimate [ci_low, ci_high]"; empty when there are none."""
    if "field" not in table.columns or not rows:
        return ""
    chosen = table[(table["estimand"] == "switching_gain") & (table["metric"] == "net")]
    chosen = chosen.dropna(subset=["estimate"])
    if not len(chosen):
        return ""
    chosen = chosen[chosen["seed"] == chosen["seed"].min()]
    return markdown_table(chosen, [r for r in rows if r in chosen.columns], "field")


def _tables_text(experiment: Experiment, first: pd.DataFrame) -> str:
    """The wide tables of results.md: answers x fields first, then one table per field."""
    rows, pivot = experiment.markdown_rows, experiment.markdown_pivot
    answers = answers_by_field(first, experiment.answer_rows)
    head = (f"Switching gain in net (units/deal) per field:\n\n{answers}\n\n" if answers
            else "")
    if "field" not in first.columns or first["field"].nunique() < 2:
        return head + markdown_table(first, rows, pivot)
    parts = []
    for name, part in first.groupby("field", sort=False):
        parts.append(f"## field: {name}\n\n"
                     f"{markdown_table(part, [r for r in rows if r != 'field'], pivot)}")
    return head + "\n\n".join(parts)


def run_experiment(
    experiment: Experiment,
    deals: int | None = None,
    seed: int = 0,
    root: str | os.PathLike[str] = DEFAULT_ROOT,
    workers: int | None = None,
    force: bool = False,
    progress: bool = True,
) -> ExperimentResult:
    """Run every arm of ``experiment`` (``deals`` each), analyse them, write the result table."""
    deals = check_deals(experiment.default_deals if deals is None else deals)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    path = Path(root) / experiment.name
    path.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}

    def play(arms: Sequence[Arm], arm_seed: int, suffix: str) -> list[Dataset]:
        datasets = []
        for arm in arms:
            t0 = time.perf_counter()
            datasets.append(_arm_dataset(arm, deals, arm_seed, path / (arm.name + suffix),
                                         workers, force, progress))
            seconds[arm.name + suffix] = round(time.perf_counter() - t0, 1)
        return datasets

    datasets = play(experiment.arms, seed, "")
    table = with_result_columns(experiment.analyse(experiment.arms, datasets), seed,
                                experiment.family)
    replicated: list[Arm] = []
    replication: list[dict[str, Any]] = []
    if experiment.replicate is not None:
        names = set(experiment.replicate(table))
        # the baseline arms of the replicated arms' presets and fields
        keys = {(a.labels.get("preset"), a.labels.get("field")) for a in experiment.arms
                if a.name in names}
        replicated = [a for a in experiment.arms if a.name in names or (
            a.labels.get("role") == "baseline"
            and (a.labels.get("preset"), a.labels.get("field")) in keys)]
        again = play(replicated, seed + 1, f"-seed{seed + 1}")
        second = with_result_columns(experiment.analyse(replicated, again), seed + 1,
                                     experiment.family)
        table = pd.concat([table, second], ignore_index=True)
        replication = replication_rows(table, experiment, seed, seed + 1)
    headline = experiment.headline(table)
    rep_text = replication_text(replication)
    meta = {
        "experiment": experiment.name,
        "question": experiment.question,
        "deals_per_arm": deals,
        "duplicate": all(a.duplicate for a in experiment.arms),
        "deals_total": sum(a.deals_for(deals) for a in [*experiment.arms, *replicated]),
        "seed": seed,
        "replication_seed": seed + 1 if replicated else None,
        "simcore_version": __version__,
        "fields": list(experiment.fields),
        "arms": [{"name": a.name, "rules": a.rules, "policies": a.policies, **a.labels,
                  **({"overrides": list(a.overrides)} if a.overrides else {}),
                  "deals": a.deals_for(deals), "seconds": seconds[a.name]}
                 for a in experiment.arms],
        "replicated_arms": [a.name for a in replicated],
        "headline": headline,
        "replication": replication,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    table.to_csv(path / RESULTS_CSV, index=False)
    first = table[table["seed"] == seed]
    text = (f"# {experiment.name}\n\n{experiment.question}\n\n{headline}\n\n"
            + (f"{rep_text}\n\n" if rep_text else "")
            + f"{_size_text(experiment, deals)}, seed {seed}, simcore {__version__}. "
            f"The table shows seed {seed}; results.csv has every row of both seeds with its "
            f"interval method and Holm-adjusted p-value.\n\n"
            f"{_tables_text(experiment, first)}\n")
    (path / RESULTS_MD).write_text(text, encoding="utf-8")
    (path / EXPERIMENT_META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return ExperimentResult(experiment.name, path, table, meta)


def load_result(name: str, root: str | os.PathLike[str] = DEFAULT_ROOT) -> ExperimentResult:
    """The result an earlier :func:`run_experiment` wrote (FileNotFoundError when there is none)."""
    path = Path(root) / name
    table_path, meta_path = path / RESULTS_CSV, path / EXPERIMENT_META
    if not table_path.exists() or not meta_path.exists():
        raise FileNotFoundError(
            f"no results of experiment {name!r} in {path}: run python experiments/{name}.py"
        )
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"corrupt experiment metadata {meta_path}: {exc}") from None
    return ExperimentResult(name, path, pd.read_csv(table_path), meta)


def arm_datasets(name: str, root: str | os.PathLike[str] = DEFAULT_ROOT) -> dict[str, Dataset]:
    """The arms' datasets of an experiment on disk, by arm name (for further analysis)."""
    path = Path(root) / name
    return {p.name: Dataset(p) for p in sorted(path.iterdir()) if (p / META_NAME).exists()}


def find_result(name: str, start: str | os.PathLike[str] = ".") -> ExperimentResult | None:
    """The result of experiment ``name`` in ``data/experiments`` of ``start`` or a parent
    directory (a notebook runs in ``notebooks/``), or None when it has not been run."""
    here = Path(start).resolve()
    for directory in (here, *here.parents):
        if (directory / DEFAULT_ROOT / name / RESULTS_CSV).exists():
            return load_result(name, directory / DEFAULT_ROOT)
    return None


def result_or_run(
    experiment: Experiment, deals: int, seed: int = 0, scratch: str | os.PathLike[str] | None = None
) -> ExperimentResult:
    """For notebooks: the experiment's full result when it has been run (``find_result``),
    otherwise a small run of ``deals`` per arm in ``scratch`` (a temporary directory)."""
    found = find_result(experiment.name)
    if found is not None:
        return found
    if scratch is None:
        import tempfile

        scratch = tempfile.mkdtemp(prefix="simcore-notebook-")
    return run_experiment(experiment, deals=deals, seed=seed, root=scratch, workers=1,
                          progress=False)
