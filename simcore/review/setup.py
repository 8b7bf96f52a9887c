"""Advice for a deal's first two decisions: which three tiles to pass, which suit to void.

The advisor's positions (:mod:`simcore.advice.position`) start after both, so these two are
ranked another way, by conditional dealing (:mod:`simcore.engine.conditional`, the what-if
walls): the table is turned so that the deciding seat is seat 0, which is dealt exactly the hand
it holds at the decision (before the exchange for the exchange, after it for the void) with the
real dealer; every other tile is shuffled uniformly, except that for the void the three tiles
the seat passed are in the hand of the seat that received them. Each action is a *plan*: the
seat's policy with the choice forced (``give=159m``, ``void=p``), then playing on as itself; the
others play ``field`` and choose their own exchange and void. All actions are played on the same
walls and streams (common random numbers), so their differences are paired.

As in :func:`simcore.advice.advisor.advise`, the best action is picked on one set of deals and
its margins are measured again on fresh deals (``seed`` gives both), so the differences carry no
winner's curse. The table has the advisor's columns
(:data:`simcore.advice.advisor.TABLE_COLUMNS`).

The exchange's candidates are not every three tiles of a suit (a 7-tile suit alone has 35
choices): per suit, the :data:`EXCHANGE_PER_SUIT` choices that leave the rest of the hand
closest to ready (:func:`exchange_candidates`), and always the action taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcore.tiles import SUITS, tiles_str

EXCHANGE_PER_SUIT = 2  # candidate exchanges per suit holding three or more tiles
SETUP_KINDS = ("exchange", "void")
CONFIRM_SEED = 1  # the confirmation's deals come from (seed, CONFIRM_SEED)


class SetupUnsupportedError(ValueError):
    """A setup decision these rollouts cannot rank (the reason is the message)."""


@dataclass(frozen=True)
class SetupDecision:
    """The exchange or the void of ``seat``: ``hand`` (counts) as held when deciding, the
    action taken, and for a void after an exchange the seat that received the seat's three."""

    kind: str  # "exchange" or "void"
    step: int  # the event right after which it is decided (replayed.py): the deal, the exchange
    seat: int
    dealer: int
    hand: np.ndarray  # int8[27]
    taken: str  # the action's text: "pass 159m", "void p"
    receiver: int | None = None  # void after an exchange: the seat holding the passed three
    given: tuple[int, int, int] | None = None

    def actions(self) -> list[str]:
        """The actions ranked: every suit for the void; the candidates and the taken three for
        the exchange."""
        if self.kind == "void":
            return [f"void {s}" for s in SUITS]
        cands = [exchange_text(c) for c in exchange_candidates(self.hand)]
        return cands if self.taken in cands else [*cands, self.taken]

    def describe(self) -> str:
        """The decision as a line of text: the seat, the hand, the dealer."""
        held = tiles_str([t for t in range(27) for _ in range(int(self.hand[t]))])
        what = "exchange three" if self.kind == "exchange" else "void"
        return f"S{self.seat} {what}: hand {held}, dealer S{self.dealer}"


def hand_of(text: str) -> np.ndarray:
    """The hand (counts) of a decision's :meth:`SetupDecision.describe` text."""
    from simcore.tiles import parse

    return parse(text.split("hand ", 1)[1].split(",", 1)[0], sizes="any").counts


def exchange_text(types: Sequence[int]) -> str:
    return "pass " + tiles_str(sorted(int(t) for t in types))


def exchange_candidates(hand: np.ndarray, per_suit: int = EXCHANGE_PER_SUIT
                        ) -> list[tuple[int, int, int]]:
    """Per suit holding three tiles or more, the ``per_suit`` choices of three of its tiles
    whose removal leaves the rest of the hand (10 or 11 tiles, read as a hand with one meld)
    closest to ready for its best void: the shanten, ties by the tiles in suit order."""
    from simcore.hand import shanten

    out: list[tuple[int, int, int]] = []
    for s in range(3):
        held = [t for t in range(9 * s, 9 * s + 9) for _ in range(int(hand[t]))]
        choices = sorted(set(itertools.combinations(held, 3)))
        if not choices:
            continue
        rests = np.repeat(hand[None, :].astype(np.int8), len(choices), axis=0)
        for i, c in enumerate(choices):
            for t in c:
                rests[i, t] -= 1
        best = np.min(np.stack([np.asarray(shanten(rests, void=v, n_melds=1))
                                for v in range(3)]), axis=0)
        order = np.argsort(best, kind="stable")[:per_suit]
        out += [tuple(int(t) for t in choices[i]) for i in order]  # type: ignore[misc]
    return out


def setup_decisions(events: Sequence[dict[str, Any]], seat: int) -> list[SetupDecision]:
    """The exchange (when the record has one) and the void of ``seat`` in a record's events
    (version 1 form: tiles as indices), with the hand held at each."""
    from simcore.table import receiver as receiver_of

    deal = events[0]
    dealer = int(deal["dealer"])
    hand = np.zeros(27, np.int8)
    for t in deal["hands"][seat]:
        hand[t] += 1
    found: list[SetupDecision] = []
    receiver, given = None, None
    for n, ev in enumerate(events[1:4], start=1):
        if ev.get("type") == "exchange":
            mine = ev["given"][seat]
            found.append(SetupDecision("exchange", n - 1, seat, dealer, hand.copy(),
                                       exchange_text(mine)))
            players, way = len(deal["hands"]), ev["direction"]
            receiver = receiver_of(seat, way, players)
            given = tuple(int(t) for t in sorted(mine))
            got = ev.get("received")
            if got is None:  # a complete record: what the seat that passes to it gave
                giver = next(g for g in range(players) if receiver_of(g, way, players) == seat)
                got = ev["given"][giver]
            else:
                got = got[seat]
            for t in mine:
                hand[t] -= 1
            for t in got:
                hand[t] += 1
        elif ev.get("type") == "void":
            suit = ev["suits"][seat]
            if suit is None or suit not in SUITS:
                break  # two suits: no void declared
            found.append(SetupDecision("void", n - 1, seat, dealer, hand.copy(), f"void {suit}",
                                       receiver, given))  # type: ignore[arg-type]
            break
    return found


def advise_setup(decision: SetupDecision, rules: Any, policy: str,
                 field: str | Sequence[str], *, samples: int = 256, seed: int = 0,
                 level: float = 0.95) -> pd.DataFrame:
    """Every action of ``decision`` ranked by the seat's expected net for the deal (the
    module docstring): the advisor's table, best first, ``samples`` deals to choose the best
    and as many fresh ones for the differences."""
    from simcore.advice.advisor import action_table, verdict
    from simcore.engine.spec import parse_spec, split_policies
    from simcore.rollouts import WhatifSetup, play_whatif
    from simcore.rules import resolve_rules

    rules = resolve_rules(rules)
    if rules.players != 4 or rules.suits != 3:
        raise SetupUnsupportedError(
            f"the {decision.kind} is ranked on four-player, three-suit deals; rules "
            f"'{rules.preset}' have players = {rules.players}, suits = {rules.suits}")
    spec = parse_spec(policy)
    option = "give" if decision.kind == "exchange" else "void"
    if option not in {o.name for o in spec.policy.options}:
        raise SetupUnsupportedError(f"policy '{spec.policy.name}' cannot be told its "
                                    f"{decision.kind} (it has no {option} option)")
    actions = decision.actions()
    plans = tuple(_forced(spec.text, option, a.split()[1]) for a in actions)
    others = tuple(parse_spec(s).text for s in split_policies(field, 3, "field '{text}' names "
                                                                         "{n} seats; give one "
                                                                         "or three"))
    turn = decision.seat  # the table turned so that the seat is seat 0
    rec = rules.replace(exchange_three=decision.kind == "exchange")
    receiver, given = 0, (0, 0, 0)
    if decision.kind == "void" and decision.receiver is not None:
        receiver, given = (decision.receiver - turn) % 4, decision.given or (0, 0, 0)
    parts = []
    for k in range(2):
        sub = int(np.random.SeedSequence([int(seed), k]).generate_state(1)[0]) >> 1
        setup = WhatifSetup(hand=decision.hand, hand_text="", dealer=decision.dealer == turn,
                            void=-1, plans=tuple(actions), plan_specs=plans,
                            others=others, rules=rec, seed=sub,  # type: ignore[arg-type]
                            deals=samples, dealer_seat=(decision.dealer - turn) % 4,
                            receiver=receiver, given=given)  # type: ignore[arg-type]
        parts.append(_outcomes(play_whatif(setup).seat0()))
    t = action_table(actions, parts[0], parts[1], level)
    t.attrs.update(samples=samples, kind=decision.kind, policy=spec.text,
                   field="/".join(others), seed=seed, verdict=verdict(t))
    return t


def _forced(spec: str, option: str, value: str) -> str:
    """``spec`` (canonical) with ``option`` set to ``value``, whatever it set before."""
    from simcore.engine.spec import parse_spec

    name, _, rest = spec.partition(":")
    kept = [item for item in rest.split(",") if item and item.split("=")[0] != option]
    return parse_spec(f"{name}:{','.join([*kept, f'{option}={value}'])}").text


def _outcomes(s0: np.ndarray) -> Any:
    """The advisor's outcomes (deals x actions) of seat 0's records ``[action, deal]``."""
    from simcore.advice.playing import Outcomes

    won = (s0["win_order"] > 0).T
    return Outcomes(net=s0["net"].astype(np.int64).T, win=won,
                    deal_in=(s0["deal_ins"] > 0).T,
                    fan_sum=np.where(won, s0["fan"].T, 0).astype(np.int64),
                    wins=won.astype(np.int64), pig=(s0["pig"] > 0).T,
                    weight=np.ones(s0.shape[1]))
