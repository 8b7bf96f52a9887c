"""The rules record, presets, overrides and encoding (docs/rules sections 2-8)."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import rules as sr
from simcore.rules import (
    DEFAULT_PRESET,
    PARAMETERS,
    PRESETS,
    Rules,
    describe_parameters,
    get_rules,
    parse_override,
    resolve_rules,
)

NAMES = ("classic", "baike", "qq", "app", "tfmj")

# docs/rules section 7, copied: plain, all pungs, seven pairs, golden hook, 258 pungs, flush,
# terminals, cap ("off" = None, "none" cap = None)
FAN_TABLE = """
classic | 0 | 1 | 2 | off | 2   | 2 | 2   | none
baike   | 0 | 1 | 2 | 2   | 4   | 2 | 2   | 3
qq      | 0 | 1 | 2 | off | 2   | 2 | 2   | none
app     | 0 | 1 | 1 | 2   | off | 1 | off | none
tfmj    | 0 | 1 | 2 | 2   | off | 2 | off | 3
"""
FAN_COLUMNS = (
    "fan_plain",
    "fan_all_pungs",
    "fan_seven_pairs",
    "fan_golden_hook",
    "fan_pungs_258",
    "fan_flush",
    "fan_terminals",
    "fan_cap",
)

# docs/rules section 8, copied row by row (columns classic, baike, qq, app, tfmj)
PARAMETER_TABLE = """
exchange_three            | off           | off       | off           | on        | off
pass_win_rule             | unless_higher | same_tile | unless_higher | none      | unless_higher
must_win_last_four        | on            | on        | off           | off       | off
added_kong_only_on_draw   | off           | on        | off           | off       | off
kong_discard_transfer     | off           | on        | off           | off       | on
kong_discard_pays_all     | off           | off       | off           | on        | off
direct_kong_flower        | discard       | self_draw | discard       | self_draw | self_draw
refund_kongs_if_not_ready | on            | on        | on            | off       | on
pig_penalty               | 10            | 8         | 16            | 16        | 0
pig_payees                | in_play       | in_play   | in_play       | all       | in_play
pig_pay                   | flat          | flat      | flat          | winner_hand | flat
pig_pays_ready            | off           | off       | off           | on        | on
ready_pay                 | min           | max       | max           | max       | max
self_draw_bonus           | base          | base      | base          | base      | base
heaven_earth              | normal        | max       | normal        | max       | normal
max_fan                   | –             | 3         | –             | 5         | 3
"""


def _cell(text: str) -> object:
    text = text.strip()
    if text in ("on", "off", "–"):
        return {"on": True, "off": False, "–": None}[text]
    return int(text) if text.isdigit() else text


def _expected() -> dict[str, dict[str, object]]:
    expected: dict[str, dict[str, object]] = {name: {} for name in NAMES}
    for line in FAN_TABLE.strip().splitlines():
        preset, *cells = (c.strip() for c in line.split("|"))
        for column, cell in zip(FAN_COLUMNS, cells, strict=True):
            # in the fan table "off" means "no such pattern/modifier", not a boolean
            expected[preset][column] = None if cell in ("off", "none") else int(cell)
    for line in PARAMETER_TABLE.strip().splitlines():
        name, *cells = (c.strip() for c in line.split("|"))
        for preset, cell in zip(NAMES, cells, strict=True):
            expected[preset][name] = _cell(cell)
    for preset in NAMES:  # docs/rules: on in every preset / off in every preset / default on
        expected[preset].update(void_first=True, drizzle=False, dead_wait_counts=True)
        # section 9: the variant parameters at their defaults (their presets: test_variants.py)
        expected[preset].update(players=4, suits=3, blood_river=False)
    return expected


EXPECTED = _expected()


def test_the_tables_cover_every_parameter() -> None:
    assert sorted(EXPECTED["classic"]) == sorted(PARAMETERS)
    assert list(sr.RULES_DTYPE.names) == list(PARAMETERS)


@pytest.mark.parametrize("preset", NAMES)
def test_presets_match_rules_md(preset: str) -> None:
    rules = PRESETS[preset]
    assert rules.preset == preset
    for name, value in EXPECTED[preset].items():
        got = getattr(rules, name)
        assert (got, type(got)) == (value, type(value)), name


def test_preset_names_and_default() -> None:
    assert tuple(PRESETS) == (*NAMES, "two_suit3", "two_suit4", "river")  # section 9 adds three
    assert DEFAULT_PRESET == "classic"
    assert get_rules() == PRESETS["classic"]
    assert resolve_rules() == PRESETS["classic"]


# --------------------------------------------------------------------------------------------
# overrides and validation


def test_overrides_change_only_what_they_name() -> None:
    base = get_rules("baike")
    changed = get_rules("baike", pig_penalty=3, fan_cap=None, drizzle=True)
    assert (changed.pig_penalty, changed.fan_cap, changed.drizzle) == (3, None, True)
    assert changed.preset == "baike"
    for name in PARAMETERS:
        if name not in ("pig_penalty", "fan_cap", "drizzle"):
            assert getattr(changed, name) == getattr(base, name)
    assert base.replace(pig_penalty=3, fan_cap=None, drizzle=True) == changed
    assert PRESETS["baike"].pig_penalty == 8  # presets are not modified


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_rules().pig_penalty = 3  # type: ignore[misc]


def test_numpy_integers_are_stored_as_int() -> None:
    rules = get_rules(pig_penalty=np.int64(4), fan_cap=np.int8(2))
    assert type(rules.pig_penalty) is int and type(rules.fan_cap) is int
    assert rules.id == get_rules(pig_penalty=4, fan_cap=2).id


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"pass_win_rule": "sometimes"},
            "pass_win_rule: 'sometimes' is not one of 'none', 'same_tile', 'unless_higher'",
        ),
        ({"direct_kong_flower": "both"}, "direct_kong_flower: 'both' is not one of 'self_draw'"),
        ({"pig_payees": 1}, "pig_payees: 1 is not one of 'in_play', 'all'"),
        ({"ready_pay": "MAX"}, "ready_pay: 'MAX' is not one of 'max', 'min'"),
        ({"self_draw_bonus": "double"}, "self_draw_bonus: 'double' is not one of 'base', 'fan'"),
        ({"heaven_earth": "min"}, "heaven_earth: 'min' is not one of 'normal', 'max'"),
        ({"drizzle": 1}, "drizzle: 1 is not a boolean"),
        ({"exchange_three": "yes"}, "exchange_three: 'yes' is not a boolean"),
        ({"pig_penalty": -1}, "pig_penalty: -1 is negative; it must be >= 0"),
        ({"pig_penalty": None}, "pig_penalty: None is not an integer >= 0"),
        ({"pig_penalty": True}, "pig_penalty: True is not an integer >= 0"),
        ({"fan_flush": 1.5}, "fan_flush: 1.5 is not an integer >= 0"),
        ({"fan_cap": -2}, "fan_cap: -2 is negative"),
        ({"fan_golden_hook": "off"}, "fan_golden_hook: 'off' is not an integer >= 0 or None"),
        ({"max_fan": None}, "heaven_earth: 'max' requires max_fan to be an integer"),
    ],
)
def test_validation_errors(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        get_rules("baike", **overrides)


def test_heaven_earth_max_needs_max_fan() -> None:
    assert get_rules("classic", heaven_earth="max", max_fan=4).max_fan == 4
    with pytest.raises(ValueError, match="got max_fan=None"):
        get_rules("classic", heaven_earth="max")


def test_unknown_preset_lists_known_ones() -> None:
    with pytest.raises(
        ValueError, match="unknown preset 'chengdu'; known presets: classic, baike, qq, app, tfmj"
    ):
        get_rules("chengdu")


def test_unknown_parameter_suggests_close_matches() -> None:
    with pytest.raises(
        ValueError, match="unknown rule parameter 'pig_penality'; did you mean 'pig_penalty'"
    ):
        get_rules(pig_penality=3)
    with pytest.raises(ValueError, match="unknown rule parameter 'xyz'; known parameters: "):
        get_rules().replace(xyz=1)
    with pytest.raises(ValueError, match="preset is not a rule parameter"):
        get_rules().replace(preset="qq")


def test_direct_construction_requires_every_parameter() -> None:
    params = PRESETS["qq"].to_dict()
    del params["preset"]
    assert Rules(**params).preset == "custom"  # type: ignore[arg-type]
    del params["drizzle"]
    with pytest.raises(TypeError, match="drizzle"):
        Rules(**params)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# id and JSON


def test_id_is_12_hex_digits() -> None:
    for rules in PRESETS.values():
        assert re.fullmatch(r"[0-9a-f]{12}", rules.id)


def test_id_identifies_the_parameters() -> None:
    ids = {rules.id for rules in PRESETS.values()}
    assert len(ids) == len(PRESETS)
    assert get_rules("qq").id == get_rules("qq").id
    # equal parameters reached from different presets have equal ids
    derived = get_rules("classic", pig_penalty=16, ready_pay="max", must_win_last_four=False)
    assert derived.preset == "classic"
    assert derived.id == PRESETS["qq"].id
    assert dataclasses.replace(PRESETS["qq"], preset="other").id == PRESETS["qq"].id
    for name in PARAMETERS:  # every parameter takes part in the id
        field_values = {True: False, False: True}
        value = getattr(PRESETS["baike"], name)
        allowed = next(d["allowed"] for d in describe_parameters() if d["name"] == name)
        if isinstance(value, bool):
            other = field_values[value]
        elif name in sr.VARIANTS:  # a short list of integers
            other = next(a for a in allowed if a != value)
        elif isinstance(value, int):
            other = value + 1
        elif value is None:
            other = 1
        else:
            other = next(a for a in allowed if a != value)
        assert get_rules("baike", **{name: other}).id != PRESETS["baike"].id, name


def test_id_is_stable_across_processes() -> None:
    # a fresh interpreter has another hash seed, so this catches ids built on hash()
    code = "from simcore.rules import PRESETS; print(' '.join(r.id for r in PRESETS.values()))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345"},
    ).stdout.split()
    assert out == [rules.id for rules in PRESETS.values()]


@pytest.mark.parametrize("preset", NAMES)
def test_json_round_trip(preset: str) -> None:
    rules = PRESETS[preset]
    text = rules.to_json()
    assert json.loads(text)["preset"] == preset
    back = Rules.from_json(text)
    assert back == rules and back.id == rules.id
    assert Rules.from_dict(rules.to_dict()) == rules
    assert resolve_rules(json.loads(text)) == rules


def test_to_dict_is_json_compatible_and_complete() -> None:
    d = PRESETS["app"].to_dict()
    # the variant parameters (docs/rules 9) only when set: records written before them unchanged
    assert sr.VARIANTS == ("players", "suits", "blood_river")
    assert list(d) == ["preset", *(p for p in PARAMETERS if p not in sr.VARIANTS)]
    assert json.loads(json.dumps(d)) == d
    assert list(get_rules("app", players=3, suits=2, blood_river=True).to_dict()) == [
        "preset", *PARAMETERS]
    assert "suits" not in get_rules("app", players=3).to_dict()
    river = PRESETS["app"].replace(blood_river=True).to_dict()
    assert river["blood_river"] is True and "players" not in river
    assert Rules.from_dict(d).blood_river is False and Rules.from_dict(river).blood_river


def test_from_dict_errors() -> None:
    d = PRESETS["classic"].to_dict()
    with pytest.raises(ValueError, match="unknown rule parameter 'fan_plane'; did you mean"):
        Rules.from_dict({**d, "fan_plane": 1})
    del d["fan_flush"]
    with pytest.raises(ValueError, match="missing rule parameters: fan_flush"):
        Rules.from_dict(d)
    with pytest.raises(ValueError, match="rules must be a mapping of parameters, got \\[1\\]"):
        Rules.from_json("[1]")
    with pytest.raises(ValueError, match="rules JSON is not valid JSON"):
        Rules.from_json("{pig")
    with pytest.raises(ValueError, match="pig_penalty: 'ten' is not an integer >= 0"):
        Rules.from_json(
            PRESETS["classic"].to_json().replace('"pig_penalty": 10', '"pig_penalty": "ten"')
        )


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(NAMES),
    pig_penalty=st.integers(0, 64),
    fan_cap=st.none() | st.integers(0, 13),
    pass_win_rule=st.sampled_from(["none", "same_tile", "unless_higher"]),
    exchange_three=st.booleans(),
)
def test_json_round_trip_of_variants(preset: str, **overrides: object) -> None:
    rules = get_rules(preset, **overrides)
    assert Rules.from_json(rules.to_json()) == rules


# --------------------------------------------------------------------------------------------
# encoding


def test_enumeration_constants() -> None:
    assert (sr.PASS_NONE, sr.PASS_SAME_TILE, sr.PASS_UNLESS_HIGHER) == (0, 1, 2)
    assert (sr.DKF_SELF_DRAW, sr.DKF_DISCARD) == (0, 1)
    assert (sr.PAYEES_IN_PLAY, sr.PAYEES_ALL) == (0, 1)
    assert (sr.READY_MAX, sr.READY_MIN) == (0, 1)
    assert (sr.SDB_BASE, sr.SDB_FAN, sr.SDB_NONE) == (0, 1, 2)
    assert (sr.HE_NORMAL, sr.HE_MAX) == (0, 1)
    assert (sr.PIG_FLAT, sr.PIG_WINNER_HAND) == (0, 1)


# expected encodings written out by hand from the rule book's tables (docs/rules) and
# docs/ARCHITECTURE.md
ENCODED = {
    "classic": {
        "exchange_three": 0,
        "void_first": 1,
        "pass_win_rule": sr.PASS_UNLESS_HIGHER,
        "must_win_last_four": 1,
        "added_kong_only_on_draw": 0,
        "drizzle": 0,
        "kong_discard_transfer": 0,
        "kong_discard_pays_all": 0,
        "direct_kong_flower": sr.DKF_DISCARD,
        "refund_kongs_if_not_ready": 1,
        "pig_penalty": 10,
        "pig_payees": sr.PAYEES_IN_PLAY,
        "pig_pay": sr.PIG_FLAT,
        "pig_pays_ready": 0,
        "ready_pay": sr.READY_MIN,
        "dead_wait_counts": 1,
        "self_draw_bonus": sr.SDB_BASE,
        "heaven_earth": sr.HE_NORMAL,
        "max_fan": -1,
        "fan_cap": -1,
        "fan_plain": 0,
        "fan_all_pungs": 1,
        "fan_seven_pairs": 2,
        "fan_golden_hook": -1,
        "fan_pungs_258": 2,
        "fan_flush": 2,
        "fan_terminals": 2,
        "players": 4,
        "suits": 3,
        "blood_river": 0,
    },
    "app": {
        "exchange_three": 1,
        "void_first": 1,
        "pass_win_rule": sr.PASS_NONE,
        "must_win_last_four": 0,
        "added_kong_only_on_draw": 0,
        "drizzle": 0,
        "kong_discard_transfer": 0,
        "kong_discard_pays_all": 1,
        "direct_kong_flower": sr.DKF_SELF_DRAW,
        "refund_kongs_if_not_ready": 0,
        "pig_penalty": 16,
        "pig_payees": sr.PAYEES_ALL,
        "pig_pay": sr.PIG_WINNER_HAND,
        "pig_pays_ready": 1,
        "ready_pay": sr.READY_MAX,
        "dead_wait_counts": 1,
        "self_draw_bonus": sr.SDB_BASE,
        "heaven_earth": sr.HE_MAX,
        "max_fan": 5,
        "fan_cap": -1,
        "fan_plain": 0,
        "fan_all_pungs": 1,
        "fan_seven_pairs": 1,
        "fan_golden_hook": 2,
        "fan_pungs_258": -1,
        "fan_flush": 1,
        "fan_terminals": -1,
        "players": 4,
        "suits": 3,
        "blood_river": 0,
    },
}


@pytest.mark.parametrize("preset", sorted(ENCODED))
def test_encode_matches_the_table(preset: str) -> None:
    code = PRESETS[preset].encode()
    assert code.dtype == sr.RULES_DTYPE
    assert all(code.dtype[name] == np.int32 for name in PARAMETERS)
    assert {name: int(code[name]) for name in PARAMETERS} == ENCODED[preset]


@pytest.mark.parametrize(
    ("override", "name", "value"),
    [
        ({"pass_win_rule": "same_tile"}, "pass_win_rule", sr.PASS_SAME_TILE),
        ({"self_draw_bonus": "fan"}, "self_draw_bonus", sr.SDB_FAN),
        ({"self_draw_bonus": "none"}, "self_draw_bonus", sr.SDB_NONE),
        ({"fan_cap": 4}, "fan_cap", 4),
        ({"fan_terminals": None}, "fan_terminals", -1),
        ({"drizzle": True}, "drizzle", 1),
        ({"pig_pay": "winner_hand"}, "pig_pay", sr.PIG_WINNER_HAND),
    ],
)
def test_encode_of_overrides(override: dict[str, object], name: str, value: int) -> None:
    assert getattr(get_rules(**override).encode(), name) == value


def test_encode_returns_a_fresh_record() -> None:
    rules = get_rules()
    code = rules.encode()
    code["pig_penalty"] = 99
    assert rules.encode().pig_penalty == 10


# --------------------------------------------------------------------------------------------
# parse_override and resolve_rules


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("drizzle=on", ("drizzle", True)),
        ("drizzle=OFF", ("drizzle", False)),
        ("exchange_three=true", ("exchange_three", True)),
        ("exchange_three=False", ("exchange_three", False)),
        ("void_first=1", ("void_first", True)),
        ("void_first=0", ("void_first", False)),
        ("must_win_last_four=yes", ("must_win_last_four", True)),
        ("must_win_last_four=no", ("must_win_last_four", False)),
        ("pig_penalty=12", ("pig_penalty", 12)),
        (" pig_penalty = 12 ", ("pig_penalty", 12)),
        ("fan_cap=4", ("fan_cap", 4)),
        ("fan_cap=none", ("fan_cap", None)),
        ("fan_golden_hook=off", ("fan_golden_hook", None)),
        ("fan_terminals=null", ("fan_terminals", None)),
        ("ready_pay=min", ("ready_pay", "min")),
        ("pass_win_rule=same_tile", ("pass_win_rule", "same_tile")),
    ],
)
def test_parse_override(text: str, expected: tuple[str, object]) -> None:
    got = parse_override(text)
    assert got == expected and type(got[1]) is type(expected[1])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("drizzle", "override 'drizzle' is not of the form NAME=VALUE"),
        ("drizzle=maybe", "drizzle: 'maybe' is not a boolean (on/off, true/false, 1/0, yes/no)"),
        ("pig_penalty=ten", "pig_penalty: 'ten' is not an integer"),
        ("pig_penalty=none", "pig_penalty: 'none' is not an integer"),
        ("fan_cap=big", "fan_cap: 'big' is not an integer or none/off/null"),
        ("fan_cap=2.5", "fan_cap: '2.5' is not an integer or none/off/null"),
        ("pig_penalti=3", "unknown rule parameter 'pig_penalti'; did you mean 'pig_penalty'"),
    ],
)
def test_parse_override_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_override(text)


def test_enumeration_overrides_are_checked_when_applied() -> None:
    with pytest.raises(ValueError, match="ready_pay: 'mean' is not one of 'max', 'min'"):
        resolve_rules("classic", ["ready_pay=mean"])
    with pytest.raises(ValueError, match="pig_penalty: -3 is negative"):
        resolve_rules("classic", ["pig_penalty=-3"])


def test_resolve_rules_inputs() -> None:
    tfmj = PRESETS["tfmj"]
    assert resolve_rules(None) is PRESETS[DEFAULT_PRESET]
    assert resolve_rules("tfmj") == tfmj
    assert resolve_rules(tfmj) is tfmj
    assert resolve_rules(tfmj.to_dict()) == tfmj
    partial = resolve_rules({"preset": "app", "fan_cap": 6})
    assert partial == get_rules("app", fan_cap=6)
    assert resolve_rules({"pig_penalty": 2}) == get_rules("classic", pig_penalty=2)


def test_resolve_rules_overrides() -> None:
    as_list = resolve_rules("qq", ["fan_cap=3", "drizzle=on", "ready_pay=min"])
    as_dict = resolve_rules("qq", {"fan_cap": 3, "drizzle": True, "ready_pay": "min"})
    as_text = resolve_rules("qq", {"fan_cap": "3", "drizzle": "on", "ready_pay": "min"})
    assert (
        as_list == as_dict == as_text == get_rules("qq", fan_cap=3, drizzle=True, ready_pay="min")
    )
    assert as_list.preset == "qq"
    # later overrides win
    assert resolve_rules("qq", ["fan_cap=3", "fan_cap=none"]).fan_cap is None
    # overrides apply on top of a Rules record or a JSON mapping too
    assert resolve_rules(PRESETS["app"].to_dict(), ["exchange_three=off"]).exchange_three is False


def test_resolve_rules_errors() -> None:
    with pytest.raises(ValueError, match="unknown preset 'xuezhan'"):
        resolve_rules("xuezhan")
    with pytest.raises(ValueError, match="rules must be a preset name, a Rules record"):
        resolve_rules(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="overrides must be a list of NAME=VALUE strings"):
        resolve_rules("qq", "drizzle=on")
    with pytest.raises(ValueError, match="unknown rule parameter 'drizle'; did you mean 'drizzle'"):
        resolve_rules("qq", {"drizle": True})
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        resolve_rules({"preset": "nope", "fan_cap": 1})


# --------------------------------------------------------------------------------------------
# help


def test_describe_parameters() -> None:
    described = describe_parameters()
    assert [d["name"] for d in described] == list(PARAMETERS)
    by_name = {d["name"]: d for d in described}
    assert by_name["pass_win_rule"]["allowed"] == ["none", "same_tile", "unless_higher"]
    assert by_name["drizzle"]["type"] == "bool"
    assert by_name["fan_cap"]["type"] == "int|None"
    assert by_name["pig_penalty"]["default"] == 10
    for d in described:
        assert set(d) == {"name", "type", "allowed", "default", "meaning", "section", "seeds"}
        assert d["meaning"] and d["section"]
