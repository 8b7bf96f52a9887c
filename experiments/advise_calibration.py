"""Is simcore advise calibrated? (issue 28)

Usage: python experiments/advise_calibration.py [--deals N] [--per-deal K] [--samples S]
       [--seed S] [--policies P] [--out DIR]

Takes K decisions from each of N classic deals (every seat playing --policies), advises the
action actually taken on S exactly sampled hidden states each, and compares with what the deal
then paid (simcore.advice.calibration). Writes DIR/advise_calibration.txt, .png and .csv
(default DIR docs/results).
"""

import argparse
from pathlib import Path

from simcore.advice.calibration import calibration_rows, figure, report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--per-deal", type=int, default=5)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--policies", default="expert")
    ap.add_argument("--epsilon", type=float, default=0.5,
                    help="the behaviour model's share of random discards (weighted row)")
    ap.add_argument("--out", default="docs/results")
    args = ap.parse_args()
    settings = {"rules": "classic", "deals": args.deals, "per_deal": args.per_deal,
                "samples": args.samples, "seed": args.seed, "policies": args.policies,
                "policy": args.policies, "field": args.policies, "epsilon": args.epsilon}
    rows = calibration_rows(args.seed, args.deals, args.per_deal, "classic", args.policies,
                            args.policies, args.policies, args.samples, args.epsilon,
                            progress=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "advise_calibration.txt").write_text(report(rows, settings))
    rows.to_csv(out / "advise_calibration.csv", index=False)
    figure(rows, str(out / "advise_calibration.png"))
    print((out / "advise_calibration.txt").read_text())


if __name__ == "__main__":
    main()
