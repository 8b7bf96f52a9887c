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


def _won_on_before(events: list[dict], seat: int) -> list[set[int]]:
    """Per discard of ``seat``: the tiles the other seats had won on before it (the log read
    directly, not through the table walker)."""
    won: set[int] = set()
    out = []
    for ev in events:
        if ev["type"] == "win" and ev["seat"] != seat:
            won.add(ev["tile"])
        elif ev["type"] == "discard" and ev["seat"] == seat:
            out.append(set(won))
    return out


@pytest.mark.parametrize(("deal", "seat", "turns"), [(3, 1, [48]), (9, 0, [57])])
def test_feeding_a_river_winner_its_tile_is_read_from_the_log(deal, seat, turns) -> None:
    """Seed 5, river, four speed seats: in deal 3 S1 throws 8m after S2 has twice won on it
    (step 112), in deal 9 S0 throws 8m after S2 has won on it (step 119), each with another
    discard at the same shanten; a river winner's own discards (its hand locked) never
    count. Each had an alternative as live: in deal 3, 6m from 66777m8m66s|P2mK3m waits on 7m
    and 6s with the 3 live tiles that 8m's 6m/6s wait has (7m waits on 5m and 8m: 2); in
    deal 9, 4m from 4m66m8m2p33p44p78p|P9m keeps 8m's four useful types, 7 live tiles."""
    from simcore.analysis.deal_ins import discard_choices
    from simcore.engine.replay import replay

    events, _ = replay(5, deal, rules="river", policies="speed", as_frame=False)
    c = discard_choices(events, seat)
    won = _won_on_before(events, seat)
    assert list(c["river_feed"]) == [int(t) in w for t, w in zip(c["tile"], won, strict=True)]
    episodes = c[c["river_feed"] & (c["river_safe_candidates"] > 0)]
    assert list(episodes["turn"]) == turns and (episodes["tile"] == 7).all()
    assert list(episodes["river_as_live_candidates"]) == [1]
    assert anatomy(c)["river_feeds"] == 1 and anatomy(c)["river_feeds_as_live"] == 1
    assert (c.loc[~c["river_feed"], "river_as_live_candidates"] == 0).all()


def test_a_dead_wait_is_one_whose_every_winning_tile_the_seat_sees() -> None:
    """Seed 777, deal 12, classic, four speed seats: S0 pungs 5p and throws 8m, leaving
    4677789p|P1mP5p, which waits on 5p alone; S2 threw the fourth 5p at the start. Every
    discard from then on keeps that dead wait (speed reads shape, not live tiles), with no
    ready alternative that waits on a live tile."""
    from simcore.analysis.deal_ins import discard_choices
    from simcore.engine.replay import replay
    from simcore.hand import waits

    assert waits("4677789p|P1mP5p", void="s") == [13]  # 5p
    events, _ = replay(777, 12, rules="classic", policies="speed", as_frame=False)
    c = discard_choices(events, 0)
    dead = c[c["dead_wait"]]
    assert dead["tile"].iloc[0] == 7 and len(dead) == 5  # 8m, then four draws thrown
    assert (dead["best_shanten"] == 0).all() and dead["at_best"].all()
    assert (dead["live_wait_candidates"] == 0).all() and anatomy(c)["dead_waits"] == 0
    assert (c["live_wait_candidates"] <= c["candidates"]).all()
