# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Where did this deal's money go? The review of one deal
#
# `simcore.review.review_deal` takes every decision of one seat in a deal record through the
# advisor: each legal action is played to the end of the deal on the same exactly sampled
# hidden states, and the decision is measured by the **EV lost**, the best action's expected
# net minus the taken action's in units, with its 95% interval. A **mistake** loses at least
# 0.1 units with the interval above zero.
#
# The deal: deal 1 of seed 29 under `classic`, `expert` in seat 0 against three `speed`
# players. This notebook reviews it with a few hundred hidden states per decision so that it
# runs in seconds; `simcore review` uses 1,024 by default.

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from simcore.advice.replayed import replay_events
from simcore.review import review_deal
from simcore.review.html import render_html

SAMPLES = 256
events = replay_events(29, 1, "classic", "expert/speed/speed/speed")
review = review_deal(events, 0, samples=SAMPLES, seed=0)
summary = review.summary()
print({k: v for k, v in summary.items() if k != "by_kind"})
display(pd.DataFrame(summary["by_kind"]).T)

# %% [markdown]
# ## Every reviewed decision
#
# One row per decision with more than one legal action (the others are listed in
# `review.decisions` with one action and no rollouts), the mistakes marked.

# %%
columns = ["step", "kind", "taken", "best", "ev_lost", "ev_lost_ci_low", "ev_lost_ci_high",
           "deal_in", "mistake"]
print(review.reviewed[columns].round(3).to_string(index=False))

# %% [markdown]
# The costliest decision, with the advisor's whole table: every legal action's expected net
# from that decision on, its interval, and the paired difference to the best on fresh hidden
# states.

# %%
worst = review.reviewed.sort_values("ev_lost", ascending=False).iloc[0]
print(f"step {worst['step']}: took {worst['taken']}, best {worst['best']}")
print(worst["position"])
table = review.tables[int(worst["step"])]
print(table[["action", "net", "net_ci_low", "net_ci_high", "diff", "diff_ci_low",
             "diff_ci_high", "win", "deal_in"]].round(3).to_string(index=False))

# %% [markdown]
# ## The HTML report
#
# `render_html` writes the same review as one self-contained page (no script, nothing fetched):
# the tiles as pictures, the mistakes first, each decision's table of actions with its
# intervals, and the seat's net through the deal. `simcore review --seed 29 --deal 1
# --policies expert/speed/speed/speed --seat 0 --html review.html` writes it from the command
# line.

# %%
out = Path("../data/review")
out.mkdir(parents=True, exist_ok=True)
report = out / "review_29_1.html"
report.write_text(render_html(review), encoding="utf-8")
display(Markdown(f"[The report]({report.as_posix()}) ({report.stat().st_size:,} bytes)"))

# %% [markdown]
# ## The seat's net through the deal

# %%
steps, net = zip(*review.net_path, strict=True)
fig, ax = plt.subplots(figsize=(7, 3))
ax.step(steps, net, where="post")
for row in review.reviewed[review.reviewed["mistake"]].itertuples():
    ax.axvline(row.step, color="#b3261e", lw=1, ls="--")
ax.axhline(0, color="#888", lw=0.8)
ax.set(xlabel="event", ylabel="units", title="seat 0's net (dashed: mistakes)")
fig.tight_layout()

# %% [markdown]
# ## The yardstick: what each policy leaves on the table
#
# The same review over hundreds of deals measures a policy: the EV it loses per deal by
# deciding otherwise than its own rollouts advise, by kind of decision.
# `experiments/review_policies.py` wrote `docs/results/review_policies.csv` (300 deals per
# row, seat 0, 256 hidden states a decision); without it this cell reviews a few deals itself.

# %%
from simcore.review.report import summarise, yardstick_figure  # noqa: E402
from simcore.review.yardstick import review_policy  # noqa: E402

published = Path("../docs/results/review_policies.csv")
if published.exists():
    rows = pd.read_csv(published)
else:
    frames = []
    for policy in ("speed", "expert"):
        r = review_policy(policy, 4, rules="classic", field="speed", seed=29, samples=64)
        frames.append(r.deals.assign(rules="classic", field="speed", policy=policy))
    rows = pd.concat(frames, ignore_index=True)
print(summarise(rows).round(3).to_string(index=False))
fig = yardstick_figure(rows)
