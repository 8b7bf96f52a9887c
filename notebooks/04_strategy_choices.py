# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Exchange, void, kongs and holding out
#
# Four smaller decisions, each answered the same way: one seat switches one choice away from
# `speed`'s default, the other three keep playing `speed`, on duplicate walls; the answer is the
# switching seat's net minus the speed seats' net per deal, with a 95% interval.
#
# - `exchange_three` (app only: the preset with the exchange): which three tiles to pass;
#   speed passes the three least useful tiles of its shortest suit; variants `random`,
#   `keep_long`.
# - `void_choice`: which suit to void; speed voids the suit with the fewest tiles; variant
#   `weakest` (the suit whose removal leaves the lowest shanten).
# - `kong_timing`: when to kong; speed's `keep_shape` konging when it does not hurt the hand;
#   variants `always`, `never`, `pung_then_add`.
# - `hold_out`: decline cheap wins? speed always wins; variants `min_fan=1`, `min_fan=2`, and the
#   same with `until=16` (decline only while more than 16 tiles remain).
#
# Each result is read from `data/experiments/NAME/` when that experiment has been run, otherwise
# simulated here at a small size (`DEALS` per arm).

# %%
# %matplotlib inline
from IPython.display import Markdown, display

from simcore.experiments import EXPERIMENTS, result_or_run, wide_table
from simcore.experiments.figures import strategy_forest

DEALS = 800  # deals per arm for the small fallback runs (the experiments' default: 80,000)
NAMES = ["exchange_three", "void_choice", "kong_timing", "hold_out"]

results = {name: result_or_run(EXPERIMENTS[name], deals=DEALS) for name in NAMES}
for r in results.values():
    print(f"{r.name}: {r.meta['deals_per_arm']:,} deals per arm, seed {r.meta['seed']}")

# %%
display(strategy_forest(list(results.values())))


# %%
def answer(name):
    return wide_table(results[name].table, ["preset", "policy"], "metric")


# %% [markdown]
# ## Exchange three (app)

# %%
answer("exchange_three")

# %% [markdown]
# ## Void choice

# %%
answer("void_choice")

# %% [markdown]
# ## Kong timing
#
# `kongs` is kongs made per deal, `net_kong` the kong money (the immediate kong payments and
# refunds) per deal, `net_win` the money from wins.

# %%
answer("kong_timing")

# %% [markdown]
# ## Holding out for more fan

# %%
answer("hold_out")

# %% [markdown]
# ## Conclusions
#
# From the full runs (80,000 deals per arm = 20,000 walls × 4 rotations, seed 0; 95% intervals):
#
# CONCLUSIONS_04
#
# The statements computed from the data this notebook read:

# %%
display(Markdown("\n\n".join(r.headline for r in results.values())))
