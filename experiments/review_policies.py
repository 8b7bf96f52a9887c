"""The yardstick: EV each policy leaves on the table per deal, by decision kind (issue 29)

Usage: python experiments/review_policies.py [--deals N] [--samples S] [--seed S]
       [--processes K] [--rules R ...] [--fields F ...] [--policies P ...] [--out DIR]
       python experiments/review_policies.py --from-csv docs/results/review_policies.csv
       python experiments/review_policies.py --add-kinds exchange void
       python experiments/review_policies.py --redo expert

Reviews seat 0's decisions (simcore.review.yardstick.review_policy: every decision with more
than one legal action ranked by rollouts, the seat played on by its own policy, the others by
the field) in N deals per (rules, field, policy), and writes DIR/review_policies.txt, .csv and
.png (default DIR docs/results): the EV lost per deal with its 95% interval, by kind, and where
`expert` loses most with a command to replay and review an example of each. The CSV is
rewritten after each (rules, field, policy), so a stopped run keeps what it measured;
``--from-csv`` renders the text and the figure again from it without reviewing. ``--add-kinds``
reviews only the decisions of those kinds in the deals of DIR's CSV (same seed and samples, so
each decision's figures are those a whole run gives) and adds them to its rows: the way the
exchange and void columns joined the published table without replaying every other decision.
``--redo FAMILY`` reviews again, whole, the (rules, field, policy) rows of DIR's CSV in which
that policy family plays (the seat or the field), and keeps every other row: after a change to
one family's play, the rows without it are the same deals reviewed by the same code, so only
the rows it plays in move. A stopped redo goes on where it stopped (the rows it has redone are
listed in DIR/.review_policies.redo until it ends).
"""

import argparse
from pathlib import Path

import pandas as pd

from simcore.review.report import yardstick_figure, yardstick_report
from simcore.review.yardstick import add_kinds, review_policy

POLICIES = ("speed", "flush:k=8", "pungs:k=4", "expert")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--rules", nargs="+", default=["classic", "app"])
    ap.add_argument("--fields", nargs="+", default=["speed", "expert"])
    ap.add_argument("--policies", nargs="+", default=list(POLICIES))
    ap.add_argument("--out", default="docs/results")
    ap.add_argument("--from-csv", metavar="CSV", help="render DIR's text and figure from CSV")
    ap.add_argument("--add-kinds", nargs="+", metavar="KIND",
                    help="review only these kinds in DIR's CSV deals and add them to its rows")
    ap.add_argument("--redo", metavar="FAMILY",
                    help="review again the rows of DIR's CSV in which this policy family plays "
                         "(e.g. expert), keeping the others")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"deals": args.deals, "samples": args.samples, "seed": args.seed, "seat": 0}
    if args.add_kinds:
        rows = pd.read_csv(out / "review_policies.csv")
        parts = []
        for (rules, field, policy), d in rows.groupby(["rules", "field", "policy"], sort=False):
            r = review_policy(policy, len(d), rules=rules, field=field, seed=args.seed,
                              samples=args.samples, processes=args.processes,
                              first_deal=int(d["deal"].iloc[0]), kinds=args.add_kinds)
            parts.append(add_kinds(d, r.deals.assign(rules=rules, field=field, policy=policy),
                                   args.add_kinds))
            print(f"{rules:8} {field:7} {policy:10} {', '.join(args.add_kinds)} "
                  f"({r.settings['seconds']:.0f} s)", flush=True)
        rows = pd.concat(parts, ignore_index=True)
        rows.to_csv(out / "review_policies.csv", index=False)
        render(rows, settings, out)
        return
    if args.redo:
        redo(args.redo, out, settings, args.processes)
        return
    if args.from_csv:
        render(pd.read_csv(args.from_csv), settings, out)
        return
    frames = []
    for rules in args.rules:
        for field in args.fields:
            for policy in args.policies:
                r = review_policy(policy, args.deals, rules=rules, field=field, seed=args.seed,
                                  samples=args.samples, processes=args.processes)
                d = r.deals.assign(rules=rules, field=field, policy=policy)
                frames.append(d)
                pd.concat(frames, ignore_index=True).to_csv(out / "review_policies.csv",
                                                            index=False)
                print(f"{rules:8} {field:7} {policy:10} EV lost {d.ev_lost.mean():+.3f} a deal "
                      f"({r.settings['seconds']:.0f} s)", flush=True)
    render(pd.concat(frames, ignore_index=True), settings, out)


def plays_in(family: str, *specs: str) -> bool:
    """Whether ``family`` plays a seat of any of these specs (``flush:k=8``, ``a/b/c/d``)."""
    return any(part.split(":")[0] == family for spec in specs for part in spec.split("/"))


def redo(family: str, out: Path, settings: dict, processes: int) -> None:
    csv = out / "review_policies.csv"
    done_list = out / ".review_policies.redo"
    rows = pd.read_csv(csv)
    groups = list(rows.groupby(["rules", "field", "policy"], sort=False))
    if not any(plays_in(family, field, policy) for (_r, field, policy), _d in groups):
        raise SystemExit(f"--redo {family!r}: no row of {csv} plays it")
    done = set(done_list.read_text().splitlines()) if done_list.exists() else set()
    parts = [d for _key, d in groups]
    for i, ((rules, field, policy), d) in enumerate(groups):
        name = f"{family} {rules} {field} {policy}"
        if not plays_in(family, field, policy) or name in done:
            continue
        r = review_policy(policy, len(d), rules=rules, field=field, seed=settings["seed"],
                          samples=settings["samples"], processes=processes,
                          first_deal=int(d["deal"].iloc[0]))
        parts[i] = r.deals.assign(rules=rules, field=field, policy=policy)[d.columns]
        pd.concat(parts, ignore_index=True).to_csv(csv, index=False)
        with done_list.open("a") as f:
            f.write(name + "\n")
        print(f"{rules:8} {field:7} {policy:10} EV lost {parts[i].ev_lost.mean():+.3f} a deal "
              f"({r.settings['seconds']:.0f} s)", flush=True)
    done_list.unlink(missing_ok=True)
    render(pd.concat(parts, ignore_index=True), settings, out)


def render(rows: pd.DataFrame, settings: dict, out: Path) -> None:
    """DIR's text and figure of ``rows`` (the deals of its largest row in the settings)."""
    settings = {**settings, "deals": int(rows.groupby(["rules", "field", "policy"]).size().max())}
    (out / "review_policies.txt").write_text(yardstick_report(rows, settings))
    yardstick_figure(rows, str(out / "review_policies.png"))
    print((out / "review_policies.txt").read_text())


if __name__ == "__main__":
    main()
