"""``simcore review``: one seat's decisions in a deal, or a policy over many deals.

``simcore review RECORD --seat K`` reviews a deal record (docs/guide/records.md);
``simcore review --seed S --deal I --rules R --policies P --seat K`` a simcore deal;
``simcore review --policy SPEC --deals N --rules R --field F`` is the yardstick: seat ``--seat``
(default 0) playing SPEC in N deals against the field, the EV lost per deal by decision kind.
Outputs: a text table (default), ``--json``, and ``--html PATH`` (a self-contained report).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from simcore.commands.common import add_deal_options, clean_value

DESCRIPTION = """\
Every decision of the seat with more than one legal action goes through the advisor (simcore
advise): the action taken, the best action, the EV lost (best minus taken, in units, measured
on fresh hidden states) with its 95% interval, P(deal-in) of the action taken, and a mistake
flag (EV lost >= --threshold units with the interval above zero). Per deal: decisions,
agreement with the best, mistakes, EV lost in all and by kind (discard, pung, kong, win or
decline). With --policy and --deals: the yardstick, the EV a policy loses per deal.
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from simcore.review.deal import DEFAULT_SAMPLES, DEFAULT_THRESHOLD
    from simcore.review.yardstick import DEFAULT_YARDSTICK_SAMPLES

    parser = subparsers.add_parser("review", description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", nargs="?", metavar="RECORD",
                        help="a deal record file ('-': standard input)")
    add_deal_options(parser, "a simcore deal (instead of RECORD)")
    parser.add_argument("--seat", type=int, default=None, metavar="K",
                        help="the reviewed seat (a record of one seat: that seat; the "
                             "yardstick: 0)")
    parser.add_argument("--policy", default=None, metavar="SPEC",
                        help="the seat's policy in the rollouts (default: its policy in the "
                             "deal, else expert); with --deals, the policy reviewed")
    parser.add_argument("--field", default=None, metavar="SPEC",
                        help="the other seats' policies in the rollouts (default: theirs in "
                             "the deal, else the seat's policy; the yardstick: speed)")
    parser.add_argument("--deals", type=int, default=None, metavar="N",
                        help="the yardstick: review --policy over N deals")
    parser.add_argument("--samples", type=int, default=None, metavar="N",
                        help=f"hidden states per decision at most (default {DEFAULT_SAMPLES}, "
                             f"the yardstick {DEFAULT_YARDSTICK_SAMPLES})")
    parser.add_argument("--seconds", type=float, default=None, metavar="T",
                        help="time budget per decision (default none: the review depends on "
                             "the seed only)")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, metavar="U",
                        help=f"units a mistake loses at least (default {DEFAULT_THRESHOLD})")
    parser.add_argument("--review-seed", type=int, default=0, metavar="S",
                        help="seed of the hidden states and rollouts (default 0)")
    parser.add_argument("--processes", type=int, default=1, metavar="K",
                        help="worker processes (default 1; the result is the same)")
    parser.add_argument("--threads", type=int, default=None, metavar="K",
                        help="threads of this process playing the rollouts (default: one "
                             "per core, 1 with --processes; the result is the same)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--html", default=None, metavar="PATH",
                        help="also write the self-contained HTML report to PATH")
    parser.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                        help="review only these kinds of decision (exchange, void, discard, "
                             "pung, kong, win; default all)")
    parser.add_argument("--progress", action="store_true", help="one line per decision")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        if args.deals is not None:
            return _yardstick(args)
        review = _review(args)
    except ValueError as exc:
        print(f"simcore review: error: {exc}", file=sys.stderr)
        return 2
    if args.html:
        from simcore._files import write_atomic
        from simcore.review.html import render_html

        write_atomic(_path(args.html), render_html(review).encode("utf-8"))
    print(json.dumps(review_json(review), ensure_ascii=False) if args.json
          else render_text(review))
    if args.html and not args.json:
        print(f"\nHTML report: {args.html}")
    return 0


def _review(args: argparse.Namespace) -> Any:
    from simcore.deal_record import read_record
    from simcore.review.deal import DEFAULT_POLICY, DEFAULT_SAMPLES, record_policies, review_deal

    deal_args = {k: getattr(args, k) for k in ("seed", "deal")}
    if args.record is not None:
        given = [f"--{k}" for k, v in deal_args.items() if v is not None]
        if given:
            raise ValueError(f"give a RECORD or --seed/--deal, not both ({', '.join(given)})")
        record = read_record(sys.stdin.read() if args.record == "-" else args.record)
        seat = record.seat if args.seat is None else args.seat
        if seat is None:
            raise ValueError("a record of every seat: name the seat to review with --seat")
    else:
        missing = [f"--{k}" for k, v in deal_args.items() if v is None]
        if missing or args.seat is None:
            missing += ["--seat"] if args.seat is None else []
            raise ValueError("give a RECORD, or a simcore deal with --seed, --deal and --seat "
                             f"(missing {', '.join(missing)})")
        from simcore.advice.replayed import replay_events
        from simcore.deal_record import to_record

        events = replay_events(args.seed, args.deal, args.rules, args.policies,
                               overrides=args.overrides)
        source = {"seed": args.seed, "deal": args.deal, "policies": args.policies}
        record = read_record(to_record(events, source=source))
        seat = args.seat
    specs = record_policies(record)
    policy = args.policy or (specs[seat] if specs else DEFAULT_POLICY)
    return review_deal(record, seat, policy=policy, field=args.field,
                       samples=args.samples or DEFAULT_SAMPLES, seconds=args.seconds,
                       seed=args.review_seed, threshold=args.threshold,
                       processes=args.processes, threads=args.threads, kinds=args.kinds,
                       progress=args.progress)


def _yardstick(args: argparse.Namespace) -> int:
    from simcore.review.yardstick import DEFAULT_YARDSTICK_SAMPLES, review_policy

    if args.record is not None or args.deal is not None:
        raise ValueError("--deals reviews a policy over many deals: no RECORD or --deal")
    if args.policy is None:
        raise ValueError("--deals needs the --policy to review")
    r = review_policy(args.policy, args.deals, rules=args.rules, field=args.field or "speed",
                      seat=args.seat or 0, seed=args.seed or 0,
                      samples=args.samples or DEFAULT_YARDSTICK_SAMPLES,
                      threshold=args.threshold, overrides=args.overrides,
                      processes=args.processes, kinds=args.kinds, progress=args.progress)
    t = r.table()
    if args.json:
        print(json.dumps({"settings": clean_value(r.settings),
                          "per_deal": [{k: clean_value(v) for k, v in row.items()}
                                       for row in t.to_dict("records")]}))
        return 0
    s = r.settings
    print(f"{s['policy']} in seat {s['seat']} against {s['field']} ({s['rules']}), "
          f"{len(r.deals)} deals of seed {s['seed']}, {s['samples']} hidden states a decision, "
          f"{s['seconds']:.0f} s")
    for row in t.itertuples():
        sign = "+" if row.measure.startswith("ev_lost") else " "  # units, or counts
        print(f"  {row.measure:16} {row.per_deal:{sign}8.3f} a deal  [{row.ci_low:{sign}.3f}, "
              f"{row.ci_high:{sign}.3f}]")
    return 0


def _path(text: str) -> Any:
    from pathlib import Path

    return Path(text)


def review_json(review: Any) -> dict[str, Any]:
    """The JSON object of ``simcore review --json``: settings, summary, one entry per decision
    (with its table of actions when reviewed)."""
    from simcore.commands.common import table_json

    decisions = []
    for row in review.decisions.to_dict("records"):
        entry = {k: clean_value(v) for k, v in row.items()}
        t = review.tables.get(row["step"])
        entry["actions_table"] = None if t is None else table_json(t, "actions")["actions"]
        decisions.append(entry)
    return {"settings": clean_value(review.settings), "summary": review.summary(),
            "decisions": decisions}


def render_text(review: Any) -> str:
    from simcore.review.deal import spec_text

    s = review.summary()
    st = review.settings
    lines = [f"review of S{review.seat} (rules {review.record.rules.preset}; rollouts: seat "
             f"{st['policy']}, others {spec_text(st['field'])}; {st['samples']} hidden states a "
             f"decision at most, seed {st['seed']}, {st['elapsed']:.1f} s)", "",
             f"{'step':>4}  {'kind':8} {'taken':12} {'best':12} {'EV lost [95% CI]':24} "
             f"{'deal-in':>7}"]
    for r in review.reviewed.itertuples():
        ci = f"{r.ev_lost:+.2f} [{r.ev_lost_ci_low:+.2f}, {r.ev_lost_ci_high:+.2f}]"
        flag = "  MISTAKE" if r.mistake else ""
        lines.append(f"{r.step:4d}  {r.kind:8} {r.taken:12} {r.best:12} {ci:24} "
                     f"{100 * r.deal_in:6.1f}%{flag}")
    for r in review.skipped.itertuples():
        lines.append(f"{r.step:4d}  {r.kind:8} {r.taken:12} {r.note}")
    skipped = f", {s['skipped']} not reviewed" if s["skipped"] else ""
    lines += ["", f"{s['reviewed']} decisions reviewed of {s['decisions']} (the others had one "
              f"legal action{skipped}); {s['agree']} agree with the best; {s['mistakes']} "
              f"mistakes; EV lost {s['ev_lost']:+.2f} units [{s['ev_lost_ci_low']:+.2f}, "
              f"{s['ev_lost_ci_high']:+.2f}]"
              + ("" if s["net"] is None else f"; the seat's net {s['net']:+d}"),
              "by kind: " + ", ".join(f"{k} {v['decisions']} ({v['ev_lost']:+.2f})"
                                      for k, v in s["by_kind"].items())]
    return "\n".join(lines)
