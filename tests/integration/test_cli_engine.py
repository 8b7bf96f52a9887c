"""``simcore replay`` and ``simcore policies`` through the console entry point."""

from __future__ import annotations

import json

import pytest

from simcore.cli import main


def test_replay_text_reads_like_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--seed", "1", "--deal", "3", "--rules", "app"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("deal 3 of seed 1 - rules app, dealer S3")
    assert "exchange three (" in out and "void: S0 " in out
    assert " holds " in out and " discards " in out
    assert out.rstrip().splitlines()[-1].startswith("end: nets [")


def test_replay_json_is_the_event_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--seed", "2", "--deal", "0", "--json",
                 "--policies", "random/speed/speed/random"]) == 0
    events = json.loads(capsys.readouterr().out)
    assert events[0]["type"] == "deal" and events[0]["seed"] == 2
    assert len(events[0]["wall"]) == 108
    assert events[-1]["type"] == "end" and sum(events[-1]["net"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay", "--seed", "1", "--deal", "0", "--rules", "nope"], "unknown preset 'nope'"),
        (["replay", "--seed", "1", "--deal", "0", "--policies", "fast"], "unknown policy 'fast'"),
        (["replay", "--seed", "1", "--deal", "0", "--set", "fan_cap=big"], "fan_cap: 'big'"),
    ],
)
def test_replay_errors_exit_2(argv: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_replay_rejects_negative_deal(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["replay", "--seed", "1", "--deal", "-1"])
    assert exc.value.code == 2
    assert "-1 is negative" in capsys.readouterr().err


def test_policies_lists_every_policy_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    from simcore.engine.spec import REGISTRY

    assert main(["policies", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in table] == list(REGISTRY)
    for policy in table:
        for opt in policy["options"]:
            assert opt["meaning"] and "default" in opt
    assert main(["policies"]) == 0
    text = capsys.readouterr().out
    for name in REGISTRY:
        assert f"\n{name}: " in text
