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
# # Keep a dangerous void tile?
#
# Every preset plays `void_first=true`: while a player holds void-suit tiles each discard must
# be one, and with such players a flower pig (查花猪) is rare (about 1 in 100,000 player-deals
# in the full run of `rules_compared`, checked against its data in `01_overview`). With
# `--set void_first=false` a player may keep a void tile, for instance one an opponent who looks
# ready is likely waiting on. Of the engine's policies only `expert` can do that deliberately: its
# danger model weighs every discard of lowest shanten, void tiles included. The greedy family
# (`speed`, `flush`, `pungs`, `pairs`) discards its void suit first whatever the rule, and
# `expert` has no option to force void-first play, so the "discard it first" arm is `expert`
# under `void_first=true`.
#
# Against the speed field the contrast `hold − discard` is the seat's choice alone; against a
# field with `expert` players the rule is lifted for them too (and with `expert` in every seat
# the net is 0 by symmetry: only the rates say something there). The five presets differ in what
# a pig pays.
#
# This notebook reads `data/experiments/keep_void/` when `python experiments/keep_void.py` has
# been run, and otherwise runs a small version itself (`DEALS` per arm, the speed field only).

# %%
# %matplotlib inline
from IPython.display import Markdown, display

from simcore.experiments import result_or_run, wide_table, with_fields
from simcore.experiments.figures import keep_void_rates

DEALS = 400  # deals per arm for the small fallback run (the experiment's default: 40,000)

result = result_or_run(with_fields("keep_void", ["speed"]), deals=DEALS)
table = result.table
first = table[table["seed"] == result.meta["seed"]]
print(f"{result.meta['deals_per_arm']:,} deals per arm, {len(result.meta['arms'])} arms, "
      f"fields {', '.join(result.meta['fields'])}, seed {result.meta['seed']}")

# %% [markdown]
# ## Pig rate and deal-in rate side by side

# %%
display(keep_void_rates(result))

# %%
levels = first[first["estimand"] == "level"]
wide_table(levels[levels["metric"].isin(["pig", "deal_in"])],
           ["preset", "pig_payment", "field", "metric"], "void_play", scale=100)  # % of deals

# %% [markdown]
# ## What holding is worth, per preset and field
#
# `hold − discard`, paired by wall: net, pig money, ready-check money, deal-ins, pigs.

# %%
diff = first[first["estimand"] == "hold_minus_discard"]
assert len(diff) > 0
wide_table(diff, ["preset", "pig_payment", "field"], "metric")

# %% [markdown]
# ## Conclusions
#
# The statements computed from the data this notebook read (the full run's numbers go into the
# README's Results):

# %%
display(Markdown(result.headline))
