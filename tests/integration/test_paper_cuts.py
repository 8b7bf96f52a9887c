"""The small things a new user trips on: the run summary (readable rates, clustered intervals,
each policy's net, throughput without the engine's compile, the real number of rotations), the
pig figure's title, one did-you-mean for every unknown name, one wording for a bad count of
deals in every command, and a script without the ``__main__`` guard told so."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore import cli
from simcore.analysis.drawn import drawn_ends
from simcore.analysis.figures import pig_rate_by_policy
from simcore.analysis.stats import ratio_interval
from simcore.analysis.summary import format_summary, percent, summary_intervals
from simcore.rules import get_rules, resolve_rules
from simcore.runner import META_NAME, Dataset, load
from simcore.scoring import score
from simcore.testing.synthetic import write_synthetic_run

FLUSHY = "1123455789m 46p 9s"


def _with_summary(path: Path, **changes: object) -> Dataset:
    """The synthetic run at ``path`` with a run summary as ``simcore.run`` writes it."""
    meta = json.loads((path / META_NAME).read_text())
    meta["summary"] = {"deals": meta["deals"], "walls": None, "deals_computed": meta["deals"],
                       "deals_resumed": 0, "wall_time_s": 3.0, "engine_s": 2.0,
                       "compute_time_s": 1.0, "deals_per_s": 1000.0, "winners_per_deal": 2.5,
                       "flower_pig_rate": 0.01, "mean_abs_net": 3.0, "backend": "serial",
                       "workers": 1}
    for key, value in changes.items():
        target, _, name = key.rpartition("__")
        (meta[target] if target else meta["summary"])[name] = value
    (path / META_NAME).write_text(json.dumps(meta))
    return Dataset(path)


# ----------------------------------------------------------------------------- run summary
def test_a_rare_flower_pig_rate_is_not_printed_as_zero(tmp_path: Path) -> None:
    run = write_synthetic_run(tmp_path / "run", 40, chunk_size=20)
    text = format_summary(_with_summary(run, flower_pig_rate=7.5e-06), intervals=False)
    line = next(s for s in text.splitlines() if "flower-pig rate" in s)
    assert "flower-pig rate: 0.00075%" in line and "0.0000 " not in line, line
    assert percent(0.0123) == "1.23%" and percent(0.0) == "0%"


def test_the_summary_intervals_are_the_runs_clustered_ones(tmp_path: Path) -> None:
    run = write_synthetic_run(tmp_path / "run", 300, chunk_size=100, n_policies=2, seed=5)
    df, _ = load(run)
    found = summary_intervals(run)
    assert found["method"] == "cluster(deal)" and found["level"] == 0.95
    # each policy's mean net per player-deal, its interval clustered by deal: the sums of
    # ratio_interval over deals (two rows of each policy in a deal)
    for policy, rows in df.groupby("policy", observed=True):
        deals = rows.groupby("deal")["net"].agg(["sum", "count"])
        y, x = deals["sum"].to_numpy(np.float64), deals["count"].to_numpy(np.float64)
        want = ratio_interval([len(deals)], [y.sum()], [x.sum()], [(y * y).sum()],
                              [(x * x).sum()], [(x * y).sum()]).iloc[0]
        got = found["policies"][str(policy)]
        assert got["estimate"] == pytest.approx(rows["net"].mean())
        assert (got["ci_low"], got["ci_high"]) == pytest.approx((want["ci_low"], want["ci_high"]))
    pig = found["flower_pig_rate"]
    assert pig["estimate"] == pytest.approx(df["pig"].mean())
    assert pig["ci_low"] < pig["estimate"] < pig["ci_high"]
    winners = found["winners_per_deal"]
    assert winners["estimate"] == pytest.approx((df["win_order"] > 0).sum() / 300)

    text = format_summary(_with_summary(run))
    lines = text.splitlines()
    assert lines[3].startswith("winners per deal: 2.500 [") and "flower-pig rate: 1% [" in lines[3]
    assert lines[4] == ("mean net per deal of each policy (units; `simcore report DIR` pairs "
                        "them by wall):")
    for line, policy in zip(lines[5:7], ("policy0", "policy1"), strict=True):
        got = found["policies"][policy]
        assert line.split() == [policy, f"{got['estimate']:+.3f}", f"[{got['ci_low']:+.3f},",
                                f"{got['ci_high']:+.3f}]"]
    assert lines[7] == "[low, high]: 95% intervals, clustered by deal"


def test_one_policy_gets_no_per_policy_lines_and_a_duplicate_run_clusters_by_wall(
    tmp_path: Path,
) -> None:
    one = format_summary(_with_summary(write_synthetic_run(tmp_path / "one", 40, chunk_size=20)))
    assert "each policy" not in one and one.endswith("clustered by deal")
    dup = write_synthetic_run(tmp_path / "dup", 80, chunk_size=40, n_policies=2, duplicate=True)
    assert summary_intervals(dup)["method"] == "cluster(wall)"


def test_the_rotations_are_the_players_of_the_run(tmp_path: Path) -> None:
    run = write_synthetic_run(tmp_path / "run", 40, chunk_size=20)
    three = _with_summary(run, walls=10, rules__players=3)
    assert "deals: 40 (10 walls x 3 rotations)" in format_summary(three, intervals=False)
    four = _with_summary(run, walls=10, rules__players=4)
    assert "deals: 40 (10 walls x 4 rotations)" in format_summary(four, intervals=False)


def test_the_throughput_counts_from_the_engine_ready(tmp_path: Path, monkeypatch) -> None:
    from simcore.runner import driver

    real = driver.warm_up

    def slow_engine(plan):  # as a cold compile: seconds before the first deal
        time.sleep(1.5)
        real(plan)

    monkeypatch.setattr(driver, "warm_up", slow_engine)
    s = simcore.run(400, out=tmp_path / "run", workers=1, progress=False).summary
    assert s["engine_s"] >= 1.5
    assert s["compute_time_s"] <= s["wall_time_s"] - 1.5
    # compute_time_s is rounded to the millisecond: 400 deals take tens of them on a fast core
    rounding = 0.0005 / s["compute_time_s"]
    assert s["deals_per_s"] == pytest.approx(400 / s["compute_time_s"], rel=1e-2 + rounding)
    text = format_summary(Dataset(tmp_path / "run"), intervals=False)
    assert f"s to compile or load the engine), {s['deals_per_s']:,.0f} deals/s" in text


# ----------------------------------------------------------------------------- pig figure
@pytest.mark.parametrize(("duplicate", "unit"), [(False, "deal"), (True, "wall")])
def test_the_pig_figure_names_the_interval_of_its_table(tmp_path: Path, duplicate: bool,
                                                        unit: str) -> None:
    run = write_synthetic_run(tmp_path / "run", 400, chunk_size=200, n_policies=2,
                              duplicate=duplicate)
    table = drawn_ends(run)
    rows = table[(table["metric"] == "pig") & (table["per"] == "player-deal")]
    assert set(rows["method"]) == {f"cluster({unit})"}
    title = pig_rate_by_policy(table, "caption").axes[0].get_title()
    assert title == f"Flower-pig rate by policy (95% intervals clustered by {unit})"
    zero = table.copy()  # a rate of 0 has no spread to cluster: Wilson's over the clusters
    pig = (zero["metric"] == "pig") & (zero["per"] == "player-deal")
    zero.loc[pig, "method"] = f"wilson({unit}s)"
    title = pig_rate_by_policy(zero, "caption").axes[0].get_title()
    assert title.endswith(f"(95% intervals Wilson over {unit}s where the rate is 0 or 1)")


# ----------------------------------------------------------------------------- did you mean
def _raises(call):
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: get_rules("clasic"),
     r"^unknown preset 'clasic'; did you mean 'classic'\? \(known presets: classic, baike, "),
    (lambda: resolve_rules(None, ["drizle=on"]),
     r"^unknown rule parameter 'drizle'; did you mean 'drizzle'\? \(known parameters: "
     r"exchange_three, "),
    (lambda: resolve_rules(None, {"ready_pay": "MAX"}),
     r"^ready_pay: 'MAX' is not one of 'max', 'min'; did you mean 'max'\?$"),
    (lambda: resolve_rules(None, ["drizzle=of"]),
     r"^drizzle: 'of' is not a boolean .*; did you mean 'off'\?$"),
    (lambda: resolve_rules(None, {"pig_pay": "flatt"}),
     r"^pig_pay: 'flatt' is not one of .*; did you mean 'flat'\?$"),
])
def test_every_unknown_rules_name_gets_a_did_you_mean(call, expected) -> None:
    import re

    assert re.search(expected, _raises(call)), _raises(call)


def test_every_unknown_policy_name_gets_the_same_did_you_mean() -> None:
    from simcore.engine.spec import parse_spec
    from simcore.tuning.params import parse_params, start_spec

    assert _raises(lambda: parse_spec("sped")).startswith(
        "unknown policy 'sped' in spec 'sped'; did you mean 'speed'? (known policies: random, ")
    assert _raises(lambda: parse_spec("speed:kongs=never")).startswith(
        "policy 'speed' has no option 'kongs'; did you mean 'kong'? (known options: kong, ")
    assert _raises(lambda: parse_spec("speed:kong=alway")).endswith("; did you mean 'always'?")
    assert _raises(lambda: parse_params(["kong=always|nevr"], start_spec("flush"))).endswith(
        "; did you mean 'never'?")
    assert _raises(lambda: score("111444m222999p66p", bonuses=["last_tle"])).startswith(
        "unknown bonus 'last_tle'; did you mean 'last_tile'? (known bonuses: ")
    from simcore.experiments import with_fields

    assert _raises(lambda: with_fields("kong_timng", "speed")).startswith(
        "unknown experiment 'kong_timng'; did you mean 'kong_timing'? (known experiments: ")


def test_an_unknown_grouping_column_gets_the_same_did_you_mean(tmp_path: Path) -> None:
    run = write_synthetic_run(tmp_path / "run", 40, chunk_size=20)
    assert _raises(lambda: drawn_ends(run, by="polcy")).startswith(
        "cannot group by 'polcy': not a column of the run; did you mean 'policy'? (")


@pytest.mark.parametrize(("argv", "expected"), [
    (["run", "--deals", "8", "--rules", "clasic"],
     "simcore run: error: unknown preset 'clasic'; did you mean 'classic'? (known presets: "),
    (["run", "--deals", "8", "--set", "drizle=on"],
     "simcore run: error: unknown rule parameter 'drizle'; did you mean 'drizzle'? "),
    (["run", "--deals", "8", "--policies", "sped"],
     "simcore run: error: unknown policy 'sped' in spec 'sped'; did you mean 'speed'? "),
    (["score", "111444m222999p66p", "--bonus", "last_tle"],
     "argument --bonus: invalid choice: 'last_tle'; did you mean 'last_tile'? (choose from "),
    (["rnu"], "argument command: invalid choice: 'rnu'; did you mean 'run'? (choose from "),
    (["run", "--deals", "8", "--seeds", "3"],
     "simcore: error: unrecognized arguments: --seeds 3; did you mean '--seed'?\n"),
    (["policies", "--xx"], "simcore: error: unrecognized arguments: --xx\n"),
])
def test_the_commands_give_the_same_did_you_mean(argv, expected, tmp_path, capsys) -> None:
    try:
        code = cli.main([*argv, *(["--out", str(tmp_path / "r")] if argv[0] == "run" else [])])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    assert code == 2
    assert expected in capsys.readouterr().err


# ----------------------------------------------------------------------------- bad counts
@pytest.mark.parametrize("value", [0, -5])
def test_a_bad_count_of_deals_is_worded_alike_everywhere(value, tmp_path, capsys) -> None:
    message = f"deals must be a positive integer, got {value}"
    commands = {
        "run": ["run", "--deals", str(value), "--out", str(tmp_path / "run")],
        "whatif": ["whatif", FLUSHY, "--deals", str(value)],
        "tune": ["tune", "flush", "--param", "k=5..9", "--deals", str(value), "--out",
                 str(tmp_path / "tune")],
    }
    for name, argv in commands.items():
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == f"simcore {name}: error: {message}\n", name
    for call in (lambda: simcore.run(value, out=tmp_path / "run", progress=False),
                 lambda: simcore.whatif(FLUSHY, deals=value),
                 lambda: simcore.tune("flush", ["k=5..9"], deals=value, out=tmp_path / "tune")):
        assert _raises(call) == message
    assert not (tmp_path / "run").exists() and not (tmp_path / "tune").exists()


def test_a_negative_seed_is_worded_alike_everywhere(tmp_path, capsys) -> None:
    message = "seed must be in 0..2**63-1, got -1"
    commands = {
        "run": ["run", "--deals", "8", "--seed", "-1", "--out", str(tmp_path / "run")],
        "whatif": ["whatif", FLUSHY, "--deals", "8", "--seed", "-1"],
    }
    for name, argv in commands.items():
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == f"simcore {name}: error: {message}\n", name
    assert _raises(lambda: simcore.run(8, seed=-1, out=tmp_path / "run")) == message
    assert _raises(lambda: simcore.whatif(FLUSHY, deals=8, seed=-1)) == message
    # tune plays seed + 1 too: the same words, its own bound
    assert cli.main(["tune", "flush", "--param", "k=5..9", "--deals", "4000", "--seed", "-1",
                     "--out", str(tmp_path / "tune")]) == 2
    assert capsys.readouterr().err == "simcore tune: error: seed must be in 0..2**63-2, got -1\n"


# ----------------------------------------------------------------------------- __main__ guard
def test_a_script_without_the_main_guard_is_told_the_cause_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text("import simcore\n"
                      "simcore.run(2000, out='run', workers=2, progress=False)\n",
                      encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("simcore.runner.execute.UnguardedScriptError: the worker processes "
                           "died as they started; the likely cause: the script "
                           f"{script} calls simcore.run at its top level"), done.stderr
    assert "'if __name__ == \"__main__\":'" in last and "workers=1" in last
    # each worker stopped before touching the run: no "already holds a run" from them
    assert "simcore.run was called in a worker process as it started" in done.stderr
    assert "already holds" not in done.stderr
    assert not (tmp_path / "run").exists()  # nothing to resume: no run left behind


def test_the_frame_has_the_columns_the_figure_reads() -> None:
    # the pig figure reads the table's own method column (not a fixed name)
    table = pd.DataFrame({"policy": ["a"], "metric": ["pig"], "per": ["player-deal"],
                          "estimate": [0.01], "ci_low": [0.0], "ci_high": [0.02],
                          "method": ["cluster(deal)"]})
    title = pig_rate_by_policy(table, "").axes[0].get_title()
    assert "Wilson" not in title and "clustered by deal" in title
