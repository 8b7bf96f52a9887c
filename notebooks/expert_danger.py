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
# # How well does the `expert` see danger?
#
# The `expert` policy discards with a model of each opponent: the chance it is ready, from its
# discards and melds, and the chance a tile completes it, from the wait shapes the unseen
# copies allow (a tile of its void suit never does). Here its predictions meet the outcomes:
# replayed deals are rebuilt discard by discard (`simcore.analysis.danger`, which checks every
# rebuilt hand against the log), the model predicts each discard's deal-in probability,
# `1 - prod over opponents (1 - ready * wins_on)`, and we compare per decile with the observed
# rate. The fit behind the constants and the full tables: `python benchmarks/bench_expert.py
# --calibration`. (This reading leaves out one thing the policy also knows: a tile an opponent
# let go since its hand last changed cannot complete it.)

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from simcore.analysis import danger

DEALS = 300  # replayed deals; 3,000+ for tight deciles (about 20 s per 1,000)
SEED = 0
RULES = "classic"
POLICIES = "expert/speed/speed/speed"

rows = danger.collect(DEALS, rules=RULES, policies=POLICIES, seed=SEED, progress=False)
discards = danger.per_discard(danger.predict(rows))
table = danger.calibration(discards)
scores = danger.brier(discards)
assert ((discards["p_deal_in"] >= 0) & (discards["p_deal_in"] <= 1)).all()
print(f"{len(discards):,} discards, observed deal-in rate {scores['observed_rate']:.4f}, "
      f"mean prediction {scores['mean_predicted']:.4f}")
print(f"Brier score {scores['brier']:.5f} (constant predictor {scores['brier_constant']:.5f})")
table.round(4)

# %% [markdown]
# A calibrated model puts every decile on the diagonal. The first deciles are the void-suit
# tiles and the dead ones (predicted 0: nobody can win on them); the last decile holds the
# discards into an opponent who has been discarding for long, with live neighbours.

# %%
fig, ax = plt.subplots(figsize=(5, 5))
top = float(max(table["predicted"].max(), table["observed"].max())) * 1.1
ax.plot([0, top], [0, top], color="grey", lw=1, ls="--", label="calibrated")
ax.errorbar(table["predicted"], table["observed"], yerr=1.96 * table["se"], fmt="o",
            capsize=3, label="deciles (95% interval)")
ax.set_xlabel("predicted deal-in probability of the discard")
ax.set_ylabel("observed deal-in rate")
ax.set_title(f"expert's danger model, {RULES}, {len(discards):,} discards")
ax.legend()
plt.show()

# %% [markdown]
# **Reading.** How well the model ranks discards is the rise of the observed rate across the
# deciles, and whether it beats a constant predictor is the Brier score; both are computed
# below from the discards replayed here. Expect modest discrimination: a tile's danger depends
# on hidden hands, and in blood battle three opponents are often ready at once. The benchmark's
# targets section measures what this buys the policy.

# %%
low, high = table["observed"].iloc[0], table["observed"].iloc[-1]
beats = scores["brier"] < scores["brier_constant"]
display(Markdown(
    f"On these {len(discards):,} discards the observed deal-in rate grows from {low:.1%} in "
    f"the lowest decile to {high:.1%} in the highest, and the model's Brier score "
    f"{scores['brier']:.5f} {'beats' if beats else 'does not beat'} the constant predictor's "
    f"{scores['brier_constant']:.5f}."))
assert high > low
