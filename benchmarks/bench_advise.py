"""Advisor speed and its variance reduction on 20 fixed positions from simcore deals.

Run ``python benchmarks/bench_advise.py [--policies expert,speed] [--positions 20]``. The
positions are discard decisions of seat 0 in classic deals of seed 28 (every seat playing the
policy), with at least six distinct discards and 36 to 44 tiles left in the wall, taken in deal
order. For each position and policy, :func:`simcore.advise` runs with ``target_se=0.05`` (the
search stops once every action's paired standard error from the best is at most 0.05 units;
cap 40,000 hidden states, no time budget) and without the confirmation: printed are the
median and maximum wall time (warm: the kernel is loaded first), hidden states and rollouts
per second, and how many positions reached the target within 2 s (expert) or 1 s (speed),
with one thread, with the batches in threads of one process (``--threads``) and with a warm
pool of worker processes (``--processes``), with seat lanes (the advisor's default;
``--no-lanes``: each wall drawn as laid).

``--review`` times ``simcore review`` of seat 0's whole deal (every decision with more than
one legal action through the advisor at its review defaults: at most 1,024 hidden states, no
time budget; one legal action skips the rollouts) for the first ``--deals`` classic deals of
seed 29 with every seat playing ``expert``, warm: the median and maximum seconds per deal,
decisions reviewed per deal, and how many deals took at most 20 s.

``--allocation`` times each position with the advisor's per-action allocation and with every
action played on every hidden state, alternated in this process (seat lanes, the largest of
``--threads``): the medians, the median ratio and the share of rollouts allocation plays.

``--early-end`` measures what ending a rollout once the seat's net is final saves: for each
position (also of app deals, found the same way), the CPU time of one batch of 512 hidden states
played with the early end and without it, the better of two rounds each, alternated in this
process; printed is the median ratio over the positions (the outcomes are the same: the
advice's tests compare them).

``--variance`` measures the variance reductions beyond common random numbers: for the first
``--variance-positions`` positions, ``--variance-replicates`` (24) replicates of 256 hidden
states each, the wall drawn as laid, in seat lanes (the default) and in lanes with the first
four draws stratified; the ratio
of the replicates' variances of every action's mean paired difference (median over the
actions, then over the positions) to the wall drawn as laid is the variance left (1.0: no
gain).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

from simcore.advice.advisor import _batch, advise, warm_up
from simcore.advice.playing import Rollouts
from simcore.advice.position import replayed_decisions
from simcore.advice.replayed import replay_events
from simcore.advice.sampler import HiddenSampler

TARGET_SE = 0.05
BUDGET = {"expert": 2.0, "speed": 1.0}


def positions(policy: str, count: int, seed: int = 28, preset: str = "classic") -> list:
    found = []
    deal = 0
    while len(found) < count:
        events = replay_events(seed, deal, preset, policy)
        for d in replayed_decisions(events, 0):
            p = d.position
            discards = [a for a in p.legal_actions() if a.kind == "discard"]
            if p.decision.kind == "turn" and len(discards) >= 6 and 36 <= p.wall <= 44:
                found.append(p)
                break
        deal += 1
    return found


def loaded_positions(policy: str, count: int) -> list:
    """:func:`positions`, with the rollout kernel of ``policy`` loaded in this process."""
    ps = positions(policy, count)
    advise(ps[0], policy, policy, samples=64, seconds=None, confirm=False)
    return ps


def to_target(p, policy: str, **options) -> tuple[float, Any]:
    """Seconds and table of the advice on ``p`` until every action's paired standard error
    from the best is at most :data:`TARGET_SE` (cap 40,000 hidden states, no time budget, no
    confirmation; ``options``: more of :func:`simcore.advise`'s)."""
    t0 = time.perf_counter()
    t = advise(p, policy, policy, samples=40_000, seconds=None, confirm=False,
               target_se=TARGET_SE, separation=1e9, **options)
    return time.perf_counter() - t0, t


def bench_speed(policy: str, count: int, processes: int, threads: int,
                lanes: bool = False) -> None:
    ps = loaded_positions(policy, count)
    warm_up(processes, (policy,))
    times, states, rates, within = [], [], [], 0
    for p in ps:
        dt, t = to_target(p, policy, processes=processes, threads=threads, lanes=lanes)
        times.append(dt)
        states.append(t.attrs["samples"])
        rates.append(t.attrs["rollouts"] / dt)
        within += dt <= BUDGET.get(policy, 2.0)
    how = f"{processes} processes" if processes > 1 else \
        f"{threads} thread{'s' if threads > 1 else ''}"
    how += ", lanes" if lanes else ""
    print(f"{policy:7} {how}, {len(ps)} "
          f"positions: time to paired SE <= {TARGET_SE}: median "
          f"{statistics.median(times):.2f} s, max {max(times):.2f} s; hidden states median "
          f"{statistics.median(states):,.0f}; rollouts/s median {statistics.median(rates):,.0f}"
          f"; within {BUDGET.get(policy, 2.0):g} s: {within}/{len(ps)}")


def bench_allocation(policy: str, count: int, threads: int, lanes: bool = True) -> None:
    """Per-action allocation against every action on every hidden state: the time to the
    target of each position, alternated in this process, and the rollouts each played."""
    ps = loaded_positions(policy, count)
    seconds: dict[bool, list[float]] = {True: [], False: []}
    rollouts: dict[bool, list[int]] = {True: [], False: []}
    ratios = []
    for p in ps:
        took = {}
        for allocation in (False, True):
            took[allocation], t = to_target(p, policy, threads=threads, lanes=lanes,
                                            allocation=allocation)
            seconds[allocation].append(took[allocation])
            rollouts[allocation].append(t.attrs["rollouts"])
        ratios.append(took[False] / took[True])
    for allocation in (False, True):
        s = seconds[allocation]
        print(f"{policy:7} {threads} threads{', lanes' if lanes else ''}, "
              f"{'per-action allocation' if allocation else 'every action on every state'}: "
              f"median {statistics.median(s):.2f} s, max {max(s):.2f} s, rollouts median "
              f"{statistics.median(rollouts[allocation]):,.0f}; within "
              f"{BUDGET.get(policy, 2.0):g} s: {sum(x <= BUDGET.get(policy, 2.0) for x in s)}"
              f"/{len(s)}")
    share = [a / b for a, b in zip(rollouts[True], rollouts[False], strict=True)]
    print(f"{policy:7} allocation: {statistics.median(ratios):.2f}x as fast (median of "
          f"{count} positions, {min(ratios):.2f}-{max(ratios):.2f}); rollouts "
          f"{statistics.median(share):.2f} of every action's (median)")


def bench_early_end(policy: str, count: int, preset: str, n: int = 512) -> None:
    """The speed-up of ending rollouts once the seat is settled, per position, same process."""
    ratios = []
    for p in positions(policy, count, preset=preset):
        sampler = HiddenSampler(p)
        batch = _batch(sampler, 7, 0, n)
        rolls = {stop: Rollouts(p, p.legal_actions(), policy, policy, lanes=True,
                                stop_when_settled=stop) for stop in (False, True)}
        for roll in rolls.values():
            roll.play(_batch(sampler, 7, 0, 4), 0)  # the kernel loaded
        seconds = {}
        for _round in range(2):
            for stop, roll in rolls.items():
                t0 = time.process_time()
                roll.play(batch, 0)
                dt = time.process_time() - t0
                seconds[stop] = min(seconds.get(stop, dt), dt)
        ratios.append(seconds[False] / seconds[True])
    print(f"{policy:7} {preset}: rollouts ending once the seat is settled, {n} hidden states "
          f"with lanes: {statistics.median(ratios):.2f}x as fast (median of {count} positions; "
          f"{min(ratios):.2f}-{max(ratios):.2f})")


def bench_variance(policy: str, count: int = 5, replicates: int = 24, n: int = 256,
                   depth: int = 4) -> None:
    """The variance of the paired differences left by the seat lanes, and by the lanes with
    the first ``depth`` draws stratified, against rollouts that draw the wall as laid."""
    ways = {"as laid": (False, 0), "lanes": (True, 0), f"lanes, stratified {depth}": (True, depth)}
    ratios: dict[str, list[float]] = {name: [] for name in ways if name != "as laid"}
    for p in positions(policy, count):
        actions = p.legal_actions()
        sampler = HiddenSampler(p)
        variances = {}
        for name, (lanes, stratify) in ways.items():
            roll = Rollouts(p, actions, policy, policy, lanes=lanes)
            means = []
            for r in range(replicates):
                o = roll.play(_batch(sampler, 1000 + r, 0, n, stratify), 0)
                net = o.net.astype(float)
                best = int(np.argmax(net.mean(0)))
                means.append((net - net[:, best: best + 1]).mean(0))
            variances[name] = np.var(np.array(means), axis=0, ddof=1)
        keep = variances["as laid"] > 0
        for name in ratios:
            ratios[name].append(float(np.median(variances[name][keep]
                                                / variances["as laid"][keep])))
    for name, rs in ratios.items():
        print(f"{policy:7} {name}: variance ratio of the paired differences to the wall drawn "
              f"as laid, median over {count} positions {statistics.median(rs):.2f} "
              f"(per position {', '.join(f'{x:.2f}' for x in rs)})")


def bench_review(deals: int, processes: int, threads: int) -> None:
    from simcore.review.deal import review_deal

    events = [replay_events(29, d, "classic", "expert") for d in range(deals)]
    review_deal(events[0], 0, policy="expert", field="expert", samples=64)  # load the kernel
    warm_up(processes, ("expert",))
    times, counts = [], []
    for ev in events:
        t0 = time.perf_counter()
        r = review_deal(ev, 0, policy="expert", field="expert", processes=processes,
                        threads=threads)
        times.append(time.perf_counter() - t0)
        counts.append(len(r.reviewed))
    within = sum(t <= 20 for t in times)
    how = f"{processes} processes" if processes > 1 else \
        f"{threads} thread{'s' if threads > 1 else ''}"
    print(f"review, expert, {how}, {deals} deals: "
          f"median {statistics.median(times):.1f} s a deal, max {max(times):.1f} s; decisions "
          f"reviewed median {statistics.median(counts):.0f} (max {max(counts)}); within 20 s: "
          f"{within}/{deals}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="expert,speed")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--threads", default="1,2", help="threads of one process to time")
    ap.add_argument("--processes", default="2", help="worker processes to time (1: none)")
    ap.add_argument("--lanes", action="store_true", default=True,
                    help="time the advice with seat lanes (the default)")
    ap.add_argument("--no-lanes", dest="lanes", action="store_false",
                    help="time the advice with each wall drawn as laid")
    ap.add_argument("--allocation", action="store_true",
                    help="per-action allocation against every action on every hidden state "
                         "(alternated, with lanes, at the largest of --threads)")
    ap.add_argument("--early-end", action="store_true",
                    help="the speed-up of ending rollouts once the seat is settled")
    ap.add_argument("--variance", action="store_true")
    ap.add_argument("--variance-positions", type=int, default=5)
    ap.add_argument("--variance-replicates", type=int, default=24)
    ap.add_argument("--review", action="store_true", help="time whole-deal reviews instead")
    ap.add_argument("--deals", type=int, default=10, help="deals for --review")
    args = ap.parse_args()
    print(describe_machine())
    if args.allocation:
        threads = max(int(x) for x in args.threads.split(",") if x)
        for policy in args.policies.split(","):
            bench_allocation(policy, args.positions, threads)
        return
    if args.early_end:
        for policy in args.policies.split(","):
            for preset in ("classic", "app"):
                bench_early_end(policy, args.positions, preset)
        return
    if args.review:
        for threads in (int(x) for x in args.threads.split(",") if x):
            bench_review(args.deals, 1, threads)
        for processes in (int(x) for x in args.processes.split(",") if x and int(x) > 1):
            bench_review(args.deals, processes, 1)
        return
    for policy in args.policies.split(","):
        for threads in (int(x) for x in args.threads.split(",") if x):
            bench_speed(policy, args.positions, 1, threads, args.lanes)
        for processes in (int(x) for x in args.processes.split(",") if x and int(x) > 1):
            bench_speed(policy, args.positions, processes, 1, args.lanes)
        if args.variance:
            bench_variance(policy, args.variance_positions, args.variance_replicates)


if __name__ == "__main__":
    main()
