"""What if I hold this hand? Plans for one hand compared on common random walls.

:func:`whatif` is also ``simcore.whatif``; the module has its own name (a module
``simcore.whatif`` would hide the function: importing a submodule binds its name in the package).

A player at the table asks about *this* hand: "I hold ``1123455789m 46p 9s`` after the exchange:
do I chase the flush or play fast?". :func:`whatif` answers by conditional dealing
(:mod:`simcore.engine.conditional`): many deals in which seat 0 is dealt exactly this hand and the
unseen tiles are shuffled uniformly, each deal played once per *plan* (a policy spec for seat 0)
on the same wall, the other seats playing ``others``. The table gives, per plan, the mean net per
deal, the win probability, the mean win order and draw of the win, the fan distribution of the
wins and the flower-pig rate, each with its 95% interval; then the paired difference of every
plan with the best one (same walls, so the interval is narrower than an unpaired one) and a
one-line verdict that says whether the data separate the plans.

Choices (documented in the result's ``attrs`` and by warnings):

- Seat 0 is the fixed seat. With ``dealer=True`` it deals (14 tiles); otherwise the dealer of
  deal ``i`` is seat ``1 + i % 3``.
- The hand is taken as *after the exchange*: the deals are played with ``exchange_three`` off for
  every seat (a warning says so when the rules had it on).
- ``void`` fixes seat 0's void suit: every plan is given the policy option ``void=m|p|s`` (a
  plan of a policy without a void option, ``random``, is then an error; without ``void`` the
  ``void`` column shows the suit each plan chose). A void suit holding five or more of the hand's
  tiles is allowed but warned.

>>> t = whatif("1123455789m 46p 9s", plans=["speed", "speed:ukeire=0"], deals=200, seed=1)
>>> list(t.plan), int(t.deals.iloc[0])
(['speed', 'speed:ukeire=0'], 200)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simcore._input import did_you_mean, positive_int, seed_int
from simcore.analysis.stats import (
    DEFAULT_LEVEL,
    mean_interval,
    paired_interval,
    proportion_interval,
)
from simcore.engine.spec import PolicySpec, parse_spec, split_policies
from simcore.records import RECORD_DTYPE, SUIT_LETTERS, WALL_SIZE, to_dataframe
from simcore.rules import Rules, resolve_rules
from simcore.tiles import N_COPIES, SUITS, check_tile_set, parse, tiles_from_counts, tiles_str

DEFAULT_PLANS = ("speed", "flush:k=0", "pungs:k=0", "pairs:k=0")
DEFAULT_DEALS = 10_000
MAX_DEALS = 1_000_000  # records of every seat are kept: ~290 bytes per deal and plan
CHUNK_DEALS = 1_000  # deals per kernel call (all plans): the progress bar's step
# A void suit holding this many tiles or more is warned: the shortest suit of a 13- or 14-tile
# hand holds at most 4, so such a void is never the natural one, and clearing it (one discard a
# turn, no pung or kong of the void suit) takes at least this many of the ~13 own turns of a deal.
VOID_WARN_TILES = 5
FAN_BINS = 6  # fan_0 .. fan_4 and fan_5plus
FAN_COLUMNS = tuple(f"fan_{f}" for f in range(FAN_BINS - 1)) + (f"fan_{FAN_BINS - 1}plus",)

TABLE_COLUMNS = (
    "plan", "deals", "void", "void_share",
    "net", "net_se", "net_ci_low", "net_ci_high",
    "win", "win_ci_low", "win_ci_high",
    "win_order", "win_order_ci_low", "win_order_ci_high",
    "win_draw", "win_draw_ci_low", "win_draw_ci_high",
    "fan_mean", *FAN_COLUMNS,
    "flush_win", "flush_win_ci_low", "flush_win_ci_high",
    "pig", "pig_ci_low", "pig_ci_high",
    "best", "diff", "diff_se", "diff_ci_low", "diff_ci_high", "diff_p",
)


class WhatifWarning(UserWarning):
    """A what-if input that is allowed but probably not what the player meant."""


# ----------------------------------------------------------------------------- input
def parse_whatif_hand(hand: str | Sequence[int] | np.ndarray, dealer: bool) -> np.ndarray:
    """The fixed hand as ``int8[27]`` counts: 13 tiles, or 14 with ``dealer``; no melds.

    >>> tiles_str(tiles_from_counts(parse_whatif_hand("1123455789m 46p 9s", False)))
    '1123455789m46p9s'
    >>> parse_whatif_hand("1123455789m 46p 9s", True)
    Traceback (most recent call last):
    ...
    ValueError: hand '1123455789m 46p 9s' has 13 tiles; the dealer holds 14 after the exchange
    """
    if isinstance(hand, str):
        parsed = parse(hand, sizes="any")
        counts, melds = parsed.counts, parsed.melds
        if melds:
            raise ValueError(f"hand {hand!r} has melds after '|'; a what-if hand is the "
                             "concealed hand after the exchange, before any pung or kong")
        shown = hand
    else:
        arr = np.asarray(hand)
        if arr.shape != (27,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"a hand is a notation string or 27 integer counts, got {hand!r}")
        if (arr < 0).any():
            raise ValueError(f"hand counts must be >= 0, got {arr.tolist()}")
        counts = arr.astype(np.int16)
        shown = tiles_str(tiles_from_counts(np.minimum(counts, N_COPIES).astype(np.int8)))
        over = np.flatnonzero(counts > N_COPIES)
        if over.size:
            t = int(over[0])
            raise ValueError(f"{int(counts[t])} copies of {tiles_str([t])} in the hand; "
                             f"only {N_COPIES} exist")
    n = int(counts.sum())
    want = 14 if dealer else 13
    if n != want:
        who = "the dealer holds 14" if dealer else "a non-dealer holds 13"
        hint = ""
        if n == 14 and not dealer:
            hint = " (a 14-tile hand is the dealer's: pass dealer=True / --dealer)"
        raise ValueError(f"hand {shown!r} has {n} tiles; {who} after the exchange{hint}")
    return np.asarray(counts, dtype=np.int8)


def parse_void(void: str | int | None) -> int:
    """-1 for None, else the suit index of ``'m'``, ``'p'`` or ``'s'`` (or 0..2)."""
    if void is None:
        return -1
    if isinstance(void, str) and void in SUITS:
        return SUITS.index(void)
    if isinstance(void, int | np.integer) and not isinstance(void, bool) and 0 <= void <= 2:
        return int(void)
    raise ValueError(f"void {void!r} is not one of 'm', 'p', 's'" + did_you_mean(void, "mps"))


def void_warnings(counts: np.ndarray, void: int) -> list[str]:
    """Why a fixed void suit is a bad idea for this hand (empty when it is not).

    >>> void_warnings(parse_whatif_hand("1123455789m46p9s", False), 0)[0][:44]
    "void 'm' holds 10 of the hand's 13 tiles: it"
    """
    if void < 0:
        return []
    held = [int(counts[9 * s: 9 * s + 9].sum()) for s in range(3)]
    n = held[void]
    if n < VOID_WARN_TILES:
        return []
    short = min(range(3), key=lambda s: (held[s], s))
    return [
        f"void '{SUITS[void]}' holds {n} of the hand's {sum(held)} tiles: it takes at least {n} "
        f"of the ~13 own turns of a deal to clear (one discard a turn, no pung or kong of the "
        f"void suit), while '{SUITS[short]}' holds {held[short]}; expect a high flower-pig rate"
    ]


def _split_plans(plans: str | Sequence[str]) -> list[str]:
    items = plans.split(";") if isinstance(plans, str) else list(plans)
    if not all(isinstance(p, str) for p in items):
        raise ValueError(f"plans must be policy spec strings, got {plans!r}")
    items = [p.strip() for p in items]
    if not items or any(not p for p in items):
        raise ValueError(f"plans {plans!r}: give one or more policy specs (an empty spec is not "
                         "a plan)")
    return items


def _parse_plan(text: str, role: str) -> PolicySpec:
    try:
        return parse_spec(text)
    except ValueError as exc:
        raise ValueError(f"{role} '{text}': {exc}") from None


def _force_void(spec: PolicySpec, void: int) -> str:
    """The spec text of ``spec`` with its void option fixed to suit ``void``."""
    letter = SUITS[void]
    try:
        opt = spec.policy.option("void")
    except ValueError:
        raise NotImplementedError(
            f"a fixed void (void='{letter}') needs the policy to be told its void suit, and "
            f"policy '{spec.policy.name}' has no void option; leave void unset with this plan "
            "and read the suit it declares in the 'void' column"
        ) from None
    if spec.params[opt.slot] != opt.default:
        raise ValueError(f"plan '{spec.text}' sets the void option itself; drop it or drop the "
                         f"fixed void '{letter}'")
    sep = "," if ":" in spec.text else ":"
    return f"{spec.text}{sep}void={letter}"


def _unique_labels(texts: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    labels = []
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
        labels.append(t if seen[t] == 1 else f"{t} #{seen[t]}")
    return labels


@dataclass(frozen=True)
class WhatifSetup:
    """Validated inputs of a what-if run (see :func:`prepare`)."""

    hand: np.ndarray  # int8[27]
    hand_text: str
    dealer: bool
    void: int  # -1 = the plan chooses
    plans: tuple[str, ...]  # plan labels (canonical specs, duplicates numbered)
    plan_specs: tuple[str, ...]  # seat 0's spec of each plan (with the forced void, if any)
    others: tuple[str, str, str]  # specs of seats 1, 2, 3
    rules: Rules  # as played (exchange_three off)
    seed: int
    deals: int
    warnings: tuple[str, ...] = field(default=())
    # A fixed dealer seat (None: the dealer flag's rule) and the seat that received the three
    # tiles seat 0 gave in an exchange already made, with them (engine/conditional.py): the
    # review of a void choice (simcore.review.setup) deals its table this way
    dealer_seat: int | None = None
    receiver: int = 0
    given: tuple[int, int, int] = (0, 0, 0)

    def layout(self) -> np.ndarray:
        """The conditional layout's ``one`` (engine/kernel.py): the dealer code, the
        receiver and its three tiles."""
        code = int(self.dealer) if self.dealer_seat is None else 1 + self.dealer_seat
        return np.array([code, self.receiver, *self.given, 0], np.int64)

    def describe(self) -> dict[str, Any]:
        """JSON-ready parameters of the run."""
        return {
            "hand": self.hand_text,
            "dealer": self.dealer,
            "dealer_rule": "seat 0" if self.dealer else "seat 1 + deal % 3",
            "void": SUITS[self.void] if self.void >= 0 else None,
            "plans": list(self.plans),
            "others": self.others[0] if len(set(self.others)) == 1 else "/".join(self.others),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals": self.deals,
            "warnings": list(self.warnings),
        }


def prepare(
    hand: str | Sequence[int] | np.ndarray,
    plans: str | Sequence[str] = DEFAULT_PLANS,
    deals: int = DEFAULT_DEALS,
    rules: str | Rules | Mapping[str, object] | None = "classic",
    dealer: bool = False,
    void: str | int | None = None,
    seed: int = 0,
    *,
    others: str = "speed",
    overrides: Mapping[str, object] | Sequence[str] = (),
) -> WhatifSetup:
    """Check every input of a what-if run; warnings are issued here (:class:`WhatifWarning`)."""
    if not isinstance(dealer, bool | np.bool_):
        raise ValueError(f"dealer must be True or False, got {dealer!r}")
    dealer = bool(dealer)
    counts = parse_whatif_hand(hand, dealer)
    hand_text = tiles_str(tiles_from_counts(counts))
    deals = positive_int("deals", deals)  # the words of every command (simcore._input)
    if deals > MAX_DEALS:
        raise ValueError(f"deals must be at most {MAX_DEALS:,} (every record is kept in "
                         f"memory), got {deals:,}")
    seed = seed_int(seed)
    suit = parse_void(void)
    record = resolve_rules(rules, overrides)
    check_tile_set(tiles_from_counts(counts), record.suits, f"hand {hand_text!r}")
    if record.players != 4 or record.suits != 3:
        # the conditional walls (engine/conditional.py) deal 108 tiles to four seats
        raise ValueError(f"what-if deals are played with four players and three suits; rules "
                         f"'{record.preset}' have players = {record.players}, suits = "
                         f"{record.suits}")
    notes: list[str] = []
    notes += void_warnings(counts, suit)
    if record.exchange_three:
        notes.append(
            f"rules '{record.preset}' have exchange_three on; the hand is taken as after the "
            "exchange, so these deals skip the exchange for every seat"
        )
        record = record.replace(exchange_three=False)
    plan_texts = _split_plans(plans)
    parsed = [_parse_plan(p, "plan") for p in plan_texts]
    if not isinstance(others, str):
        raise ValueError(f"others must be one policy spec or three separated by '/', "
                         f"got {others!r}")
    other_parts = split_policies(others, 3, "others '{text}' names {n} seats; give one spec "
                                            "for seats 1-3 or three separated by '/'")
    one, two, three = (_parse_plan(p, "others spec").text for p in other_parts)
    other_specs = (one, two, three)
    for note in notes:
        warnings.warn(note, WhatifWarning, stacklevel=3)
    seat0 = [p.text if suit < 0 else _force_void(p, suit) for p in parsed]
    return WhatifSetup(
        hand=counts, hand_text=hand_text, dealer=dealer, void=suit,
        plans=tuple(_unique_labels([p.text for p in parsed])), plan_specs=tuple(seat0),
        others=other_specs, rules=record, seed=int(seed), deals=int(deals),
        warnings=tuple(notes),
    )


# ----------------------------------------------------------------------------- play
def conditional_walls(
    hand: str | Sequence[int] | np.ndarray, dealer: bool = False, seed: int = 0,
    start: int = 0, count: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """``(walls int8[count, 108], dealers int64[count])`` of what-if deals ``start ..``.

    Exactly the walls :func:`whatif` plays: seat 0 is dealt ``hand`` in every one.
    """
    from simcore.engine.conditional import fill_conditional_walls

    counts = parse_whatif_hand(hand, bool(dealer))
    if count < 0 or start < 0 or seed < 0:
        raise ValueError(f"seed, start and count must be >= 0, got {seed}, {start}, {count}")
    walls = np.empty((count, WALL_SIZE), np.int8)
    dealers = np.empty(count, np.int64)
    fill_conditional_walls(counts, int(bool(dealer)), seed, start, walls, dealers,
                           np.zeros(4, np.int64))
    return walls, dealers


@dataclass
class WhatifResult:
    """The records of a what-if run (plan-major structured array) and its setup."""

    setup: WhatifSetup
    records_array: np.ndarray  # RECORD_DTYPE, row 4 * (plan * deals + deal) + seat
    names: list[str]  # the policy specs indexed by the records' policy column

    def seat0(self) -> np.ndarray:
        """Seat 0's records as an array ``[plan, deal]``."""
        n_plans = len(self.setup.plans)
        return self.records_array.reshape(n_plans, self.setup.deals, 4)[:, :, 0]

    def nets(self) -> pd.DataFrame:
        """Seat 0's net per deal: one column per plan, one row per deal (common walls)."""
        s0 = self.seat0()
        return pd.DataFrame({label: s0[p]["net"].astype(np.int64)
                             for p, label in enumerate(self.setup.plans)})

    def records(self) -> pd.DataFrame:
        """Every seat's records (the engine's columns) with a ``plan`` column."""
        df = to_dataframe(self.records_array, self.names, preset=self.setup.rules.preset)
        per_plan = 4 * self.setup.deals
        codes = np.repeat(np.arange(len(self.setup.plans)), per_plan)
        df.insert(0, "plan", pd.Categorical.from_codes(codes, categories=list(self.setup.plans)))
        return df

    def table(self, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
        """One row per plan with 95% intervals, paired differences and the verdict in attrs."""
        return summarize(self, level)


def play_whatif(setup: WhatifSetup, *, progress: bool | Callable[[int], None] = False,
                debug: bool = False) -> WhatifResult:
    """Play the deals of ``setup``, every plan on the same walls.

    ``progress``: True draws a tqdm bar on stderr; a callable is called with the number of
    deals (all plans counted) after each chunk.
    """
    from simcore.engine.invariants import ERROR_TEXT
    from simcore.engine.kernel import LAYOUT_CONDITIONAL, call
    from simcore.engine.spec import policy_names
    from simcore.engine.state import new_state
    from simcore.hand.tables import load_tables

    n_plans = len(setup.plans)
    names = policy_names([*setup.plan_specs, *setup.others])
    specs = {s: parse_spec(s) for s in names}
    pid = np.empty((n_plans, 4), np.int64)
    params = np.empty((n_plans, 4, len(specs[names[0]].params)), np.float64)
    index = np.empty((n_plans, 4), np.int64)
    for p, spec0 in enumerate(setup.plan_specs):
        for s, text in enumerate((spec0, *setup.others)):
            pid[p, s] = specs[text].policy.pid
            params[p, s] = specs[text].params
            index[p, s] = names.index(text)
    deals = setup.deals
    out = np.zeros(4 * n_plans * deals, dtype=RECORD_DTYPE)
    chunk = np.zeros(4 * n_plans * min(CHUNK_DEALS, deals), dtype=RECORD_DTYPE)
    view = out.reshape(n_plans, deals, 4)
    st = new_state()
    R = setup.rules.encode()
    T = load_tables()
    one = setup.layout()
    bar = None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=deals * n_plans, unit="deal", desc="whatif", leave=False)
    try:
        for start in range(0, deals, CHUNK_DEALS):
            count = min(CHUNK_DEALS, deals - start)
            part = chunk[: 4 * n_plans * count]
            errors = call(st, R, T, pid, params, index, setup.seed, start, count,
                          LAYOUT_CONDITIONAL, one, setup.hand, out=part, debug=debug)
            if errors[0]:
                raise RuntimeError(
                    f"invariant broken in what-if deal {errors[1]} of seed {setup.seed}, plan "
                    f"'{setup.plans[int(errors[2])]}': {ERROR_TEXT[int(errors[0])]}"
                )
            view[:, start: start + count] = part.reshape(n_plans, count, 4)
            if bar is not None:
                bar.update(count * n_plans)
            elif callable(progress):
                progress(count * n_plans)
    finally:
        if bar is not None:
            bar.close()
    return WhatifResult(setup, out, names)


# ----------------------------------------------------------------------------- statistics
def _mean_ci(values: np.ndarray, level: float) -> tuple[float, float, float, float]:
    x = values.astype(np.float64)
    row = mean_interval([len(x)], [x.sum()], [(x * x).sum()], level).iloc[0]
    return float(row["mean"]), float(row["se"]), float(row["ci_low"]), float(row["ci_high"])


def _rate_ci(count: int, n: int, level: float) -> tuple[float, float, float]:
    row = proportion_interval([count], [n], level).iloc[0]
    return float(row["rate"]), float(row["ci_low"]), float(row["ci_high"])


def summarize(result: WhatifResult, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The per-plan table of :func:`whatif` (see there for the columns)."""
    setup = result.setup
    s0 = result.seat0()
    nets = s0["net"].astype(np.float64)  # [plan, deal]
    rows: list[dict[str, Any]] = []
    for p, label in enumerate(setup.plans):
        r = s0[p]
        won = r["win_order"] > 0
        n_win = int(won.sum())
        net, net_se, net_lo, net_hi = _mean_ci(nets[p], level)
        win, win_lo, win_hi = _rate_ci(n_win, setup.deals, level)
        order, _, order_lo, order_hi = _mean_ci(r["win_order"][won], level)
        draw, _, draw_lo, draw_hi = _mean_ci(r["win_draw"][won], level)
        fans = np.minimum(r["fan"][won].astype(np.int64), FAN_BINS - 1)
        fan_share = np.bincount(fans, minlength=FAN_BINS) / max(n_win, 1)
        flush, flush_lo, flush_hi = _rate_ci(int((won & r["flush"]).sum()), setup.deals, level)
        pig, pig_lo, pig_hi = _rate_ci(int(r["pig"].sum()), setup.deals, level)
        voids = np.bincount(r["void_suit"].astype(np.int64), minlength=3)
        row: dict[str, Any] = {
            "plan": label, "deals": setup.deals,
            "void": SUIT_LETTERS[int(voids.argmax())],
            "void_share": float(voids.max() / setup.deals),
            "net": net, "net_se": net_se, "net_ci_low": net_lo, "net_ci_high": net_hi,
            "win": win, "win_ci_low": win_lo, "win_ci_high": win_hi,
            "win_order": order, "win_order_ci_low": order_lo, "win_order_ci_high": order_hi,
            "win_draw": draw, "win_draw_ci_low": draw_lo, "win_draw_ci_high": draw_hi,
            "fan_mean": float(r["fan"][won].mean()) if n_win else math.nan,
        }
        row.update({c: (float(v) if n_win else math.nan)
                    for c, v in zip(FAN_COLUMNS, fan_share, strict=True)})
        row.update({"flush_win": flush, "flush_win_ci_low": flush_lo,
                    "flush_win_ci_high": flush_hi,
                    "pig": pig, "pig_ci_low": pig_lo, "pig_ci_high": pig_hi})
        rows.append(row)
    means = nets.mean(axis=1)
    best = int(np.argmax(means))  # the first plan among equals
    d = nets - nets[best]
    # the shared paired estimator: each deal is replayed under every plan (one pair per deal)
    diff = [paired_interval(d[p], level=level) for p in range(len(setup.plans))]
    for p, row in enumerate(rows):
        row["best"] = p == best
        row["diff"] = float(diff[p]["estimate"])
        row["diff_se"] = float(diff[p]["se"])
        row["diff_ci_low"] = float(diff[p]["ci_low"])
        row["diff_ci_high"] = float(diff[p]["ci_high"])
        row["diff_p"] = math.nan if p == best else float(diff[p]["p_value"])
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    table.attrs.update(setup.describe())
    table.attrs["level"] = level
    table.attrs["diff_method"] = [str(row["method"]) for row in diff]
    table.attrs["verdict"] = verdict(table, level)
    return table


def verdict(table: pd.DataFrame, level: float = DEFAULT_LEVEL) -> str:
    """One line: which plan is best and whether the paired intervals separate it from the rest.

    A plan is *separated* from the best when the ``level`` interval of its paired difference
    with the best lies entirely below 0 (each comparison at its own level, no multiplicity
    correction).
    """
    pct = f"{level:.0%}"
    best = table.loc[table["best"]].iloc[0]
    rest = table.loc[~table["best"]]
    name = best["plan"]
    if rest.empty:
        return f"one plan ({name}): nothing to compare"
    same = rest.loc[(rest["diff"] == 0) & (rest["diff_se"] == 0), "plan"].tolist()
    apart = rest.loc[rest["diff_ci_high"] < 0, "plan"].tolist()
    close = [p for p in rest["plan"] if p not in apart]
    n = int(best["deals"])
    if not close:
        return (f"{name} is best (mean net {best['net']:+.2f} per deal): the data separate it "
                f"from every other plan ({pct} intervals of the paired differences on the same "
                f"{n:,} walls exclude 0)")
    tail = ""
    if same and len(same) == len(close):
        tail = f"; {', '.join(same)} played identically on every wall"
    elif same:
        tail = f" ({', '.join(same)} played identically on every wall)"
    if not apart:
        return (f"the data do not separate the plans: {name} has the highest mean net "
                f"({best['net']:+.2f}), but the {pct} interval of its paired difference with "
                f"{', '.join(close)} covers 0 on {n:,} walls{tail}")
    return (f"{name} has the highest mean net ({best['net']:+.2f}) and beats "
            f"{', '.join(apart)}, but the data do not separate it from {', '.join(close)} "
            f"({pct} interval of the paired difference covers 0 on {n:,} walls){tail}")


# ----------------------------------------------------------------------------- entry points
def simulate_whatif(
    hand: str | Sequence[int] | np.ndarray,
    plans: str | Sequence[str] = DEFAULT_PLANS,
    deals: int = DEFAULT_DEALS,
    rules: str | Rules | Mapping[str, object] | None = "classic",
    dealer: bool = False,
    void: str | int | None = None,
    seed: int = 0,
    *,
    others: str = "speed",
    overrides: Mapping[str, object] | Sequence[str] = (),
    progress: bool | Callable[[int], None] = False,
    debug: bool = False,
) -> WhatifResult:
    """Play a what-if run; the result gives the table, seat 0's nets and every record."""
    setup = prepare(hand, plans, deals, rules, dealer, void, seed, others=others,
                    overrides=overrides)
    return play_whatif(setup, progress=progress, debug=debug)


def whatif(
    hand: str | Sequence[int] | np.ndarray,
    plans: str | Sequence[str] = DEFAULT_PLANS,
    deals: int = DEFAULT_DEALS,
    rules: str | Rules | Mapping[str, object] | None = "classic",
    dealer: bool = False,
    void: str | int | None = None,
    seed: int = 0,
    *,
    others: str = "speed",
    overrides: Mapping[str, object] | Sequence[str] = (),
    progress: bool = False,
    level: float = DEFAULT_LEVEL,
) -> pd.DataFrame:
    """Compare plans for seat 0 holding ``hand`` after the exchange; one row per plan.

    ``hand``: 13 tiles in notation (14 with ``dealer``); ``plans``: policy specs for seat 0 (a
    list, or one string separated by ``;``), default ``speed``, ``flush:k=0``, ``pungs:k=0``,
    ``pairs:k=0``; ``others``: the spec of seats 1-3 (one, or three separated by ``/``);
    ``rules`` and ``overrides`` as in :func:`simcore.rules.resolve_rules`; ``void``: seat 0's
    void suit (``'m'``, ``'p'``, ``'s'``) or None for the plan's own choice.

    Columns (seat 0, per deal; intervals at ``level``): ``net`` (mean units, ``net_se``,
    ``net_ci_low/high``), ``win`` (probability, Wilson interval), ``win_order`` and
    ``win_draw`` (means over wins: 1 = first winner; wall tiles drawn after dealing),
    ``fan_mean`` and ``fan_0`` .. ``fan_5plus`` (shares of wins by fan), ``flush_win`` (rate of
    full-flush wins per deal), ``pig`` (flower-pig rate), ``void`` (the suit declared most often,
    ``void_share`` of deals); ``best`` marks the highest mean net and ``diff`` (``diff_se``,
    ``diff_ci_low/high``, ``diff_p``) is each plan's mean paired difference of net with it on the
    same walls. ``attrs`` hold the parameters and ``attrs["verdict"]``.
    """
    result = simulate_whatif(hand, plans, deals, rules, dealer, void, seed, others=others,
                             overrides=overrides, progress=progress)
    return result.table(level)
