"""The ``expert`` policy's judgment on scripted situations: the mistakes the issue found in
``speed``'s play (defence at equal shanten, pungs that cut a ready hand's live tiles, the
fourth tile of a root, the flush wait, kongs under the rules in force), which the expert must
not make.

Each situation is a :class:`test_policies.Situation` asked through
:mod:`simcore.engine.policies.dispatch` exactly as the engine asks: seat 0 decides, in its own
turn outside a kong (or, for a claim, with the offered tile on the table). Each test states
why the expected move is the good player's move. When an assertion fails, its message prints
the expert's own reading of the table and of each candidate (:func:`explain_discard`,
:func:`explain_claim`, :func:`explain_kong`, from the model's functions in
:mod:`simcore.engine.policies.expert`). A situation the expert gets wrong while the right
answer is clear is marked ``xfail(strict=True)`` with the reason, not weakened.

The policy contract (``check_policy("expert", preset)``) is checked in ``test_policies.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.situation import Situation, T

from simcore.engine.policies import expert as xp
from simcore.engine.policies import expert_model as km
from simcore.engine.policies.common import discard_mask, held_mask
from simcore.engine.policies.expert_options import O_DEFENCE
from simcore.engine.spec import parse_spec
from simcore.engine.state import P_IN_PLAY, P_WAIT, S_PLAYERS
from simcore.rules import get_rules
from simcore.tiles import MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG, tile_index, tile_str

# ----------------------------------------------------------------------------- diagnostics


def _params(spec: str) -> np.ndarray:
    return np.array(parse_spec(spec).params)


def _tiles(mask: int) -> list[int]:
    return [t for t in range(27) if (mask >> t) & 1]


def _table(sit: Situation, P: np.ndarray, seat: int = 0) -> tuple[tuple, list[str]]:
    """The expert's reading of the table (fills ``st.visible``, ``st.unseen``, the threats)."""
    st = sit.st
    read = xp._read_table(st, seat, P, sit.R)
    n_opp, unseen_total, draws_left = read
    lines = [f"table: {n_opp} opponents in play, "
             f"{unseen_total} unseen, {draws_left:.1f} own draws left"]
    for k in range(n_opp):
        ready, void, flush, cost = st.fwork[0:4, k]
        lines.append(f"  opponent {k + 1}: ready {ready:.3f}, void {int(void)}, "
                     f"flush {int(flush)}, cost {cost:.2f}")
    return read, lines


def discard_values(sit: Situation, spec: str = "expert",
                   seat: int = 0) -> dict[str, tuple[int, float, float]]:
    """Per legal discard: (shanten, value, danger) of the hand it leaves, as the expert sees."""
    P = _params(spec)
    st = sit.st
    (n_opp, unseen_total, draws_left), _ = _table(sit, P, seat)
    h = st.hand[seat].copy()
    out = {}
    for t in _tiles(discard_mask(st, seat, sit.R)):
        h[t] -= 1
        v, s, _u = xp._hand_value(st, seat, P, h, st.n_melds[seat], sit.R, T, n_opp,
                                 unseen_total, draws_left)
        h[t] += 1
        out[tile_str(t)] = (int(s), float(v), float(xp._danger(st, t, n_opp)))
    return out


def explain_discard(sit: Situation, spec: str = "expert", seat: int = 0) -> str:
    P = _params(spec)
    _, lines = _table(sit, P, seat)
    for tile, (s, v, d) in discard_values(sit, spec, seat).items():
        lines.append(f"  discard {tile}: shanten {s}, value {v:.4f}, danger {d:.4f}, "
                     f"score {v - P[O_DEFENCE] / 100.0 * d:.4f}")
    return "\n".join(lines)


def explain_claim(sit: Situation, tile: str, spec: str = "expert", seat: int = 0) -> str:
    """Passing against punging ``tile`` (and the pung's best discard), as choose_claim sees."""
    P = _params(spec)
    st, R = sit.st, sit.R
    t = tile_index(tile)
    st.public[t] += 1
    try:
        (n_opp, unseen_total, draws_left), lines = _table(sit, P, seat)
        h = st.hand[seat].copy()
        n = st.n_melds[seat]
        v_pass, s_pass, u_pass = xp._hand_value(st, seat, P, h, n, R, T, n_opp, unseen_total,
                                               draws_left)
        st.meld_kind[seat, n], st.meld_tile[seat, n] = MELD_PUNG, t
        h[t] -= 2
        mask = held_mask(h, st.void[seat], R)
        best_s = xp._discard_row(st, seat, P, T, h, n + 1, mask, True)
        d, score, v, s = xp._best_discard(st, seat, P, R, T, h, n + 1, mask, best_s, n_opp,
                                         unseen_total, draws_left)
        st.meld_kind[seat, n], st.meld_tile[seat, n] = 0, 0
    finally:
        st.public[t] -= 1
    lines.append(f"  pass: shanten {s_pass}, useful {u_pass}, value {v_pass:.4f}")
    lines.append(f"  pung {tile} then discard {tile_str(d)}: shanten {s}, value {v:.4f}, "
                 f"score {score:.4f}")
    return "\n".join(lines)


def explain_kong(sit: Situation, spec: str = "expert", drawn: str | None = None,
                 seat: int = 0) -> str:
    """Keeping the tiles (best discard) against each kong, before its money, as choose_kong
    sees them; and the danger of every tile held."""
    P = _params(spec)
    st, R = sit.st, sit.R
    (n_opp, unseen_total, draws_left), lines = _table(sit, P, seat)
    h = st.hand[seat].copy()
    n = st.n_melds[seat]
    mask = discard_mask(st, seat, R)
    best_s = xp._discard_row(st, seat, P, T, h, n, mask, True)
    d, score, v, s = xp._best_discard(st, seat, P, R, T, h, n, mask, best_s, n_opp,
                                     unseen_total, draws_left)
    lines.append(f"  keep: discard {tile_str(d)}, shanten {s}, value {v:.4f}, score {score:.4f}"
                 f" (added kong only on draw: {bool(R.added_kong_only_on_draw)}, drawn {drawn})")
    for t in range(27):
        if h[t] == 4 or any(st.meld_tile[seat, m] == t and st.meld_kind[seat, m] == MELD_PUNG
                            and h[t] > 0 for m in range(n)):
            concealed = h[t] == 4
            m = n if concealed else next(i for i in range(n) if st.meld_tile[seat, i] == t)
            old = st.meld_kind[seat, m], st.meld_tile[seat, m]
            st.meld_kind[seat, m] = MELD_CONCEALED_KONG if concealed else MELD_KONG
            st.meld_tile[seat, m] = t
            take = 4 if concealed else 1
            h[t] -= take
            vk, sk, _u = xp._hand_value(st, seat, P, h, n + (1 if concealed else 0), R, T,
                                       n_opp, unseen_total, draws_left)
            h[t] += take
            st.meld_kind[seat, m], st.meld_tile[seat, m] = old
            lines.append(f"  kong {tile_str(t)}: shanten {sk}, value before money {vk:.4f}")
    for t in _tiles(discard_mask(st, seat, R)):
        lines.append(f"  danger {tile_str(t)}: {xp._danger(st, t, n_opp):.4f}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- defence
# Seat 0 is void in m. Seat 1 is void in s, shows three pungs (2m, 6m, 1p: all pungs is worth
# a fan more) and has discarded 14 tiles, the last three the tiles it drew: it is very likely
# ready. Seats 2 and 3 are void in m and have discarded four tiles each.
THREAT = {1: "3m4m9p9p|P2mP6mP1p"}
THREAT_TABLE = dict(voids={0: "m", 1: "s", 2: "m", 3: "m"}, discards={1: 14, 2: 4, 3: 4},
                    streaks={1: 3})
THREAT_SEEN = "1m1m9m9m9m8m8m3m5m5m7m7m4m4m1s2s4s6s8p"
# the danger alone: feed=1 (the default) also reads the voids, for the value of the waits
NO_FEED = "expert:feed=0"


def test_defence_throws_the_void_suit_tile_at_equal_shanten_and_value() -> None:
    # 678p 789p 123s 789s + 3p + 5s: either single goes and the other is a tanki with three
    # live copies. The hands left are worth the same; the 3p (live neighbours 1p..5p) can be
    # one of seat 1's waits, the 5s cannot (seat 1 is void in s) and is only a small risk
    # against the two slow seats: a good player throws the 5s. (speed throws the 3p: the
    # outer rank on a tie.) Pinned with feed=0, which reads the voids for value as well: seat
    # 1, void in s, throws every 5s it draws, and the 5s tanki's value rises above the 3p's
    sit = Situation({0: "3p678p789p123s5s789s"} | THREAT, seen=THREAT_SEEN, **THREAT_TABLE)
    values = discard_values(sit, NO_FEED)
    assert values["3p"][0] == values["5s"][0] == 0
    assert values["3p"][1] == pytest.approx(values["5s"][1])
    assert sit.discard(NO_FEED) == "5s", explain_discard(sit, NO_FEED)
    assert sit.discard("speed") == "3p"


def test_defence_zero_ignores_the_danger() -> None:
    # The same hand with one 3p seen: keeping the 5s tanki (three live) is worth more than
    # keeping the 3p tanki (two live), so by value alone the 3p goes. Under defence=0 the
    # expert has no danger model and must pick by value: the 3p, although it is the tile
    # seat 1 may be waiting on.
    sit = Situation({0: "3p678p789p123s5s789s"} | THREAT, seen=THREAT_SEEN + "3p",
                    **THREAT_TABLE)
    values = discard_values(sit, "expert:defence=0")
    assert values["3p"][1] > values["5s"][1] and values["3p"][2] > values["5s"][2]
    assert sit.discard("expert:defence=0") == "3p", explain_discard(sit, "expert:defence=0")


def test_defence_throws_a_dead_tile_before_a_live_middle_tile() -> None:
    # 12 s tiles one step from ready, plus the singles 4p and 6p (either goes: same shanten,
    # same value). Every 5p, 6p and 7p is visible: no wait (6p single or pair, 45p, 57p, 78p)
    # can use the 6p, which is safe against everyone; the 4p can still be won on (a 23p wait,
    # a 4p single or pair). With seat 1 looking ready, the good player throws the dead 6p.
    sit = Situation({0: "4p6p123445567788s"} | THREAT,
                    seen=THREAT_SEEN + "5p5p5p5p6p6p6p7p7p7p7p", **THREAT_TABLE)
    values = discard_values(sit)
    assert values["6p"][2] == 0.0 < values["4p"][2]
    assert values["4p"][0] == values["6p"][0] == 1
    assert values["4p"][1] == pytest.approx(values["6p"][1])
    assert sit.discard("expert") == "6p", explain_discard(sit)


# ----------------------------------------------------------------------------- claims
def test_declines_a_pung_that_cuts_the_live_wait() -> None:
    # 5566788p 123s 789s waits on 4p/7p (567p 56p 88p): 4 + 3 = 7 live tiles. Punging the 5p
    # leaves at best 66p 78p, waiting on 6p/9p with 2 + 2 live (two 9p are seen), or 6788p on
    # 5p/8p with 3. Same fan, fewer winning tiles and fewer concealed tiles: the good player
    # passes (speed pungs: the shanten does not grow).
    sit = Situation({0: "5566788p123s789s"}, voids={0: "m"}, seen="9p9p")
    assert sit.claim("expert", "5p") == "pass", explain_claim(sit, "5p")
    assert sit.claim("expert:value=0", "5p") == "pass", explain_claim(sit, "5p", "expert:value=0")
    assert sit.claim("speed", "5p") == "pung"


def test_pungs_when_the_pung_widens_the_wait() -> None:
    # 5567889p 123s 789s waits on 7p only (55p 678p 89p): 3 live. Punging the 5p and throwing
    # an 8p leaves 6789p waiting on 6p/9p, 6 live, same fan: the pung is a better hand.
    sit = Situation({0: "5567889p123s789s"}, voids={0: "m"})
    assert sit.claim("expert", "5p") == "pung", explain_claim(sit, "5p")
    assert sit.claim("expert:value=0", "5p") == "pung", explain_claim(sit, "5p", "expert:value=0")


# ----------------------------------------------------------------------------- hand value
def test_keeps_the_fourth_tile_of_a_root() -> None:
    # 1111s 234s 456p 55p 78p: throwing a 1s (111s 234s) or the 4s (111s 123s) both wait on
    # 6p/9p with the same live tiles, but holding all four 1s is a root: +1 fan, every win
    # pays double. The good player throws the 4s.
    sit = Situation({0: "1111s234s456p55p78p"}, voids={0: "m"})
    values = discard_values(sit)
    assert values["1s"][0] == values["4s"][0] == 0
    assert sit.discard("expert") == "4s", explain_discard(sit)


@pytest.mark.parametrize(("seen", "wall_left"), [("8p8p8p", 40), ("8p8p8p5p", 16)])
def test_keeps_the_flush_wait(seen: str, wall_left: int) -> None:
    # 2225567p 5s |P1p P9p. Throwing the 5s leaves a full flush of p waiting on 5p/8p; throwing
    # a 5p leaves 222p 567p and a 5s tanki (plain). With three 8p seen the flush wait has
    # 2 + 1 live tiles, as many as the tanki's 3: a flush pays 2 fan (4 units against 1)
    # under classic, so the good player keeps it. With a 5p seen as well the flush has only
    # 1 + 1 against 3; late (16 tiles left, four own draws) there is no time to improve on
    # either wait, and 2 tiles at 4 units beat 3 tiles at 1: the good player keeps the flush.
    # (Early, the expert prefers the tanki there: it keeps the flush one step away, valued
    # with a typical later wait; a defensible choice, not pinned.)
    # The opponents are void in one suit each, so no suit comes faster than another (feed=1:
    # opponents void in s would throw every 5s they draw, and the tanki would be the likelier
    # win).
    sit = Situation({0: "2225567p5s|P1pP9p"}, voids={0: "m", 1: "m", 2: "p", 3: "s"}, seen=seen,
                    wall_left=wall_left)
    assert sit.discard("expert") == "5s", explain_discard(sit)


def test_without_value_takes_the_wider_wait() -> None:
    # The flush wait with 1 + 1 live tiles against the plain 5s tanki with 3: under value=0
    # every win is worth the same and the wider wait is the better hand: throw a 5p.
    sit = Situation({0: "2225567p5s|P1pP9p"}, voids={0: "m"}, seen="8p8p8p5p")
    assert sit.discard("expert:value=0") == "5p", explain_discard(sit, "expert:value=0")


# ----------------------------------------------------------------------------- kongs to come
def test_keeps_the_concealed_triplet_for_its_kong() -> None:
    # 555m is a concealed kong to come (the fourth 5m is live: two units from each opponent
    # when drawn). Without the hope the expert throws a 5m at the same shanten; with it, the
    # spare 1p goes and the triplet stays.
    sit = Situation({0: "44555699m122446p"}, voids={0: "s"}, wall_left=45)
    assert sit.discard("expert:hope=0") == "5m", explain_discard(sit, "expert:hope=0")
    assert sit.discard("expert") == "1p", explain_discard(sit)


def test_hope_adds_the_kong_money_to_come_to_the_value() -> None:
    # a hand of 13: the 555m triplet (its fourth tile live), the 99m and 22p pairs (both other
    # copies of each live) and the 44p pair (one other copy seen: no kong can follow)
    sit = Situation({0: "4555699m122446p"}, voids={0: "s"}, seen="4p", wall_left=45)
    st, R = sit.st, sit.R
    h = st.hand[0].copy()
    values = {}
    for spec in ("expert", "expert:hope=0"):
        P = _params(spec)
        (n_opp, unseen_total, draws_left), _ = _table(sit, P)
        values[spec] = xp._hand_value(st, 0, P, h, 0, R, T, n_opp, unseen_total, draws_left)[0]
    want = km.kong_hope(1, 0, 2, unseen_total, draws_left, n_opp, R)
    assert want > 0.1
    assert np.isclose(values["expert"] - values["expert:hope=0"], want, rtol=1e-12)


# ----------------------------------------------------------------------------- kongs
# Seat 0 (void s) holds 2345m 123p 99p 78p and an exposed pung of 5m: it waits on 6p/9p
# (three 6p are seen: 1 + 2 live). Throwing the 2m or the 5m, or adding the 5m to its pung,
# all keep that wait; the fourth 5m is a root whether it is konged or kept in 345m. The 2m is
# dead (every 1m, 2m, 3m is visible): safe against everyone.
KONG_HAND = "2345m123p99p78p|P5m"
KONG_SEEN = "1m1m1m1m2m2m2m3m3m3m6p6p6p"
KONG_VOIDS = {0: "s", 1: "p", 2: "m", 3: "m"}
# Seat 1 (void p) shows pungs of 8m and 9m (an apparent m flush), has discarded 15 tiles, the
# last three the tiles it drew: obviously ready, and in m. 46m and 67m waits can use the 5m.
M_FLUSH = {1: "4666777m|P8mP9m"}
M_FLUSH_PACE = dict(discards={1: 15, 2: 3, 3: 3}, streaks={1: 3})


def _kong_situation(rules: str, threat: bool, hand: str = KONG_HAND) -> Situation:
    hands = {0: hand} | (M_FLUSH if threat else {1: "4666777m"})
    pace = M_FLUSH_PACE if threat else {}
    return Situation(hands, voids=KONG_VOIDS, seen=KONG_SEEN, rules=rules, **pace)


def test_added_kong_pays_under_classic() -> None:
    # classic: an added kong pays a unit from every opponent, drawn or not, with nobody
    # threatening to rob it: the good player kongs.
    sit = _kong_situation("classic", threat=False)
    assert sit.kong("expert") == "5m", explain_kong(sit)


def test_added_kong_of_the_tile_just_drawn_pays_under_baike() -> None:
    # baike (added_kong_only_on_draw): the fourth 5m just drawn pays a unit from everyone:
    # kong, as under classic.
    sit = _kong_situation("baike", threat=False)
    assert sit.kong("expert", drawn="5m") == "5m", explain_kong(sit, drawn="5m")


def test_added_kong_of_an_old_tile_is_declined_when_it_may_be_robbed() -> None:
    # baike, the 5m held from before: the kong pays nothing, the root counts either way and
    # the wait does not change; seat 1 is obviously ready in m and can rob the kong (a +1 fan
    # win paid by seat 0 alone). Adding it gains a replacement draw (at most 3 live winning
    # tiles) and risks a deal-in worth flush + robbing, 3 fan (8 units, the cap): the good
    # player keeps the 5m in 345m and throws the dead 2m.
    sit = _kong_situation("baike", threat=True)
    assert sit.kong("expert") is None, explain_kong(sit)
    assert sit.discard("expert") == "2m", explain_discard(sit)


def test_added_kong_of_an_old_tile_is_made_when_nobody_threatens() -> None:
    # baike, the 5m held from before, nobody looks ready (no discards yet): the kong pays
    # nothing but costs nothing either (same wait, the root is kept) and gives a replacement
    # draw: one more chance to win, by self-draw with the kong-flower fan, and robbing it is
    # very unlikely. The good player kongs.
    sit = _kong_situation("baike", threat=False)
    assert sit.kong("expert") == "5m", explain_kong(sit)


def test_added_kong_from_a_hand_not_ready_is_declined_when_it_may_be_robbed() -> None:
    # baike, the 5m held from before, one step from ready (2345m 12p 5p 78p 99p |P5m): the
    # kong pays nothing and leaves the same shanten as throwing the dead 2m; its only gain is
    # a replacement draw of a hand that cannot win on it, its risk seat 1 robbing it. The good
    # player keeps the 5m and throws the 2m.
    sit = _kong_situation("baike", threat=True, hand="2345m12p5p78p99p|P5m")
    assert sit.kong("expert") is None, explain_kong(sit)


def test_a_concealed_kong_that_costs_the_ready_hand_is_made_for_its_money() -> None:
    # classic, seat 0 (void s) holds 444456m 123p 456p 78p: throwing a 4m keeps a ready hand
    # (44m pair, waits on 6p/9p); konging the four 4m breaks the 456m run (56m 78p: one step
    # from ready) but collects 2 units from each of the three opponents now, and the root
    # stays. Six units in hand are worth more than a single win's chance: the good player
    # kongs (the expert once refused any kong that set its hand back).
    sit = Situation({0: "444456m123p456p78p"}, voids={0: "s"}, seen="6p9p", rules="classic")
    assert sit.kong("expert") == "4m", explain_kong(sit)


def test_kong_never_and_always() -> None:
    sit = _kong_situation("baike", threat=True)
    assert sit.kong("expert:kong=never", drawn="5m") is None
    assert sit.kong("expert:kong=always") == "5m"


# ----------------------------------------------------------------------------- wins
@pytest.mark.parametrize("spec", ["expert", "expert:value=0", "expert:defence=0,fold=0"])
def test_self_drawn_wins_are_always_taken(spec: str) -> None:
    # every opponent in play pays a self-draw: nothing to wait for
    for wall_left in (1, 20, 55):
        sit = _ready_situation(wall_left)
        for fan in (0, 1, 4):
            assert sit.takes_win(spec, fan=fan, wall_left=wall_left, self_drawn=True)


def test_stay_zero_takes_every_win() -> None:
    for wall_left in (4, 20, 50):
        sit = _ready_situation(wall_left)
        for fan in (0, 1, 4):
            assert sit.takes_win("expert:stay=0", fan=fan, wall_left=wall_left)


def _ready_situation(wall_left: int, hand: str = "123456m234p5677p") -> Situation:
    """Seat 0 ready (here on 1p/4p/7p: nine live tiles), void in s; ``wall_left`` tiles
    left."""
    from simcore.hand import waits
    from simcore.tiles import parse

    sit = Situation({0: hand}, voids={0: "s"}, wall_left=wall_left, rules="classic")
    mask = 0
    for t in waits(parse(hand), void=2):
        mask |= 1 << t
    sit.st.pl[0, P_WAIT] = mask
    return sit


def test_a_cheap_win_on_a_discard_early_waits_for_the_self_draw() -> None:
    # classic: a plain win on a discard is one unit from the discarder; a self-draw is two
    # from each of three (base bonus). Early, with nine live winning tiles and about 13 own
    # turns left, waiting is worth more than the one unit, even at 15 hundredths a turn.
    assert not _ready_situation(50).takes_win("expert", fan=0, wall_left=50)
    # late (two own turns left) the unit now is worth more
    assert _ready_situation(8).takes_win("expert", fan=0, wall_left=8)
    # a win worth more now (three fan, 8 units) is taken where the wait is short
    assert _ready_situation(12).takes_win("expert", fan=3, wall_left=12)


def test_a_wait_worth_little_more_than_the_win_takes_the_win() -> None:
    # twelve tiles left (three own turns): waiting on the nine live tiles is worth 1.03 units
    # (the reference model: 3 payers x 2 units x P(self-draw), less 15 hundredths a turn)
    # against the 1 unit now, under the 1.15 the wait must be worth (STAY_MARGIN); with
    # fourteen left it is worth 1.17, and the seat waits
    assert _ready_situation(12).takes_win("expert", fan=0, wall_left=12)
    assert not _ready_situation(14).takes_win("expert", fan=0, wall_left=14)


def test_blood_river_takes_every_win() -> None:
    # the winner plays on with the same wait: the self-draw can still come after this win
    sit = _ready_situation(50)
    sit.R = get_rules("classic", blood_river=True).encode()
    assert sit.takes_win("expert", fan=0, wall_left=50)


def test_a_wait_with_no_live_tile_takes_the_win() -> None:
    # every other 1p, 4p and 7p is visible: no self-draw can come
    sit = _ready_situation(50)
    for tile, seen in (("1p", 4), ("4p", 3), ("7p", 2)):
        sit.st.public[tile_index(tile)] += seen
    assert sit.takes_win("expert", fan=0, wall_left=50)


# ``expert:upgrade=1`` pungs instead of a win; so does the default (upgrade=2) at a four-player
# table, and not at a three-player one, where the option loses (its help)
UPGRADE = "expert:upgrade=1"


def _pair_wait_situation(wall_left: int = 22, seen: str = "") -> Situation:
    """app, as at step 91 of deal 211 of seed 29 (expert/speed/speed/speed): seat 0 holds
    1155m|P4mK7mP6m (void p), ready on 1m and 5m, with every tile the seat saw then (melds and
    discards; ``seen``: more) and 22 tiles left."""
    sit = Situation({0: "1155m|P4mK7mP6m", 1: "|P2sP5sP9p", 2: "|P2pP2m", 3: "|P1sP4sP3s"},
                    voids={0: "p", 1: "m", 2: "s", 3: "m"},
                    seen="3345889999m23344455777p23566778899s" + seen, wall_left=wall_left,
                    rules="app")
    sit.st.pl[0, P_WAIT] = (1 << tile_index("1m")) | (1 << tile_index("5m"))
    return sit


def test_a_pair_wait_pungs_for_the_golden_hook_instead_of_a_win() -> None:
    # winning on 5m now: all pungs, flush and a root, 8 units from the discarder. Punging it
    # and throwing a 1m waits on the last two 1m alone (a golden hook: one fan more), which
    # two opponents void in m will throw: the review of that deal put the pung 12 units
    # above the win.
    sit = _pair_wait_situation()
    assert not sit.takes_win(UPGRADE, fan=3, wall_left=22, tile="5m", claimable=True)
    assert sit.claim(UPGRADE, "5m") == "pung"
    # nothing to claim instead (a robbed kong's tile, the last discard): the win is taken
    assert sit.takes_win(UPGRADE, fan=3, wall_left=22, tile="5m", claimable=False)
    # the default (upgrade=2) does the same at this four-player table; upgrade=0 takes the win
    assert not sit.takes_win("expert", fan=3, wall_left=22, tile="5m", claimable=True)
    assert sit.takes_win("expert:upgrade=0", fan=3, wall_left=22, tile="5m", claimable=True)


def test_the_default_upgrades_only_at_a_four_player_table() -> None:
    # the same hand and table with seat 3 gone (app with three players): upgrade=1 still pungs
    # the 5m, the default takes the win, as upgrade=0 does
    sit = _pair_wait_situation()
    sit.R = get_rules("app", players=3).encode()
    sit.st.sc[S_PLAYERS] = 3
    sit.st.pl[3, P_IN_PLAY] = 0
    assert not sit.takes_win(UPGRADE, fan=3, wall_left=22, tile="5m", claimable=True)
    assert sit.takes_win("expert", fan=3, wall_left=22, tile="5m", claimable=True)
    assert sit.takes_win("expert:upgrade=0", fan=3, wall_left=22, tile="5m", claimable=True)


def test_a_pair_wait_takes_the_win_when_the_pung_is_worth_less() -> None:
    # both other 1m in view: the golden hook would wait on no live tile
    sit = _pair_wait_situation(seen="11m")
    assert sit.takes_win(UPGRADE, fan=3, wall_left=22, tile="5m", claimable=True)
    # three tiles left: the win in hand is worth more than the wait
    sit = _pair_wait_situation(wall_left=3)
    assert sit.takes_win(UPGRADE, fan=3, wall_left=3, tile="5m", claimable=True)


@pytest.mark.parametrize(("voids", "thrown"), [("mmp", "7p"), ("ppm", "5m")])
def test_feed_keeps_the_wait_that_opponents_void_in_its_suit_will_throw(voids: str,
                                                                        thrown: str) -> None:
    # 123456m 789p 222p with 5m and 7p: either is a single wait with two live copies and pays
    # the same. Two opponents void in the suit of one of them throw every copy they draw:
    # feed=1 waits on that one (defence=0: the discard's danger has its own view of which
    # tile the voided opponents can win on)
    sit = Situation({0: "123456m789p222p5m7p"},
                    voids={0: "s", 1: voids[0], 2: voids[1], 3: voids[2]}, rules="classic")
    assert sit.discard("expert:feed=1,defence=0") == thrown


# ----------------------------------------------------------------------------- public tiles
# Under blood river a winner plays on with its hand locked: every tile it has won on wins
# again, and is laid face up. Seats 1..3 are void in m; seat 1 has won on the tile given.
# ``expert`` reads these tiles (public=1, its default); ``public=0`` does not, and is pinned
# here too so that the option stays the only difference.
PUBLIC = "expert"
BLIND = "expert:public=0"

def _river(hand: str, won: str, units: int = 4, seen: str = "") -> Situation:
    return Situation({0: hand}, voids={0: "m", 1: "m", 2: "m", 3: "m"}, rules="river",
                     wins={1: won}, win_units=units, seen=seen, discards={1: 9, 2: 9, 3: 9})


def test_does_not_feed_a_river_winner_its_tile_when_another_keeps_the_shanten() -> None:
    # 678p 789p 123s 789s + 3p + 5s: either single goes and the other is a tanki wait. Two 5s
    # are on the table, so the 3p tanki (three live) is worth more than the 5s one (one live):
    # by value the 5s goes. But seat 1 has won on 5s: throwing it pays seat 1 four units
    # again, for certain, while the 3p keeps the hand ready too. The good player throws the 3p.
    hand = "3p678p789p123s5s789s"
    assert _river(hand, won="8p", seen="5s5s").discard(PUBLIC) == "5s"
    sit = _river(hand, won="5s", seen="5s5s")
    assert sit.discard(PUBLIC) == "3p", explain_discard(sit, PUBLIC)
    assert sit.discard(BLIND) == "5s"


@pytest.mark.parametrize(("won", "safer"), [("4p", "1s"), ("4s", "1p")])
def test_a_river_winners_win_reveals_its_other_wait(won: str, safer: str) -> None:
    # 1p 234p 66p 8p and 1s 234s 66s 8s: the suits alike, either single 1 goes. Seat 1 won on
    # 4p: a two-sided 23p wait would win on 1p too, so the good player throws the 1s (and the
    # 1p when the win was on 4s)
    sit = _river("1p234p66p8p1s234s66s8s", won=won)
    assert sit.discard(PUBLIC) == safer, explain_discard(sit, PUBLIC)


def test_a_cheap_certain_deal_in_is_not_worth_a_step_back() -> None:
    # the hand below, but seat 1's 9s paid one unit a payer: one unit now is cheaper than
    # giving up a ready hand (step backs against small feeds cost 0.047 units a deal, measured)
    sit = _river("123p456p789p11s45s9s", won="9s", units=1)
    assert sit.discard(PUBLIC) == "9s", explain_discard(sit, PUBLIC)


def test_a_costly_certain_deal_in_is_worth_a_step_back() -> None:
    # 123p 456p 789p 11s 45s + 9s: only the 9s keeps the hand ready (on 3s/6s), and seat 1
    # has won on 9s for 16 units a payer. Ready for a loss of 16 now is worse than one step
    # from ready: the good player breaks the hand instead.
    sit = _river("123p456p789p11s45s9s", won="9s", units=16)
    assert sit.discard(PUBLIC) != "9s", explain_discard(sit, PUBLIC)
    assert sit.discard("speed") == sit.discard(BLIND) == "9s"


def test_a_dead_wait_is_not_ready() -> None:
    # 123p 456p 789p 11s 89s + 5s: only the 5s keeps the hand ready, on 7s alone, and every
    # 7s is on the table: that wait can never win. One step from ready with live tiles is
    # better; speed, reading shape alone, throws the 5s.
    sit = Situation({0: "123p456p789p11s89s5s"}, voids={0: "m"}, seen="7s7s7s7s")
    assert sit.discard("speed") == sit.discard(BLIND) == "5s"
    assert sit.discard(PUBLIC) != "5s", explain_discard(sit, PUBLIC)


def test_a_dead_wait_is_kept_at_the_end_of_the_wall() -> None:
    # the hand above with 7 tiles left: a broken wait is seldom ready again in time, and the
    # dead wait still passes the ready check at the drawn end (dead_wait_counts)
    sit = Situation({0: "123p456p789p11s89s5s"}, voids={0: "m"}, seen="7s7s7s7s", wall_left=7)
    assert sit.discard(PUBLIC) == "5s", explain_discard(sit, PUBLIC)


def test_a_deal_plays_alike_alone_and_in_a_batch_with_feed() -> None:
    """The voids are declared at once: no seat's choice reads another's void, nor one the last
    deal left in the state. ``feed`` reads the opponents' voids (the void choice by value
    values the hand with them), and deals played in a batch once differed from the same deals
    played alone (13 of these 200)."""
    from simcore.engine.api import simulate

    rules = get_rules("classic")
    seats = ["expert:feed=1", "speed", "expert:feed=1", "speed"]
    whole = simulate(rules, seats, 0, 0, 200)
    alone = np.concatenate([simulate(rules, seats, 0, i, 1) for i in range(200)])
    assert np.array_equal(whole["net"], alone["net"])
    assert np.array_equal(whole["void_suit"], alone["void_suit"])
