"""Positions from replayed simcore deals (issue 28): every decision of every seat validates,
its legal actions hold the action the policy took, the forms round-trip, and the true hidden
state is one the sampler's constraints admit."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from simcore import Position
from simcore.advice import Action, hidden_constraints
from simcore.advice.position import position_at, replayed_decisions
from simcore.advice.replayed import decision_steps, replay_events, true_hidden
from simcore.hand import reference as ref

PRESETS = ("classic", "app", "qq", "baike", "tfmj", "two_suit3", "two_suit4", "river")
MIXED = "speed/expert/speed/expert"


def _policies(preset: str) -> str:
    return "speed/expert/speed" if preset == "two_suit3" else MIXED


@functools.lru_cache(maxsize=64)
def _events(preset: str, deal: int, seed: int = 28) -> tuple:
    return tuple(replay_events(seed, deal, preset, _policies(preset)))


def _admits(position: Position, hands: dict[int, np.ndarray], wall: np.ndarray) -> None:
    """The true hidden state satisfies the sampler's constraints (asserts naming the failure)."""
    c = hidden_constraints(position)
    assert c.wall == len(wall), (c.wall, len(wall))
    total = np.bincount(wall.astype(np.int64), minlength=27)
    for j, k in enumerate(c.seats):
        h = hands[k].astype(np.int64)
        assert int(h.sum()) == c.sizes[j], (k, int(h.sum()), c.sizes[j])
        # the maker of an added kong on offer may hold the void tile it drew this turn: not
        # modelled by the sampler (simcore.advice.sampler, "voids"), so at most one is allowed
        kong_maker = position.decision.kind == "on-kong" and position.decision.by == k
        assert int(h[~c.allowed[j]].sum()) <= kong_maker, f"S{k} holds a tile it cannot hold"
        assert (h >= c.lower[j]).all(), f"S{k} lacks a passed tile it must hold"
        for t in c.wins[j]:
            assert h[t] < 4 and ref.is_complete(
                [int(x) + (i == t) for i, x in enumerate(h)], c.melds[j], c.voids[j]), \
                f"S{k}'s hidden hand does not win on {t}"
        total += h
    assert (total == c.unseen).all(), "hidden hands and wall are not the unseen tiles"


def _offered_win(events: list, step: int, seat: int) -> bool:
    """Whether the engine let ``seat`` win on the tile of step ``step``: it logs a pass for
    every win it could have taken and declined, and the win for every one it took."""
    for ev in events[step + 1:]:
        if ev["type"] not in ("pass", "win"):
            return False
        if ev["seat"] == seat:
            return True
    return False


def _sweep(preset: str, deals: range) -> tuple[int, int]:
    n_decisions = n_choices = 0
    for deal in deals:
        events = list(_events(preset, deal))
        players = len(events[0]["hands"])
        for seat in range(players):
            found = replayed_decisions(events, seat)
            assert [d.step for d in found] == decision_steps(events, seat)
            for d in found:
                legal = d.position.legal_actions()
                assert d.action in legal, (preset, deal, seat, d.step, str(d.action),
                                           [str(a) for a in legal], str(d.position))
                if d.position.decision.kind != "turn":  # a win is legal iff it was offered
                    assert (Action("win") in legal) == _offered_win(events, d.step, seat), \
                        (preset, deal, seat, d.step, str(d.position))
                n_decisions += 1
                n_choices += len(legal) > 1
    return n_decisions, n_choices


@pytest.mark.parametrize("preset", PRESETS)
def test_every_decision_validates_and_allows_the_action_taken(preset):
    n, choices = _sweep(preset, range(3))
    assert n > 50 and choices > 10


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_every_decision_wide_sweep(preset):
    _sweep(preset, range(3, 40))


@pytest.mark.parametrize("preset", ["classic", "app", "river", "two_suit3"])
def test_round_trip_and_true_hidden_state(preset):
    events = list(_events(preset, 1))
    players = len(events[0]["hands"])
    for seat in range(players):
        for step in decision_steps(events, seat)[::3]:
            p = position_at(events, seat, step)
            assert Position.from_json(p.to_json()) == p
            assert Position.parse(str(p)) == p
            hands, wall = true_hidden(events, seat, step)
            _admits(p, hands, wall)


def test_from_replay_matches_the_log():
    events = list(_events("classic", 0))
    step = decision_steps(events, 2)[5]
    p = Position.from_replay(28, 0, "classic", MIXED, seat=2, step=step)
    assert p == position_at(events, 2, step)
    assert p.seat == 2


def test_dealer_first_turn_and_kinds():
    events = list(_events("app", 0))
    dealer = events[0]["dealer"]
    steps = decision_steps(events, dealer)
    assert events[steps[0]]["type"] == "void"  # app: deal, exchange, void, then the dealer
    p = position_at(events, dealer, steps[0])
    assert p.decision.kind == "turn" and p.drawn is None and p.exchange is not None
    kinds = {d.position.decision.kind for s in range(4) for d in replayed_decisions(events, s)}
    assert {"turn", "on-discard"} <= kinds


def test_errors_name_the_bad_value():
    events = list(_events("classic", 0))
    steps = decision_steps(events, 1)
    bad = next(n for n in range(1, len(events)) if n not in steps)
    with pytest.raises(ValueError, match=rf"step {bad} \(.*\) is not a decision of S1; its "
                                         r"nearest decision steps are \d+"):
        position_at(events, 1, bad)
    with pytest.raises(ValueError, match=r"step 9999 is not a step of this deal"):
        position_at(events, 1, 9999)
    with pytest.raises(ValueError, match=r"seat 4 is not a seat 0\.\.3"):
        position_at(events, 4, steps[0])
    with pytest.raises(ValueError, match=r"seat 3 is not a seat 0\.\.2"):
        decision_steps(list(_events("two_suit3", 0)), 3)
    with pytest.raises(ValueError, match=r"seat 3 is not a seat 0\.\.2"):
        Position.from_replay(28, 0, "classic", "speed", 3, 1, overrides=["players=3"])
    with pytest.raises(ValueError, match=r"deal -1 is not a deal index >= 0"):
        Position.from_replay(28, -1, "classic", MIXED, seat=0, step=1)


def test_a_heavenly_win_needs_no_draw():
    # deal 29 of seed 7 (two_suit3 with the exchange): the dealer S2 wins on its dealt tiles;
    # the other seats' positions were refused as "S2 ... 1 self-drawn wins need (1)" draws
    events = replay_events(7, 29, "two_suit3", "speed/expert/speed",
                           overrides=["exchange_three=on"])
    win = next(ev for ev in events if ev["type"] == "win")
    assert win["seat"] == events[0]["dealer"] and win["kind"] == "self_draw"
    for seat in (0, 1):
        for d in replayed_decisions(events, seat):
            assert d.action in d.position.legal_actions()
    p = position_at(events, 0, decision_steps(events, 0)[0])
    assert p.seats[2].wins[0].wall == 72 - 40


def test_a_void_tile_kept_through_a_kong():
    # deal 39 of seed 101 (app): S0 (void s) discards 8m, draws 9s, makes a concealed kong,
    # draws 2s and throws the 9s from its hand, then the 2s: legal under void_first, once
    # refused ("S0 holds 1 tile(s) of its void suit", "S0 discards 9s ... from its hand")
    events = replay_events(101, 39, "app", "expert/speed/expert/speed")
    assert [ev["type"] for ev in events[12:16]] == ["draw", "kong", "draw", "discard"]
    for seat in range(4):
        for d in replayed_decisions(events, seat):
            assert d.action in d.position.legal_actions()
    p = position_at(events, 1, 15)
    hands, wall = true_hidden(events, 1, 15)
    assert hands[0][18:].sum() == 1  # S0 still holds the 2s
    _admits(p, hands, wall)


def test_replay_steps_number_every_event():
    from simcore.engine.replay import render

    events = list(_events("app", 2))
    plain, numbered = render(events).splitlines(), render(events, steps=True).splitlines()
    width = len(str(len(events) - 1))
    assert [line[width + 2:] for line in numbered] == plain
    heads = [int(line[:width]) for line in numbered if line[:width].strip()]
    assert heads == list(range(len(events)))
