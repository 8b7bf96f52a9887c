"""``simcore advise``: every legal action of one position ranked by its expected net.

``simcore advise FILE|-`` reads a position (JSON or the text form, docs/guide/positions.md);
``simcore advise --seed S --deal I --rules R --policies P --seat K --step N`` takes the position
of seat K at step N of a simcore deal (the steps ``simcore replay --steps`` prints). Options:
``--policy`` (the seat's, after its action), ``--field`` (the others'), ``--samples``,
``--seconds``, ``--advice-seed``, ``--json`` (see :mod:`simcore.advice.advisor`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from simcore.commands.common import add_deal_options, table_json

DESCRIPTION = """\
Every legal action of the position is played to the end of the deal on the same hidden states
(the opponents' concealed tiles and the wall, drawn exactly among those consistent with what
the seat sees), the seat then playing --policy and the others --field. Per action: the expected
net in units from this decision to the end of the deal, P(win), P(deal-in), the mean fan of its
wins and P(flower pig), each with its 95% interval; the paired difference from the best action
(measured again on fresh hidden states) and a verdict. Sampling stops when every action is three
joint standard errors from the best, at --samples hidden states, or after --seconds.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``advise`` sub-command."""
    from simcore.advice.advisor import (
        DEFAULT_FIELD,
        DEFAULT_POLICY,
        DEFAULT_SAMPLES,
        DEFAULT_SECONDS,
    )

    parser = subparsers.add_parser(
        "advise", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", metavar="FILE|-",
                        help="a position in JSON or the text form ('-': standard input)")
    where = add_deal_options(parser, "a position from a simcore deal (instead of FILE)")
    where.add_argument("--seat", type=int, default=None, metavar="K", help="the deciding seat")
    where.add_argument("--step", type=int, default=None, metavar="N",
                       help="the decision's step (simcore replay --steps)")
    parser.add_argument("--policy", default=DEFAULT_POLICY, metavar="SPEC",
                        help=f"the seat's policy after its action (default {DEFAULT_POLICY})")
    parser.add_argument("--field", default=DEFAULT_FIELD, metavar="SPEC",
                        help="the other seats' policies: one spec, or one per other seat "
                             f"separated by '/' (default {DEFAULT_FIELD})")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
                        help=f"at most N hidden states (default {DEFAULT_SAMPLES:,})")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="T",
                        help=f"time budget (default {DEFAULT_SECONDS:g}; 0: none)")
    parser.add_argument("--weighting", choices=("uniform", "behaviour"), default="uniform",
                        help="hidden states drawn uniformly, or weighted by how likely the "
                             "others' latest discards are under the field policy")
    parser.add_argument("--epsilon", type=float, default=0.5, metavar="E",
                        help="the behaviour model's share of random discards (default 0.5)")
    parser.add_argument("--processes", type=int, default=1, metavar="K",
                        help="worker processes (default 1; the table is the same)")
    parser.add_argument("--threads", type=int, default=None, metavar="K",
                        help="threads of this process playing the rollouts (default: one "
                             "per core, 1 with --processes; the table is the same)")
    parser.add_argument("--lanes", action="store_true", default=True,
                        help="deal each rollout's wall into seat lanes: every seat draws the "
                             "same tiles under every action whatever the claims (same "
                             "expected values, smaller variance of the differences; the "
                             "default)")
    parser.add_argument("--no-lanes", dest="lanes", action="store_false",
                        help="draw each rollout's wall as laid (as the published reviews do)")
    parser.add_argument("--no-allocation", dest="allocation", action="store_false",
                        help="play every action on every hidden state (by default an action "
                             "already 3 standard errors behind the best is played no more)")
    parser.add_argument("--advice-seed", type=int, default=0, metavar="S",
                        help="seed of the hidden states and rollouts (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
    return parser


def load_position(args: argparse.Namespace) -> Any:
    """The position the arguments name (a ValueError says what is missing or wrong)."""
    from simcore.advice.position import Position
    from simcore.rules import resolve_rules

    deal_args = {k: getattr(args, k) for k in ("seed", "deal", "seat", "step")}
    if args.file is not None:
        given = [f"--{k}" for k, v in deal_args.items() if v is not None]
        if given:
            raise ValueError(f"give a position FILE or --seed/--deal/--seat/--step, not both "
                             f"({', '.join(given)} with {args.file})")
        text = sys.stdin.read() if args.file == "-" else _read(args.file)
        return Position.from_json(text) if text.lstrip().startswith("{") \
            else Position.parse(text)
    missing = [f"--{k}" for k, v in deal_args.items() if v is None]
    if missing:
        raise ValueError("give a position FILE, or a simcore deal with --seed, --deal, "
                         f"--seat and --step (missing {', '.join(missing)})")
    rules = resolve_rules(args.rules, args.overrides)
    return Position.from_replay(args.seed, args.deal, rules, args.policies, args.seat,
                                args.step)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise ValueError(f"cannot read position file {path!r}: {exc.strerror}") from None


def _num(x: float, fmt: str) -> str:
    return "-" if isinstance(x, float) and math.isnan(x) else format(x, fmt)


def render(table: Any) -> str:
    """The readable report of an :func:`simcore.advise` table."""
    a = table.attrs
    weights = (f", weighted by behaviour (epsilon {a['epsilon']:g}, effective "
               f"{a['ess']:,.0f})" if a.get("weighting") == "behaviour" else "")
    fewer = (f", {a['rollouts']:,} rollouts (settled actions played on fewer hidden states)"
             if a["rollouts"] < a["samples"] * len(table) else "")
    lines = [a["position"], "",
             f"{a['samples']:,} hidden states{weights} (stopped: {a['stop']}), "
             f"{a['confirm_samples']:,} fresh ones for the differences{fewer}; seat policy "
             f"{a['policy']}, seed {a['seed']}, {a['seconds']:.1f} s", ""]
    width = max(10, *(len(x) for x in table["action"]))
    lines.append(f"{'action':{width}}  {'net [95% CI]':22}  {'vs best [95% CI]':22}  "
                 f"{'win':>6}  {'deal-in':>7}  {'fan':>4}  {'pig':>5}  {'states':>6}")
    for _, r in table.iterrows():
        net = f"{r['net']:+.2f} [{r['net_ci_low']:+.2f}, {r['net_ci_high']:+.2f}]"
        diff = ("best" if r["rank"] == 1 else
                f"{r['diff']:+.2f} [{r['diff_ci_low']:+.2f}, {r['diff_ci_high']:+.2f}]"
                + ("" if r["not_worse"] else " *"))
        lines.append(f"{r['action']:{width}}  {net:22}  {diff:22}  {100 * r['win']:5.1f}%  "
                     f"{100 * r['deal_in']:6.1f}%  {_num(r['fan'], '4.2f'):>4}  "
                     f"{100 * r['pig']:4.1f}%  {r['samples']:6d}")
    lines += ["(* significantly worse than the best; net: units from this decision to the "
              "end of the deal)", "", f"verdict: {a['verdict']}"]
    return "\n".join(lines)


def to_json(table: Any) -> dict[str, Any]:
    """The JSON object of ``simcore advise --json``: the settings, one entry per action, the
    verdict."""
    return table_json(table, "actions")


def run(args: argparse.Namespace) -> int:
    """Advise; a bad position or option exits with status 2 and says what is wrong."""
    from simcore.advice.advisor import advise

    try:
        position = load_position(args)
        table = advise(position, policy=args.policy, field=args.field, samples=args.samples,
                       seconds=args.seconds or None, seed=args.advice_seed,
                       weighting=args.weighting, epsilon=args.epsilon,
                       processes=args.processes, threads=args.threads, lanes=args.lanes,
                       allocation=args.allocation)
    except ValueError as exc:
        print(f"simcore advise: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(to_json(table), ensure_ascii=False) if args.json else render(table))
    return 0
