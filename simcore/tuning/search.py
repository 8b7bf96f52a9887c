"""The search: optuna's TPE sampler and successive-halving pruner over growing sets of walls.

Every trial is one setting of the tuned options, played in the table ``X/F1/F2/F3`` as a
duplicate run on walls ``0 .. n`` of the tune's seed (the same walls for every trial, so trials
are compared on common walls). Its score at a rung of ``n`` walls is its **gain over the
starting setting**: per wall, the tuned seat's mean net over its four deals minus the starting
setting's in the same seats of the same walls against the same field (the baseline run,
played once and shared), averaged over the walls with
:func:`simcore.analysis.stats.paired_interval`. This is the project's switching gain with the
starting setting in the place of ``speed``; where the experiments may take the baseline's own
mean net as 0 (``speed`` against three ``speed`` players), here it is always played, since
against another field, or for another start, it is not 0.

The pruner compares trials at the same rung and promotes the best ``1 / reduction_factor`` to
the next one (the first trials are promoted only if they beat all before them). A setting the
sampler proposes again is not played again: the earlier trial's values are copied.

Resuming: with an output directory the study lives in ``OUT/study.db`` (SQLite) and the
baseline's per-wall values in ``OUT/baseline.npy``; a trial a kill left running is marked
failed and queued again. Its rungs already played stay counted (the deals were spent).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcore.analysis.stats import paired_interval
from simcore.engine.spec import PolicySpec
from simcore.rules import Rules
from simcore.tuning.params import Param, in_space, setting_spec, space_size, start_setting
from simcore.tuning.plan import DEALS_PER_WALL, BudgetPlan

STUDY_NAME = "simcore-tune"
STUDY_FILE = "study.db"
BASELINE_FILE = "baseline.npy"
# consecutive proposals of settings already tried after which the search ends (the sampler has
# converged or the space is nearly exhausted; a repeat costs no deals, so only this ends it)
MAX_REPEATS = 50


@dataclass(frozen=True)
class TuneSetup:
    """Everything a tune's results depend on (validated)."""

    policy: PolicySpec  # the starting setting
    params: tuple[Param, ...]
    field: tuple[str, str, str]
    rules: Rules
    seed: int
    plan: BudgetPlan
    level: float
    sampler_seed: int

    @property
    def start(self) -> dict[str, int | str]:
        return start_setting(self.policy, self.params)

    def spec(self, setting: dict[str, Any]) -> str:
        return setting_spec(self.policy, setting)

    def identity(self) -> dict[str, Any]:
        """The parameters stored beside a study: a re-run must give the same ones."""
        return {
            "policy": self.policy.text,
            "params": [p.text for p in self.params],
            "field": "/".join(self.field),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals": self.plan.budget,
            "rungs": list(self.plan.rungs),
            "confirm_walls": self.plan.confirm_walls,
            "level": self.level,
            "sampler_seed": self.sampler_seed,
        }


# ------------------------------------------------------------------------------ scoring
def tuned_seat_means(records: np.ndarray, start: int, count: int) -> np.ndarray:
    """Per wall ``start .. start+count-1``: the mean net of the seat that plays ``seat_policies
    [0]`` of a duplicate run (rotation ``r`` puts it at seat ``(4 - r) % 4``) over its four
    deals. Found by seat, not by policy name: the field may play the same spec."""
    mine = records["seat"].astype(np.int64) == (4 - records["rotation"].astype(np.int64)) % 4
    walls = records["wall"][mine] - start
    counts = np.bincount(walls, minlength=count)
    if len(counts) != count or not (counts == DEALS_PER_WALL).all():
        raise RuntimeError(f"expected {DEALS_PER_WALL} deals of the tuned seat on each of "
                           f"walls {start}..{start + count - 1}")
    return np.bincount(walls, weights=records["net"][mine], minlength=count) / DEALS_PER_WALL


def play_walls(setup: TuneSetup, spec: str, seed: int, start: int, count: int) -> np.ndarray:
    """The tuned seat's mean net per wall when it plays ``spec`` against the field."""
    from simcore.engine.api import simulate

    records = simulate(setup.rules, [spec, *setup.field], seed, start, count, duplicate=True)
    return tuned_seat_means(records, start, count)


def gain_row(own: np.ndarray, base: np.ndarray, level: float, method: str) -> dict[str, Any]:
    """The paired estimate of ``own - base`` over their common walls (the project's one
    estimator)."""
    return paired_interval(own - base[: len(own)], level=level, method=method)


class Baseline:
    """The starting setting's per-wall values on walls ``0 .. n`` of the seed, grown on demand
    and kept in ``path`` (when given) so a resumed tune does not pay for them again."""

    def __init__(self, setup: TuneSetup, path: Path | None, spent: Callable[[int], None]):
        self._setup, self._path, self._spent = setup, path, spent
        self.values = np.load(path) if path is not None and path.exists() else np.empty(0)

    @property
    def walls(self) -> int:
        return len(self.values)

    def cost(self, walls: int) -> int:
        """Deals it takes to have ``walls`` walls."""
        return DEALS_PER_WALL * max(0, walls - self.walls)

    def extend(self, walls: int) -> np.ndarray:
        if walls > self.walls:
            more = play_walls(self._setup, self._setup.policy.text, self._setup.seed,
                              self.walls, walls - self.walls)
            self.values = np.concatenate([self.values, more])
            if self._path is not None:
                tmp = self._path.with_name(f".{self._path.name}.tmp.npy")
                np.save(tmp, self.values)
                tmp.replace(self._path)
            self._spent(DEALS_PER_WALL * len(more))
        return self.values[:walls]


# ------------------------------------------------------------------------------ the study
@contextmanager
def _quiet_optuna():
    import optuna

    before = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            yield
    finally:
        optuna.logging.set_verbosity(before)


def open_study(setup: TuneSetup, out: Path | None) -> Any:
    """The study (new, or the one in ``out`` to continue); killed trials are failed and
    queued again."""
    import optuna
    from optuna.trial import TrialState

    storage = None if out is None else f"sqlite:///{(out / STUDY_FILE).resolve()}"
    sampler = optuna.samplers.TPESampler(seed=setup.sampler_seed)
    pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=setup.plan.rungs[0], reduction_factor=setup.plan.reduction_factor)
    study = optuna.create_study(storage=storage, sampler=sampler, pruner=pruner,
                                study_name=STUDY_NAME, direction="maximize",
                                load_if_exists=True)
    trials = study.get_trials(deepcopy=False)
    if not trials and in_space(setup.start, setup.params):
        # the starting setting first: it costs nothing (it is the baseline) and gives the
        # pruner its reference, gain 0
        study.enqueue_trial(setup.start)
    for t in trials:
        if t.state == TrialState.RUNNING:
            study.tell(t.number, state=TrialState.FAIL)
            study.enqueue_trial(t.params)
    return study


def distributions(params: tuple[Param, ...]) -> dict[str, Any]:
    from optuna.distributions import CategoricalDistribution, IntDistribution

    return {p.name: IntDistribution(p.low, p.high) if p.kind == "int"
            else CategoricalDistribution(p.choices) for p in params}


def trial_deals(study: Any) -> int:
    return sum(int(t.user_attrs.get("deals", 0)) for t in study.get_trials(deepcopy=False))


def _reusable(study: Any, params: dict[str, Any]) -> Any:
    """An earlier trial of the same setting that was played to its end (complete or pruned)."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)):
        if (t.params == params and "duplicate_of" not in t.user_attrs
                and "stopped" not in t.user_attrs):
            return t
    return None


def search(
    setup: TuneSetup, study: Any, baseline: Baseline, spent: Callable[[int], None],
    after_trial: Callable[[], None] = lambda: None,
) -> None:
    """Ask, play and tell trials until the search budget, the space or the sampler's new
    proposals run out."""
    from optuna.trial import TrialState

    plan, rungs, space = setup.plan, setup.plan.rungs, distributions(setup.params)
    repeats = 0

    def remaining() -> int:
        return plan.search_deals - DEALS_PER_WALL * baseline.walls - trial_deals(study)

    while True:
        first_rung = DEALS_PER_WALL * rungs[0] + baseline.cost(rungs[0])
        played = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                          TrialState.PRUNED))
        distinct = {tuple(sorted(t.params.items())) for t in played if "stopped" not in
                    t.user_attrs}
        if remaining() < first_rung or len(distinct) >= space_size(setup.params) \
                or repeats >= MAX_REPEATS:
            return
        trial = study.ask(space)
        earlier = _reusable(study, trial.params)
        if earlier is not None:
            repeats += 1
            for step, value in sorted(earlier.intermediate_values.items()):
                trial.report(value, step)
            for key in ("spec", "gain", "se", "walls"):
                trial.set_user_attr(key, earlier.user_attrs[key])
            trial.set_user_attr("duplicate_of", earlier.number)
            study.tell(trial, earlier.value if earlier.state == TrialState.COMPLETE else None,
                       state=earlier.state)
            after_trial()
            continue
        repeats = 0
        _play_trial(setup, study, trial, baseline, remaining, spent)
        after_trial()


def _play_trial(setup: TuneSetup, study: Any, trial: Any, baseline: Baseline,
                remaining: Callable[[], int], spent: Callable[[int], None]) -> None:
    from optuna.trial import TrialState

    rungs = setup.plan.rungs
    spec = setup.spec(trial.params)
    trial.set_user_attr("spec", spec)
    is_start = spec == setup.policy.text  # its gain is exactly 0: it is the baseline
    own = np.empty(0)
    row: dict[str, Any] = {}
    for i, walls in enumerate(rungs):
        cost = baseline.cost(walls) + (0 if is_start else DEALS_PER_WALL * (walls - len(own)))
        if cost > remaining():
            trial.set_user_attr("stopped", "budget")
            study.tell(trial, state=TrialState.PRUNED)
            return
        base = baseline.extend(walls)
        if is_start:
            own = base.copy()
        else:
            more = play_walls(setup, spec, setup.seed, len(own), walls - len(own))
            own = np.concatenate([own, more])
            trial.set_user_attr("deals", DEALS_PER_WALL * len(own))
            spent(DEALS_PER_WALL * len(more))
        # the trial's score needs no interval, only its estimate and SE (the same for every
        # interval method): the confirmation gives the interval
        row = gain_row(own, base, setup.level, "normal")
        trial.report(row["estimate"], walls)
        trial.set_user_attr("gain", row["estimate"])
        trial.set_user_attr("se", row["se"])
        trial.set_user_attr("walls", walls)
        if i < len(rungs) - 1 and trial.should_prune():
            study.tell(trial, state=TrialState.PRUNED)
            return
    study.tell(trial, row["estimate"])


def ranked_trials(study: Any) -> list[Any]:
    """The trials played (repeats left out), best first: by the rung reached, then the gain
    there (trials are compared on the same walls only), then the earlier trial."""
    from optuna.trial import TrialState

    played = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                                  TrialState.PRUNED))
              if "walls" in t.user_attrs and "duplicate_of" not in t.user_attrs]
    return sorted(played, key=lambda t: (-t.user_attrs["walls"], -t.user_attrs["gain"],
                                         t.number))


def confirm(setup: TuneSetup, spec: str, spent: Callable[[int], None]) -> dict[str, Any]:
    """``spec`` against the starting setting on fresh walls (``seed + 1``), 95% interval."""
    walls, seed = setup.plan.confirm_walls, setup.seed + 1
    base = play_walls(setup, setup.policy.text, seed, 0, walls)
    spent(DEALS_PER_WALL * walls)
    own = play_walls(setup, spec, seed, 0, walls)
    spent(DEALS_PER_WALL * walls)
    return {**gain_row(own, base, setup.level, "auto"), "deals": 2 * DEALS_PER_WALL * walls}
