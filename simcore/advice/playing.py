"""Playing a position's actions out: hidden states from the sampler, rollouts through the
engine's entry kernel (``LAYOUT_ROLLOUT``), per-rollout outcomes of the deciding seat.

:class:`Rollouts` holds what is fixed for a position (the base state, the actions, the seats'
policies); :meth:`Rollouts.play` plays a batch of hidden states and returns, per hidden state
and action, the seat's net (the rest of the deal, units), whether it won (again), dealt in,
the fan of its wins and whether it ended a flower pig.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from simcore.advice.loading import Loaded, base_state, force_rows, hidden_arrays
from simcore.advice.position import Action, Position
from simcore.advice.sampler import HiddenSamples
from simcore.engine.spec import check_for_rules, parse_policies, policy_arrays, split_policies
from simcore.engine.state import P_WINS, S_LANES, S_ROLLOUT_SEAT
from simcore.records import RECORD_DTYPE, empty_wins


class Outcomes(NamedTuple):
    """Per hidden state (rows) and action (columns), for the deciding seat."""

    net: np.ndarray  # int64[n, k]: units won (lost) from the decision to the deal's end
    win: np.ndarray  # bool[n, k]: won (again, blood river) after the decision
    deal_in: np.ndarray  # bool[n, k]: fed another seat's win after the decision
    fan_sum: np.ndarray  # int64[n, k]: the fan of those wins (capped), summed
    wins: np.ndarray  # int64[n, k]: the number of those wins
    pig: np.ndarray  # bool[n, k]: ended a flower pig
    weight: np.ndarray  # float64[n]: the hidden state's behaviour likelihood (1: uniform)
    # bool[n, k]: which actions were played on each hidden state (None: every one); the other
    # cells of the arrays above are zero (the advisor's per-action allocation)
    played: np.ndarray | None = None


FIELD_COUNT = ("field '{text}' names {n} seats; give one spec for the other seats, one per "
               "other seat ({seats}) or one per seat, separated by '/'")


def seat_policies(p: Position, policy: str, field: str | Sequence[str]) -> list[str]:
    """The seats' specs: ``policy`` for the deciding seat, ``field`` for the others (one spec,
    one per other seat in seat order, or one per seat as in ``simcore run``, the deciding
    seat's then ignored)."""
    players = p.players
    parts = field.split("/") if isinstance(field, str) else list(field)
    if len(parts) == players and players > 2:
        others = [s for k, s in enumerate(parts) if k != p.seat]
    else:
        others = split_policies(parts, players - 1, wrong=FIELD_COUNT)
    seats = parse_policies([*others[: p.seat], policy, *others[p.seat:]], players)
    check_for_rules(seats, p.rules.suits)
    return seats


class Rollouts:
    """A position's actions played out on batches of hidden states (common random numbers:
    every action of a hidden state on the same wall, with the same random streams)."""

    def __init__(self, position: Position, actions: Sequence[Action], policy: str = "expert",
                 field: str | Sequence[str] = "expert", *, seed: int = 0, debug: bool = False,
                 behaviour: float | None = None, lanes: bool = False,
                 stop_when_settled: bool = True):
        self.position = position
        self.actions = list(actions)
        self.policies = seat_policies(position, policy, field)
        self.seed = int(seed)
        self.debug = debug
        self.loaded: Loaded = base_state(position)
        # seat lanes (engine/lanes.py): each seat's draws stay the same under every action;
        # off (the default until the published reviews are re-run with them), the wall is drawn
        # as laid (a true hidden state then replays its deal)
        self.lanes = lanes
        self.loaded.base.sc[S_LANES] = 1 if lanes else 0
        # a rollout ends as soon as the seat's net is final (it has won, and no drawn end can
        # pay or charge it: drawn_end.owes_and_is_owed_nothing): the seat's outcomes are those
        # of the whole deal, the other seats' are cut short (nothing here reads them)
        self.loaded.base.sc[S_ROLLOUT_SEAT] = position.seat + 1 if stop_when_settled else 0
        self.forces = force_rows(position, self.loaded, self.actions)
        self.behaviour = behaviour
        self.observed = observed_discards(position) if behaviour is not None \
            else np.full(4, -1, np.int64)
        self._pid, self._params, self._index = policy_arrays(self.policies)
        self._R = position.rules.encode()
        self._past_wins = int(self.loaded.base.pl[position.seat, P_WINS])
        from simcore.hand.tables import load_tables

        self._T = load_tables()

    def play(self, samples: HiddenSamples, start: int, log: bool = False,
             active: np.ndarray | None = None) -> Any:
        """Play every action on each hidden state of ``samples`` (sample ``start + j`` of the
        seed's random streams): their :class:`Outcomes`, or with ``log`` the state the last
        rollout left (its event log). ``active`` (bool per action) plays only those actions:
        the others' cells are zero and not ``played`` (an action's streams do not depend on
        which others are played, so the pairs stay common random numbers)."""
        if active is not None and not np.all(active):
            chosen = np.flatnonzero(active)
            sub = self._subset(chosen)
            part = sub.play(samples, start, log)
            return part if log else _widen(part, chosen, len(self.actions))
        from simcore.engine.kernel import LAYOUT_ROLLOUT, call
        from simcore.engine.kernel import Rollouts as KernelRollouts
        from simcore.engine.state import new_state

        p = self.position
        hidden, walls = hidden_arrays(p, self.loaded, samples)
        n, k, players = len(hidden), len(self.actions), p.players
        out = np.zeros(n * k * players, RECORD_DTYPE)
        wins = empty_wins(16 + 4 * n * k)
        st = new_state(log=log)
        while True:
            errors = call(st, self._R, self._T, self._pid[None], self._params[None],
                          self._index[None], self.seed, start, n, LAYOUT_ROLLOUT,
                          out=out, debug=self.debug, wins=wins,
                          rollouts=KernelRollouts(hidden, walls, self.forces, self.loaded.base))
            if errors[0] != 0:
                from simcore.engine.invariants import ERROR_TEXT

                raise AssertionError(f"rollout of sample {errors[1]}, action "
                                     f"{self.actions[errors[2]]}: {ERROR_TEXT[int(errors[0])]}")
            if errors[3] <= len(wins):
                break
            wins = empty_wins(int(errors[3]))
        wins = wins[: errors[3]]
        if self.behaviour is None or log:
            weights = np.ones(n)
        else:
            from simcore.engine.behaviour import weigh

            weights = weigh(new_state(), self.loaded.base, self._R, self._T, self._pid,
                            self._params, hidden, walls, self.seed, start, self.observed,
                            self.behaviour)
        return st if log else self._outcomes(out, wins, start, n, k, weights)

    def _subset(self, chosen: np.ndarray) -> Rollouts:
        """These rollouts restricted to the actions ``chosen`` (a shallow copy: the base
        state, tables and arrays are shared)."""
        import copy

        sub = copy.copy(self)
        sub.actions = [self.actions[a] for a in chosen]
        sub.forces = self.forces[chosen]
        return sub

    def _outcomes(self, out: np.ndarray, wins: np.ndarray, start: int, n: int, k: int,
                  weights: np.ndarray) -> Outcomes:
        seat, players = self.position.seat, self.position.players
        mine = out.reshape(n, k, players)[:, :, seat]
        new = wins[(wins["seat"] == seat) & (wins["win_number"] > self._past_wins)]
        i = new["deal"].astype(np.int64) - start  # the win table's deal is the sample
        a = new["rotation"].astype(np.int64)  # and its rotation the action
        n_wins = np.zeros((n, k), np.int64)
        fan_sum = np.zeros((n, k), np.int64)
        np.add.at(n_wins, (i, a), 1)
        np.add.at(fan_sum, (i, a), new["fan"].astype(np.int64))
        return Outcomes(net=mine["net"].astype(np.int64), win=n_wins > 0,
                        deal_in=mine["deal_ins"] > 0, fan_sum=fan_sum, wins=n_wins,
                        pig=mine["pig"].astype(bool), weight=weights)


def _widen(part: Outcomes, chosen: np.ndarray, k: int) -> Outcomes:
    """``part`` (the outcomes of the actions ``chosen``) as outcomes of all ``k`` actions, the
    others not played."""
    n = len(part.net)
    wide = {}
    for name in Outcomes._fields[:-2]:  # the per-action arrays (not weight, played)
        x = getattr(part, name)
        w = np.zeros((n, k), x.dtype)
        w[:, chosen] = x
        wide[name] = w
    played = np.zeros((n, k), bool)
    played[:, chosen] = True
    return Outcomes(**wide, weight=part.weight, played=played)


def observed_discards(p: Position) -> np.ndarray:
    """``int64[4]``: each other seat's latest discard, when its concealed tiles have not changed
    since (it is in play and not a locked blood-river hand, and not the maker of the kong on
    offer), else -1: the behaviour model's evidence
    (:func:`simcore.engine.behaviour.behaviour_likelihood`)."""
    from simcore.engine.rollout import OBSERVED_DRAWN, OBSERVED_HELD

    observed = np.full(4, -1, np.int64)
    d = p.decision
    for k, view in enumerate(p.seats):
        if k == p.seat or not view.discards or view.wins or (d.kind == "on-kong" and k == d.by):
            continue
        last = view.discards[-1]
        observed[k] = last.tile | (OBSERVED_DRAWN if last.drawn else 0) \
            | (OBSERVED_HELD if d.kind == "on-discard" and k == d.by else 0)
    return observed


def first_action(position: Position, policy: str, seed: int = 0) -> Action:
    """The action ``policy`` takes at ``position``: one rollout on a hidden state drawn exactly
    (seed ``seed``), nothing forced on the seat, its first move read off the event log."""
    from simcore.advice.sampler import HiddenSampler
    from simcore.engine.state import EV_DISCARD, EV_KONG, EV_PUNG, EV_WIN, S_LOG, S_N_EVENTS

    others = "random" if policy == "random" else policy
    roll = Rollouts(position, position.legal_actions()[:1], policy, others, seed=seed)
    roll.forces[:, 1:4] = -1  # the seat's own policy decides
    roll.loaded.base.sc[S_LOG] = 1
    samples = HiddenSampler(position).sample(1, np.random.default_rng([int(seed), 0]))
    st = roll.play(samples, 0, log=True)
    seat = position.seat
    for row in st.events[: st.sc[S_N_EVENTS]]:
        kind, who, tile = int(row[0]), int(row[1]), int(row[2])
        if who != seat:
            continue
        if kind == EV_WIN:
            return Action("win")
        if kind == EV_DISCARD:
            return Action("discard", tile)
        if kind in (EV_KONG, EV_PUNG):
            return Action("kong" if kind == EV_KONG else "pung", tile)
        if position.decision.kind != "turn":
            break  # the seat's next event is not on this decision: it passed
    return Action("pass")
