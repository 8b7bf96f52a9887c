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
# # Tuning a policy's options against a field
#
# The sweep of `02_speed_vs_flush` played every threshold `flush:k=5..11` for 80,000 deals each
# (14 arms, 1.12 million deals) to find that under `classic` the flush pays from **k ∈ {8, 9}**
# against three `speed` players. `simcore tune` asks the same question of a search instead of
# a grid: optuna's TPE sampler proposes settings of the tuned options, every trial plays the
# table `setting/field/field/field` as a duplicate run on **the same walls** (walls 0..n of one
# seed), and a successive-halving pruner lets only the best quarter of the trials at a rung
# (250 walls) go on to the next (1,000, then 4,000 walls). A trial's score is its **gain over
# the starting setting** (the policy's default here): per wall, the tuned seat's mean net minus
# the starting setting's in the same seats of the same walls, with the project's paired
# estimator. The winner is then played again against the starting setting on **fresh walls**
# (the next seed) for its 95% interval: the search's choice cannot have adapted to their luck.
#
# The budget counts every deal: the trials, the starting setting's baseline and the
# confirmation (a quarter of the budget). The command line does the same
# (`simcore tune flush --param k=5..12 --param g=0..30 --field speed --deals 280000`).
#
# This notebook reads the tunes saved in `data/tune/NAME/` when they exist (see
# `docs/results/tune_flush.txt` for the commands) and otherwise runs small ones itself; set
# `FULL = True` for the full budgets (a quarter of the sweep's deals for the flush).

# %%
# %matplotlib inline
import pandas as pd
from IPython.display import display

from simcore.experiments import check_quoted
from simcore.tuning import result_or_run
from simcore.tuning.output import search_figure

FULL = False  # True: the full budgets below (about a minute for the flush on 2 cores)
DEALS = 280_000 if FULL else 12_000  # the flush tune's budget: at most a quarter of the sweep
EXPERT_DEALS = 400_000 if FULL else 6_000
RUNGS = (250, 1_000, 4_000) if FULL else (25, 100, 400)
MIXED = "expert/flush:k=8/pungs:k=4"  # the mixed field the experiments play

flush = result_or_run("flush-classic", "flush", ["k=5..12", "g=0..30"], deals=DEALS,
                      field="speed", rules="classic", rungs=RUNGS)
print(flush.summary())

# %% [markdown]
# ## The search
#
# Each point is one trial at the deepest rung it reached (more walls: a smaller SE); the
# pruned trials stop at the first or second rung. The right panels show the gain against each
# tuned option. In the full tune (`docs/results/tune_flush.txt`) the thresholds below 8 lost
# against the default at once and were pruned at the first rung (250 walls), and the give-up
# point `g` mattered far less; the tables below show what the tune this notebook read did.

# %%
display(search_figure(flush, ["k", "g"]))

# %%
trials = flush.trials
played = trials[(trials["walls"] > 0) & trials["duplicate_of"].isna()]
deepest = played[played["walls"] == played["walls"].max()]
deepest.sort_values("gain", ascending=False)[["trial", "k", "g", "walls", "gain", "se",
                                              "deals"]].head(10).round(4)

# %% [markdown]
# Per threshold `k`, the best setting the search played at each rung (how the pruner spent the
# walls: most trials of a bad `k` stop at the first rung).

# %%
played.pivot_table(index="k", columns="walls", values="gain", aggfunc="max").round(3)

# %%
best_k = flush.setting["k"]
print(f"best k = {best_k}, g = {flush.setting['g']}; deals spent {flush.deals:,} of "
      f"{flush.info['budget']:,} (the sweep: 1,120,000)")
if flush.info["budget"] >= 200_000:  # the full-size tune: the sweep's answer, in a quarter
    assert best_k in (8, 9), best_k
    assert flush.deals <= 280_000

# %% [markdown]
# ## The expert against the mixed field
#
# The `expert`'s options `defence` (the weight of the expected cost of dealing in), `fold`
# (when to give the hand up) and `value` (the weight of what a win is worth beyond one unit)
# were set by hand against `speed` players. Against a field that chases big hands
# (`expert/flush:k=8/pungs:k=4`) a different balance may pay. The starting setting is the
# expert's default (`defence=25, fold=0, value=100`); a tuned setting would become the new
# default only if its confirmed interval lies above 0.

# %%
expert = result_or_run("expert-mixed-classic", "expert",
                       ["defence=0..150", "fold=0..200", "value=50..200"],
                       deals=EXPERT_DEALS, field=MIXED, rules="classic", rungs=RUNGS)
print(expert.summary())

# %%
display(search_figure(expert, ["defence", "fold", "value"]))

# %%
gain = expert.gain
print(f"tuned {expert.spec} over the default {expert.start}: {gain:+.3f} "
      f"[{expert.ci_low:+.3f}, {expert.ci_high:+.3f}] units per deal "
      f"({expert.info['confirm_walls']:,} fresh walls); {expert.info['verdict']}")
assert expert.ci_low <= gain <= expert.ci_high

# %% [markdown]
# ## Conclusions
#
# Quoted from the full tunes (`docs/results/tune_flush.txt` has the commands and their output);
# the cell after them checks the two confirmed gains against the tunes this notebook ran or
# read:
#
# - **Flush under classic against speed**: with 280,000 deals (a quarter of the sweep's
#   1.12 million, everything counted) the search finds **k = 8** (g = 11); its confirmed gain
#   over the default `flush:k=8,g=12` is +0.0003 [−0.0023, +0.0041] per deal on 8,750 fresh
#   walls: the default already sits in the sweep's best set {8, 9}, and g hardly matters.
#   Started from the bad setting `flush:k=5` instead (so that the search cannot just stay at
#   the default), it finds k = 9, g = 16, confirmed +1.45 [+1.40, +1.51] over k = 5 (the sweep:
#   +1.49); on seeds 1 and 2 it finds k = 8 again. Four runs of four land in {8, 9}. (These
#   three tunes are not run here, so they are not checked below.)
# - **Expert against the mixed field** (400,000 deals): the best on the search's walls was
#   `defence=0` (no danger model) with `fold=82, value=159`, +0.040 (SE 0.031) there, but on
#   fresh walls only +0.015 [−0.019, +0.049] over the default: the search's margin was the luck
#   of its walls, which is what the confirmation is for (measured after the expert's kong
#   change; the earlier expert gave +0.002 [−0.032, +0.036]). The interval does not beat the
#   default of the time (`defence=50, fold=0, value=100`), so it stayed. The danger weight went
#   to 25 later, on one seat against three of the default under every preset (the results
#   page): the full tunes were not run again.
#
# A smaller tune may pick another setting than the full one; what is compared is the confirmed
# gain of whatever setting it picked over the starting one, on its own fresh walls.

# %%
confirmed = pd.DataFrame([
    # the setting the confirmation played: the winner, or the runner-up when the start won
    {"tune": name, "confirmed": tune.info.get("confirmed_spec", tune.spec),
     "walls": tune.info["confirm_walls"],
     "estimate": tune.gain, "ci_low": tune.ci_low, "ci_high": tune.ci_high}
    for name, tune in (("flush-classic", flush), ("expert-mixed-classic", expert))])
check_quoted(confirmed, [
    {"tune": "flush-classic", "quoted": 0.0003, "low": -0.0023, "high": 0.0041,
     "label": "flush: confirmed gain over flush:k=8,g=12"},
    {"tune": "expert-mixed-classic", "quoted": 0.015, "low": -0.019, "high": 0.049,
     "label": "expert: confirmed gain over the default"},
], source="the full tune (280,000 and 400,000 deals)").assign(
    confirmed=confirmed["confirmed"], budget=[flush.info["budget"], expert.info["budget"]]
).round(4)

# %% [markdown]
# A `contradicts` above is a prompt to look closer, not a verdict on the quote: about one figure
# in twenty falls outside its 95% interval by chance, and figures measured on the same walls
# move together (walls that happen to give more winners raise every per-deal count at once).
# Set `FULL = True`, or read the full tunes, before doubting them.
