"""The deal-in anatomy (simcore.analysis.deal_ins) on replayed deals: its rows are consistent."""

from __future__ import annotations

import pytest

from simcore.analysis.deal_ins import CHOICE_COLUMNS, anatomy, collect_choices


@pytest.fixture(scope="module")
def choices():
    return collect_choices(6, "classic", "speed/expert/speed/expert", seed=4)


def test_one_row_per_discard_of_the_followed_seat(choices) -> None:
    assert list(choices.columns) == CHOICE_COLUMNS
    # four rotations of six deals, every one with discards of the followed seat
    assert choices.groupby(["deal", "seat"]).ngroups == 24
    assert (choices["candidates"] >= 1).all()
    assert (choices["best_shanten"] >= 0).all()


def test_a_deal_in_could_feed_and_safe_candidates_are_candidates(choices) -> None:
    assert (~choices["dealt_in"] | choices["could_feed"]).all()
    assert (choices["safe_candidates"] <= choices["candidates"]).all()
    assert (choices["void_safe_candidates"] <= choices["candidates"]).all()
    assert (choices.loc[~choices["could_feed"], "void_safe_candidates"] == 0).all()
    # a safe candidate is a safe allowed discard; a discard that could not feed was one itself
    assert (choices["safe_candidates"] <= choices["safe_allowed"]).all()
    assert (choices.loc[~choices["could_feed"], "safe_allowed"] >= 1).all()


def test_speed_always_discards_at_the_lowest_shanten(choices) -> None:
    # speed keeps the lowest shanten whatever it throws; a void-suit tile held is forced
    assert choices["at_best"].all()


def test_anatomy_shares(choices) -> None:
    a = anatomy(choices)
    assert a["discards"] == len(choices)
    for key in ("could_feed", "dealt_in", "forced", "avoidable", "avoidable_by_voids",
                "avoidable_by_folding"):
        assert 0.0 <= a[key] <= 1.0
    assert a["avoidable"] <= a["avoidable_by_folding"]  # folding may also throw candidates


def test_four_seats_are_required() -> None:
    with pytest.raises(ValueError, match="four seats"):
        collect_choices(1, "classic", "speed/speed")
