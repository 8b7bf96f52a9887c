"""Advice for a position: every legal action played to the end of the deal on the same hidden
states, ranked by the seat's expected net in units, each figure with its 95% interval.

:func:`advise` samples hidden states exactly (:mod:`.sampler`), plays every legal action on
each (:mod:`.playing`: common random numbers, the seat then playing ``policy``, the others
``field``) in batches of ``batch`` hidden states, and stops when every action is separated from
the best by ``separation`` joint standard errors of their paired difference, or at ``samples``
hidden states, or after ``seconds``. The best action's margins are then measured again on fresh
hidden states (``confirm``): picking the largest of noisy means favours the luckiest action, so
the differences reported come from samples that took no part in the choice. An action
already settled (separated from the best, or measured to ``target_se``) is not played on
later batches (``allocation``): the clear mistakes stop costing rollouts early.

Reproducible: batch ``b`` draws its hidden states from ``(seed, b)`` and plays them with the
random streams of samples ``b * batch ...``; batches are read in order, so the table depends on
``(position, policies, seed, batch, samples, simcore version)`` only, not on ``threads`` or
``processes``. A
stop on ``seconds`` ends at a batch boundary: the attrs say how many samples were used, and
``samples=`` that number with ``seconds=None`` gives the same table again.

>>> from simcore.advice.position import Position
>>> p = Position.parse('''
... rules classic
... seat 0 dealer 0 wall 30
... hand 234567899m4556p +3p
... S0 void s discards 1s 9s 2s 7sd 1p 8p 9pd
... S1 void m discards 3m 1m 7m 3sc 9p 2p 8s
... S2 void m melds P3sP7s discards 1m 9m 5m 1p 4s 6s
... S3 void p discards 6p 7p 9p 1p 7sc 2s 1sd
... decision turn''')
>>> t = advise(p, policy="speed", field="speed", samples=256, seconds=None, seed=1)
>>> len(t), t.attrs["samples"], t.attrs["lanes"], t.action.iloc[0].split()[0]
(12, 256, True, 'discard')
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcore.advice.playing import Outcomes, Rollouts
from simcore.advice.position import Action, Position
from simcore.advice.sampler import HiddenSampler, HiddenSamples, stratify_first_draws
from simcore.analysis.stats import DEFAULT_LEVEL, proportion_interval, z_quantile

DEFAULT_POLICY = "expert"
DEFAULT_FIELD = "expert"
DEFAULT_SECONDS = 2.0
DEFAULT_SAMPLES = 20_000  # the cap on hidden states of the search
DEFAULT_BATCH = 64  # the first batch; each next one twice as large, up to MAX_BATCH
MAX_BATCH = 512  # hidden states per kernel call at most (a call costs ~5 ms of Python)
SEARCH_SHARE = 0.7  # of ``seconds``: the rest is for the confirmation on fresh samples
MIN_SAMPLES = 128  # before the stopping rule is first asked
SEPARATION = 3.0  # joint standard errors between every action and the best
# per-action allocation: an action settled (separated from the best, or measured to target_se)
# is no longer played; batch b reads the outcomes up to batch b - ALLOCATION_LAG, so that the
# table does not depend on how many batches run at once (at most this many)
ALLOCATION_LAG = 2
DEFAULT_STRATIFY = 0  # first draws stratified per batch (benchmarks/bench_advise.py measures)
WEIGHTINGS = ("uniform", "behaviour")
DEFAULT_EPSILON = 0.5  # the behaviour model's share of uniformly random discards
CONFIRM_BATCH_OFFSET = 1 << 20  # batch indices of the fresh confirmation samples
CONFIRM_FIRST_SAMPLE = 1 << 40  # and their samples' random streams

TABLE_COLUMNS = (
    "action", "rank", "samples",
    "net", "net_se", "net_ci_low", "net_ci_high",
    "win", "win_ci_low", "win_ci_high",
    "deal_in", "deal_in_ci_low", "deal_in_ci_high",
    "fan", "fan_ci_low", "fan_ci_high",
    "pig", "pig_ci_low", "pig_ci_high",
    "diff", "diff_se", "diff_ci_low", "diff_ci_high", "diff_samples",
    "not_worse",
)


class Accumulator:
    """The outcomes of every action on the hidden states played so far, batch by batch, and
    the integer sums the stopping rule and the allocation read (exact, and not the whole
    table again each batch). An action not played on a hidden state (``Outcomes.played``)
    counts neither in its own figures nor in any pair it belongs to."""

    def __init__(self) -> None:
        self.parts: list[Outcomes] = []
        self.n = 0
        self._sum: np.ndarray | None = None  # int64[k]: each action's total net
        self._count: np.ndarray | None = None  # int64[k]: the hidden states it was played on
        self._gram: np.ndarray | None = None  # int64[k, k]: sums of products of the nets
        self._cross: np.ndarray | None = None  # int64[k, k]: [a, b] a's nets where b played
        self._square: np.ndarray | None = None  # int64[k, k]: [a, b] a's squares where b played
        self._joint: np.ndarray | None = None  # int64[k, k]: hidden states both were played on

    def add(self, o: Outcomes) -> None:
        self.parts.append(o)
        m = _played(o).astype(np.int64)
        x = o.net.astype(np.int64) * m
        sums = (x.sum(axis=0), m.sum(axis=0), x.T @ x, x.T @ m, (x * x).T @ m, m.T @ m)
        if self._sum is None:
            (self._sum, self._count, self._gram, self._cross, self._square,
             self._joint) = sums
        else:
            for name, add in zip(("_sum", "_count", "_gram", "_cross", "_square", "_joint"),
                                 sums, strict=True):
                getattr(self, name).__iadd__(add)
        self.n += len(x)

    def net(self) -> np.ndarray:
        """The nets so far (hidden states x actions)."""
        return np.concatenate([o.net for o in self.parts])

    def weights(self, weighted: bool) -> np.ndarray | None:
        """The hidden states' weights so far (None: uniform sampling)."""
        return np.concatenate([o.weight for o in self.parts]) if weighted else None

    def paired(self, weighted: bool) -> tuple[np.ndarray, np.ndarray]:
        """Each action's mean net and the standard error of its paired difference from the
        best (:func:`paired_stats` when every action was played on every hidden state)."""
        if weighted or self._sum is None or self.n < 2:
            return paired_stats(self.net(), self.weights(weighted))
        mean, _gap, se, _joint = self.pairs()
        return mean, se

    def pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(mean, gap, se, joint)`` per action: its mean net (over the hidden states it was
        played on), and on the hidden states it shares with the best (``joint`` of them) the
        best's mean lead over it and that lead's standard error (0 for the best itself)."""
        assert self._sum is not None and self._count is not None
        assert self._gram is not None and self._cross is not None
        assert self._square is not None and self._joint is not None
        mean = self._sum / np.maximum(self._count, 1)
        best = int(np.argmax(mean))
        joint = self._joint[:, best]
        lead = self._cross[best, :] - self._cross[:, best]  # the best's total lead
        squares = self._square[:, best] + self._square[best, :] - 2 * self._gram[:, best]
        n = np.maximum(joint, 2).astype(np.float64)
        var = (n * squares - lead * lead) / (n * (n - 1.0))  # exact up to the division
        se = np.where(joint >= 2, np.sqrt(np.maximum(var, 0.0) / n), np.inf)
        se[best] = 0.0
        return mean, lead / np.maximum(joint, 1), se, joint

    def played_counts(self) -> np.ndarray:
        """The hidden states each action was played on."""
        assert self._count is not None
        return self._count

    def unsettled(self, separation: float, target_se: float | None,
                  coming: np.ndarray | None = None) -> np.ndarray:
        """bool per action: still to be played. An action is settled once it has shared
        :data:`MIN_SAMPLES` hidden states with the best and is ``separation`` standard errors
        of their paired difference behind it (or does the same on every one of them), or,
        with ``target_se``, once that standard error is at most ``target_se``; the best is
        never settled. ``coming``: hidden states each action is already being played on
        (batches running): its standard error is taken as it will be after them, its
        variance as it is (the stopping rule reads the errors as they are)."""
        mean, gap, se, joint = self.pairs()
        if coming is not None:
            se = se * np.sqrt(joint / np.maximum(joint + coming, 1))
        settled = (joint >= MIN_SAMPLES) & ((gap >= separation * se) | (se == 0))
        if target_se is not None:
            settled |= (joint >= MIN_SAMPLES) & (se <= target_se)
        settled[int(np.argmax(mean))] = False
        return ~settled

    def stacked(self) -> Outcomes:
        fields = {f: np.concatenate([getattr(o, f) for o in self.parts])
                  for f in Outcomes._fields[:-1]}
        if all(o.played is None for o in self.parts):
            return Outcomes(**fields)
        return Outcomes(**fields, played=np.concatenate([_played(o) for o in self.parts]))


def weighted_mean_se(x: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Column means of ``x`` (hidden states x ...) and their standard errors: plain (``w``
    None) or self-normalised importance weighted (``sqrt(sum w^2 (x - mean)^2) / sum w``)."""
    x = np.asarray(x, dtype=np.float64)
    if w is None:
        n = len(x)
        se = x.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(x.shape[1:], np.nan)
        return x.mean(axis=0), se
    total = w.sum()
    mean = (w[:, None] * x).sum(axis=0) / total if x.ndim == 2 else (w * x).sum() / total
    dev = x - mean
    wcol = w[:, None] if x.ndim == 2 else w
    return mean, np.sqrt((wcol ** 2 * dev ** 2).sum(axis=0)) / total


def effective_size(w: np.ndarray | None, n: int) -> float:
    """Kish's effective sample size of the weights (``n`` when unweighted)."""
    if w is None:
        return float(n)
    return float(w.sum() ** 2 / max((w ** 2).sum(), 1e-300))


def paired_stats(net: np.ndarray, w: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Each action's mean net and the standard error of its paired difference from the best
    (0 for the best) (``net``: hidden states x actions; ``w`` the hidden states' weights)."""
    mean, _ = weighted_mean_se(net, w)
    best = int(np.argmax(mean))
    return mean, weighted_mean_se(net - net[:, best: best + 1], w)[1]


def paired_se(net: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Each action's standard error of its paired difference from the best (0 for the best)."""
    return paired_stats(net, w)[1]


def separated(net: np.ndarray, separation: float = SEPARATION,
              w: np.ndarray | None = None) -> bool:
    """Whether every action is ``separation`` standard errors of its paired difference from
    the best one (``net``: hidden states x actions; ``w`` the hidden states' weights); ties
    with zero variance count as separated (the actions do the same on every sample)."""
    return net.shape[1] < 2 or apart(*paired_stats(net, w), separation)


def apart(mean: np.ndarray, se: np.ndarray, separation: float) -> bool:
    """:func:`separated` from the actions' means and paired standard errors."""
    best = int(np.argmax(mean))
    gap = mean[best] - mean
    ok = (gap >= separation * se) | (se == 0)
    ok[best] = True
    return bool(ok.all())


def advise(position: Position, policy: str = DEFAULT_POLICY,
           field: str | Sequence[str] = DEFAULT_FIELD, *, samples: int = DEFAULT_SAMPLES,
           seconds: float | None = DEFAULT_SECONDS, seed: int = 0, batch: int = DEFAULT_BATCH,
           separation: float = SEPARATION, confirm: bool = True, processes: int = 1,
           threads: int | None = None, stratify: int = DEFAULT_STRATIFY,
           target_se: float | None = None,
           weighting: str = "uniform", epsilon: float = DEFAULT_EPSILON,
           level: float = DEFAULT_LEVEL, lanes: bool = True, allocation: bool = True,
           debug: bool = False) -> pd.DataFrame:
    """Every legal action of ``position`` ranked by the seat's expected net (units, the rest
    of the deal): one row per action, best first (columns :data:`TABLE_COLUMNS`, the settings
    and the verdict in ``attrs``). See the module docstring for the method and its options;
    ``threads`` plays batches in that many threads of this process (default: one per core
    this process may use, or 1 with ``processes``; the kernel runs without the GIL), and
    ``processes`` > 1 in that many worker processes instead (workers start in about 2 s:
    worth it only for long searches); either gives the same table (batches are read in
    order); ``stratify``
    stratifies the walls' first that many draws across each batch (0: plain uniform walls);
    ``target_se`` also stops the search once every action's paired standard error from the
    best is at most that many units; ``weighting="behaviour"`` weights each hidden state by
    how likely the other seats' latest discards are under the field policy (an
    ``epsilon``-greedy model, :func:`simcore.engine.behaviour.behaviour_likelihood`; the
    effective sample size is in ``attrs``); ``lanes`` (the default) deals each rollout's wall
    into seat lanes (:mod:`simcore.engine.lanes`: each seat's draws the same under every
    action, whatever the claims; the same expected values, a smaller variance of the
    differences; ``False``: the wall drawn as laid, as the published reviews are);
    ``allocation`` plays an action only until it is settled (``separation`` standard errors
    behind the best, or measured to ``target_se``; the best is always played): each action's
    figures are then over the hidden states it was played on, and the confirmation plays each
    on half as many fresh ones (``False``: every action on every hidden state); ``debug``
    checks every rollout's invariants."""
    _check(samples, seconds, batch, separation, processes)
    threads = _threads(threads, processes)
    if weighting not in WEIGHTINGS:
        raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}, got {weighting!r}")
    if not 0 < epsilon <= 1:
        raise ValueError(f"epsilon must be in (0, 1], got {epsilon!r}")
    weighted = weighting == "behaviour"
    actions = position.legal_actions()
    started = time.perf_counter()
    roll = Rollouts(position, actions, policy, field, seed=seed, debug=debug,
                    behaviour=epsilon if weighted else None, lanes=lanes)
    play = _Batches(position, actions, roll, seed, processes, stratify, threads)
    search = Accumulator()
    stop = "samples"
    budget = None if seconds is None else seconds * (SEARCH_SHARE if confirm else 1.0)
    k = len(actions)
    # batch b plays the actions still unsettled after batch b - ALLOCATION_LAG (all of them
    # before): a fixed lag, so that the table does not depend on how many batches run at once
    allocate = allocation and not weighted and k > 1
    plans: list[np.ndarray] = []

    def active(b: int) -> np.ndarray | None:
        return plans[b - ALLOCATION_LAG] if allocate and b >= ALLOCATION_LAG else None

    todo = list(batches(batch, samples))
    for outcome in play(todo, 0, active):
        search.add(outcome)
        if allocate:
            # the batches after this one up to the one this plan is for are already running
            c = len(plans)
            coming = np.zeros(k)
            for b in range(c + 1, min(c + ALLOCATION_LAG, len(todo))):
                plan = active(b)
                coming += todo[b][2] * (1 if plan is None else plan)
            plans.append(search.unsettled(separation, target_se, coming))
        if search.n >= MIN_SAMPLES:
            why = _stopped(search, weighted, separation, target_se)
            if why is not None:
                stop = why
                break
        if budget is not None and time.perf_counter() - started >= budget:
            stop = "seconds"
            break
    found = search.stacked()
    fresh = None
    if confirm and k > 1:
        fresh_acc = Accumulator()
        quota = _confirm_quota(search, allocate)
        todo = list(batches(batch, int(quota.max())))
        for outcome in play(todo, 1, lambda b: quota > todo[b][1] if allocate else None):
            fresh_acc.add(outcome)
        fresh = fresh_acc.stacked()
    table = action_table(actions, found, fresh, level, weighted)
    table.attrs.update(
        position=str(position), policy=roll.policies[position.seat], field=roll.policies,
        seed=seed, batch=batch, stratify=stratify, samples=search.n,
        confirm_samples=0 if fresh is None else len(fresh.net), stop=stop,
        allocation=allocate, rollouts=int(search.played_counts().sum()),
        seconds=round(time.perf_counter() - started, 3), separation=separation, level=level,
        weighting=weighting, epsilon=epsilon if weighted else None, lanes=lanes,
        ess=round(effective_size(found.weight if weighted else None, len(found.net)), 1),
        net="units from this decision to the end of the deal (money settled before it is the "
        "same for every action and not included)",
        verdict=verdict(table))
    return table


def _stopped(search: Accumulator, weighted: bool, separation: float,
             target_se: float | None) -> str | None:
    """Why the search stops now (``"separated"``: every action is ``separation`` standard
    errors of its paired difference behind the best; ``"target_se"``: each of them is that or
    measured to ``target_se``), or None."""
    if weighted:
        mean, se = search.paired(weighted)
        if len(mean) < 2 or apart(mean, se, separation):
            return "separated"
        return "target_se" if target_se is not None and se.max() <= target_se else None
    if search.parts[0].net.shape[1] < 2:  # one legal action: nothing to compare
        return "separated"
    if search.unsettled(separation, target_se).sum() > 1:
        return None
    return "separated" if search.unsettled(separation, None).sum() == 1 else "target_se"


def _confirm_quota(search: Accumulator, allocate: bool) -> np.ndarray:
    """Fresh hidden states each action is played on in the confirmation: half as many as the
    search played it on (:data:`MIN_SAMPLES` at least), and the best on as many as any."""
    k = search.parts[0].net.shape[1]
    if not allocate:
        return np.full(k, max(MIN_SAMPLES, search.n // 2))
    mean, _gap, _se, _joint = search.pairs()
    quota = np.maximum(MIN_SAMPLES, search.played_counts() // 2)
    quota[int(np.argmax(mean))] = quota.max()
    return quota


def batches(first: int, total: int):
    """The batches of a search of ``total`` hidden states: ``(index, first sample, size)``,
    sizes ``first``, ``2 * first``, ... up to :data:`MAX_BATCH` (fixed: the batches do not
    depend on the machine, the time or the number of processes)."""
    start = 0
    size = first
    b = 0
    while start < total:
        n = min(size, total - start)
        yield b, start, n
        start += n
        b += 1
        size = min(2 * size, max(MAX_BATCH, first))


class _Batches:
    """Plays batches of hidden states in order, here, in threads or in worker processes:
    ``play(batches, phase)`` yields each batch's :class:`Outcomes` in the order of
    ``batches`` (phase 0: the search, 1: the fresh confirmation samples); a consumer that
    stops early wastes at most the batches already running."""

    def __init__(self, position: Position, actions: list[Action], roll: Rollouts, seed: int,
                 processes: int, stratify: int, threads: int = 1):
        self.args = (position.to_json(None), [tuple(a) for a in actions], roll.policies,
                     seed, roll.debug, stratify, roll.behaviour, roll.lanes)
        self.local = None if processes > 1 else _Worker(*self.args, roll=roll)
        if processes > 1:
            pool = worker_pool(processes)
            self.submit = lambda item, phase, active: pool.submit(
                _play_in_worker, self.args, *item, phase, active)
            self.ahead = 2 * processes  # a batch's outcomes cross a pipe: keep more queued
        elif threads > 1:
            pool, play = thread_pool(threads), self.local.play  # type: ignore[union-attr]
            self.submit = lambda item, phase, active: pool.submit(play, *item, phase, active)
            self.ahead = threads + 1  # one queued: a thread that ends a batch starts the next
        else:
            self.ahead = 0
        # batch b's actions are chosen from the outcomes of batches up to b - ALLOCATION_LAG,
        # which must then have been read
        self.ahead = min(self.ahead, ALLOCATION_LAG)

    def __call__(self, todo, phase: int, active=None):
        """Yield the outcomes of the batches ``todo`` in order; ``active(b)`` (asked when
        batch ``b`` starts) chooses the actions it plays (None: all)."""
        def chosen(b: int) -> np.ndarray | None:
            return None if active is None else active(b)

        if self.ahead == 0:
            for b, first, size in todo:
                yield self.local.play(b, first, size, phase,  # type: ignore[union-attr]
                                      chosen(b))
            return
        from collections import deque

        pending: deque = deque()
        try:
            for item in todo:
                pending.append(self.submit(item, phase, chosen(item[0])))
                if len(pending) < self.ahead:
                    continue
                yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:  # the consumer stopped: what is still queued is not needed
                future.cancel()


_thread_pools: dict[int, Any] = {}


def thread_pool(threads: int) -> Any:
    """A pool of ``threads`` threads kept for the process's life."""
    if threads not in _thread_pools:
        from concurrent.futures import ThreadPoolExecutor

        _thread_pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="advise")
    return _thread_pools[threads]


def usable_cores() -> int:
    """The cores this process may run on."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _threads(threads: int | None, processes: int) -> int:
    if threads is None:
        return 1 if processes > 1 else usable_cores()
    if isinstance(threads, bool) or not isinstance(threads, int | np.integer) or threads < 1:
        raise ValueError(f"threads must be an integer >= 1, got {threads!r}")
    if threads > 1 and processes > 1:
        raise ValueError(f"threads ({threads}) and processes ({processes}): give one of them")
    return int(threads)


_pools: dict[int, Any] = {}


def worker_pool(processes: int) -> Any:
    """A pool of ``processes`` workers kept for the process's life: the first call pays their
    start (about 2 s: the engine loads from numba's cache in each), later ones do not."""
    if processes not in _pools:
        import os
        from concurrent.futures import ProcessPoolExecutor

        from simcore._process import watch_parent
        from simcore.runner.execute import _process_context

        _pools[processes] = ProcessPoolExecutor(processes, mp_context=_process_context(),
                                                initializer=watch_parent,
                                                initargs=(os.getpid(),))
    return _pools[processes]


def warm_up(processes: int, policies: Sequence[str] = ("speed",)) -> None:
    """Load the rollout kernel of seats playing ``policies`` where the rollouts will run: in
    this process (whose threads play them), or, with ``processes`` > 1, in each process of
    that worker pool, started now (for a caller that will ask many positions: the first
    ``advise`` then does not pay the start)."""
    from simcore.engine.kernel import load_rollout_kernel

    seats = [policies[s % len(policies)] for s in range(4)]
    if processes > 1:
        pool = worker_pool(processes)
        for f in [pool.submit(load_rollout_kernel, seats) for _ in range(processes)]:
            f.result()
    else:
        load_rollout_kernel(seats)


class _Worker:
    """What a process needs to play batches of one position."""

    def __init__(self, position_json: str, actions: list[tuple], policies: list[str],
                 seed: int, debug: bool, stratify: int, behaviour: float | None, lanes: bool,
                 roll: Rollouts | None = None):
        position = Position.from_json(position_json)
        self.sampler = HiddenSampler(position)
        self.seed = seed
        self.stratify = stratify
        self.roll = roll or Rollouts(position, [Action(*a) for a in actions], policies[
            position.seat], [s for k, s in enumerate(policies) if k != position.seat],
            seed=seed, debug=debug, behaviour=behaviour, lanes=lanes)

    def play(self, b: int, first: int, size: int, phase: int,
             active: np.ndarray | None = None) -> Outcomes:
        if phase == 1:
            b, first = CONFIRM_BATCH_OFFSET + b, CONFIRM_FIRST_SAMPLE + first
        return self.roll.play(_batch(self.sampler, self.seed, b, size, self.stratify), first,
                              active=active)


_workers: dict[tuple, _Worker] = {}


def _play_in_worker(args: tuple, b: int, first: int, size: int, phase: int,
                    active: np.ndarray | None = None) -> Outcomes:
    key = (args[0], tuple(args[1]), tuple(args[2]), *args[3:])
    if key not in _workers:
        _workers.clear()  # one position at a time
        _workers[key] = _Worker(*args)
    return _workers[key].play(b, first, size, phase, active)


def _check(samples: int, seconds: float | None, batch: int, separation: float,
           processes: int) -> None:
    if isinstance(processes, bool) or not isinstance(processes, int | np.integer) \
            or processes < 1:
        raise ValueError(f"processes must be an integer >= 1, got {processes!r}")
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
        raise ValueError(f"samples must be an integer >= 1, got {samples!r}")
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise ValueError(f"seconds must be > 0 or None, got {seconds!r}")
    if isinstance(batch, bool) or not isinstance(batch, int | np.integer) or batch < 1:
        raise ValueError(f"batch must be an integer >= 1, got {batch!r}")
    if not separation > 0:
        raise ValueError(f"separation must be > 0, got {separation!r}")


def _batch(sampler: HiddenSampler, seed: int, b: int, size: int, stratify: int = 0
           ) -> HiddenSamples:
    """Batch ``b``'s hidden states (from ``(seed, b)`` alone), the first ``stratify`` draws of
    their walls stratified across the batch (:func:`.sampler.stratify_first_draws`)."""
    rng = np.random.default_rng([int(seed), int(b)])
    samples = sampler.sample(size, rng)
    if stratify:
        samples = samples._replace(wall=stratify_first_draws(samples.wall, stratify, rng))
    return samples


def action_table(actions: Sequence[Action | str], found: Outcomes, fresh: Outcomes | None,
                 level: float, weighted: bool = False) -> pd.DataFrame:
    """The table of :func:`advise` from the outcomes of the search (``found``) and of the
    confirmation (``fresh``: the differences from the best; None: ``found``'s). Each action's
    figures are over the hidden states it was played on (``samples``), its difference from the
    best over those it shares with the best (``diff_samples``)."""
    k = found.net.shape[1]
    z = z_quantile(level)
    rows: dict[str, Any] = {name: np.full(k, np.nan) for name in (
        "net", "net_se", "win", "win_ci_low", "win_ci_high", "deal_in", "deal_in_ci_low",
        "deal_in_ci_high", "pig", "pig_ci_low", "pig_ci_high", "fan", "fan_ci_low",
        "fan_ci_high", "diff", "diff_se")}
    rows["action"] = [str(a) for a in actions]
    played = _played(found)
    rows["samples"] = played.sum(axis=0)
    flags = {"win": found.win, "deal_in": found.deal_in, "pig": found.pig}
    ess = np.zeros(k)
    for a in range(k):
        rows_a = played[:, a]
        w = found.weight[rows_a] if weighted else None
        net, net_se = weighted_mean_se(found.net[rows_a, a], w)
        rows["net"][a], rows["net_se"][a] = net, net_se
        ess[a] = effective_size(w, int(rows_a.sum()))
        for name, flag in flags.items():
            rows[name][a] = float(weighted_mean_se(flag[rows_a, a], w)[0])
        fan = _fan_interval(found.wins[rows_a, a], found.fan_sum[rows_a, a], level, w)
        rows["fan"][a], rows["fan_ci_low"][a], rows["fan_ci_high"][a] = fan
    for name in flags:  # Wilson intervals over each action's effective sample size
        pi = proportion_interval(np.round(rows[name] * ess), np.maximum(np.round(ess), 1),
                                 level)
        rows[f"{name}_ci_low"] = pi["ci_low"].to_numpy()
        rows[f"{name}_ci_high"] = pi["ci_high"].to_numpy()
    rows["net_ci_low"] = rows["net"] - z * rows["net_se"]
    rows["net_ci_high"] = rows["net"] + z * rows["net_se"]
    best = int(np.argmax(rows["net"]))
    ref = fresh if fresh is not None else found
    ref_played = _played(ref)
    rows["diff_samples"] = np.zeros(k, np.int64)
    for a in range(k):
        joint = ref_played[:, a] & ref_played[:, best]
        d = ref.net[joint, a] - ref.net[joint, best]
        diff, diff_se = weighted_mean_se(d, ref.weight[joint] if weighted else None)
        rows["diff"][a], rows["diff_se"][a] = diff, diff_se
        rows["diff_samples"][a] = joint.sum()
    rows.update(diff_ci_low=rows["diff"] - z * rows["diff_se"],
                diff_ci_high=rows["diff"] + z * rows["diff_se"])
    t = pd.DataFrame(rows)
    t["not_worse"] = (t["diff_ci_high"] >= 0) | (t.index == best)
    order = np.argsort(-t["net"].to_numpy(), kind="stable")
    t = t.iloc[order].reset_index(drop=True)
    t.insert(1, "rank", np.arange(1, k + 1))
    return t[list(TABLE_COLUMNS)]


def _played(o: Outcomes) -> np.ndarray:
    return np.ones(o.net.shape, bool) if o.played is None else o.played


def _fan_interval(wins: np.ndarray, fan_sum: np.ndarray, level: float,
                  w: np.ndarray | None = None) -> tuple[float, float, float]:
    """The mean fan of one action's wins (over the rollouts it won in: the fan of a rollout is
    the mean of its wins') and its z interval; NaN without wins."""
    won = wins > 0
    if not won.any():
        return math.nan, math.nan, math.nan
    x = fan_sum[won] / wins[won]
    m, e = weighted_mean_se(x, None if w is None else w[won])
    mean, se = float(m), float(e) if len(x) > 1 else math.nan
    z = z_quantile(level)
    return mean, mean - z * se, mean + z * se


def verdict(t: pd.DataFrame) -> str:
    best = t.iloc[0]
    if len(t) == 1:
        return f"{best.action} is the only legal action (net {best.net:+.2f} units)"
    close = t[(t["not_worse"]) & (t["rank"] > 1)]
    second = t.iloc[1]
    if close.empty:
        return (f"{best.action} is best ({best.net:+.2f} units); every other action is "
                f"significantly worse (the next, {second.action}, by {-second['diff']:.2f} "
                f"± {1.96 * second['diff_se']:.2f})")
    names = ", ".join(close.action.head(3))
    more = f" and {len(close) - 3} more" if len(close) > 3 else ""
    return (f"{best.action} is best ({best.net:+.2f} units) but not separated from "
            f"{names}{more}: the data do not tell them apart")


def decide(position: Position, policy: str = DEFAULT_POLICY, *, seed: int = 0) -> Action:
    """The action ``policy`` takes at ``position`` (one hidden state drawn exactly: a policy
    decides from what its seat sees, so any hidden state gives the same action for a
    deterministic policy; ``random`` draws from the seed's stream)."""
    from simcore.advice.playing import first_action

    return first_action(position, policy, seed)
