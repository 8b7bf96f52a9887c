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
# # What if I hold this hand?
#
# Aggregate tables say what a policy earns *on average*. At the table a player asks about *this*
# hand: "I hold `1123455789m 46p 9s` after the exchange — do I chase the full flush or play
# fast?". `simcore.whatif` answers by **conditional dealing**: many deals in which seat 0 is
# dealt exactly this hand and the 95 unseen tiles are shuffled uniformly; each deal is played
# once per *plan* (a policy spec for seat 0) on the **same wall**, the other seats playing
# `speed`. Because the plans meet the same walls, their difference is estimated from paired
# deals, with a narrower interval than two independent runs would give (last section).
#
# Seat 0 is not the dealer here (the dealer of deal *i* is seat 1 + *i* mod 3), the deals skip
# the exchange (the hand is *after* it) and each plan declares its own void suit (the `void`
# column). Rules: `classic`.
#
# Three hands a player would recognise:
# 1. a long suit that tempts a flush,
# 2. a hand rich in pairs,
# 3. a two-suit hand with an easy void.

# %%
import matplotlib.pyplot as plt
import numpy as np

from simcore.analysis.stats import z_quantile
from simcore.rollouts import DEFAULT_PLANS, simulate_whatif

DEALS = 2_000  # deals per plan; 10,000+ for answers to trust (about 5 s per hand)
SEED = 0
RULES = "classic"

# The default plans: fast (speed) and each pattern from the start (k=0). A plan whose policy
# is not in this version of simcore is left out.
PLANS = list(DEFAULT_PLANS)
HANDS = {
    "long suit (flush?)": "1123455789m 46p 9s",
    "rich in pairs": "113355m 57788p 19s",
    "two suits, easy void": "1245m 66m 234p 7899p",
}
COLUMNS = ["plan", "void", "net", "net_ci_low", "net_ci_high", "win", "win_order", "win_draw",
           "fan_mean", "flush_win", "pig", "diff", "diff_ci_low", "diff_ci_high"]
print("plans:", PLANS)

# %%
results = {}
tables = {}
for name, hand in HANDS.items():
    results[name] = simulate_whatif(hand, plans=PLANS, deals=DEALS, rules=RULES, seed=SEED)
    tables[name] = results[name].table()
    t = tables[name]
    # every estimate lies in its interval; the best plan's difference with itself is 0
    for col in ("net", "win", "pig", "flush_win"):
        assert (t[f"{col}_ci_low"] <= t[col]).all() and (t[col] <= t[f"{col}_ci_high"]).all()
    assert t.loc[t.best, "diff"].iloc[0] == 0

# %% [markdown]
# ## 1. A long suit: chase the flush?
#
# Ten characters, two dots, one bamboo. `speed` plays for the fastest win of any shape;
# `flush:k=0` keeps the characters and throws the rest. The table gives seat 0's mean net per
# deal (units, 95% interval), the win probability, the mean win order (1 = first to win) and
# draw of the win (wall tiles drawn after dealing), the mean fan of the wins, the rate of
# full-flush wins and of flower pigs, and each plan's paired difference with the best.

# %%
name = "long suit (flush?)"
print(tables[name].attrs["verdict"])
tables[name][COLUMNS].round(3)

# %%
if "flush:k=0" in PLANS:
    t = tables[name].set_index("plan")
    # on the same walls, the flush plan wins with a full flush far more often than speed
    assert t.loc["flush:k=0", "flush_win_ci_low"] > t.loc["speed", "flush_win_ci_high"]

# %% [markdown]
# ## 2. A hand rich in pairs
#
# Five pairs, one loose dot and two bamboo that the void clears. Seven pairs (`pairs:k=0`) and
# all pungs (`pungs:k=0`) both look close; `speed` keeps every shape open.

# %%
name = "rich in pairs"
print(tables[name].attrs["verdict"])
tables[name][COLUMNS].round(3)

# %% [markdown]
# ## 3. Two suits, an easy void
#
# No bamboo at all: the void costs nothing, and the hand is one tile from ready (two runs made,
# two partial runs and a pair). Does any pattern pay for the speed it gives up?

# %%
name = "two suits, easy void"
print(tables[name].attrs["verdict"])
tables[name][COLUMNS].round(3)

# %% [markdown]
# ## The plans' net distributions
#
# The mean hides the shape: a pattern plan trades small wins for fewer, larger ones. Each panel
# shows, for every plan, the share of deals in which seat 0's net is at most x units (the
# empirical distribution function; a curve further right is better everywhere).

# %%
fig, axes = plt.subplots(1, len(HANDS), figsize=(15, 4), sharey=True, layout="constrained")
for ax, (name, result) in zip(axes, results.items(), strict=True):
    nets = result.nets()
    for plan in nets.columns:
        values = np.sort(nets[plan].to_numpy())
        share = np.arange(1, len(values) + 1) / len(values)
        ax.step(values, share, where="post", label=plan, linewidth=1.4)
    ax.set_xlim(-20, 25)
    ax.axvline(0, color="0.6", linewidth=0.8)
    ax.set_title(f"{name}\n{HANDS[name]}")
    ax.set_xlabel("seat 0 net per deal (units)")
axes[0].set_ylabel("share of deals with net <= x")
axes[-1].legend(title="plan", fontsize=8)
fig.suptitle(f"Net per deal of each plan on the same {DEALS:,} walls per hand ({RULES})")
plt.show()

# %% [markdown]
# ## Paired differences with the best plan
#
# Each point is a plan's mean net minus the best plan's, on the same walls, with its 95%
# interval; an interval left of 0 means the data separate that plan from the best.

# %%
fig, axes = plt.subplots(1, len(HANDS), figsize=(15, 3), layout="constrained")
for ax, (name, t) in zip(axes, tables.items(), strict=True):
    y = np.arange(len(t))
    err = np.vstack([t["diff"] - t["diff_ci_low"], t["diff_ci_high"] - t["diff"]])
    ax.errorbar(t["diff"], y, xerr=err, fmt="o", capsize=3)
    ax.axvline(0, color="0.5", linewidth=0.8)
    ax.set_yticks(y, t["plan"])
    ax.invert_yaxis()
    ax.set_title(name)
    ax.set_xlabel("net difference with the best plan (units per deal)")
plt.show()

# %% [markdown]
# ## Why common walls: the paired interval against an unpaired one
#
# The same comparison from two independent runs would have the standard error
# `sqrt(se_a² + se_b²)`. Pairing on the same walls removes the part of the variance the walls
# share (a hand that draws well does so under every plan).

# %%
z = z_quantile(0.95)
for name, t in tables.items():
    rest = t.loc[~t.best]
    best = t.loc[t.best].iloc[0]
    unpaired = np.sqrt(rest["net_se"] ** 2 + best["net_se"] ** 2)
    share = 1 - (rest["diff_se"] / unpaired) ** 2
    print(f"{name}: paired interval half-widths {', '.join(f'{z * s:.2f}' for s in rest.diff_se)}"
          f" vs unpaired {', '.join(f'{z * s:.2f}' for s in unpaired)}"
          f" (variance removed: {', '.join(f'{v:.0%}' for v in share)})")
