"""Is the advice calibrated? Positions from simcore deals, whose hidden state and outcome are
known, advised as a player would be: the predicted net of the action actually taken against
the net the deal then paid, and the predicted P(deal-in) of each discard taken against whether
the seat dealt in (issue 28).

:func:`calibration_rows` takes ``per_deal`` decisions (with at least two legal actions) of
random seats from each of ``deals`` deals of ``seed`` (every seat playing ``policies``), draws
``samples`` hidden states for each (exactly, uniformly among those the seat's view allows)
and plays the action taken on them with ``policy`` for the seat and ``field`` for the others.
:func:`summarize` reads the rows: the mean bias (realized - predicted) with its 95% interval,
the slope of realized on predicted (1 when calibrated), the Brier score of the deal-in
predictions with the deciles' predicted and observed rates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simcore.advice.playing import Rollouts
from simcore.advice.position import replayed_decisions
from simcore.advice.replayed import replay_events
from simcore.advice.sampler import HiddenSampler

DEAL_IN_KINDS = ("discard", "robbed_kong", "kong_flower")


def money(events: list[dict[str, Any]], seat: int) -> int:
    """The seat's net of the payments in ``events``."""
    total = 0
    for ev in events:
        for payer, payee, units, _reason in ev.get("payments") or ():  # null: none written
            total += units * ((payee == seat) - (payer == seat))
    return total


def calibration_rows(seed: int = 28, deals: int = 400, per_deal: int = 5,
                     rules: str = "classic", policies: str = "expert", policy: str = "expert",
                     field: str = "expert", samples: int = 256, epsilon: float = 0.5,
                     progress: bool = False) -> pd.DataFrame:
    """One row per advised position: where it is, the action taken, the predicted net and
    P(deal-in) of that action (``samples`` hidden states), uniform and behaviour-weighted (the
    same rollouts, weighted with the ``epsilon``-greedy model: columns ``*_weighted`` and the
    effective sample size ``ess``), and what the deal did after it."""
    rng = np.random.default_rng(seed)
    rows = []
    deal_range = range(deals)
    if progress:
        from tqdm import tqdm

        deal_range = tqdm(deal_range, desc="calibration", unit="deal")
    for deal in deal_range:
        events = replay_events(seed, deal, rules, policies)
        players = len(events[0]["hands"])
        choices = [(seat, d) for seat in range(players) for d in replayed_decisions(events, seat)
                   if len(d.position.legal_actions()) > 1]
        if not choices:
            continue
        for i in rng.choice(len(choices), size=min(per_deal, len(choices)), replace=False):
            seat, d = choices[int(i)]
            p = d.position
            cut = d.step + 1 if p.decision.kind == "turn" else d.step
            after = events[cut:]
            roll = Rollouts(p, [d.action], policy, field, seed=seed, behaviour=epsilon)
            hidden = HiddenSampler(p).sample(samples, np.random.default_rng([seed, deal, d.step]))
            o = roll.play(hidden, deal * 1000 + d.step)
            rows.append({
                "deal": deal, "seat": seat, "step": d.step, "wall": p.wall,
                "decision": p.decision.kind, "action": str(d.action),
                "predicted_net": float(o.net[:, 0].mean()),
                "predicted_net_se": float(o.net[:, 0].std(ddof=1) / np.sqrt(samples)),
                "realized_net": money(events, seat) - money(events[1:cut], seat),
                "predicted_deal_in": float(o.deal_in[:, 0].mean()),
                "predicted_net_weighted": float(np.average(o.net[:, 0], weights=o.weight)),
                "predicted_deal_in_weighted": float(np.average(o.deal_in[:, 0],
                                                               weights=o.weight)),
                "ess": float(o.weight.sum() ** 2 / (o.weight ** 2).sum()),
                "realized_deal_in": any(ev["type"] == "win" and ev.get("from") == seat
                                        and ev["kind"] in DEAL_IN_KINDS for ev in after),
            })
    return pd.DataFrame(rows)


def summarize(rows: pd.DataFrame, weighted: bool = False) -> dict[str, Any]:
    """Bias, slope, Brier score and deciles of :func:`calibration_rows` (of the uniform
    predictions, or of the behaviour-weighted ones)."""
    import statsmodels.api as sm

    if weighted:
        rows = rows.assign(predicted_net=rows["predicted_net_weighted"],
                           predicted_deal_in=rows["predicted_deal_in_weighted"])
    pred, real = rows["predicted_net"].to_numpy(), rows["realized_net"].to_numpy(float)
    bias = real - pred
    n = len(rows)
    se = bias.std(ddof=1) / np.sqrt(n)
    fit = sm.OLS(real, sm.add_constant(pred)).fit(cov_type="HC1")
    slope, slope_se = float(fit.params[1]), float(fit.bse[1])
    discards = rows[rows["action"].str.startswith("discard")]
    q = discards["predicted_deal_in"].to_numpy()
    y = discards["realized_deal_in"].to_numpy(float)
    brier = float(np.mean((q - y) ** 2))
    base = float(np.mean((y.mean() - y) ** 2))
    deciles = pd.qcut(discards["predicted_deal_in"].rank(method="first"), 10, labels=False)
    table = discards.assign(decile=deciles).groupby("decile").agg(
        positions=("realized_deal_in", "size"), predicted=("predicted_deal_in", "mean"),
        observed=("realized_deal_in", "mean"))
    net_deciles = pd.qcut(rows["predicted_net"].rank(method="first"), 10, labels=False)
    net_table = rows.assign(decile=net_deciles).groupby("decile").agg(
        positions=("realized_net", "size"), predicted=("predicted_net", "mean"),
        observed=("realized_net", "mean"), observed_se=("realized_net", "sem"))
    return {"positions": n, "bias": float(bias.mean()), "bias_ci": (float(bias.mean() - 1.96 * se),
            float(bias.mean() + 1.96 * se)), "slope": slope, "slope_ci":
            (slope - 1.96 * slope_se, slope + 1.96 * slope_se), "discards": len(discards),
            "brier": brier, "brier_base_rate": base, "deal_in_deciles": table,
            "net_deciles": net_table}


def report(rows: pd.DataFrame, settings: dict[str, Any]) -> str:
    """The text of docs/results/advise_calibration.txt."""
    lines = [
        "Calibration of simcore advise: positions from simcore deals, the action "
        "actually taken played out on exactly sampled hidden states",
        "settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()),
    ]
    for weighted in (False, True):
        s = summarize(rows, weighted)
        head = ("behaviour-weighted hidden states (the same rollouts; effective sample size "
                f"median {rows['ess'].median():.1f} of {settings.get('samples', '?')})"
                if weighted else "uniform hidden states")
        lines += [
            "",
            f"== {head}",
            f"positions: {s['positions']:,} (of which {s['discards']:,} discards)",
            f"net of the action taken, realized - predicted: mean {s['bias']:+.3f} units, 95% "
            f"CI [{s['bias_ci'][0]:+.3f}, {s['bias_ci'][1]:+.3f}]",
            f"slope of realized on predicted net: {s['slope']:.3f}, 95% CI "
            f"[{s['slope_ci'][0]:.3f}, {s['slope_ci'][1]:.3f}] (1 when calibrated; HC1 "
            "errors)",
            f"P(deal-in) of the discard taken: Brier score {s['brier']:.4f} (base rate alone: "
            f"{s['brier_base_rate']:.4f})",
            "",
            "deal-in by decile of the predicted probability:",
            s["deal_in_deciles"].to_string(float_format=lambda x: f"{x:.3f}"),
            "",
            "net by decile of the predicted net:",
            s["net_deciles"].to_string(float_format=lambda x: f"{x:+.3f}"),
        ]
    return "\n".join(lines) + "\n"


def figure(rows: pd.DataFrame, path: str) -> None:
    """Predicted against observed, by decile: net (with 95% intervals) and P(deal-in)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.2))
    for weighted, marker in ((False, "o"), (True, "s")):
        s = summarize(rows, weighted)
        name = "weighted" if weighted else "uniform"
        t = s["net_deciles"]
        a.errorbar(t["predicted"], t["observed"], yerr=1.96 * t["observed_se"], fmt=marker,
                   label=f"{name}: bias {s['bias']:+.2f}, slope {s['slope']:.2f}")
        d = s["deal_in_deciles"]
        b.plot(d["predicted"], d["observed"], marker,
               label=f"{name}: Brier {s['brier']:.3f}")
    a.axline((0, 0), slope=1, color="k", ls="--", lw=1)
    a.set(xlabel="predicted net of the action taken (units)", ylabel="realized net (units)",
          title="net, by decile of the prediction")
    b.axline((0, 0), slope=1, color="k", ls="--", lw=1)
    b.set(xlabel="predicted P(deal-in)", ylabel="observed rate",
          title="deal-in of the discard taken")
    a.legend(fontsize=8)
    b.legend(fontsize=8)
    fig.suptitle(f"simcore advise calibration, {len(rows):,} positions from simcore deals")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
