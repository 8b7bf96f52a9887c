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

import simcore
from simcore.runner.store import META_NAME, Dataset

DEFAULT_ROOT = Path("data") / "experiments"
RESULTS_CSV = "results.csv"
RESULTS_MD = "results.md"
EXPERIMENT_META = "experiment.json"


@dataclass(frozen=True)
class Arm:
    """One run of an experiment: ``name`` is its directory, ``labels`` its columns in tables."""

    name: str
    rules: str
    policies: str
    labels: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = True


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
        return simcore.run(deals, rules=arm.rules, policies=arm.policies, seed=seed, out=out,
                           duplicate=arm.duplicate, resume=resume, force=force,
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


def _size_text(experiment: Experiment, deals: int) -> str:
    arms = len(experiment.arms)
    if all(a.duplicate for a in experiment.arms):
        return (f"{arms} arms x {deals:,} deals ({deals // 4:,} walls x 4 seat rotations, "
                f"duplicate runs)")
    return f"{arms} arms x {deals:,} deals"


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
    datasets, seconds = [], {}
    for arm in experiment.arms:
        t0 = time.perf_counter()
        datasets.append(_arm_dataset(arm, deals, seed, path / arm.name, workers, force,
                                     progress))
        seconds[arm.name] = round(time.perf_counter() - t0, 1)
    table = experiment.analyse(experiment.arms, datasets)
    meta = {
        "experiment": experiment.name,
        "question": experiment.question,
        "deals_per_arm": deals,
        "duplicate": all(a.duplicate for a in experiment.arms),
        "deals_total": deals * len(experiment.arms),
        "seed": seed,
        "simcore_version": simcore.__version__,
        "arms": [{"name": a.name, "rules": a.rules, "policies": a.policies, **a.labels,
                  "seconds": seconds[a.name]} for a in experiment.arms],
        "headline": experiment.headline(table),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    table.to_csv(path / RESULTS_CSV, index=False)
    text = (f"# {experiment.name}\n\n{experiment.question}\n\n{meta['headline']}\n\n"
            f"{_size_text(experiment, deals)}, seed {seed}, simcore {simcore.__version__}.\n\n"
            f"{markdown_table(table, experiment.markdown_rows, experiment.markdown_pivot)}\n")
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
