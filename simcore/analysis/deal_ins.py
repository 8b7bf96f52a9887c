"""What a seat could have done about its deal-ins: the choices behind each discard, in hindsight.

:func:`discard_choices` rebuilds a replayed deal (:func:`simcore.analysis.danger.discard_situations`
checks the rebuild) and writes one row per discard of one seat: the discards it was allowed
(only void-suit tiles while it holds one), the lowest shanten among them, which of those
*candidates* no opponent could win on (the opponents' hidden hands are known here: this is
hindsight), and which were of the void suit of every opponent that could win on the tile it
threw (public: a tile of a player's void suit never feeds that player). :func:`anatomy`
summarises a collection: how many discards could feed a ready opponent, and of those, how many
were forced (a void-suit tile held), had a safe candidate at the same shanten, or a candidate
safe by the voids alone.

Two habits a good player never shows are counted from public tiles alone (what the seat saw):
feeding a blood-river winner a tile it has already won on (its hand is locked, so the tile wins
again) while a candidate at the same shanten had not been won on (and, the stricter count, while
such a candidate kept as many live useful tiles), and keeping a *dead wait* (a
ready hand whose every winning tile the seat can see: its own, the discards and the melds)
while a candidate at the same shanten left a ready hand with a live winning tile.

This is how far defence can go without slowing the hand: a discard with no safe candidate at
its shanten can only be avoided by folding, and one with no safe allowed discard (most often a
void-suit tile the rules force out) by nothing. ``benchmarks/bench_expert.py --anatomy`` prints it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcore.analysis.danger import discard_situations
from simcore.hand import shanten, useful_tiles, waits
from simcore.table import Table
from simcore.tiles import Hand

CHOICE_COLUMNS = [
    "seed", "deal", "preset", "turn", "seat", "tile", "wall_left", "forced", "best_shanten",
    "candidates", "at_best", "could_feed", "dealt_in", "safe_candidates", "void_safe_candidates",
    "safe_allowed", "river_feed", "river_safe_candidates", "river_as_live_candidates", "dead_wait",
    "live_wait_candidates",
]


def discard_choices(events: Sequence[dict[str, Any]], seat: int) -> pd.DataFrame:
    """One row per discard of ``seat`` in one replayed deal (:data:`CHOICE_COLUMNS`).

    ``forced``: it held a void-suit tile, so only those could go; ``best_shanten``: the lowest
    shanten its allowed discards leave; ``candidates``: how many tile types reach it;
    ``at_best``: the discard was one of them; ``could_feed``: a ready opponent could win on the
    tile; ``dealt_in``: one did; ``safe_candidates``: candidates no ready opponent could win
    on; ``void_safe_candidates``: candidates of the void suit of every opponent that could win
    on the tile thrown (0 when none could); ``safe_allowed``: allowed discards, at any shanten,
    no ready opponent could win on (what folding with hindsight could throw); ``river_feed``:
    the tile is one a blood-river winner in play has won on; ``river_safe_candidates``:
    candidates none of them has won on; ``river_as_live_candidates``: of those, when the tile
    thrown is such a feed, the ones that leave at least as many live useful tiles (winning
    tiles when ready) as it does (0 otherwise); ``dead_wait``: the hand left is ready and the
    seat sees every copy of each of its winning tiles; ``live_wait_candidates``: candidates
    that leave a ready hand with a winning tile the seat cannot see (all but ``river_*`` from
    the seat's view, the first five of the columns after ``at_best`` in hindsight).
    """
    first = events[0]
    rows: list[list[Any]] = []

    def observe(tab: Table, s: int, tile: int, turn: int) -> None:
        if s != seat:
            return
        rows.append([first["seed"], first["deal"], first["rules"]["preset"], turn, s, tile,
                     tab.wall_left, *_choices(tab, s, tile)])

    situations = discard_situations(events, observer=observe)
    won = situations[situations["discarder"] == seat].groupby("turn")["won"].any()
    frame = pd.DataFrame(rows, columns=[c for c in CHOICE_COLUMNS if c != "dealt_in"])
    frame["dealt_in"] = frame["turn"].map(won).fillna(False).astype(bool)
    return frame[CHOICE_COLUMNS]


def _choices(tab: Table, s: int, tile: int) -> list[Any]:
    """``forced, best_shanten, candidates, at_best, could_feed, safe_candidates,
    void_safe_candidates, safe_allowed, river_feed, river_safe_candidates,
    river_as_live_candidates, dead_wait, live_wait_candidates`` of ``s`` throwing ``tile``
    (the columns after ``wall_left``, ``dealt_in`` aside)."""
    hand = tab.hand[s]
    void = tab.void[s]
    forced = void >= 0 and bool(hand[9 * void: 9 * void + 9].any())
    allowed = [t for t in range(27) if hand[t] > 0 and (not forced or t // 9 == void)]
    if tab.blood_river and tab.wins[s]:
        allowed = [tile]  # a blood-river winner's hand is locked: it throws what it draws
    batch = np.repeat(hand[None, :].astype(np.int8), len(allowed), axis=0)
    batch[np.arange(len(allowed)), allowed] -= 1
    left = np.asarray(shanten(batch, void=void if void >= 0 else None, n_melds=len(tab.melds[s])))
    best = int(left.min())
    candidates = [t for t, v in zip(allowed, left.tolist(), strict=True) if v == best]
    ready = {o: w for o in tab.opponents(s) if tab.in_play[o] and (w := tab.waits_of(o))}
    feeders = [o for o, w in ready.items() if tile in w]
    safe_allowed = [t for t in allowed if not any(t in w for w in ready.values())]
    safe = [t for t in candidates if t in safe_allowed]
    void_safe = [t for t in candidates
                 if feeders and all(t // 9 == tab.void[o] for o in feeders)]
    won_on = {w.tile for o in tab.opponents(s) if tab.in_play[o] for w in tab.wins[o]} \
        if tab.blood_river else set()
    river_safe = [t for t in candidates if t not in won_on]
    as_live = 0
    if tile in won_on and tile in candidates and river_safe:
        visible = 4 - tab.unseen(s)
        need = _live_useful(tab, s, tile, visible)
        as_live = sum(_live_useful(tab, s, t, visible) >= need for t in river_safe)
    unseen = tab.unseen(s) if best == 0 else None
    live = [t for t in candidates if unseen is not None and _live_wait(tab, s, t, unseen)]
    dead = tile in candidates and best == 0 and tile not in live
    return [forced, best, len(candidates), tile in candidates, bool(feeders), len(safe),
            len(void_safe), len(safe_allowed), tile in won_on, len(river_safe), as_live, dead,
            len(live)]


def _hand_after(tab: Table, s: int, tile: int) -> tuple[Hand, int | None]:
    """``s``'s hand once it has thrown ``tile``, and its void (None when it has none)."""
    counts, melds = tab.as_hand(s)
    counts = counts.copy()
    counts[tile] -= 1
    return Hand(counts, melds), (tab.void[s] if tab.void[s] >= 0 else None)


def _live_useful(tab: Table, s: int, tile: int, visible: np.ndarray) -> int:
    """The live useful tiles (winning tiles when ready) ``s`` keeps by throwing ``tile``:
    copies it cannot see (``visible``: what it sees, which the throw leaves as it is) of the
    types that lower its shanten."""
    hand, void = _hand_after(tab, s, tile)
    return useful_tiles(hand, visible=visible, void=void)[1]


def _live_wait(tab: Table, s: int, tile: int, unseen: np.ndarray) -> bool:
    """Whether ``s``, throwing ``tile``, keeps a ready hand with a winning tile it cannot see
    (``unseen``: the seat's unseen counts, which the thrown tile leaves as they are: it goes
    from its hand to the table)."""
    hand, void = _hand_after(tab, s, tile)
    return any(unseen[t] > 0 for t in waits(hand, void=void))


def collect_choices(
    deals: int | Iterable[int],
    rules: str = "classic",
    policies: str = "expert/speed/speed/speed",
    *,
    seed: int = 0,
    rotate: bool = True,
) -> pd.DataFrame:
    """:func:`discard_choices` of the first seat's policy over ``deals`` of ``seed``; with
    ``rotate``, ``deals`` are walls of a duplicate run, each replayed in its four rotations
    (the engine's own, as ``bench_expert.py --targets`` plays them), following the seat where
    the first policy sits."""
    from simcore.engine.replay import replay

    if len(policies.split("/")) != 4:
        raise ValueError(f"policies must name four seats, got {policies!r}")
    frames = []
    for d in range(deals) if isinstance(deals, int) else deals:
        for r in range(4 if rotate else 1):
            # a duplicate run's rotation r seats policy (s + r) % 4 at seat s
            deal = 4 * int(d) + r if rotate else int(d)
            events, _ = replay(seed, deal, rules=rules, policies=policies, duplicate=rotate,
                               as_frame=False)
            frames.append(discard_choices(events, seat=-r % 4))
    return pd.concat(frames, ignore_index=True)


def anatomy(choices: pd.DataFrame) -> pd.Series:
    """Shares of :func:`collect_choices` rows: how often a discard could feed a ready opponent
    (``could_feed``), and, of those: ``forced`` (a void-suit tile had to go), with a safe
    candidate at the same shanten (``avoidable``: hindsight) or one safe by the voids alone
    (``avoidable_by_voids``: public), with a safe discard at any shanten
    (``avoidable_by_folding``: hindsight, the most any defence could avoid), and the rate of
    actual deal-ins per discard. ``river_feeds`` and ``dead_waits`` count the habits of the
    module docstring where an alternative at the same shanten existed (counts);
    ``river_feeds_as_live`` the feeds whose alternative also kept as many live useful tiles."""
    feed = choices[choices["could_feed"]]
    return pd.Series({
        "discards": len(choices),
        "could_feed": len(feed) / max(1, len(choices)),
        "dealt_in": choices["dealt_in"].mean(),
        "forced": feed["forced"].mean(),
        "avoidable": (feed["safe_candidates"] > 0).mean(),
        "avoidable_by_voids": (feed["void_safe_candidates"] > 0).mean(),
        "avoidable_by_folding": (feed["safe_allowed"] > 0).mean(),
        "river_feeds": int((choices["river_feed"] & (choices["river_safe_candidates"] > 0)
                            ).sum()),
        "river_feeds_as_live": int((choices["river_feed"]
                                    & (choices["river_as_live_candidates"] > 0)).sum()),
        "dead_waits": int((choices["dead_wait"] & (choices["live_wait_candidates"] > 0)).sum()),
    })
