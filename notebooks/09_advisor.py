# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Which tile now? The advisor on one position
#
# A player in the middle of a deal holds `23456789m 55p 46p` and has just drawn `3p`; one
# opponent shows two pungs of bamboo and 30 tiles are left in the wall. `simcore.advise` plays
# every legal action to the end of the deal on the same hidden states (the opponents' concealed
# tiles and the wall, drawn exactly among those consistent with what the seat sees), the seat
# then playing a policy and the others a field, and ranks the actions by the seat's expected
# net in units, each with its 95% interval.
#
# This notebook uses the `speed` policy and a few thousand hidden states so that it runs in
# seconds; `expert` rollouts (the default) are slower and play better.

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import simcore

SAMPLES = 3_000
POLICY = "speed"

position = simcore.Position.parse("""
rules classic
seat 0 dealer 0 wall 30
hand 234567899m4556p +3p
S0 void s discards 1s 9s 2s 7sd 1p 8p 9pd
S1 void m discards 3m 1m 7m 3sc 9p 2p 8s
S2 void m melds P3sP7s discards 1m 9m 5m 1p 4s 6s
S3 void p discards 6p 7p 9p 1p 7sc 2s 1sd
decision turn
""")
print(position)

# %% [markdown]
# ## The table
#
# One row per legal action, best first: the expected net from this decision to the end of the
# deal, the probability of winning and of dealing in, the mean fan of the wins, and the paired
# difference from the best action, measured again on fresh hidden states (so that picking the
# best of noisy means does not inflate the margins). `samples` is the hidden states each action
# was played on: an action settled early (three standard errors behind the best) is played no
# more, so the close calls get the rollouts.

# %%
table = simcore.advise(position, policy=POLICY, field=POLICY, samples=SAMPLES, seconds=None,
                       seed=1)
columns = ["action", "net", "net_ci_low", "net_ci_high", "win", "deal_in", "fan", "diff",
           "diff_ci_low", "diff_ci_high", "not_worse", "samples"]
print(table[columns].round(3).to_string(index=False))
print(table.attrs["verdict"])

# %% [markdown]
# ## The actions with their intervals

# %%
fig, ax = plt.subplots(figsize=(7, 4))
order = table.iloc[::-1]
ax.errorbar(order["net"], order["action"],
            xerr=[order["net"] - order["net_ci_low"], order["net_ci_high"] - order["net"]],
            fmt="o", capsize=3)
ax.set_xlabel("expected net from this decision (units), 95% interval")
ax.set_title(f"{len(table)} discards, {table.attrs['samples']:,} hidden states ({POLICY})")
fig.tight_layout()

# %% [markdown]
# ## Is the advice calibrated?
#
# On positions taken from simcore deals the hidden state and the outcome are known, so the
# advisor's prediction for the action actually taken can be set against what the deal then
# paid (`experiments/advise_calibration.py` writes `docs/results/advise_calibration.*`).

# %%
calibration = Path("../docs/results/advise_calibration.csv")
if calibration.exists():
    from simcore.advice.calibration import summarize

    rows = pd.read_csv(calibration)
    s = summarize(rows)
    print(f"{s['positions']:,} positions: realized - predicted net {s['bias']:+.2f} "
          f"[{s['bias_ci'][0]:+.2f}, {s['bias_ci'][1]:+.2f}], slope {s['slope']:.2f}, "
          f"deal-in Brier {s['brier']:.3f}")
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    t = s["net_deciles"]
    a.errorbar(t["predicted"], t["observed"], yerr=1.96 * t["observed_se"], fmt="o")
    a.axline((0, 0), slope=1, color="k", ls="--", lw=1)
    a.set(xlabel="predicted net", ylabel="realized net", title="net of the action taken")
    d = s["deal_in_deciles"]
    b.plot(d["predicted"], d["observed"], "o")
    b.axline((0, 0), slope=1, color="k", ls="--", lw=1)
    b.set(xlabel="predicted P(deal-in)", ylabel="observed", title="deal-in of the discard")
    fig.tight_layout()
