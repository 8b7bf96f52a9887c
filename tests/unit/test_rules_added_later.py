"""Parameters added after the first runs were written keep every stored rules id (docs/rules)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from simcore import rules as sr
from simcore.rules import ADDED_LATER, PARAMETERS, PRESETS, VARIANTS, Rules

# The parameters the first runs, replay logs and experiment arms were written with. A parameter
# outside this list must be declared with ``_added_later`` or every stored id changes.
FIRST_PARAMETERS = (
    "exchange_three", "void_first", "pass_win_rule", "must_win_last_four",
    "added_kong_only_on_draw", "drizzle", "kong_discard_transfer", "kong_discard_pays_all",
    "direct_kong_flower", "refund_kongs_if_not_ready", "pig_penalty", "pig_payees", "pig_pay",
    "pig_pays_ready", "ready_pay", "dead_wait_counts", "self_draw_bonus", "heaven_earth",
    "max_fan", "fan_cap", "fan_plain", "fan_all_pungs", "fan_seven_pairs", "fan_golden_hook",
    "fan_pungs_258", "fan_flush", "fan_terminals",
)

# Ids of the presets as stored in runs written before any parameter was added later.
STORED_IDS = {
    "classic": "e64b7f17213a", "baike": "21eed7af6465", "qq": "66fd2db92d84",
    "app": "d02d3e8cdcaf", "tfmj": "36b86dd0b5a1",
}


def test_every_parameter_after_the_first_is_added_later() -> None:
    late = [name for name in PARAMETERS if name not in FIRST_PARAMETERS]
    required = [name for name in late if name not in ADDED_LATER]
    assert not required, f"declare {required} with _added_later: a required one changes every id"
    assert set(late) == set(ADDED_LATER)


@pytest.mark.parametrize("preset", sorted(STORED_IDS))
def test_the_stored_ids_of_the_first_presets_never_change(preset: str) -> None:
    assert PRESETS[preset].id == STORED_IDS[preset]


def test_a_parameter_added_later_is_left_out_at_its_default_and_read_back_as_it() -> None:
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    classic = PRESETS["classic"]
    stored = {k: v for k, v in classic.to_dict().items() if k not in ADDED_LATER}
    assert classic.to_dict() == stored
    back = Rules.from_json(json.dumps(stored))
    for name in ADDED_LATER:
        assert getattr(back, name) == fields[name].default
    assert back.id == classic.id


def test_a_parameter_added_later_names_its_section() -> None:
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    assert all(fields[n].metadata["added_later"] for n in ADDED_LATER)
    assert tuple(n for n in ADDED_LATER if fields[n].metadata["section"] == "9") == VARIANTS
    fan = sr._added_later(sr._INT, "a fan added later, for this test", 0, section="7")
    assert fan.metadata["section"] == "7" and fan.metadata["added_later"]
    assert fan.default == 0
