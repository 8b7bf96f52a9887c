"""``simcore tune`` / :func:`simcore.tune`: the input grammar and its errors, the budget, a tiny
tune end to end (files, keys, the deal count), a trial's score and the confirmation checked
against a direct duplicate run with the paired estimator, and resuming after an interruption.

The tiny tunes play a few dozen walls of ``flush`` against ``speed`` (about a second each once
the engine is compiled)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from simcore.analysis.stats import paired_interval
from simcore.cli import main
from simcore.tuning import load_result, make_setup, tune
from simcore.tuning.params import field_seats, parse_param, start_spec

ROOT = Path(__file__).resolve().parents[2]
# a tiny tune: rungs of 8 and 32 walls, 93 walls of confirmation
TINY = {"field": "speed", "rules": "classic", "deals": 3_000, "seed": 3, "rungs": (8, 32)}
BEST_KEYS = {"policy", "setting", "spec", "start", "confirmed_spec", "confirmed_gain",
             "confirmed_se", "ci", "level", "method", "verdict", "confirm_walls",
             "confirm_seed", "search_gain", "search_se", "search_walls", "trials",
             "deals_spent", "deals", "budget", "field", "rules", "seed"}


# ---------------------------------------------------------------- the grammar (no engine)
def test_ranges_and_names_parse_against_the_registry():
    flush = start_spec("flush")
    k = parse_param("k = 5..11", flush)
    assert (k.kind, k.low, k.high, k.values()[:2]) == ("int", 5, 11, (5, 6))
    assert parse_param("kong=never|always", flush).values() == ("never", "always")
    assert parse_param("watch=0..1", flush).values() == (0, 1)
    assert parse_param("watch=1|0", flush).values() == ("1", "0")
    assert field_seats("speed") == ("speed",) * 3
    assert field_seats("expert/flush:k=8/pungs:k=4") == ("expert", "flush", "pungs")


def test_the_start_is_the_spec_as_written_and_trials_keep_its_other_options():
    setup = make_setup("flush:g=10,kong=always", ["k=6..10"], deals=10_000)
    assert setup.start == {"k": 8}
    assert setup.spec({"k": 9}) == "flush:kong=always,k=9,g=10"
    assert setup.spec({"k": 8}) == setup.policy.text == "flush:kong=always,g=10"


@pytest.mark.parametrize(("policy", "params", "message"), [
    ("flsh", ["k=5..9"], "unknown policy 'flsh'"),
    ("flush", ["depth=1..3"], "no option 'depth'"),
    ("flush", ["k=9..5"], r"range 9\.\.5 is empty"),
    ("flush", ["k=8..8"], r"range 8\.\.8 holds one value"),
    ("flush", ["k=-2..5"], "-2 is out of range"),
    ("flush", ["watch=0..3"], "3 is out of range"),
    ("flush", ["k=five..9"], "'five' is not an integer"),
    ("flush", ["kong=0..2"], "takes names, not a range"),
    ("flush", ["kong=always|often"], "'often' is not one of"),
    ("flush", ["kong=never|never"], "'never' is given twice"),
    ("flush", ["k=5|6"], "takes a range LOW..HIGH"),
    ("flush", ["k"], "malformed --param 'k'"),
    ("flush", [], "nothing to tune"),
    ("flush", ["k=5..9", "k=6..7"], "option 'k' is tuned twice"),
    ("flush/speed", ["k=5..9"], "contains '/'"),
])
def test_bad_input_is_an_error_naming_it(policy, params, message):
    with pytest.raises(ValueError, match=message):
        make_setup(policy, params, deals=10_000)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"field": "speed/speed"}, "field 'speed/speed' names 2 seats"),
    ({"field": "speed/fast/speed"}, "unknown policy 'fast'"),
    ({"deals": 3_999}, "budget of 3,999 deals is too small for one trial.*at least 4,000"),
    ({"deals": 127, "rungs": (8, 32)}, "budget of 127 deals is too small.*at least 128"),
    ({"rungs": (250, 1000, 3000)}, "each rung must be the previous times one integer factor"),
    ({"seed": -1}, r"seed must be in 0..2\*\*63-2, got -1"),
    ({"rules": "klassik"}, "klassik"),
])
def test_bad_field_budget_rungs_or_seed_is_an_error_naming_it(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_setup("flush", ["k=5..9"], **{"deals": 100_000, **kwargs})


def test_the_smallest_budget_pays_for_one_first_rung_and_its_confirmation():
    plan = make_setup("flush", ["k=5..9"], deals=128, rungs=(8, 32)).plan
    assert (plan.search_deals, plan.confirm_deals) == (64, 64)


def test_the_command_reports_bad_input_with_exit_status_2(capsys, tmp_path):
    code = main(["tune", "flush", "--param", "k=9..5", "--deals", "10000",
                 "--out", str(tmp_path / "t")])
    assert code == 2
    assert "simcore tune: error: --param 'k=9..5'" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()  # checked before anything is written


def test_tune_help_loads_neither_numba_nor_pandas():
    probe = ("import sys\nfrom simcore.cli import main\n"
             "try:\n    main(['tune', '--help'])\nexcept SystemExit:\n    pass\n"
             "print([m for m in ('numba', 'pandas', 'optuna') if m in sys.modules], "
             "file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert "--param NAME=LOW..HIGH" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_simcore_tune_is_the_lazy_entry_point():
    import simcore
    import simcore.tuning

    assert simcore.tune is simcore.tuning.tune is tune
    assert "tune" in dir(simcore)


# ---------------------------------------------------------------- tiny tunes (the engine)
def _own_per_wall(spec: str, seed: int, walls: int) -> pd.Series:
    """The independent path: a duplicate run to the public DataFrame, the spec's rows by policy
    name (the field must play another spec), mean net per wall."""
    from simcore.engine.api import simulate
    from simcore.engine.spec import parse_policies, policy_names
    from simcore.records import to_dataframe
    from simcore.rules import resolve_rules

    seats = parse_policies([spec, "speed", "speed", "speed"])
    df = to_dataframe(simulate(resolve_rules("classic"), seats, seed, 0, walls,
                               duplicate=True), policy_names(seats))
    assert (df.groupby("wall").policy.value_counts().unstack()[spec] == 4).all()
    return df[df["policy"] == spec].groupby("wall").net.mean()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "flush"
    # the start, k=6, lies outside the tuned range: the winner differs from it and the
    # confirmation plays both
    code = main(["tune", "flush:k=6", "--param", "k=7..10", "--param", "g=8..14", "--field",
                 "speed", "--rules", "classic", "--deals", str(TINY["deals"]), "--seed",
                 str(TINY["seed"]), "--out", str(out), "--rungs", "8,32", "--quiet"])
    assert code == 0
    return out


def test_a_tiny_tune_writes_its_files_and_spends_at_most_its_budget(tiny, capsys):
    for name in ("trials.csv", "best.json", "search.png", "study.db", "tune.json"):
        assert (tiny / name).exists(), name
    best = json.loads((tiny / "best.json").read_text())
    assert set(best) >= BEST_KEYS
    trials = pd.read_csv(tiny / "trials.csv")
    assert {"trial", "state", "k", "g", "spec", "walls", "gain", "se", "deals"} <= set(trials)
    assert (trials["spec"] != "flush:k=6").all() and best["start"] == "flush:k=6"
    deals = best["deals"]
    assert deals["trials"] == trials["deals"].sum()
    assert deals["baseline"] == 4 * trials["walls"].max()
    assert best["deals_spent"] == sum(deals.values()) <= best["budget"] == TINY["deals"]
    assert best["search_walls"] == trials["walls"].max() == 32
    low, high = best["ci"]
    assert low <= best["confirmed_gain"] <= high
    # every setting was played once at most: a repeated proposal reuses the earlier trial
    played = trials[(trials["walls"] > 0) & trials["duplicate_of"].isna()]
    assert played["spec"].is_unique
    assert (trials.dropna(subset=["duplicate_of"])["deals"] == 0).all()


def test_a_trials_score_is_the_paired_gain_over_the_start_on_common_walls(tiny):
    trials = pd.read_csv(tiny / "trials.csv")
    deepest = trials[(trials["walls"] == 32) & trials["duplicate_of"].isna()]
    row = deepest.iloc[0]
    diff = (_own_per_wall(row["spec"], TINY["seed"], 32)
            - _own_per_wall("flush:k=6", TINY["seed"], 32))
    direct = paired_interval(diff.to_numpy(), method="normal")
    assert row["gain"] == pytest.approx(direct["estimate"], abs=1e-12)
    assert row["se"] == pytest.approx(direct["se"], rel=1e-9)


def test_the_confirmation_replays_the_winner_against_the_start_on_fresh_walls(tiny):
    best = json.loads((tiny / "best.json").read_text())
    assert best["confirm_seed"] == TINY["seed"] + 1
    walls = best["confirm_walls"]
    assert best["confirmed_spec"] == best["spec"]  # the start is not in the space
    diff = (_own_per_wall(best["spec"], best["confirm_seed"], walls)
            - _own_per_wall(best["start"], best["confirm_seed"], walls))
    direct = paired_interval(diff.to_numpy())
    assert best["confirmed_gain"] == pytest.approx(direct["estimate"], abs=1e-12)
    assert best["ci"] == pytest.approx([direct["ci_low"], direct["ci_high"]], abs=1e-12)
    assert best["deals"]["confirmation"] == 8 * walls


def test_the_same_command_again_returns_the_result_and_another_one_is_refused(tiny):
    before = (tiny / "trials.csv").read_text()
    again = tune("flush:k=6", ["k=7..10", "g=8..14"], out=tiny, progress=False, **TINY)
    assert (tiny / "trials.csv").read_text() == before
    assert again.spec == load_result(tiny).spec and again.deals <= TINY["deals"]
    with pytest.raises(ValueError, match="holds another tune.*deals 3000, this one 4000"):
        tune("flush:k=6", ["k=7..10", "g=8..14"], out=tiny, progress=False,
             **{**TINY, "deals": 4_000})


def test_an_interrupted_tune_continues_where_it_stopped(tmp_path):
    out = tmp_path / "resume"
    played = []

    def interrupt_after_some_trials(deals: int) -> None:
        played.append(deals)
        if sum(played) > 1_000:
            raise KeyboardInterrupt  # as Ctrl-C would, in the middle of a trial

    kwargs = {"out": out, **TINY}
    with pytest.raises(KeyboardInterrupt):
        tune("flush", ["k=6..10", "g=8..14"], progress=interrupt_after_some_trials, **kwargs)
    assert not (out / "best.json").exists()
    first = pd.read_csv(out / "trials.csv")
    finished = first[first["state"].isin(["complete", "pruned"])]
    assert len(finished) >= 2

    result = tune("flush", ["k=6..10", "g=8..14"], progress=False, **kwargs)
    trials = result.trials.set_index("trial")
    # nothing finished is lost or played again ...
    kept = trials.loc[finished["trial"], ["spec", "state", "walls", "gain", "deals"]]
    pd.testing.assert_frame_equal(
        kept.reset_index(drop=True),
        finished[["spec", "state", "walls", "gain", "deals"]].reset_index(drop=True),
        check_dtype=False)
    # ... the trial the interruption cut is failed and played again ...
    failed = trials[trials["state"] == "fail"]
    assert len(failed) == 1
    redo = trials.loc[failed.index[0] + 1:]
    assert (redo["spec"] == failed["spec"].iloc[0]).any()
    # ... and the whole tune still stays within its budget
    assert len(trials) > len(first)
    assert result.deals <= TINY["deals"]
    assert result.info["deals"]["trials"] == int(trials["deals"].sum())


def test_the_trial_table_of_an_in_memory_tune_matches_the_budget():
    result = tune("flush", {"k": "8..9"}, progress=False, **{**TINY, "deals": 1_200})
    # two settings: the start (k=8, first, free: it is the baseline) and k=9; the space is
    # exhausted after them
    trials = result.trials
    assert list(trials["spec"]) == ["flush", "flush:k=9"]
    assert (trials.loc[0, "gain"], trials.loc[0, "deals"]) == (0, 0)
    assert result.path is None
    # whichever won, the confirmation plays k=9 against the start (when the start wins the
    # search its own gain is 0 by definition: the runner-up is what is left to test)
    assert result.info["confirmed_spec"] == "flush:k=9"
    assert result.info["deals"]["confirmation"] == 8 * 37
    assert result.deals == 4 * 32 + trials.loc[1, "deals"] + 8 * 37
    assert result.ci_low <= result.gain <= result.ci_high
