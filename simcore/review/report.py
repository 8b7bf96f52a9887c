"""The yardstick's published table and figure, from the per-deal rows of
``experiments/review_policies.py`` (one row per reviewed deal, with ``rules``, ``field`` and
``policy``)."""

from __future__ import annotations

import math
import textwrap
from typing import Any

import pandas as pd

from simcore.review.deal import KINDS
from simcore.review.yardstick import deal_review_seed


def summarise(rows: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per (rules, field, policy): deals, EV lost per deal with its t interval, by kind, and
    mistakes and reviewed decisions per deal."""
    from scipy import stats

    out = []
    for (rules, field, policy), d in rows.groupby(["rules", "field", "policy"], sort=False):
        n = len(d)
        t = stats.t.ppf(0.5 + level / 2, max(n - 1, 1))
        se = float(d["ev_lost"].std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        mean = float(d["ev_lost"].mean())
        row: dict[str, Any] = {"rules": rules, "field": field, "policy": policy, "deals": n,
                               "ev_lost": mean, "ci_low": mean - t * se,
                               "ci_high": mean + t * se}
        for k in KINDS:
            row[k] = float(d[f"ev_lost_{k}"].mean())
        row["mistakes"] = float(d["mistakes"].mean())
        row["reviewed"] = float(d["reviewed"].mean())
        row["skipped"] = float(d["skipped"].mean()) if "skipped" in d else 0.0
        row["agree"] = float(d["agree"].sum() / max(d["reviewed"].sum(), 1))
        out.append(row)
    return pd.DataFrame(out)


def yardstick_report(rows: pd.DataFrame, settings: dict[str, Any]) -> str:
    s = summarise(rows)
    lines = [
        "The yardstick: EV a policy leaves on the table per deal (simcore review --policy)",
        "",
        *textwrap.wrap(
            f"Seat 0 reviewed in {settings['deals']} deals per row (seed {settings['seed']}), "
            "every decision with more than one legal action ranked by rollouts on at most "
            f"{settings['samples']} exactly sampled hidden states (the seat played on by its own "
            "policy, the others by the field); EV lost = best minus taken, measured on fresh "
            "hidden states; a mistake loses at least 0.1 units with its interval above zero. "
            "Units per deal; 95% t intervals over deals; decisions: reviewed per deal; skipped: "
            "decisions per deal with too many hidden states for the sampler to enumerate (a "
            "winner's hidden hand early in a deal), not in the EV lost. The exchange of three "
            "and the void are ranked on as many deals dealt again from the seat's hand "
            "(simcore.review.setup; the exchange's candidates: the two closest-to-ready "
            "choices of each suit and the one taken).", width=100),
        "",
        f"{'rules':8} {'field':7} {'policy':10} {'EV lost [95% CI]':24} {'exchange':>8} "
        f"{'void':>7} {'discard':>8} {'pung':>7} {'kong':>7} {'win':>7} {'mistakes':>9} "
        f"{'decisions':>9} {'skipped':>7} {'agree':>6}",
    ]
    for r in s.itertuples():
        ci = f"{r.ev_lost:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]"
        lines.append(f"{r.rules:8} {r.field:7} {r.policy:10} {ci:24} {r.exchange:+8.3f} "
                     f"{r.void:+7.3f} {r.discard:+8.3f} {r.pung:+7.3f} {r.kong:+7.3f} "
                     f"{r.win:+7.3f} {r.mistakes:9.2f} {r.reviewed:9.1f} {r.skipped:7.2f} "
                     f"{100 * r.agree:5.1f}%")
    lines += ["", "Where expert loses most (EV lost per deal by kind, all four tables), with "
              "the costliest example of each kind:"]
    ex = rows[rows["policy"] == "expert"]
    if not ex.empty:
        by_kind = {k: float(ex.groupby(["rules", "field"])[f"ev_lost_{k}"].mean().mean())
                   for k in KINDS}
        for k in sorted(by_kind, key=lambda k: by_kind[k], reverse=True)[:3]:
            w = ex.loc[ex[f"worst_{k}_ev_lost"].idxmax()]
            players = "/".join(["expert"] + [str(w["field"])] * 3)
            lines += [f"- {k}: {by_kind[k]:+.3f} a deal. Example: step {int(w[f'worst_{k}_step'])}"
                      f" of deal {int(w['deal'])} ({w['rules']}, {w['field']} field), EV lost "
                      f"{w[f'worst_{k}_ev_lost']:+.2f}:",
                      f"    simcore replay --seed {settings['seed']} --deal {int(w['deal'])} "
                      f"--rules {w['rules']} --policies {players} --steps",
                      f"    simcore review --seed {settings['seed']} --deal {int(w['deal'])} "
                      f"--rules {w['rules']} --policies {players} --seat 0 --samples "
                      f"{settings['samples']} --review-seed "
                      f"{deal_review_seed(settings['seed'], int(w['deal']))}"]
    return "\n".join(lines) + "\n"


def yardstick_figure(rows: pd.DataFrame, path: str | None = None) -> Any:
    """EV lost per deal with its interval, one panel per rules, a bar per (field, policy)."""
    import matplotlib

    if path is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = summarise(rows)
    rules = list(dict.fromkeys(s["rules"]))
    fig, axes = plt.subplots(1, len(rules), figsize=(5.5 * len(rules), 3.8), sharey=True,
                             squeeze=False)
    colours = {"exchange": "#5b8c5a", "void": "#a7c957", "discard": "#1c4f9c",
               "pung": "#7a9cc6", "kong": "#e0a526", "win": "#b3261e"}
    for ax, r in zip(axes[0], rules, strict=True):
        d = s[s["rules"] == r].reset_index(drop=True)
        x = range(len(d))
        labels = [f"{p}\nvs {f}" for p, f in zip(d["policy"], d["field"], strict=True)]
        below = [0.0] * len(d)
        for kind in KINDS:  # the kinds stacked: a kind's mean can be below zero, hardly
            ax.bar(x, d[kind], bottom=below, color=colours[kind], label=kind, width=0.7)
            below = [b + v for b, v in zip(below, d[kind], strict=True)]
        err = [d["ev_lost"] - d["ci_low"], d["ci_high"] - d["ev_lost"]]
        ax.errorbar(x, d["ev_lost"], yerr=err, fmt="none", ecolor="black", capsize=3)
        ax.set_xticks(x, labels, fontsize=7, rotation=0)
        ax.axhline(0, color="#888", lw=0.8)
        ax.set_title(f"{r}: EV lost per deal by kind (95% CI of the total)", fontsize=10)
    axes[0][0].set_ylabel("units per deal")
    axes[0][-1].legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
        plt.close(fig)
    return fig
