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
# # Push or fold?
#
# One seat plays `expert` three ways against each field: with its danger model (`expert`,
# `defence=50`), without it (`expert:defence=0`: it pushes, pure hand value) and folding
# (`expert:fold=100`: it throws the safest tile when the weighted danger of its best discard
# exceeds the value that discard keeps). All arms share their walls, so the contrasts are paired
# by wall: `defence_value` = expert − push, `fold_value` = fold − expert, `fold_vs_push` = fold −
# push, in units per deal.
#
# *Where* folding pays would need the seat's shanten and the wall left when an opponent first
# looks ready; the records do not hold those. Each deal is instead classified by what happened
# on the same wall in the baseline arm (`speed` in the same seat against the same field): when the
# first opponent won (`early`: 35+ tiles left, `middle` 20–34, `late` under 20, `none`) and how
# fast the seat's own hand was (`fast`: won with 30+ tiles left, `slow`, `no_win`). That is a
# property of the wall, the same for both arms of a contrast, so the per-situation contrasts are
# fair (classifying by either arm's own outcome would not be).
#
# This notebook reads `data/experiments/push_fold/` when `python experiments/push_fold.py` has
# been run, and otherwise runs a small version itself (`DEALS` per arm, the speed field only).

# %%
# %matplotlib inline
from IPython.display import Markdown, display

from simcore.experiments import result_or_run, wide_table, with_fields
from simcore.experiments.base import answers_by_field
from simcore.experiments.figures import push_fold_cells

DEALS = 400  # deals per arm for the small fallback run (the experiment's default: 80,000)

result = result_or_run(with_fields("push_fold", ["speed"]), deals=DEALS)
table = result.table
first = table[table["seed"] == result.meta["seed"]]
print(f"{result.meta['deals_per_arm']:,} deals per arm, {len(result.meta['arms'])} arms, "
      f"fields {', '.join(result.meta['fields'])}, seed {result.meta['seed']}")

# %% [markdown]
# ## What defence and folding are worth, per field

# %%
contrasts = first[first["estimand"].isin(["defence_value", "fold_value", "fold_vs_push"])]
wide_table(contrasts, ["preset", "field", "estimand"], "metric")

# %% [markdown]
# ## Switching gains from speed, per field

# %%
display(Markdown(answers_by_field(first, ["preset", "policy"])))

# %% [markdown]
# ## Where folding pays
#
# `fold_vs_push` per deal within each situation (a cluster-by-wall ratio), with the share of
# deals in it; `cell_contribution` rows in the table (each situation's part of the overall
# contrast, summing to it) are in `results.csv`.

# %%
display(push_fold_cells(result))

# %%
cells = first[(first["estimand"] == "cell_effect") & (first["contrast"] == "fold_vs_push")]
assert (cells["share"].between(0, 1)).all()
wide_table(cells, ["preset", "field", "breakdown", "situation"], "metric")

# %% [markdown]
# ## Conclusions
#
# The statements computed from the data this notebook read (the full run's numbers go into the
# README's Results):

# %%
display(Markdown(result.headline))
