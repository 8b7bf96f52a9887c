"""The ``tune`` orchestrator: validate a tune, run its search, confirm the winner, write and
read its directory (the package's face, :mod:`simcore.tuning`, re-exports it)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simcore._input import seed_int
from simcore.tuning.output import (
    BEST_JSON,
    FIGURE,
    TRIALS_CSV,
    TuneResult,
    load_result,
    search_figure,
    trials_table,
    verdict,
    write_csv,
    write_json,
)
from simcore.tuning.params import field_seats, parse_params, start_spec
from simcore.tuning.plan import (
    DEALS_PER_WALL,
    DEFAULT_CONFIRM_SHARE,
    DEFAULT_RUNGS,
    budget_plan,
)

PARAMS_JSON = "tune.json"
DEFAULT_TUNE_DIR = Path("data") / "tune"


def make_setup(
    policy: str, params: Sequence[str] | Mapping[str, str], field: str = "speed",
    rules: Any = "classic", deals: int = 100_000, seed: int = 0, *,
    overrides: Sequence[str] | Mapping[str, object] = (), rungs: Sequence[int] = DEFAULT_RUNGS,
    confirm_share: float = DEFAULT_CONFIRM_SHARE, level: float = 0.95,
    sampler_seed: int | None = None,
) -> Any:
    """Validate a tune's input (numba-free) into a :class:`~simcore.tuning.search.TuneSetup`."""
    from simcore.rules import resolve_rules
    from simcore.tuning.search import TuneSetup

    start = start_spec(policy)
    tuned = parse_params(params, start)
    seats = field_seats(field)
    record = resolve_rules(rules, overrides)
    seed = seed_int(seed, spare=1)  # the confirmation plays seed + 1
    if not 0.5 <= level < 1.0:
        raise ValueError(f"level: {level} is not in [0.5, 1)")
    plan = budget_plan(deals, rungs, confirm_share)
    return TuneSetup(start, tuned, seats, record, seed, plan, float(level),
                     seed if sampler_seed is None else int(sampler_seed))


def _check_directory(setup: Any, out: Path) -> None:
    """Create ``out`` for this tune, or check that the tune in it is this one."""
    identity = setup.identity()
    params_path = out / PARAMS_JSON
    if params_path.exists():
        stored = json.loads(params_path.read_text(encoding="utf-8"))
        for key in identity:
            if stored.get(key) != identity[key]:
                raise ValueError(
                    f"{out} holds another tune ({key} {stored.get(key)!r}, this one "
                    f"{identity[key]!r}): run the same command to continue it, or choose "
                    f"another --out"
                )
        return
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} exists and is not a tune directory (no {PARAMS_JSON}); "
                              f"choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    write_json(identity, params_path)


def tune(
    policy: str,
    params: Sequence[str] | Mapping[str, str],
    field: str = "speed",
    rules: Any = "classic",
    deals: int = 100_000,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    progress: bool | Callable[[int], None] = True,
    *,
    overrides: Sequence[str] | Mapping[str, object] = (),
    rungs: Sequence[int] = DEFAULT_RUNGS,
    confirm_share: float = DEFAULT_CONFIRM_SHARE,
    level: float = 0.95,
    sampler_seed: int | None = None,
) -> TuneResult:
    """Search ``policy``'s options ``params`` for the setting that earns most against ``field``.

    - ``policy``: the policy to tune, a spec (``"flush"``, ``"flush:g=10"``); its options (the
      defaults for the rest) are the **starting setting** every trial is measured against.
    - ``params``: the tuned options, ``["k=5..12", "g=0..30"]`` (integer ranges, both ends
      included) or ``"kong=always|never|keep_shape"`` (named values); checked against the
      policy registry.
    - ``field``: the three other seats, one spec or three separated by ``/``
      (``"expert/flush:k=8/pungs:k=4"``).
    - ``rules``, ``overrides``: the rule set (preset name and ``NAME=VALUE`` changes).
    - ``deals``: the budget, every deal included (trials, the baseline, the confirmation).
    - ``seed``: the search plays walls of ``seed``, the confirmation walls of ``seed + 1``.
    - ``out``: a directory for ``trials.csv``, ``best.json``, ``search.png`` and the study;
      None keeps everything in memory (not resumable).
    - ``progress``: a tqdm bar of deals on stderr, or a callable given the deals of each run.
    - ``rungs``: walls per pruner rung (each the previous times the reduction factor);
      ``confirm_share``: the share of the budget reserved for the confirmation; ``level`` its
      interval; ``sampler_seed``: the TPE sampler's seed (default ``seed``).

    The score of a trial is its gain over the starting setting: per wall, the tuned seat's mean
    net minus the starting setting's on the same walls against the same field, with the
    project's paired per-wall estimator (:func:`simcore.analysis.stats.paired_interval`).
    """
    setup = make_setup(policy, params, field, rules, deals, seed, overrides=overrides,
                       rungs=rungs, confirm_share=confirm_share, level=level,
                       sampler_seed=sampler_seed)
    path = None if out is None else Path(out)
    if path is not None:
        _check_directory(setup, path)
        if (path / BEST_JSON).exists():
            return load_result(path)
    from simcore.tuning import search as tuning

    names = [p.name for p in setup.params]
    with tuning._quiet_optuna():
        study = tuning.open_study(setup, path)
        bar = _Progress(setup, progress)
        baseline = tuning.Baseline(
            setup, None if path is None else path / tuning.BASELINE_FILE, bar.update)
        bar.initial_deals(DEALS_PER_WALL * baseline.walls + tuning.trial_deals(study))

        def after_trial() -> None:
            if path is not None:  # the table of a running tune is readable at any time
                write_csv(trials_table(study, names), path / TRIALS_CSV)

        try:
            tuning.search(setup, study, baseline, bar.update, after_trial)
            ranked = tuning.ranked_trials(study)
            if not ranked:  # the budget check makes room for one trial's first rung
                raise RuntimeError(f"the tune in {path} played no trial")
            best = ranked[0]
            # when the start itself won there is nothing to confirm about it (its gain is 0 by
            # definition): the confirmation tests the runner-up, the best other setting
            others = [t for t in ranked if t.user_attrs["spec"] != setup.policy.text]
            confirmed = others[0] if others else best
            if confirmed.user_attrs["spec"] == setup.policy.text:  # only the start was played
                row = {**tuning.gain_row(np.zeros(2), np.zeros(2), setup.level, "auto"),
                       "deals": 0}
            else:
                row = tuning.confirm(setup, confirmed.user_attrs["spec"], bar.update)
        finally:
            bar.close()
        table = trials_table(study, names)
    info = _best_info(setup, best, confirmed, row, table, baseline.walls)
    result = TuneResult.from_info(info, table, path)
    if path is not None:
        write_csv(table, path / TRIALS_CSV)
        search_figure(result, names).savefig(path / FIGURE, dpi=120)
        write_json(info, path / BEST_JSON)  # last: its presence says the tune has finished
    return result


def _best_info(setup: Any, best: Any, confirmed: Any, row: dict[str, Any], table: Any,
               baseline_walls: int) -> dict[str, Any]:
    from simcore._version import __version__

    trial_deals = int(table["deals"].sum())
    deals = {"baseline": DEALS_PER_WALL * baseline_walls, "trials": trial_deals,
             "confirmation": int(row["deals"])}
    setting = {p.name: best.params[p.name] for p in setup.params}
    return {
        "policy": setup.policy.policy.name,
        "setting": setting,
        "spec": best.user_attrs["spec"],
        "start": setup.policy.text,
        "start_setting": setup.start,
        # the setting the confirmation played against the start: the winner, or the
        # runner-up when the start itself won the search
        "confirmed_spec": confirmed.user_attrs["spec"],
        "confirmed_setting": {p.name: confirmed.params[p.name] for p in setup.params},
        "confirmed_gain": row["estimate"],
        "confirmed_se": row["se"],
        "ci": [row["ci_low"], row["ci_high"]],
        "level": setup.level,
        "method": row["method"],
        "p_value": row["p_value"],
        "verdict": verdict(row, setup.level, best.user_attrs["spec"] == setup.policy.text),
        "confirm_walls": setup.plan.confirm_walls,
        "confirm_seed": setup.seed + 1,
        "search_gain": best.user_attrs["gain"],
        "search_se": best.user_attrs["se"],
        "search_walls": best.user_attrs["walls"],
        "best_trial": best.number,
        "trials": len(table),
        "trials_played": int((table["state"].isin(["complete", "pruned"])
                              & (table["walls"] > 0) & table["duplicate_of"].isna()).sum()),
        "deals_spent": sum(deals.values()),
        "deals": deals,
        "budget": setup.plan.budget,
        "params": [p.text for p in setup.params],
        "field": "/".join(setup.field),
        "rules": setup.rules.to_dict(),
        "seed": setup.seed,
        "rungs": list(setup.plan.rungs),
        "simcore_version": __version__,
    }


class _Progress:
    """The deals played, on a tqdm bar (stderr) or passed to a callable."""

    def __init__(self, setup: Any, progress: bool | Callable[[int], None]) -> None:
        self._callback = progress if callable(progress) else None
        self._bar = None
        if progress is True:
            from tqdm import tqdm

            self._bar = tqdm(total=setup.plan.budget, unit=" deals", unit_scale=True,
                             desc=f"tune {setup.policy.policy.name}", file=sys.stderr,
                             dynamic_ncols=True, smoothing=0.1)

    def initial_deals(self, deals: int) -> None:
        if self._bar is not None and deals:
            self._bar.update(deals)

    def update(self, deals: int) -> None:
        if self._bar is not None:
            self._bar.update(deals)
        elif self._callback is not None:
            self._callback(deals)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def result_or_run(
    name: str, policy: str, params: Sequence[str], deals: int, *, root: str | os.PathLike[str]
    | None = None, **kwargs: Any,
) -> TuneResult:
    """For notebooks: the finished tune ``data/tune/NAME`` (in the working directory or a
    parent: a notebook runs in ``notebooks/``) when it exists, otherwise a tune of ``deals``
    in memory (``kwargs`` as :func:`tune`)."""
    if root is None:
        here = Path.cwd().resolve()
        for directory in (here, *here.parents):
            if (directory / DEFAULT_TUNE_DIR / name / BEST_JSON).exists():
                return load_result(directory / DEFAULT_TUNE_DIR / name)
    elif (Path(root) / name / BEST_JSON).exists():
        return load_result(Path(root) / name)
    kwargs.setdefault("progress", False)
    return tune(policy, params, deals=deals, **kwargs)
