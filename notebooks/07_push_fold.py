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
# # Push or fold?
#
# One seat plays `expert` three ways against each field: with its danger model (`expert`,
# `defence=25`, the default), without it (`expert:defence=0`: it pushes, pure hand value) and
# folding (`expert:fold=100`: it throws the safest tile when the weighted danger of its best
# discard exceeds the value that discard keeps). All arms share their walls, so the contrasts
# are paired by wall: `defence_value` = expert − push, `fold_value` = fold − expert,
# `fold_vs_push` = fold − push, in units per deal.
#
# *Where* folding pays: each deal is classified by what happened on the same wall in the
# baseline arm (`speed` in the same seat against the same field). That is a property of the
# wall, the same for both arms of a contrast, so the per-situation contrasts are fair
# (classifying by either arm's own play would not be). Two breakdowns:
#
# * `threat` (on a subsample: the first 2,000 walls of each baseline arm, every rotation,
#   replayed with their event log): the seat's own shanten (`ready`, `1 away`, `2+ away`) and
#   the wall left (`35+`, `20-34`, `<20`) at the moment an opponent first *looks ready* — its
#   ready probability in the expert's public model (discards, melds, drawn-tile streak) first
#   above 0.5 — or `never`;
# * full-sample proxies, on every wall, from the records: when the first opponent won
#   (`early`: 35+ tiles left, `middle` 20–34, `late` under 20, `none`) and how fast the seat's
#   own hand was (`fast`: won with 30+ tiles left, `slow`, `no_win`).
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
# ## Where folding pays: own shanten × wall left when an opponent first looks ready
#
# `fold_vs_push` per deal within each cell (a cluster-by-wall ratio) on the replayed subsample
# (`sample` names it), with the share of deals in the cell; the cells' `cell_contribution`
# rows add up to the contrast on the subsample (`subsample_contrast`), checked below.

# %%
threat = first[(first["breakdown"] == "threat") & (first["contrast"] == "fold_vs_push")]
if len(threat):
    net = threat[threat["metric"] == "net"]
    for (preset, field), part in net.groupby(["preset", "field"], sort=False):
        total = part[part["estimand"] == "subsample_contrast"]["estimate"].iloc[0]
        parts = part[part["estimand"] == "cell_contribution"]["estimate"].sum()
        assert abs(parts - total) < 1e-9, (preset, field, parts, total)
    effects = threat[threat["estimand"] == "cell_effect"]
    display(wide_table(effects.assign(share=effects["share"].map("{:.0%}".format)),
                       ["preset", "field", "sample", "situation", "share"], "metric"))
else:  # a result written before the replayed breakdown existed
    print("no threat rows: run python experiments/push_fold.py again (its arms are reused; "
          "only the subsample is replayed)")

# %% [markdown]
# ## The full-sample proxies
#
# The same contrast by when an opponent first won and how fast the seat's own hand was, on every
# wall.

# %%
display(push_fold_cells(result))

# %%
cells = first[(first["estimand"] == "cell_effect") & (first["contrast"] == "fold_vs_push")
              & first["breakdown"].isin(["table", "own"])]
assert (cells["share"].between(0, 1)).all()
wide_table(cells, ["preset", "field", "breakdown", "situation"], "metric")

# %% [markdown]
# ## Conclusions
#
# The statements computed from the data this notebook read (the full run's numbers go into the
# README's Results):

# %%
display(Markdown(result.headline))
