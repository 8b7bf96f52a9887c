"""Tiles and notation (docs/rules section 1)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import tiles
from simcore.tiles import (
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_LETTERS,
    MELD_PUNG,
    N_TYPES,
    SUITS,
    Hand,
    Meld,
    all_tiles_counts,
    counts_from_tiles,
    melds_from_arrays,
    melds_to_arrays,
    parse,
    suit_name,
    tile_index,
    tile_name,
    tile_str,
    tiles_from_counts,
    tiles_str,
)


def test_constants_match_the_architecture() -> None:
    assert (N_TYPES, SUITS) == (27, "mps")
    assert (MELD_PUNG, MELD_KONG, MELD_CONCEALED_KONG) == (1, 2, 3)
    assert MELD_LETTERS == {"P": 1, "K": 2, "C": 3}


@pytest.mark.parametrize(
    ("text", "t"), [("1m", 0), ("9m", 8), ("1p", 9), ("9p", 17), ("1s", 18), ("5s", 22), ("9s", 26)]
)
def test_tile_index_and_str(text: str, t: int) -> None:
    assert tile_index(text) == t
    assert tile_str(t) == text


def test_every_tile_round_trips() -> None:
    assert [tile_index(tile_str(t)) for t in range(N_TYPES)] == list(range(N_TYPES))


@pytest.mark.parametrize("bad", ["0m", "5x", "55s", "s5", "", "5"])
def test_tile_index_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match=f"not a tile: {re.escape(repr(bad))}"):
        tile_index(bad)


@pytest.mark.parametrize("bad", [-1, 27, 2.0, True, "5s"])
def test_tile_str_rejects(bad: object) -> None:
    with pytest.raises(
        ValueError, match=re.escape(f"tile type must be an integer 0..26, got {bad!r}")
    ):
        tile_str(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# the examples of docs/rules


@pytest.mark.parametrize(
    ("text", "canonical", "n_melds"),
    [
        ("111444789m456p77p", "111444789m45677p", 0),
        ("111m444m456p789m77p", "111444789m45677p", 0),
        ("111444m222999p66p", "111444m22266999p", 0),
        ("123567234888s99s", "12233456788899s", 0),
        ("11m22m99m44p66p88p99p", "112299m44668899p", 0),
        ("1111m99m44p66p88p99p", "111199m44668899p", 0),
        ("111444222999m66m", "11122244466999m", 0),
        ("111m123m444m999p66p", "111123444m66999p", 0),
        ("123456789m123m99m", "11223345678999m", 0),
    ],
)
def test_rules_md_examples(text: str, canonical: str, n_melds: int) -> None:
    hand = parse(text)
    assert tiles.format(hand) == canonical
    assert len(hand.melds) == n_melds
    assert parse(canonical) == hand


def test_rules_md_meld_example_shape() -> None:
    # docs/rules writes `123m456m77p|P5sK3m`, which holds five 3m (123m plus a kong of 3m), so it
    # is rejected; the same shape with another kong tile parses
    counts, melds = parse("123m456m77p|P5sK9m")
    assert tiles_from_counts(counts) == [0, 1, 2, 3, 4, 5, 15, 15]
    assert melds == (Meld("P", 22), Meld("K", 8))
    assert [(m.code, m.size) for m in melds] == [(MELD_PUNG, 3), (MELD_KONG, 4)]
    assert tiles.format(counts, melds) == "123456m77p|P5sK9m"
    with pytest.raises(ValueError, match=r"5 copies of 3m in '123m456m77p\|P5sK3m'"):
        parse("123m456m77p|P5sK3m")


def test_meld_kinds_and_concealed_kong() -> None:
    counts, melds = parse("11m|C7pK3mP5sP9s")
    assert melds == (Meld("C", 15), Meld("K", 2), Meld("P", 22), Meld("P", 26))
    assert [m.code for m in melds] == [MELD_CONCEALED_KONG, MELD_KONG, MELD_PUNG, MELD_PUNG]
    assert [m.size for m in melds] == [4, 4, 3, 3]
    assert tiles.format(counts, melds) == "11m|C7pK3mP5sP9s"  # melds keep their given order


@pytest.mark.parametrize(
    "text", ["1 2 3m 4 5 6m 7 7p | P 5 s K 9m", "\t123m456m77p|P5s K9m\n", "123m456m77p| P5sK9m"]
)
def test_spaces_anywhere_are_ignored(text: str) -> None:
    assert parse(text) == parse("123m456m77p|P5sK9m")


def test_hand_equality_and_unpacking() -> None:
    hand = parse("123m456p789s11s55p")
    counts, melds = hand
    assert counts.dtype == np.int8 and counts.shape == (27,)
    assert melds == ()
    assert hand == Hand(counts.copy(), ())
    assert hand != Hand(counts.copy(), (Meld("P", 0),))
    other = counts.copy()
    other[0] -= 1
    assert hand != Hand(other, ())
    assert str(hand) == "123m45556p11789s"


# --------------------------------------------------------------------------------------------
# sizes


@pytest.mark.parametrize(
    ("text", "concealed", "melds"),
    [
        ("1112345678999m", 13, 0),  # waiting: 13 - 3k concealed tiles
        ("11123456789999m", 14, 0),  # complete: 14 - 3k
        ("11m|P1sP2sP3sP4s", 2, 4),
        ("1m|P1sP2sP3sP4s", 1, 4),
        ("1m2m|K5pP1sC2sP3s", 2, 4),
        ("123m456m789m7p|P5s", 10, 1),
    ],
)
def test_valid_sizes(text: str, concealed: int, melds: int) -> None:
    hand = parse(text)
    assert int(hand.counts.sum()) == concealed and len(hand.melds) == melds
    assert parse(str(hand)) == hand  # the notation round-trips


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("111234567899m", "12 concealed tiles with 0 melds in '111234567899m'; expected 13 or 14"),
        (
            "111234567899m1s2s3s",
            "15 concealed tiles with 0 melds in '111234567899m1s2s3s'; expected 13 or 14",
        ),
        ("123m|P5s", "3 concealed tiles with 1 meld in '123m|P5s'; expected 10 or 11"),
        ("|P1sP2sP3sP4s", "0 concealed tiles with 4 melds in '|P1sP2sP3sP4s'; expected 1 or 2"),
        ("", "0 concealed tiles with 0 melds in ''; expected 13 or 14"),
    ],
)
def test_wrong_size_names_counts(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(text)
    parse(text, sizes="any")  # the same text is fine as a list of tiles


def test_sizes_any_accepts_partial_lists() -> None:
    assert tiles.format(parse("123m 567m 99s", sizes="any")) == "123567m99s"  # docs/rules example
    assert tiles_from_counts(parse("", sizes="any").counts) == []
    assert parse("5s", sizes="any").counts[22] == 1


def test_sizes_must_be_known() -> None:
    with pytest.raises(ValueError, match="sizes: 'all' is not one of 'hand', 'any'"):
        parse("1m", sizes="all")


# --------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12x", "unknown character 'x' at position 3 in '12x'"),
        ("1 2x", "unknown character 'x' at position 4 in '1 2x'"),
        ("123M", "unknown character 'M' at position 4 in '123M' (suits are lower case)"),
        ("123m|p5s", "malformed meld 'p5s' at position 6 in '123m|p5s'"),
        ("103m", "rank 0 at position 2 in '103m'"),
        ("11m|P0s", "rank 0 at position 6 in '11m|P0s'"),
        ("123", "digits '123' at position 1 have no suit letter after them in '123'"),
        ("11m123|P5s", "digits '123' at position 4 have no suit letter after them"),
        ("m123m", "suit letter 'm' at position 1 has no digits before it in 'm123m'"),
        ("11m|", "'|' at position 4 has no meld after it in '11m|'"),
        ("11m | ", "'|' at position 5 has no meld after it in '11m | '"),
        ("11m|P5", "malformed meld 'P5' at position 5 in '11m|P5'"),
        ("11m|P55s", "malformed meld 'P55' at position 5 in '11m|P55s'"),
        ("11m|X5s", "malformed meld 'X5s' at position 5 in '11m|X5s'"),
        ("11m|P5s|K1m", "malformed meld '|K1' at position 8"),
        ("11mP5s", "meld 'P' at position 4 in '11mP5s' must come after a '|'"),
        ("11111m", "5 copies of 1m in '11111m', counting melds (a pung uses 3, a kong 4)"),
        ("55s|P5sP1m", "5 copies of 5s in '55s|P5sP1m'"),
        ("5s|K5s", "5 copies of 5s in '5s|K5s'"),
        ("|C7pP7p", "7 copies of 7p in '|C7pP7p'"),
        ("1m|P1sP2sP3sP4sP5s", "5 melds in '1m|P1sP2sP3sP4sP5s'; a hand has at most 4"),
    ],
)
def test_parse_errors_name_the_offending_part(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(text, sizes="any")


def test_long_runs_do_not_wrap_around() -> None:
    # 256 copies would wrap an int8 count back to 0
    with pytest.raises(ValueError, match="256 copies of 1m"):
        parse("1" * 256 + "m", sizes="any")


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(ValueError, match="hand notation must be a string, got 5"):
        parse(5)  # type: ignore[arg-type]


def test_five_of_a_kind_is_allowed_as_exactly_four() -> None:
    assert all_tiles_counts(parse("5s|P5s", sizes="any"))[22] == 4
    assert all_tiles_counts(parse("|C5s", sizes="any"))[22] == 4


# --------------------------------------------------------------------------------------------
# round trips


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random valid hands: melds on distinct types, then concealed tiles from what remains."""
    n_melds = draw(st.integers(0, 4))
    meld_tiles = draw(st.lists(st.integers(0, 26), min_size=n_melds, max_size=n_melds, unique=True))
    melds = tuple(Meld(draw(st.sampled_from("PKC")), t) for t in meld_tiles)
    left = np.full(27, 4)
    for m in melds:
        left[m.tile] -= m.size
    pool = [t for t in range(27) for _ in range(left[t])]
    n = 13 - 3 * n_melds + draw(st.integers(0, 1))
    chosen = draw(st.permutations(pool))[:n]
    return Hand(counts_from_tiles(chosen), melds)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_format_parse_round_trip(hand: Hand) -> None:
    text = tiles.format(hand.counts, hand.melds)
    assert parse(text) == hand
    assert tiles.format(hand) == text
    assert tiles.format(parse(text)) == text  # canonical form is a fixed point


@settings(max_examples=200, deadline=None)
@given(hands())
def test_canonical_form(hand: Hand) -> None:
    text = tiles.format(hand)
    concealed = text.split("|")[0]
    groups = re.findall(r"(\d+)([mps])", concealed)
    assert "".join(d + s for d, s in groups) == concealed
    assert [s for _, s in groups] == sorted({s for _, s in groups}, key=SUITS.index)
    assert all(list(d) == sorted(d) for d, _ in groups)


@settings(max_examples=200, deadline=None)
@given(hands())
def test_melds_arrays_round_trip(hand: Hand) -> None:
    kind, tile, n = melds_to_arrays(hand.melds)
    assert n == len(hand.melds)
    assert melds_from_arrays(kind, tile, n) == hand.melds
    total = all_tiles_counts(hand)
    assert total.sum() == hand.counts.sum() + sum(m.size for m in hand.melds)
    assert total.max() <= 4


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 26), max_size=20).filter(
        lambda ts: max(map(ts.count, ts), default=0) <= 4
    )
)
def test_tile_lists(ts: list[int]) -> None:
    counts = counts_from_tiles(ts)
    assert tiles_from_counts(counts) == sorted(ts)
    assert tiles_from_counts(parse(tiles_str(ts), sizes="any").counts) == sorted(ts)


# --------------------------------------------------------------------------------------------
# conversions and their errors


def test_tiles_str_sorts() -> None:
    assert tiles_str([26, 0, 9, 0]) == "11m1p9s"


def test_counts_from_tiles_rejects() -> None:
    with pytest.raises(ValueError, match="tile 5s appears more than 4 times"):
        counts_from_tiles([22] * 5)
    with pytest.raises(ValueError, match="tile type must be an integer 0..26, got 27"):
        counts_from_tiles([27])


def test_format_rejects_bad_counts() -> None:
    bad = np.zeros(27, dtype=np.int8)
    bad[22] = 5
    with pytest.raises(ValueError, match="count of 5s must be 0..4, got 5"):
        tiles.format(bad)
    with pytest.raises(ValueError, match=re.escape("counts must be 27 integers, got shape (26,)")):
        tiles.format(np.zeros(26, dtype=np.int8))
    with pytest.raises(ValueError, match="meld kind 'X' is not one of 'P', 'K', 'C'"):
        tiles.format(np.zeros(27, dtype=np.int8), [Meld("X", 0)])


def test_melds_to_arrays_layout() -> None:
    kind, tile, n = melds_to_arrays([Meld("P", 22), Meld("K", 2), Meld("C", 15)])
    assert kind.dtype == np.int8 and tile.dtype == np.int8
    assert kind.tolist() == [MELD_PUNG, MELD_KONG, MELD_CONCEALED_KONG, 0]
    assert tile.tolist() == [22, 2, 15, -1]
    assert n == 3
    assert melds_to_arrays([])[2] == 0


def test_meld_array_errors() -> None:
    with pytest.raises(ValueError, match="a hand has at most 4 melds, got 5"):
        melds_to_arrays([Meld("P", t) for t in range(5)])
    with pytest.raises(ValueError, match="meld kind 'Q' is not one of 'P', 'K', 'C'"):
        melds_to_arrays([Meld("Q", 1)])
    with pytest.raises(ValueError, match="tile type must be an integer 0..26, got 30"):
        melds_to_arrays([Meld("P", 30)])
    kind = np.array([1, 7, 0, 0], dtype=np.int8)
    tile = np.array([1, 2, -1, -1], dtype=np.int8)
    with pytest.raises(ValueError, match="meld kind code 7 \\(meld 1\\) is not one of 1, 2, 3"):
        melds_from_arrays(kind, tile, 2)
    with pytest.raises(ValueError, match="n_melds must be 0..4 within the arrays, got 5"):
        melds_from_arrays(kind, tile, 5)


# --------------------------------------------------------------------------------------------
# names


@pytest.mark.parametrize(
    ("tile", "en", "zh"),
    [
        ("1m", "1 characters", "一万"),
        ("9m", "9 characters", "九万"),
        ("9p", "9 dots", "九筒"),
        ("3p", "3 dots", "三筒"),
        ("5s", "5 bamboo", "五条"),
        ("1s", "1 bamboo", "一条"),
    ],
)
def test_tile_names(tile: str, en: str, zh: str) -> None:
    t = tile_index(tile)
    assert tile_name(t) == en
    assert tile_name(t, lang="zh") == zh


def test_names_are_distinct() -> None:
    for lang in ("en", "zh"):
        assert len({tile_name(t, lang) for t in range(27)}) == 27


def test_suit_names() -> None:
    assert [suit_name(s) for s in range(3)] == ["characters", "dots", "bamboo"]
    assert [suit_name(s, "zh") for s in SUITS] == ["万", "筒", "条"]
    with pytest.raises(ValueError, match=r"not a suit: 3 \(expected 0, 1, 2 or 'm', 'p', 's'\)"):
        suit_name(3)
    with pytest.raises(ValueError, match="not a suit: 'z'"):
        suit_name("z")
    with pytest.raises(ValueError, match="lang: 'fr' is not one of 'en', 'zh'"):
        tile_name(0, "fr")
