"""``simcore whatif HAND``: compare plans for one hand on common random walls.

``simcore whatif HAND [--dealer] [--void m|p|s] [--rules PRESET] [--set NAME=VALUE]...
[--plans SPEC;SPEC;...] [--others SPEC] [--deals N] [--seed S] [--json]`` (see
:mod:`simcore.rollouts`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from typing import Any

from simcore.commands.common import add_rules_options, table_json

DESCRIPTION = """\
Seat 0 holds HAND after the exchange (13 tiles; 14 with --dealer); the unseen tiles are
shuffled uniformly, and every deal is played once per plan (a policy spec for seat 0) on the
same wall, seats 1-3 playing --others. Per plan: mean net per deal, win probability, mean win
order and draw of the win, fan distribution of the wins, full-flush and flower-pig rates, each
with its 95% interval; then each plan's paired difference of net with the best plan and a
one-line verdict. Without --dealer the dealer of deal i is seat 1 + i % 3. The deals skip the
exchange (the hand is after it). --void fixes seat 0's void suit (needs a policy option that
names a suit; otherwise each plan's own choice is shown in the 'void' column).
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``whatif`` sub-command."""
    from simcore.rollouts import DEFAULT_DEALS, DEFAULT_PLANS

    parser = subparsers.add_parser(
        "whatif",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hand", nargs="+", metavar="HAND",
                        help="seat 0's hand after the exchange, e.g. '1123455789m 46p 9s' "
                             "(spaces allowed)")
    parser.add_argument("--dealer", action="store_true",
                        help="seat 0 is the dealer (a 14-tile hand)")
    parser.add_argument("--void", choices=("m", "p", "s"), default=None,
                        help="fix seat 0's void suit (default: each plan chooses)")
    add_rules_options(parser)
    parser.add_argument("--plans", default=";".join(DEFAULT_PLANS), metavar="SPEC;SPEC;...",
                        help="seat 0's plans, policy specs separated by ';' "
                             f"(default '{';'.join(DEFAULT_PLANS)}')")
    parser.add_argument("--others", default="speed", metavar="SPEC",
                        help="policy of seats 1-3: one spec, or three separated by '/' "
                             "(default speed)")
    # checked by whatif() itself, so every command words a bad count alike (simcore._input)
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, metavar="N",
                        help=f"deals per plan (default {DEFAULT_DEALS:,})")
    parser.add_argument("--seed", type=int, default=0, metavar="S",  # checked by whatif()
                        help="master seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
    return parser


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: float, fmt: str) -> str:
    return "-" if math.isnan(x) else format(x, fmt)


def _p_text(p: float) -> str:
    if math.isnan(p):
        return ""
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def render(table: Any) -> str:
    """The readable report of a :func:`simcore.rollouts.whatif` table."""
    from simcore.rollouts import FAN_COLUMNS

    a = table.attrs
    pct = f"{a.get('level', 0.95):.0%}"
    who = ("the dealer" if a["dealer"]
           else "not the dealer: seat 1 + deal % 3 deals")
    void = f", void fixed to {a['void']}" if a["void"] else ""
    lines = [
        f"what if seat 0 holds {a['hand']} after the exchange ({who}{void})",
        f"rules {a['rules']['preset']}, others {a['others']}, {a['deals']:,} deals per plan on "
        f"common walls, seed {a['seed']}",
        "",
    ]
    width = max(12, *(len(p) for p in table["plan"]))
    head = (f"{'plan':{width}}  void  {'net/deal [' + pct + ' CI]':24}  "
            f"{'win [' + pct + ' CI]':22}  order   draw  flush    pig  fan 0/1/2/3/4/5+ (% wins)")
    lines.append(head)
    for _, r in table.iterrows():
        net = f"{r['net']:+.2f} [{r['net_ci_low']:+.2f}, {r['net_ci_high']:+.2f}]"
        win = (f"{_pct(r['win'])} [{100 * r['win_ci_low']:.1f}, "
               f"{100 * r['win_ci_high']:.1f}]")
        fans = "/".join("-" if math.isnan(r[c]) else f"{100 * r[c]:.0f}" for c in FAN_COLUMNS)
        void_text = r["void"] if r["void_share"] == 1 else f"{r['void']}*"
        lines.append(
            f"{r['plan']:{width}}  {void_text:4}  {net:24}  {win:22}  "
            f"{_num(r['win_order'], '5.2f')}  {_num(r['win_draw'], '5.1f')}  "
            f"{_pct(r['flush_win']):>5}  {_pct(r['pig']):>5}  {fans}"
        )
    if (table["void_share"] < 1).any():
        lines.append("(* the plan declared this void in most deals, not all)")
    best = table.loc[table["best"], "plan"].iloc[0]
    lines += ["", f"paired difference of net with the best plan ({best}), same walls:"]
    for _, r in table.iterrows():
        if r["best"]:
            continue
        lines.append(f"  {r['plan']:{width}}  {r['diff']:+.2f} [{r['diff_ci_low']:+.2f}, "
                     f"{r['diff_ci_high']:+.2f}]  {_p_text(r['diff_p'])}")
    lines += ["", f"verdict: {a['verdict']}"]
    return "\n".join(lines)


def to_json(table: Any) -> dict[str, Any]:
    """The JSON object of ``simcore whatif --json``: the parameters, one entry per plan, the
    verdict."""
    return table_json(table, "plans")


def run(args: argparse.Namespace) -> int:
    """Run the comparison; input errors exit with status 2 (warnings go to stderr)."""
    from simcore.rollouts import WhatifWarning, whatif

    hand = " ".join(args.hand)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WhatifWarning)
        try:
            table = whatif(hand, plans=args.plans, deals=args.deals, rules=args.rules,
                           dealer=args.dealer, void=args.void, seed=args.seed,
                           others=args.others, overrides=args.overrides,
                           progress=sys.stderr.isatty())
        except NotImplementedError as exc:
            _print_warnings(caught)
            print(f"simcore whatif: error: {exc}", file=sys.stderr)
            return 2
        except Exception:
            _print_warnings(caught)  # then the dispatcher prints the error
            raise
    _print_warnings(caught)
    if args.json:
        print(json.dumps(to_json(table), ensure_ascii=False))
    else:
        print(render(table))
    return 0


def _print_warnings(caught: list[warnings.WarningMessage]) -> None:
    for w in caught:
        print(f"simcore whatif: warning: {w.message}", file=sys.stderr)
