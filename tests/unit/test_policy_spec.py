"""The policy spec grammar: canonical forms, parameter vectors, errors that name the bad part."""

from __future__ import annotations

import pytest

from simcore.engine.policies.expert_options import POLICY_EXPERT
from simcore.engine.policies.greedy_options import (
    COMMON_OPTIONS,
    EXCH_KEEP_LONG,
    KONG_KEEP_SHAPE,
    KONG_NEVER,
    KONG_PUNG_THEN_ADD,
    O_EXCHANGE,
    O_G,
    O_K,
    O_KONG,
    O_MIN_FAN,
    O_UKEIRE,
    O_UNTIL,
    O_VOID,
    O_WATCH,
    POLICY_FLUSH,
    POLICY_PAIRS,
    POLICY_PUNGS,
    POLICY_SPEED,
    VOID_WEAKEST,
)
from simcore.engine.policies.random_options import POLICY_RANDOM
from simcore.engine.policies.registry import FAMILIES
from simcore.engine.spec import (
    REGISTRY,
    describe_policies,
    parse_policies,
    parse_spec,
    policy_arrays,
)


def test_every_policy_is_registered_with_its_id() -> None:
    ids = {name: p.pid for name, p in REGISTRY.items()}
    assert ids == {"random": POLICY_RANDOM, "speed": POLICY_SPEED, "flush": POLICY_FLUSH,
                   "pungs": POLICY_PUNGS, "pairs": POLICY_PAIRS, "expert": POLICY_EXPERT}
    assert {p.family for p in REGISTRY.values()} == set(FAMILIES)
    assert {o.name for o in REGISTRY["expert"].options} == {
        "defence", "fold", "value", "chase", "hope", "public", "upgrade", "feed", "stay", "kong",
        "exchange", "give", "void"}
    assert REGISTRY["random"].options == ()
    common = {o.name for o in COMMON_OPTIONS}
    assert common == {"kong", "min_fan", "until", "exchange", "give", "void", "watch", "ukeire"}
    for name in ("speed", "flush", "pungs", "pairs"):
        assert common <= {o.name for o in REGISTRY[name].options}, name
    assert {o.name for o in REGISTRY["flush"].options} - common == {"k", "g"}
    assert {o.name for o in REGISTRY["pungs"].options} - common == {"k"}
    assert {o.name for o in REGISTRY["pairs"].options} - common == {"k"}


def test_defaults_fill_the_parameter_vector() -> None:
    speed = parse_spec("speed")
    assert speed.text == "speed"
    assert speed.params[O_KONG] == KONG_KEEP_SHAPE
    assert speed.params[O_UKEIRE] == 1 and speed.params[O_WATCH] == 0
    assert speed.params[O_MIN_FAN] == 0 and speed.params[O_UNTIL] == 0
    flush = parse_spec("flush")
    assert (flush.params[O_K], flush.params[O_G]) == (8, 12)
    assert parse_spec("pungs").params[O_K] == 4
    assert parse_spec("pairs").params[O_K] == 5


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("speed", "speed"),
        (" speed ", "speed"),
        ("speed:ukeire=1", "speed"),  # a default is left out of the canonical text
        ("speed:watch=1, kong=never", "speed:kong=never,watch=1"),  # declaration order
        ("flush:k=8,g=12", "flush"),
        ("flush:g=8,k=7", "flush:k=7,g=8"),
        ("pungs:k=4,kong=never", "pungs:kong=never"),
        ("pairs:k=3,exchange=keep_long,void=weakest", "pairs:exchange=keep_long,void=weakest,k=3"),
        ("speed:min_fan=2,until=8", "speed:min_fan=2,until=8"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    assert parse_spec(text).text == canonical
    assert parse_spec(canonical).text == canonical


def test_options_land_in_their_slots() -> None:
    p = parse_spec("flush:k=7,g=20,kong=pung_then_add,exchange=keep_long,void=weakest,watch=1,"
                   "min_fan=1,until=20,ukeire=0").params
    assert p[O_K] == 7 and p[O_G] == 20
    assert p[O_KONG] == KONG_PUNG_THEN_ADD and p[O_EXCHANGE] == EXCH_KEEP_LONG
    assert p[O_VOID] == VOID_WEAKEST and p[O_WATCH] == 1 and p[O_UKEIRE] == 0
    assert p[O_MIN_FAN] == 1 and p[O_UNTIL] == 20
    assert parse_spec("pungs:kong=never").params[O_KONG] == KONG_NEVER


def test_one_spec_or_four_seats() -> None:
    assert parse_policies("pungs:k=3") == ["pungs:k=3"] * 4
    assert parse_policies("flush:k=8/speed/speed/speed") == ["flush", "speed", "speed", "speed"]
    assert parse_policies(["pairs", "speed", "random", "flush:g=8"]) == [
        "pairs", "speed", "random", "flush:g=8"]
    pid, params, index = policy_arrays(["flush:k=7", "speed", "flush:k=7", "pairs"])
    assert pid.tolist() == [POLICY_FLUSH, POLICY_SPEED, POLICY_FLUSH, POLICY_PAIRS]
    assert index.tolist() == [0, 1, 0, 2]
    assert params[0, O_K] == 7 and params[3, O_K] == 5


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("sped", r"unknown policy 'sped' in spec 'sped'; did you mean 'speed'\?"),
        ("flash:k=8", r"unknown policy 'flash'.*did you mean 'flush'"),
        ("", r"empty policy spec"),
        ("speed:", r"spec 'speed:' has ':' but no options after it"),
        ("speed:kong", r"malformed option 'kong' in spec 'speed:kong': expected NAME=VALUE"),
        ("speed:kong=", r"malformed option 'kong='"),
        ("speed:kongs=never", r"policy 'speed' has no option 'kongs'; did you mean 'kong'\?"),
        ("speed:k=8", r"policy 'speed' has no option 'k'"),
        ("random:kong=never", r"policy 'random' takes no options \(got 'kong'\)"),
        ("speed:kong=sometimes",
         r"option 'kong' of policy 'speed': 'sometimes' is not one of always, never, "
         r"keep_shape, pung_then_add"),
        ("speed:exchange=longest", r"option 'exchange'.*'longest' is not one of shortest"),
        ("speed:void=strongest",
         r"option 'void'.*'strongest' is not one of fewest, weakest, m, p, s"),
        ("speed:watch=yes", r"option 'watch' of policy 'speed': 'yes' is not 0 or 1"),
        ("speed:ukeire=2", r"option 'ukeire' of policy 'speed': '2' is not 0 or 1"),
        ("flush:k=eight", r"option 'k' of policy 'flush': 'eight' is not an integer"),
        ("flush:g=-1", r"option 'g' of policy 'flush': '-1' is negative"),
        ("pungs:k=3,k=4", r"option 'k' given twice in spec 'pungs:k=3,k=4'"),
    ],
)
def test_bad_specs_name_the_bad_part(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)


def test_bad_seat_lists_name_the_seat_count() -> None:
    with pytest.raises(ValueError, match=r"name 3 seats"):
        parse_policies("speed/flush/pungs")
    with pytest.raises(ValueError, match=r"unknown policy 'pair'.*did you mean 'pairs'"):
        parse_policies("speed/speed/pair/speed")


def test_describe_lists_every_policy_option_default_and_meaning() -> None:
    table = {p["name"]: p for p in describe_policies()}
    assert list(table) == list(REGISTRY)
    for name, policy in table.items():
        assert policy["meaning"], name
        for opt in policy["options"]:  # type: ignore[union-attr]
            assert opt["meaning"] and opt["default"] != "", (name, opt)
    flush = {o["name"]: o for o in table["flush"]["options"]}  # type: ignore[union-attr]
    assert flush["k"]["default"] == "8" and flush["g"]["default"] == "12"
    assert flush["kong"]["default"] == "keep_shape"
    assert flush["kong"]["choices"] == ["always", "never", "keep_shape", "pung_then_add"]
    assert flush["exchange"]["choices"] == ["shortest", "random", "keep_long"]
    assert flush["void"]["choices"] == ["fewest", "weakest", "m", "p", "s"]


def test_policies_command_lists_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    from simcore.cli import main

    assert main(["policies"]) == 0
    out = capsys.readouterr().out
    for needle in ("\nflush: ", "\npungs: ", "\npairs: ", "  k=8: ", "  g=12: ", "  k=4: ",
                   "  k=5: ", "kong=keep_shape (always|never|keep_shape|pung_then_add)",
                   "exchange=shortest (shortest|random|keep_long)",
                   "void=fewest (fewest|weakest|m|p|s)", "watch=0: ", "min_fan=0: ", "until=0: "):
        assert needle in out, needle
