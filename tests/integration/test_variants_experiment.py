"""The variants experiment (issue 17's notebook 06): its rows are the measures computed directly
from the arms' records and win tables, and the games differ as their rules say."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcore.experiments import EXPERIMENTS, run_experiment
from simcore.experiments.base import arm_datasets
from simcore.experiments.questions.variants import VARIANT_PRESETS
from simcore.rules import PRESETS

DEALS = 400


@pytest.fixture(scope="module")
def variants_result(tmp_path_factory):
    root = tmp_path_factory.mktemp("variants")
    experiment = EXPERIMENTS["variants"]
    result = run_experiment(experiment, deals=DEALS, seed=5, root=root, workers=1,
                            progress=False)
    return experiment, result, root


def _value(table: pd.DataFrame, preset: str, measure: str) -> float:
    return float(table[(table["preset"] == preset) & (table["measure"] == measure)]
                 ["estimate"].iloc[0])


def test_each_preset_has_its_measures(variants_result):
    _, result, _ = variants_result
    table = result.table
    assert list(dict.fromkeys(table["preset"])) == list(VARIANT_PRESETS)
    for preset in VARIANT_PRESETS:
        measures = set(table.loc[table["preset"] == preset, "measure"])
        river_only = {"first_win_units", "later_win_units"}
        base = {"flush_share", "wins_per_deal", "winners_per_deal", "drawn_end",
                "first_winner_net"}
        assert measures == (base | river_only if PRESETS[preset].blood_river else base), preset
    finite = table[np.isfinite(table["se"])]
    assert (finite["ci_low"] <= finite["estimate"]).all()
    assert (finite["estimate"] <= finite["ci_high"]).all()


def test_the_rows_are_the_direct_computation(variants_result):
    experiment, result, root = variants_result
    table = result.table
    datasets = arm_datasets("variants", root)
    for arm in experiment.arms:
        ds = datasets[arm.name]
        preset = arm.labels["preset"]
        records, wins = ds.records(), ds.wins
        players = PRESETS[preset].players
        deals = records["deal"].nunique()
        assert deals == DEALS and len(records) == players * deals
        winners = records.groupby("deal")["winners"].first()
        assert _value(table, preset, "flush_share") == pytest.approx(wins["flush"].mean())
        assert _value(table, preset, "wins_per_deal") == pytest.approx(len(wins) / deals)
        assert _value(table, preset, "winners_per_deal") == pytest.approx(winners.mean())
        most = players if PRESETS[preset].blood_river else players - 1
        assert _value(table, preset, "drawn_end") == pytest.approx((winners < most).mean())
        first = records[records["win_order"] == 1]
        assert _value(table, preset, "first_winner_net") == pytest.approx(first["net"].mean())
        if PRESETS[preset].blood_river:
            later = wins[wins["win_number"] > 1]
            assert _value(table, preset, "later_win_units") == pytest.approx(
                later["units"].mean())


def test_the_games_differ_as_their_rules_say(variants_result):
    _, result, _ = variants_result
    table = result.table
    # blood battle: a deal has at most players - 1 winners, each winning once
    assert _value(table, "two_suit3", "winners_per_deal") <= 2
    for preset in ("classic", "two_suit4", "two_suit3"):
        assert _value(table, preset, "wins_per_deal") == pytest.approx(
            _value(table, preset, "winners_per_deal"))
    # blood river: winners stay and win again, so a deal has more wins than winners
    assert _value(table, "river", "wins_per_deal") > _value(table, "river", "winners_per_deal")
    assert _value(table, "river", "wins_per_deal") > 2 * _value(table, "classic",
                                                                "wins_per_deal")
    # 19 draws after dealing with two suits and four players: the wall runs out far more often
    assert _value(table, "two_suit4", "drawn_end") > _value(table, "classic", "drawn_end")
    assert "two_suit3" in result.headline and "a later win is paid" in result.headline
