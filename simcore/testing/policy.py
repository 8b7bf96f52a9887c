"""The contract every policy must pass: ``check_policy(spec, rules=...)``.

A policy is a plug-in of the engine (one spec grammar, one set of decision functions); whatever
it decides, the deals it plays must stay deals of the rule book and of the run format. For one
spec under one rules record, :func:`check_policy` plays two tables, the spec at every seat and
the spec against ``others`` (seats 0 and 2 the spec; at a three-player table, docs/rules section
9, seat 0 the spec and seats 1 and 2 the others), and checks:

1. **invariants on every deal**: the kernel's checker (:func:`simcore.engine.invariants.
   check_deal`, the ``debug`` mode of :func:`simcore.engine.simulate`: tiles accounted for,
   counts in 0..4, zero-sum payments, at most ``players - 1`` winners, no void tile in a
   winning hand, no pig among the winners, no pig at all with two suits) and the record
   checks (:func:`~simcore.engine.invariants.check_records`), in plain and duplicate runs;
2. **chunking never changes a deal**: the deals played as one chunk equal the same deals played
   in several chunks (one deal alone among them), plain and duplicate;
3. **replay equals batch**: the JSON replay (:func:`simcore.engine.replay.replay`) of some deals
   gives the batch's records exactly, and its payments add up to the nets;
4. **bad options are errors naming the option**: a bad value of each option, an unknown option
   and an option given twice are ``ValueError`` whose message names it (a policy without
   options refuses any), through the spec parser and through :func:`simcore.engine.play`;
   with two suits ``void=m`` is refused by :func:`simcore.engine.play`, naming the suit m.

Any failure raises ``AssertionError`` naming the spec, the rules and the deal.

>>> check_policy("speed:kong=never", "tfmj", deals=20).deals
20
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcore.engine import play, simulate
from simcore.engine.invariants import check_records
from simcore.engine.replay import replay
from simcore.engine.spec import Option, PolicySpec, parse_spec, policy_names, split_policies
from simcore.records import to_dataframe
from simcore.rules import Rules, resolve_rules

DEFAULT_OTHERS = "random/speed"  # the two other seats of the mixed table (1 and 3)


@dataclass(frozen=True)
class PolicyCheck:
    """What :func:`check_policy` played and checked (all of it passed)."""

    spec: str  # the canonical spec text
    rules: str  # the preset the rules record came from
    tables: tuple[tuple[str, ...], ...]  # the seat policies of each table played
    deals: int  # deals per table (and walls of the duplicate run: ``deals // players``)
    replayed: tuple[int, ...]  # the deals replayed per table
    options: tuple[str, ...]  # the options whose bad values were refused


def check_policy(
    spec: str,
    rules: str | Rules | Mapping[str, object] = "classic",
    *,
    overrides: Mapping[str, object] | Sequence[str] = (),
    deals: int = 200,
    seed: int = 7,
    others: str = DEFAULT_OTHERS,
    replays: int = 3,
) -> PolicyCheck:
    """Check the policy contract for ``spec`` under ``rules`` (+ ``overrides``); see the module.

    ``deals`` per table (at least 4), ``seed`` of every run, ``others`` the specs of seats 1 and
    3 of the mixed table (one, or two separated by ``/``), ``replays`` deals replayed per table.
    """
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 4:
        raise ValueError(f"deals must be an integer >= 4, got {deals!r}")
    if isinstance(replays, bool) or not isinstance(replays, int) or not 1 <= replays <= deals:
        raise ValueError(f"replays must be an integer in 1..deals, got {replays!r}")
    parsed = parse_spec(spec)
    again = parse_spec(parsed.text)
    _check(again.text == parsed.text and again.params == parsed.params,
           f"spec '{spec}': its canonical text '{parsed.text}' does not parse back to it")
    record = resolve_rules(rules, overrides)
    other = parse_spec_list(others)
    players = record.players
    tables: tuple[tuple[str, ...], ...]
    if players == 4:
        tables = ((parsed.text,) * 4, (parsed.text, other[0], parsed.text, other[1]))
    else:
        tables = ((parsed.text,) * 3, (parsed.text, other[0], other[1]))
    replayed = tuple(int(d) for d in np.linspace(0, deals - 1, replays).round())
    for seats in tables:
        where = f"policy '{parsed.text}' ({record.preset}, seats {'/'.join(seats)}, seed {seed})"
        batch = _invariants(record, seats, seed, deals, False, where)
        _chunking(record, seats, seed, batch, False, where)
        duplicate = _invariants(record, seats, seed, max(1, deals // players), True, where)
        _chunking(record, seats, seed, duplicate, True, where)
        _replay_equals_batch(record, seats, seed, batch, replayed, False, where)
        _replay_equals_batch(record, seats, seed, duplicate,
                             (0, len(duplicate) // players - 1), True, where)
    options = _bad_options(parsed, record)
    return PolicyCheck(parsed.text, record.preset, tables, deals, replayed, options)


def parse_spec_list(others: str) -> tuple[str, str]:
    """The canonical specs of seats 1 and 3: one spec for both, or two separated by ``/``."""
    parts = split_policies(others, 2, "others '{text}' names {n} seats; give one spec for "
                                      "seats 1 and 3 or two separated by '/'")
    return parse_spec(parts[0]).text, parse_spec(parts[1]).text


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)


def _invariants(record: Rules, seats: tuple[str, ...], seed: int, count: int, duplicate: bool,
                where: str) -> np.ndarray:
    try:
        out = simulate(record, seats, seed, 0, count, duplicate=duplicate, debug=True)
    except RuntimeError as err:  # the kernel's checker names the deal
        raise AssertionError(f"{where}: {err}") from None
    try:
        check_records(out, record.players, record.suits, blood_river=record.blood_river)
    except AssertionError as err:
        raise AssertionError(f"{where}{' (duplicate)' if duplicate else ''}: {err}") from None
    return out


def _chunking(record: Rules, seats: tuple[str, ...], seed: int, whole: np.ndarray,
              duplicate: bool, where: str) -> None:
    """The deals of ``whole`` played again in three chunks (the middle one a single deal or
    wall) give the same records, field by field."""
    players = record.players
    count = len(whole) // (players * players if duplicate else players)
    if count < 2:
        return
    a = max(1, count // 3)
    parts = [simulate(record, seats, seed, start, n, duplicate=duplicate)
             for start, n in ((0, a), (a, 1), (a + 1, count - a - 1)) if n > 0]
    split = np.concatenate(parts)
    if not np.array_equal(whole, split):
        rows = np.flatnonzero(whole != split)
        deal = int(whole["deal"][rows[0]])
        raise AssertionError(f"{where}: chunking changed deal {deal} "
                             f"({'duplicate, ' if duplicate else ''}chunks 0..{a - 1}, {a}, "
                             f"{a + 1}..{count - 1})")


def _replay_equals_batch(record: Rules, seats: tuple[str, ...], seed: int, batch: np.ndarray,
                         deals: Sequence[int], duplicate: bool, where: str) -> None:
    """Replays of ``deals`` (rows of ``batch`` in groups of ``players``) equal the batch
    records."""
    names = policy_names(seats)
    players = record.players
    for k in deals:
        rows = batch[players * k: players * k + players]
        deal = int(rows["deal"][0])
        events, df = replay(seed, deal, record, list(seats), duplicate=duplicate)
        expected = to_dataframe(rows, names, preset=record.preset)
        try:
            pd.testing.assert_frame_equal(df.reset_index(drop=True),
                                          expected.reset_index(drop=True))
        except AssertionError as err:
            raise AssertionError(f"{where}: the replay of deal {deal} differs from the batch "
                                 f"record{' (duplicate)' if duplicate else ''}: {err}") from None
        net = [0] * players
        for ev in events:
            for payer, payee, units, _reason in ev.get("payments", []):
                net[payer] -= units
                net[payee] += units
        _check(net == rows["net"].tolist() == events[-1]["net"],
               f"{where}: the payments of the replay of deal {deal} sum to {net}, the records "
               f"say {rows['net'].tolist()}")


def _bad_values(opt: Option) -> tuple[str, ...]:
    if opt.kind == "choice":
        return ("nonsense", "")
    if opt.kind == "bool":
        return ("2", "yes")
    if opt.kind == "tiles":
        return ("12m3p", "1m", "x")
    return ("-1", "x", "1.5")


def _refused(text: str, named: str, record: Rules) -> None:
    """``text`` is a ValueError naming ``named``, from the parser and from :func:`play`."""
    for call in (lambda: parse_spec(text), lambda: play(1, rules=record, policies=text)):
        try:
            call()
        except ValueError as err:
            _check(named in str(err),
                   f"spec '{text}' is refused with a message that does not name {named}: {err}")
        else:
            raise AssertionError(f"spec '{text}' is accepted; it should be an error naming "
                                 f"{named}")


def _bad_options(parsed: PolicySpec, record: Rules) -> tuple[str, ...]:
    name = parsed.policy.name
    options = parsed.policy.options
    if not options:
        _refused(f"{name}:k=1", "takes no options", record)
        return ()
    for opt in options:
        for value in _bad_values(opt):
            if value:
                _refused(f"{name}:{opt.name}={value}", f"option '{opt.name}'", record)
            else:
                _refused(f"{name}:{opt.name}=", f"'{opt.name}='", record)
        default = _default_text(opt)
        _refused(f"{name}:{opt.name}={default},{opt.name}={default}",
                 f"option '{opt.name}' given twice", record)
    _refused(f"{name}:no_such_option=1", "'no_such_option'", record)
    if record.suits == 2 and any(o.name == "void" for o in options):
        # the spec parses (it names no rules); the rules with two suits refuse it
        text = f"{name}:void=m"
        try:
            play(1, rules=record, policies=text)
        except ValueError as err:
            _check("void=m" in str(err) and "suit m" in str(err),
                   f"spec '{text}' under two suits is refused with a message that does not "
                   f"name the suit m: {err}")
        else:
            raise AssertionError(f"spec '{text}' is accepted with suits = 2; it should be an "
                                 "error naming the suit m")
    return tuple(o.name for o in options)


def _default_text(opt: Option) -> str:
    if opt.kind == "tiles":
        return "none"
    return opt.choices[int(opt.default)] if opt.kind == "choice" else str(int(opt.default))
