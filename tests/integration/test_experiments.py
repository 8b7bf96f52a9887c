"""The experiments: paired estimates agree with compare_policies, runs are reused or refused
as they should be, every experiment runs end to end at a small size, the scripts' command line."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore.analysis import compare_policies
from simcore.engine.spec import parse_policies
from simcore.experiments import (
    DEFAULT_FIELDS,
    EXPERIMENTS,
    Experiment,
    load_result,
    parse_field,
    robustness,
    run_experiment,
    with_fields,
)
from simcore.experiments.base import (
    GAME_PRESETS,
    RESULT_COLUMNS,
    markdown_table,
    replication_rows,
    with_result_columns,
)
from simcore.experiments.figures import save_figures
from simcore.experiments.paired import between_arms, interval_rows, seat_vs_field, wall_differences
from simcore.experiments.questions.push_fold import THREAT_CELLS
from simcore.rules import PRESETS
from simcore.runner.store import Dataset

ROOT = Path(__file__).resolve().parents[2]
MIXED = "expert/flush:k=8/pungs:k=4"
# the small runs play the speed field and the rotated mixed one (the expert field is the same
# code path as the speed field's, with another policy; test_every_experiment_is_well_formed
# checks that every experiment has arms for every default field)
SMALL_FIELDS = ("speed", MIXED)


@pytest.fixture(scope="module")
def duplicate_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "flush6"
    return simcore.run(2_000, rules="classic", policies="flush:k=6/speed/speed/speed", seed=3,
                       duplicate=True, out=out, workers=1, progress=False)


def test_wall_differences_agree_with_compare_policies(duplicate_run):
    diffs = wall_differences(duplicate_run, "flush:k=6", "speed", ["net", "win", "fan"])
    ours = interval_rows(diffs).set_index("metric")
    theirs = compare_policies(duplicate_run.path, baseline="speed", metrics=("net", "win", "fan"))
    theirs = theirs[theirs["stat"] == "difference"].set_index("metric")
    for metric in ("net", "win", "fan"):
        assert ours.loc[metric, "walls"] == theirs.loc[metric, "n"] == 500
        assert ours.loc[metric, "estimate"] == pytest.approx(theirs.loc[metric, "estimate"])
        assert ours.loc[metric, "se"] == pytest.approx(theirs.loc[metric, "se"])


def test_wall_differences_by_hand(duplicate_run):
    """Wall 7: the flush seat's four player-deals against the speed seats' twelve."""
    records = pd.read_parquet(duplicate_run.path, columns=["wall", "policy", "net"])
    wall = records[records["wall"] == 7]
    flush = wall[wall["policy"] == "flush:k=6"]["net"]
    speed = wall[wall["policy"] == "speed"]["net"]
    assert len(flush) == 4 and len(speed) == 12
    diffs = wall_differences(duplicate_run, "flush:k=6", "speed", ["net"])
    assert diffs.loc[7, "net"] == pytest.approx(flush.mean() - speed.mean())
    # zero-sum: the field's mean is minus a third of the flush seat's
    assert speed.sum() == -flush.sum()


def test_unknown_policy_and_metric_are_named(duplicate_run):
    with pytest.raises(ValueError, match="'pairs' is not in run"):
        wall_differences(duplicate_run, "pairs", "speed", ["net"])
    with pytest.raises(ValueError, match="unknown metric 'profit'"):
        wall_differences(duplicate_run, "flush:k=6", "speed", ["profit"])


def test_between_arms_is_the_paired_difference_of_differences():
    rng = np.random.default_rng(1)
    walls = pd.Index(np.arange(400), name="wall")
    first = pd.DataFrame({"net": rng.normal(0.5, 2.0, 400)}, index=walls)
    second = pd.DataFrame({"net": first["net"] - 0.3 + rng.normal(0, 0.1, 400)}, index=walls)
    row = between_arms(first, second).iloc[0]
    assert row["estimate"] == pytest.approx((first["net"] - second["net"]).mean())
    assert row["se"] == pytest.approx((first["net"] - second["net"]).std() / 20)
    assert row["ci_low"] < 0.3 < row["ci_high"]
    # the paired interval is far narrower than the two arms' own intervals
    assert row["se"] < 0.1 * interval_rows(first).iloc[0]["se"]
    with pytest.raises(ValueError, match="fewer than 2 walls"):
        between_arms(first.iloc[:1], second.iloc[200:])


def test_seat_vs_field_rows_carry_labels(duplicate_run):
    table, per_wall = seat_vs_field([duplicate_run], [{"preset": "classic", "k": 6}],
                                    ["flush:k=6"], "speed", ["net", "win"])
    assert list(table.columns[:6]) == ["preset", "k", "policy", "baseline", "field", "estimand"]
    assert table["field"].unique().tolist() == ["speed/speed/speed"]
    # without a baseline arm the switching gain exists for the zero-sum net only
    assert list(zip(table["estimand"], table["metric"], strict=True)) == [
        ("switching_gain", "net"), ("vs_field", "net"), ("vs_field", "win")]
    assert len(per_wall) == 1 and len(per_wall[0]) == 500
    # zero-sum: the field pays what the seat wins, so vs_field is 4/3 of the switching gain
    net = table[table["metric"] == "net"].set_index("estimand")
    assert net.loc["vs_field", "estimate"] == pytest.approx(
        4 / 3 * net.loc["switching_gain", "estimate"], abs=1e-12)
    for column in ("informative_walls", "method", "se_unpaired", "variance_reduction"):
        assert net[column].notna().all(), column


def test_switching_gain_is_the_seats_own_mean_net(tmp_path):
    """The k=9 classic arm (small): the switching gain is the flush seat's own mean net per
    deal, recomputed from the records, and the baseline term of the other metrics comes from
    the baseline arm."""
    experiment = EXPERIMENTS["speed_vs_flush"]
    arms = [a for a in experiment.arms if a.rules == "classic" and a.labels["field"] == "speed"
            and (a.labels.get("k") == 9 or a.labels.get("role") == "baseline")]
    small = replace(experiment, name="k9", arms=tuple(arms), replicate=None)
    result = run_experiment(small, deals=800, seed=5, root=tmp_path, workers=1, progress=False)
    table = result.table
    gain = table[(table["estimand"] == "switching_gain") & (table["metric"] == "net")]
    assert len(gain) == 1
    records = pd.read_parquet(tmp_path / "k9" / "classic-flush-k9",
                              columns=["wall", "policy", "net", "win_order"])
    own = records[records["policy"] == "flush:k=9"]
    assert len(own) == 800  # one seat of every deal
    assert gain["estimate"].iloc[0] == pytest.approx(own["net"].mean(), abs=1e-9)
    # the win-rate gain: own win rate minus the baseline arm's on the same walls
    base = pd.read_parquet(tmp_path / "k9" / "classic-baseline", columns=["wall", "win_order"])
    assert len(base) == 4 * 200 and sorted(base["wall"].unique()) == list(range(200))
    own_win = (own["win_order"] > 0).groupby(own["wall"]).mean()
    base_win = (base["win_order"] > 0).groupby(base["wall"]).mean()
    win = table[(table["estimand"] == "switching_gain") & (table["metric"] == "win")]
    assert win["estimate"].iloc[0] == pytest.approx((own_win - base_win).mean(), abs=1e-12)
    assert set(RESULT_COLUMNS) <= set(table.columns)
    assert (table["seed"] == 5).all()


# experiments about the games themselves, played by speed on every seat: no fields
GAMES_WITHOUT_FIELDS = {"variants"}


def test_every_experiment_is_well_formed():
    assert set(EXPERIMENTS) == {"speed_vs_flush", "exchange_three", "void_choice", "kong_timing",
                                "hold_out", "first_win_profit", "rules_compared", "push_fold",
                                "keep_void", "variants"}
    defaults = {parse_field(f).name for f in DEFAULT_FIELDS}
    assert defaults == {"speed", "expert", "expert/flush/pungs"}
    for experiment in EXPERIMENTS.values():
        names = [arm.name for arm in experiment.arms]
        assert len(names) == len(set(names)), experiment.name
        for arm in experiment.arms:
            assert arm.rules in PRESETS
            parse_policies(arm.policies)  # raises on a bad spec
        assert (ROOT / "experiments" / f"{experiment.name}.py").exists()
        if experiment.name in GAMES_WITHOUT_FIELDS:
            assert experiment.fields == () and "field" not in experiment.arms[0].labels
            continue
        # every experiment reports every default field
        assert defaults <= {a.labels["field"] for a in experiment.arms}, experiment.name
        assert experiment.fields == DEFAULT_FIELDS
    flush = EXPERIMENTS["speed_vs_flush"]
    variants = [a for a in flush.arms if a.labels.get("role") != "baseline"]
    assert sorted({(a.labels["preset"], a.labels["k"]) for a in variants
                   if a.labels["field"] == "speed"}) == sorted(
        (p, k) for p in ("classic", "app") for k in range(5, 12))
    assert {a.labels["k"] for a in variants if a.labels["field"] != "speed"} == {8, 9, 10}
    for name, experiment in EXPERIMENTS.items():  # a baseline per preset and field of an arm
        if name in ("first_win_profit", "rules_compared", "keep_void", *GAMES_WITHOUT_FIELDS):
            continue
        baselines = [a for a in experiment.arms if a.labels.get("role") == "baseline"]
        others = [a for a in experiment.arms if a.labels.get("role") != "baseline"]
        assert {(a.rules, a.labels["field"]) for a in baselines} == {
            (a.rules, a.labels["field"]) for a in others}, name
        for arm in baselines:
            if arm.labels["field"] == "speed":
                assert arm.policies == "speed" and arm.one_rotation
            else:  # speed in the seat against the field, the orders of a rotated field
                assert arm.policies.startswith("speed/") and not arm.one_rotation
        for arm in others:  # the variant in the seat, then the field in one cyclic order
            field = parse_field(arm.labels["field"])
            assert "/".join(arm.policies.split("/")[1:]) in {"/".join(o) for o in field.orders}
    assert {a.rules for a in EXPERIMENTS["rules_compared"].arms} == set(GAME_PRESETS)
    assert {a.rules for a in EXPERIMENTS["exchange_three"].arms} == {"app"}
    hold = [a for a in EXPERIMENTS["keep_void"].arms if a.labels["void_play"] == "hold"]
    assert hold and all(a.overrides == ("void_first=false",) for a in hold)


def test_fields_are_parsed_and_rotated():
    mixed = parse_field(MIXED)
    assert mixed.name == "expert/flush/pungs" and mixed.slug == "expert-flush-pungs"
    assert [mixed.table("speed", j) for j in range(3)] == [
        "speed/expert/flush/pungs", "speed/flush/pungs/expert", "speed/pungs/expert/flush"]
    assert parse_field("expert").orders == (("expert",) * 3,)
    assert parse_field("speed/speed/speed") == parse_field("speed")
    with pytest.raises(ValueError, match="has 2 policies"):
        parse_field("speed/expert")
    with pytest.raises(ValueError, match="field 'speedy'"):
        parse_field("speedy")
    with pytest.raises(ValueError, match="has 2 policies"):
        with_fields("hold_out", ["speed", "a/b"])
    small = with_fields("void_choice", ["pungs"])
    assert {a.labels["field"] for a in small.arms} == {"pungs"}
    # the rotated field's orders share the walls: a third each (and half the walls: not speed)
    orders = [a for a in with_fields("void_choice", [MIXED]).arms if a.rules == "classic"]
    assert [a.deals_for(80_000) for a in orders] == [13_332] * 6


def test_robustness_reads_the_sign_in_every_field():
    table = pd.DataFrame({
        "preset": "classic", "policy": ["a"] * 3 + ["b"] * 3, "estimand": "switching_gain",
        "metric": "net", "seed": 0, "field": ["speed", "expert", "mix"] * 2,
        "estimate": [0.5, 0.2, 0.1, -1.3, 0.8, 0.0], "ci_low": [0.4, 0.1, -0.1, -1.4, 0.6, 0.0],
        "ci_high": [0.6, 0.3, 0.3, -1.2, 1.0, 0.0]})
    rows = robustness(table).set_index("policy")
    assert rows.loc["a", "holds"] and rows.loc["a", "signs"] == ["+", "+", "+"]
    assert "covers 0 under mix" in rows.loc["a", "text"]
    assert not rows.loc["b", "holds"] and rows.loc["b", "flips_under"] == ["expert"]
    assert rows.loc["b", "text"].startswith("the sign flips under expert")
    assert "exactly 0 under mix" in rows.loc["b", "text"]


@pytest.fixture(scope="module")
def small_results(tmp_path_factory):
    """Every experiment at 400 deals per arm (one process): tables, headlines, files."""
    root = tmp_path_factory.mktemp("experiments")
    return root, {name: run_experiment(with_fields(name, SMALL_FIELDS), deals=400, seed=2,
                                       root=root, workers=1, progress=False)
                  for name in EXPERIMENTS}


def test_every_experiment_runs_and_writes_its_tables(small_results):
    root, results = small_results
    for name, result in results.items():
        path = root / name
        assert result.path == path
        table = pd.read_csv(path / "results.csv")
        assert len(table) == len(result.table) > 0
        assert {"estimate", "ci_low", "ci_high", *RESULT_COLUMNS} <= set(table.columns), name
        assert (table["p_holm"].dropna() >= table["p_value"].dropna().loc[
            table["p_holm"].dropna().index] - 1e-12).all(), name
        finite = table[np.isfinite(table["ci_low"])]
        assert (finite["ci_low"] <= finite["estimate"] + 1e-12).all(), name
        assert (finite["estimate"] <= finite["ci_high"] + 1e-12).all(), name
        text = (path / "results.md").read_text(encoding="utf-8")
        assert result.headline in text and "| " in text
        meta = json.loads((path / "experiment.json").read_text(encoding="utf-8"))
        assert meta["deals_per_arm"] == 400 and meta["seed"] == 2
        arms = with_fields(name, SMALL_FIELDS).arms
        played = [*arms, *(a for a in arms if a.name in meta["replicated_arms"])]
        assert meta["deals_total"] == sum(a.deals_for(400) for a in played)
        if EXPERIMENTS[name].replicate is not None:  # the headline arms on a second seed
            assert set(table["seed"]) == {2, 3}, name
            assert meta["replication_seed"] == 3 and meta["replication"], name
            assert "Replication" in text
        loaded = load_result(name, root)
        assert loaded.headline == result.headline
        pd.testing.assert_frame_equal(loaded.table, table)


def test_flush_table_has_steps_between_thresholds(small_results):
    _, results = small_results
    table = results["speed_vs_flush"].table
    mixed = table[(table["seed"] == 2) & (table["field"] == "expert/flush/pungs")]
    assert sorted(set(mixed.loc[mixed["estimand"] == "step", "k"])) == [8, 9]
    table = table[(table["seed"] == 2) & (table["field"] == "speed")]
    steps = table[(table["metric"] == "net") & (table["estimand"] == "step")]
    assert sorted(set(steps["k"])) == list(range(5, 11))
    # a step is the difference of the two thresholds' own switching gains (same walls)
    vs = table[(table["metric"] == "net") & (table["estimand"] == "switching_gain")]
    vs = vs.set_index(["preset", "k"])["estimate"]
    for _, row in steps.iterrows():
        expected = vs[(row.preset, row.k)] - vs[(row.preset, row.k + 1)]
        assert row.estimate == pytest.approx(expected, abs=1e-9)
    # the best set: shortfalls of every other k against the best, Holm-adjusted per preset
    short = table[table["estimand"] == "shortfall_vs_best"]
    assert sorted(short.groupby("preset").size().tolist()) == [6, 6]
    assert (short["estimate"] >= -1e-12).all()
    assert "k ∈ {" in results["speed_vs_flush"].headline


def test_first_win_and_rules_tables(small_results):
    _, results = small_results
    first = results["first_win_profit"].table
    assert set(first["preset"]) == set(GAME_PRESETS)
    assert {"net", "first_winner_negative"} <= set(first["metric"])
    rules = results["rules_compared"].table
    assert {"net_sd", "mean_abs_net", "pig", "wins_by_fan", "net_vs_speed"} <= set(
        rules["measure"])
    sd = rules[rules["measure"] == "net_sd"]
    assert (sd["estimate"] > 0).all() and (sd["ci_low"] <= sd["estimate"]).all()


def test_figures_are_written(small_results, tmp_path):
    _, results = small_results
    paths = save_figures(results, tmp_path)
    assert sorted(p.name for p in paths) == ["first_win_profit.png", "rules_compared.png",
                                             "speed_vs_flush.png", "strategy_choices.png"]
    for path in paths:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _tiny(name: str = "tiny") -> Experiment:
    base = EXPERIMENTS["void_choice"]
    return replace(base, name=name, arms=base.arms[:1])


def test_arms_are_reused_and_never_silently_replaced(tmp_path):
    first = run_experiment(_tiny(), deals=400, seed=1, root=tmp_path, workers=1, progress=False)
    arm_dir = tmp_path / "tiny" / _tiny().arms[0].name
    parts = {p: p.stat().st_mtime_ns for p in arm_dir.glob("*.parquet")}
    again = run_experiment(_tiny(), deals=400, seed=1, root=tmp_path, workers=1, progress=False)
    assert {p: p.stat().st_mtime_ns for p in arm_dir.glob("*.parquet")} == parts
    pd.testing.assert_frame_equal(first.table, again.table)
    with pytest.raises(ValueError, match="differs from this experiment's arm.*--force"):
        run_experiment(_tiny(), deals=400, seed=9, root=tmp_path, workers=1, progress=False)
    assert {p: p.stat().st_mtime_ns for p in arm_dir.glob("*.parquet")} == parts
    replaced = run_experiment(_tiny(), deals=400, seed=9, root=tmp_path, workers=1,
                              progress=False, force=True)
    assert replaced.meta["seed"] == 9


@pytest.mark.parametrize("deals", [0, -4, 10, 2.5, True])
def test_bad_deal_counts_are_refused(tmp_path, deals):
    with pytest.raises(ValueError, match="deals per arm"):
        run_experiment(_tiny(), deals=deals, root=tmp_path)
    assert not (tmp_path / "tiny").exists()


def test_missing_results_name_the_script(tmp_path):
    with pytest.raises(FileNotFoundError, match="python experiments/hold_out.py"):
        load_result("hold_out", tmp_path)


def test_markdown_table_pivots_metrics():
    table = pd.DataFrame({"preset": ["app", "app"], "policy": ["x", "x"],
                          "baseline": ["speed", "speed"], "metric": ["net", "win"],
                          "estimate": [0.1234, 0.5], "ci_low": [0.05, 0.4],
                          "ci_high": [0.2, 0.6]})
    text = markdown_table(table, ("preset", "policy", "baseline"), "metric")
    lines = text.splitlines()
    assert "net" in lines[0] and "win" in lines[0] and len(lines) == 3
    assert "0.123 [0.050, 0.200]" in lines[2] and "0.500 [0.400, 0.600]" in lines[2]


def test_script_command_line(tmp_path):
    script = ROOT / "experiments" / "void_choice.py"
    ok = subprocess.run([sys.executable, str(script), "--deals", "400", "--root", str(tmp_path),
                         "--workers", "1", "--quiet"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert "speed:void=weakest" in ok.stdout and "against three speed players" in ok.stdout
    assert "against three expert players" in ok.stdout  # the default fields
    assert "the sign" in ok.stdout  # a robustness line per answer
    bad_field = subprocess.run([sys.executable, str(script), "--fields", "speed/expert"],
                               capture_output=True, text=True, check=False)
    assert bad_field.returncode == 2 and "has 2 policies" in bad_field.stderr
    assert (tmp_path / "void_choice" / "results.md").exists()
    bad = subprocess.run([sys.executable, str(script), "--deals", "-4"], capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "-4" in bad.stderr
    clash = subprocess.run([sys.executable, str(script), "--deals", "800", "--root",
                            str(tmp_path), "--workers", "1", "--quiet"], capture_output=True,
                           text=True, check=False)
    assert clash.returncode == 2 and "--force" in clash.stderr


def test_run_all_reuses_arms_and_writes_figures_and_headlines(small_results, tmp_path):
    root, results = small_results
    figures = tmp_path / "figures"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / "experiments" / "run_all.py"), "--deals",
                           "400", "--seed", "2", "--root", str(root), "--figures", str(figures),
                           "--workers", "1", "--quiet", "--fields", *SMALL_FIELDS],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(list(figures.glob("*.png"))) == 4
    page = (figures / "index.md").read_text(encoding="utf-8")  # a results page, created
    assert "| question | preset | in the seat |" in page and "<!-- end of the answers" in page
    assert (ROOT / "README.md").read_text(encoding="utf-8") == readme  # not rewritten
    text = (figures / "RESULTS.md").read_text(encoding="utf-8")
    for name, result in results.items():
        assert f"## {name}" in text and result.headline in text


def test_holm_is_computed_within_each_family_and_seed():
    table = pd.DataFrame({"estimand": ["switching_gain"] * 3 + ["vs_field"] * 3,
                          "metric": "net", "baseline": "speed",
                          "p_value": [0.01, 0.02, 0.04, 0.01, 0.5, np.nan]})
    out = with_result_columns(table, seed=7, family=("estimand", "metric", "baseline"))
    assert out["p_holm"].tolist()[:3] == pytest.approx([0.03, 0.04, 0.04])
    assert out["p_holm"].tolist()[3:5] == pytest.approx([0.02, 0.5])
    assert np.isnan(out["p_holm"].iloc[5])
    assert (out["seed"] == 7).all() and set(RESULT_COLUMNS) <= set(out.columns)


def test_replication_flags_seeds_more_than_three_standard_errors_apart():
    rows = pd.DataFrame({
        "preset": ["classic"] * 4, "policy": ["a", "b", "a", "b"], "estimand": "switching_gain",
        "metric": "net", "seed": [0, 0, 1, 1], "estimate": [0.10, 0.05, 0.30, 0.06],
        "se": [0.04, 0.01, 0.03, 0.01], "ci_low": 0.0, "ci_high": 0.0})
    found = {r["policy"]: r for r in replication_rows(rows, EXPERIMENTS["void_choice"], 0, 1)}
    assert found["a"]["z"] == pytest.approx(-0.2 / 0.05) and found["a"]["flag"]
    assert found["b"]["z"] == pytest.approx(-0.01 / np.hypot(0.01, 0.01))
    assert not found["b"]["flag"]


def test_best_set_reads_the_best_k_even_when_its_spec_is_the_default():
    """flush:k=8 is the default and prints as plain 'flush': the set must still say k=8."""
    from simcore.experiments.questions.speed_vs_flush import best_set

    table = pd.DataFrame({
        "preset": "classic", "seed": 0, "estimand": "shortfall_vs_best", "k": [7, 9, 10],
        "best_k": 8, "baseline": "flush", "p_holm": [0.001, 0.4, 0.03]})
    assert best_set(table, "classic", 0) == (8, [8, 9])


def _seat_net_by_wall(path: Path) -> pd.Series:
    """Per wall: the mean net of table position 0 (rotation r seats it at seat (-r) % 4)."""
    r = pd.read_parquet(path, columns=["wall", "seat", "rotation", "net"])
    mine = r[r["seat"].astype(int) == (-r["rotation"].astype(int)) % 4]
    return mine.groupby("wall")["net"].mean()


def test_switching_gain_against_a_rotated_field_is_paired_with_its_baseline(small_results):
    """Against expert/flush/pungs the gain is, per wall, the variant seat's mean net over the
    three cyclic orders minus the speed seat's in the baseline arms, on the same walls."""
    root, results = small_results
    table = results["kong_timing"].table
    row = table[(table["preset"] == "classic") & (table["policy"] == "speed:kong=always")
                & (table["field"] == "expert/flush/pungs") & (table["metric"] == "net")
                & (table["estimand"] == "switching_gain") & (table["seed"] == 2)]
    assert len(row) == 1
    stem = root / "kong_timing" / "classic-expert-flush-pungs"
    own = sum(_seat_net_by_wall(Path(f"{stem}-kong-always-o{j}")) for j in range(3)) / 3
    base = sum(_seat_net_by_wall(Path(f"{stem}-baseline-o{j}")) for j in range(3)) / 3
    assert len(own) == len(base) == 400 // 4 // 6 == row["walls"].iloc[0]
    assert row["estimate"].iloc[0] == pytest.approx((own - base).mean(), abs=1e-12)
    assert base.mean() != 0  # a speed seat against this field does not earn 0 by symmetry
    assert "the sign" in results["kong_timing"].headline
    text = (root / "kong_timing" / "results.md").read_text(encoding="utf-8")
    assert "per field" in text and "## field: expert/flush/pungs" in text


def test_push_fold_contrasts_and_where_folding_pays(small_results):
    _, results = small_results
    table = results["push_fold"].table
    first = table[table["seed"] == 2]
    for field in ("speed", "expert/flush/pungs"):
        for preset in ("classic", "app"):
            mine = first[(first["field"] == field) & (first["preset"] == preset)]
            assert {"defence_value", "fold_value", "fold_vs_push"} <= set(mine["estimand"])
            overall = mine[(mine["estimand"] == "fold_vs_push") & (mine["metric"] == "net")]
            cells = mine[(mine["estimand"] == "cell_contribution") & (mine["metric"] == "net")
                         & (mine["contrast"] == "fold_vs_push")]
            for breakdown in ("table", "own"):  # the situations add up to the contrast
                part = cells[cells["breakdown"] == breakdown]
                assert part["share"].sum() == pytest.approx(1.0)
                assert part["estimate"].sum() == pytest.approx(overall["estimate"].iloc[0],
                                                               abs=1e-9)
    assert "by when an opponent first won" in results["push_fold"].headline


def test_push_fold_threat_moment_of_a_replayed_deal():
    """Deal 5 of seed 2, classic, speed everywhere: S1 (two pungs) makes its 8th discard, the
    third in a row of the tile it had just drawn, with 35 tiles left: its ready probability
    goes from 0.49 (7 discards, 2 melds, streak 2) to 0.58, the first opponent of S0 above
    0.5. S0 then holds 26799m22259s with a pung of 5m: the pung and 222s, a pair (99m), one
    partial run (79m): 8 - 2*2 - 1 - 1 = 2 away. S2 won (4p off S0) before anyone looked
    ready."""
    from simcore.analysis.danger import discard_situations
    from simcore.engine.policies.expert_reference import ready_probability
    from simcore.engine.replay import replay
    from simcore.experiments.questions.push_fold import threat_cell, threat_moments
    from simcore.hand import shanten

    events, _ = replay(2, 5, rules="classic", policies="speed", as_frame=False)
    moments = threat_moments(events)
    s0 = moments[0]
    assert (s0["wall_left"], s0["opp"], s0["shanten"], s0["hand"], s0["why"]) == (
        35, 1, 2, "26799m22259s|P5m", "ready")
    assert s0["p_ready"] == pytest.approx(ready_probability(8, 2, 3))
    assert ready_probability(7, 2, 2) < 0.5 < ready_probability(8, 2, 3)
    assert shanten("26799m22259s|P5m", void="p") == 2
    assert threat_cell(s0["shanten"], s0["wall_left"]) == "2+ away, 35+ left"
    assert moments[2]["why"] == "seat_won" and moments[2]["shanten"] == -1
    # the calibration's own rebuild reads the same counters of S1 at the next discard
    rows = discard_situations(events)
    seen = rows[(rows["opp"] == 1) & (rows["discarder"] != 1)]
    p = [ready_probability(d, m, k) for d, m, k in zip(seen["discards"], seen["melds"],
                                                         seen["streak"], strict=True)]
    first = seen.iloc[int(np.argmax(np.array(p) > 0.5))]
    assert (first["discards"], first["melds"], first["streak"]) == (8, 2, 3)
    assert first["wall_left"] == 34  # S2 is out: S3 draws one tile and discards


def test_push_fold_threat_cells_add_up_on_the_subsample(small_results):
    _, results = small_results
    table = results["push_fold"].table
    first = table[table["seed"] == 2]
    for field in ("speed", "expert/flush/pungs"):
        for preset in ("classic", "app"):
            mine = first[(first["field"] == field) & (first["preset"] == preset)
                         & (first["metric"] == "net")]
            for contrast in ("defence_value", "fold_value", "fold_vs_push"):
                rows = mine[(mine["contrast"] == contrast) & (mine["breakdown"] == "threat")]
                total = rows[rows["estimand"] == "subsample_contrast"].iloc[0]
                cells = rows[rows["estimand"] == "cell_contribution"]
                assert list(cells["situation"]) == list(THREAT_CELLS)
                assert cells["share"].sum() == pytest.approx(1.0)
                assert cells["estimate"].sum() == pytest.approx(total["estimate"], abs=1e-9)
                # 100 walls < THREAT_WALLS: the subsample is every wall, so it is the contrast
                overall = mine[mine["estimand"] == contrast].iloc[0]
                assert total["walls"] == overall["walls"]
                assert total["estimate"] == pytest.approx(overall["estimate"], abs=1e-9)
                assert set(rows["sample"]) == {f"first {int(total['walls'])} walls (replayed)"}
            proxy = mine[mine["breakdown"].isin(["table", "own"])]
            assert set(proxy["sample"]) == {"all walls (proxy)"}
    assert "first looks ready" in results["push_fold"].headline
    assert "first 100 walls" in results["push_fold"].headline


def test_push_fold_threat_cache_round_trip(small_results, monkeypatch):
    import simcore.engine.replay as replay_module
    from simcore.experiments.questions.push_fold import classify_threats, threat_path

    root, _ = small_results
    ds = Dataset(root / "push_fold" / "classic-expert-flush-pungs-baseline-o1")
    path = threat_path(ds, 3)
    assert not path.exists()
    made = classify_threats(ds, walls=3)
    assert path.exists() and path.parent == root / "push_fold" / "threat"
    assert list(made["deal"]) == list(range(12)) and set(made["wall"]) == {0, 1, 2}
    assert set(made["cell"]) <= set(THREAT_CELLS)
    real = replay_module.replay

    def no_replay(*args, **kwargs):
        raise AssertionError("replayed although the cache matches")

    monkeypatch.setattr(replay_module, "replay", no_replay)
    pd.testing.assert_frame_equal(classify_threats(ds, walls=3), made)
    with pytest.raises(AssertionError, match="replayed although"):  # another threshold
        classify_threats(ds, walls=3, threshold=0.6)
    monkeypatch.setattr(replay_module, "replay", real)
    other = classify_threats(ds, walls=3, threshold=0.6)  # replaces the cache
    assert (other["wall_left"] <= made["wall_left"]).all()  # looking readier takes longer
    monkeypatch.setattr(replay_module, "replay", no_replay)
    pd.testing.assert_frame_equal(classify_threats(ds, walls=3, threshold=0.6), other)


def test_keep_void_sets_the_rule_and_reports_pigs_and_deal_ins(small_results):
    root, results = small_results
    hold = Dataset(root / "keep_void" / "classic-hold")
    assert hold.meta["rules"]["void_first"] is False
    table = results["keep_void"].table
    levels = table[(table["estimand"] == "level") & (table["seed"] == 2)]
    assert set(levels["preset"]) == set(GAME_PRESETS)
    assert {"pig", "deal_in", "net"} <= set(levels["metric"])
    discard = levels[(levels["void_play"] == "discard") & (levels["metric"] == "pig")]
    assert (discard["estimate"] <= 0.01).all()  # void first: pigs are very rare
    assert "pigs" in results["keep_void"].headline and "deal-ins" in results["keep_void"].headline


def test_speed_ignores_the_void_first_rule(tmp_path):
    """keep_void's reading: against the speed field only the expert seat is freed by
    void_first=false, because the greedy family discards its void suit first anyway."""
    runs = [simcore.run(200, rules="classic", policies="speed", seed=4, out=tmp_path / name,
                        overrides=overrides, workers=1, progress=False)
            for name, overrides in (("on", []), ("off", ["void_first=false"]))]
    a, b = (pd.read_parquet(r.path).drop(columns=["preset"], errors="ignore") for r in runs)
    pd.testing.assert_frame_equal(a, b)


def test_answers_replace_only_the_marked_block_of_a_readme(small_results, tmp_path):
    from simcore.experiments.answers import README_END, README_START, write_answers

    _, results = small_results
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{README_START}\nold\n{README_END}\noutro\n", encoding="utf-8")
    fields = [parse_field(f).name for f in SMALL_FIELDS]
    pages = tmp_path / "results"
    pages.mkdir()
    page = pages / "index.md"
    page.write_text(f"# Results\n\nprose\n{README_START}\nold\n{README_END}\nmore prose\n",
                    encoding="utf-8")
    tables = {n: r.table for n, r in results.items()}
    path = write_answers(tables, fields, 2, pages, readme)
    assert path == page
    text = readme.read_text(encoding="utf-8")
    written = page.read_text(encoding="utf-8")
    table = written.split(README_START + "\n", 1)[1].split("\n" + README_END, 1)[0]
    # the results page keeps its prose around the table, the README its intro and outro
    assert written.startswith("# Results\n\nprose\n") and written.endswith("\nmore prose\n")
    assert text.startswith("intro\n") and text.endswith("\noutro\n") and "\nold\n" not in text
    assert table in text and "| kong_timing | classic | kong=always |" in table
    plain = tmp_path / "PLAIN.md"
    plain.write_text("no markers\n", encoding="utf-8")
    write_answers(tables, fields, 2, pages, plain)
    assert plain.read_text(encoding="utf-8") == "no markers\n"
    # a page without the markers keeps its text and gets the marked table at its end
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "index.md").write_text("# Mine\n", encoding="utf-8")
    kept = write_answers(tables, fields, 2, bare).read_text(encoding="utf-8")
    assert kept.startswith("# Mine\n") and f"{README_START}\n{table}\n{README_END}" in kept


def test_python_m_simcore_experiments_runs_a_question_by_name():
    """``python -m simcore.experiments NAME`` is the scripts' command line; no name lists them."""
    listing = subprocess.run([sys.executable, "-m", "simcore.experiments"], capture_output=True,
                             text=True, cwd=ROOT)
    assert listing.returncode == 2
    assert all(f"  {name} " in listing.stdout for name in EXPERIMENTS)
    bad = subprocess.run([sys.executable, "-m", "simcore.experiments", "void_choice", "--deals",
                          "-4"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2
    assert "python -m simcore.experiments void_choice: error: argument --deals" in bad.stderr
    unknown = subprocess.run([sys.executable, "-m", "simcore.experiments", "void_choise"],
                             capture_output=True, text=True, cwd=ROOT)
    assert unknown.returncode == 2 and "void_choice" in unknown.stderr
