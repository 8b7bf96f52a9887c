"""``simcore score``: JSON contract, readable output, non-winning hands and errors."""

from __future__ import annotations

import json

import pytest

from simcore.cli import main

WIN_KEYS = [
    "win",
    "fan",
    "fan_uncapped",
    "pattern",
    "flush",
    "terminals",
    "roots",
    "bonuses",
    "units",
]


def run_json(capsys, *args):
    assert main(["score", *args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_json_keys_of_a_winning_hand(capsys):
    got = run_json(capsys, "111444222999m66m", "--self-draw", "--bonus", "last_tile")
    assert list(got) == WIN_KEYS
    assert got == {
        "win": True,
        "fan": 4,
        "fan_uncapped": 4,
        "pattern": "all_pungs",
        "flush": True,
        "terminals": False,
        "roots": 0,
        "bonuses": ["last_tile"],
        "units": 17,
    }


@pytest.mark.parametrize(
    ("args", "pattern", "fan", "fan_uncapped", "units"),
    [
        (["111m444m456p789m77p"], "plain", 0, 0, 1),
        (["11m22m99m44p66p88p99p"], "seven_pairs", 2, 2, 4),
        (["1111m99m44p66p88p99p"], "seven_pairs", 3, 3, 8),
        (["123456789m123m99m", "--rules", "app"], "plain", 1, 1, 2),
        (["111123456789m99m", "--rules", "app", "--self-draw"], "plain", 2, 2, 5),
        (["11p|P2mP5mK8mC2p", "--rules", "baike"], "golden_hook", 3, 4, 8),
        (["222555m222888p55p", "--rules", "baike", "--set", "fan_cap=none"], "pungs_258", 4, 4, 16),
        (["111222333m11p999p"], "plain", 2, 2, 4),  # terminals
        (
            ["111m444m456p789m77p", "--bonus", "kong_flower", "--bonus", "last_tile"],
            "plain",
            2,
            2,
            4,
        ),
        (["111m444m456p789m77p", "--rules", "app", "--heaven-earth"], "plain", 5, 5, 32),
    ],
)
def test_json_values(capsys, args, pattern, fan, fan_uncapped, units):
    got = run_json(capsys, *args)
    assert (got["pattern"], got["fan"], got["fan_uncapped"], got["units"]) == (
        pattern,
        fan,
        fan_uncapped,
        units,
    )


def test_json_of_a_hand_that_does_not_win(capsys):
    assert run_json(capsys, "111m444m456p789m78p") == {"win": False, "shanten": 0}
    assert run_json(capsys, "111m444m456p789m7p") == {
        "win": False,
        "shanten": 0,
        "waits": ["4p", "7p"],
    }
    got = run_json(capsys, "1357m2468m1357p9p")
    assert list(got) == ["win", "shanten", "waits"]
    assert got["shanten"] > 0 and got["waits"] == []


def test_void_option(capsys):
    # without --void the hand lacks s and wins; declaring p void makes it an error
    assert run_json(capsys, "111444m222999p66p")["win"] is True
    assert main(["score", "111444m222999p66p", "--void", "p"]) == 2
    assert "void suit 'p'" in capsys.readouterr().err


def test_human_output(capsys):
    assert main(["score", "123567234888s99s", "--self-draw", "--bonus", "kong_flower"]) == 0
    out = capsys.readouterr().out
    assert "平胡 plain" in out
    assert "清一色 full flush (+2 fan)" in out
    assert "杠上花 kong flower (+1 fan)" in out
    assert "自摸 self-draw (+1 base unit from each payer)" in out
    assert "fan:       3 (uncapped 3, no cap)" in out
    assert "units:     9 per payer (2^3 + 1 self-draw base unit" in out


def test_human_output_capped_with_roots(capsys):
    assert main(["score", "11p|P2mP5mK8mC2p", "--rules", "baike"]) == 0
    out = capsys.readouterr().out
    assert "金钩钓 golden hook (+2 fan)" in out
    assert "根 2 (+2 fan)" in out
    assert "fan:       3 (uncapped 4, cap 3)" in out
    assert "units:     8 per payer (2^3; the discarder pays)" in out


def test_human_output_dragon_seven_pairs_and_terminals(capsys):
    assert main(["score", "1111m99m44p66p88p99p"]) == 0
    assert "龙七对 seven pairs" in capsys.readouterr().out
    assert main(["score", "111222333m11p999p"]) == 0
    assert "带幺 terminals (+2 fan)" in capsys.readouterr().out


def test_human_output_not_winning(capsys):
    assert main(["score", "1112345678999m"]) == 0
    out = capsys.readouterr().out
    assert "shanten 0" in out
    assert "waits:     1m 2m 3m 4m 5m 6m 7m 8m 9m" in out
    assert "ready check pays 4 units" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["111444m222999p66p", "--rules", "nope"], "unknown preset 'nope'"),
        (["111444m222999p66x"], "unknown character 'x'"),
        (["111444m222p66p"], "11 concealed tiles with 0 melds"),
        (["111444m222999p66p", "--set", "fan_cap"], "not of the form NAME=VALUE"),
        (["111444m222999p66p", "--set", "fan_kap=3"], "unknown rule parameter 'fan_kap'"),
        (["111444m222999p66p", "--set", "fan_cap=-2"], "fan_cap"),
        (["111m444p222999s66s"], "holds tiles of all three suits and cannot win"),
        (["111444m222999p66p", "--self-draw", "--bonus", "robbed_kong"], "win on a discard"),
    ],
)
def test_errors_exit_2(capsys, args, message):
    assert main(["score", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("simcore score: error: ")
    assert message in err


def test_unknown_bonus_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "111444m222999p66p", "--bonus", "double"])
    assert exc.value.code == 2
    assert "invalid choice: 'double'" in capsys.readouterr().err
