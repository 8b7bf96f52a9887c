"""The record contract has one home, :mod:`simcore.records`: its dtype is pinned column by column,
its code tables agree with their names, nothing else defines the wall size, and the modules that
read and write records (runner store, analysis, synthetic data) load without numba."""

from __future__ import annotations

import io
import subprocess
import sys
import tokenize
from pathlib import Path

import numpy as np
import pytest

from simcore import records
from simcore.records import (
    EXCHANGE_NAMES,
    PATTERN_NAMES,
    RECORD_DTYPE,
    SUIT_LETTERS,
    WALL_SIZE,
    WIN_KIND_NAMES,
    Exchange,
    MeldKind,
    Pattern,
    Suit,
    WinKind,
    empty_records,
    to_dataframe,
)

ROOT = Path(__file__).resolve().parents[2]

# The public columns and their dtypes (users' notebooks and the golden hashes depend on them).
COLUMNS = (
    "deal:i8 wall:i8 rotation:i1 seat:i1 dealer:b1 policy:i1 void_suit:i1 win_order:i1 "
    "win_draw:i2 win_kind:i1 fed_by:i1 win_tile:i1 fan:i1 fan_uncapped:i1 pattern:i1 flush:b1 "
    "terminals:b1 roots:i1 bonuses:i1 kongs:i1 kongs_direct:i1 kongs_added:i1 "
    "kongs_concealed:i1 pungs:i1 draws:i2 deal_ins:i1 passed_wins:i1 ready_end:b1 pig:b1 "
    "net:i4 net_win:i4 net_kong:i4 net_pig:i4 net_ready:i4 net_refund:i4 exchange_dir:i1 "
    "wall_left:i1 winners:i1 next_dealer:i1 wins:i1 "
    "shanten_dealt:i1 shanten_exchanged:i1 shanten_void:i1 longest_suit:i1 pairs:i1"
)
# The per-win table (issue 17).
WIN_COLUMNS = (
    "deal:i8 wall:i8 rotation:i1 seat:i1 policy:i1 win_number:i1 order:i2 draw:i2 kind:i1 "
    "fed_by:i1 tile:i1 fan:i1 fan_uncapped:i1 pattern:i1 flush:b1 terminals:b1 roots:i1 "
    "bonuses:i1 units:i4 paid_by_0:i4 paid_by_1:i4 paid_by_2:i4 paid_by_3:i4"
)


def test_win_dtype_is_the_pinned_contract() -> None:
    from simcore.records import WIN_DTYPE, empty_wins, wins_to_dataframe

    got = " ".join(f"{name}:{WIN_DTYPE[name].str[1:]}" for name in WIN_DTYPE.names)
    assert got == WIN_COLUMNS
    wins = empty_wins(2)
    wins["kind"] = [1, 2]
    wins["pattern"] = [0, 2]
    df = wins_to_dataframe(wins, ["speed"], "river")
    assert df["kind"].tolist() == ["self_draw", "discard"]
    assert df["pattern"].tolist() == ["plain", "seven_pairs"]
    assert df["policy"].tolist() == ["speed", "speed"] and df["preset"].tolist() == ["river"] * 2
    with pytest.raises(ValueError, match="number of win rows must be >= 0, got -1"):
        empty_wins(-1)


def test_record_dtype_is_the_pinned_contract() -> None:
    got = " ".join(f"{name}:{RECORD_DTYPE[name].str[1:]}" for name in RECORD_DTYPE.names)
    assert got == COLUMNS
    assert RECORD_DTYPE.itemsize == 79 and empty_records(3).shape == (12,)
    with pytest.raises(ValueError, match="number of deals must be >= 0, got -1"):
        empty_records(-1)


def test_codes_and_names_come_from_one_table() -> None:
    assert SUIT_LETTERS == ("m", "p", "s") and [int(s) for s in Suit] == [0, 1, 2]
    assert [int(k) for k in MeldKind] == [1, 2, 3] and records.MELD_LETTERS == {
        "P": MeldKind.PUNG, "K": MeldKind.KONG, "C": MeldKind.CONCEALED_KONG}
    assert PATTERN_NAMES == ("plain", "all_pungs", "seven_pairs", "golden_hook", "pungs_258")
    assert WIN_KIND_NAMES == ("", "self_draw", "discard", "robbed_kong", "kong_flower")
    assert EXCHANGE_NAMES == ("none", "next", "previous", "across")
    for enum, names, offset in ((Pattern, PATTERN_NAMES, 1), (WinKind, WIN_KIND_NAMES, 0),
                                (Exchange, EXCHANGE_NAMES, 0)):
        for member in enum:
            if member.name != "NONE" or enum is Exchange:
                assert names[member + (offset - 1 if enum is Pattern else 0)] == \
                    member.name.lower()
    assert records.PAT_NONE == -1 and records.WIN_KONG_FLOWER == 4
    assert WALL_SIZE == 27 * 4


def test_the_pandas_boundary_turns_codes_into_names() -> None:
    rec = empty_records(1)
    rec["pattern"] = [Pattern.NONE, Pattern.PUNGS_258, Pattern.PLAIN, Pattern.NONE]
    rec["win_kind"] = [0, WinKind.KONG_FLOWER, WinKind.DISCARD, 0]
    rec["void_suit"] = [Suit.S, Suit.M, Suit.P, Suit.M]
    rec["exchange_dir"] = Exchange.ACROSS
    df = to_dataframe(rec, ["speed"], preset="classic")
    assert list(df["pattern"]) == ["", "pungs_258", "plain", ""]
    assert list(df["win_kind"]) == ["", "kong_flower", "discard", ""]
    assert list(df["void_suit"]) == ["s", "m", "p", "m"]
    assert set(df["exchange_dir"]) == {"across"} and set(df["preset"]) == {"classic"}
    with pytest.raises(ValueError, match="policy names must be distinct"):
        to_dataframe(rec, ["a", "a"])


def test_the_record_codes_live_in_simcore_records_only() -> None:
    import importlib.util

    from simcore.tiles import MELD_CONCEALED_KONG, SUITS

    assert importlib.util.find_spec("simcore.engine.records") is None  # the old shim is gone
    assert MELD_CONCEALED_KONG == records.MELD_CONCEALED_KONG and SUITS == "mps"


def _numbers_108(path: Path) -> list[int]:
    """Lines of ``path`` holding the number 108 as code (not in a comment or a string)."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [t.start[0] for t in tokens if t.type == tokenize.NUMBER and t.string == "108"]


def test_the_wall_size_is_written_once() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "simcore").rglob("*.py"))
        if path.name != "records.py" or path.parent.name != "simcore"
        if (lines := _numbers_108(path))
    }
    assert found == {}, f"import WALL_SIZE from simcore.records instead: {found}"
    defined = [str(p.relative_to(ROOT)) for p in (ROOT / "simcore").rglob("*.py")
               if "WALL_SIZE = " in p.read_text(encoding="utf-8")]
    assert defined == ["simcore/records.py"]


def test_record_readers_and_writers_load_without_numba() -> None:
    code = (
        "import sys\n"
        "import simcore.records, simcore.runner.store, simcore.analysis.io\n"
        "import simcore.testing.synthetic\n"
        "assert 'numba' not in sys.modules, sorted(m for m in sys.modules if 'numba' in m)[:3]\n"
        "assert 'simcore.engine' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_dtype_round_trips_through_a_run_directory(tmp_path: Path) -> None:
    from simcore.runner import load
    from simcore.testing import synthetic_records, write_synthetic_run

    out = write_synthetic_run(tmp_path / "run", 12, chunk_size=5, n_policies=2)
    df, meta = load(out)
    expected = to_dataframe(synthetic_records(12, np.random.default_rng(0), 2)[:0],
                            ["policy0", "policy1"], "classic")
    assert list(df.columns) == list(expected.columns)
    assert meta["format"] == "simcore-run" and meta["deals"] == 12 and len(df) == 48


@pytest.mark.parametrize(
    ("dtype", "descriptions"),
    [
        (records.RECORD_DTYPE, records.RECORD_DESCRIPTIONS),
        (records.WIN_DTYPE, records.WIN_DESCRIPTIONS),
    ],
    ids=["records", "wins"],
)
def test_every_column_has_one_description(dtype: np.dtype, descriptions: dict) -> None:
    # the data reference of the documentation site is generated from these mappings: a column
    # without a description, or a description of a column that does not exist, would drift
    assert list(descriptions) == list(dtype.names)
    assert all(isinstance(text, str) and text.strip() for text in descriptions.values())
