"""Golden check: hashes of the engine's records and replay logs, to prove a refactor changes none.

    # from the engine you trust:
    python benchmarks/golden_check.py --write tests/engine/golden/golden.json
    # after a change: every hash equal
    python benchmarks/golden_check.py --check tests/engine/golden/golden.json

Covers every rules preset with policy specs that exercise every policy family and option,
duplicate runs and the in-kernel invariant checks (``debug``), the JSON replay event logs of a
few deals per preset, and what-if (conditional) runs. Performance work on the engine must keep
every hash; a rule or policy change is expected to break them (regenerate deliberately then).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import warnings

from simcore.engine import play
from simcore.engine.api import simulate
from simcore.engine.replay import replay
from simcore.rules import PRESETS

DEALS = 3000
SEED = 11
SPECS = (
    "random",
    "speed",
    "random/speed/random/speed",
    "flush:k=7/speed/pungs:k=3/pairs:k=4",
    "speed:kong=always/speed:kong=never/speed:kong=pung_then_add/speed:min_fan=2,until=8",
    "speed:exchange=random,void=weakest,watch=1/speed:ukeire=0/flush:k=6,g=10/speed:void=p",
    "flush:kong=pung_then_add,exchange=keep_long,void=weakest,watch=1/"
    "pungs:k=3,min_fan=1,until=20,watch=1/pairs:k=4,kong=always,watch=1/speed:watch=1",
)
REPLAY_SPECS = ("random", "speed", "flush:k=7/speed/pungs:k=3/pairs:k=4")
# The expert family (issue 15), added after the cases above: its own keys, so that changing the
# expert's play rewrites these and leaves every other hash comparable.
EXPERT_SPECS = (
    "expert/speed/speed/speed",
    "expert:fold=100,defence=100/expert:kong=never/expert:value=0/expert:kong=always",
    # the kong hope, the declined wins, the void by value and the flush's own discards (session 8)
    "expert:hope=0,stay=0,void=fewest/expert:chase=9/expert:stay=30,hope=50/speed",
    # public tiles and feeds became the default (issue 30): the former default, and upgrade
    "expert:public=0,feed=0/expert:public=0/expert:feed=0,upgrade=1/expert:upgrade=1",
    # upgrade became the default at four-player tables (issue 30): the former default
    "expert:upgrade=0/speed/expert:upgrade=0,public=0,feed=0/speed",
)
EXPERT_REPLAY_DEALS = (0, 3)
REPLAY_DEALS = (0, 1, 2, 3, 17, 101)
WHATIF_CASES = (
    ("1123455789m 46p 9s", False, "classic"),
    ("11234m 55667p 789s 1p", True, "app"),
)


# Record columns added after the hashes were first written (issue 17 onwards). They are hashed
# apart, under KEY + "+later", so that every earlier hash still compares the columns it always
# covered: a new column must leave the old ones unchanged. Append a column's name when adding it.
LATER_COLUMNS: tuple[str, ...] = (  # issue 17
    "wins", "shanten_dealt", "shanten_exchanged", "shanten_void", "longest_suit", "pairs",
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _hash_frame(hashes: dict[str, str], key: str, df, prefix: str = "") -> None:
    later = [c for c in df.columns if c in LATER_COLUMNS]
    hashes[key] = _sha((prefix + df.drop(columns=later).to_csv()).encode())
    if later:
        hashes[key + "+later"] = _sha(df[later].to_csv().encode())


def _hash_array(hashes: dict[str, str], key: str, records) -> None:
    from numpy.lib import recfunctions

    names = records.dtype.names
    later = [n for n in names if n in LATER_COLUMNS]
    earlier = recfunctions.repack_fields(records[[n for n in names if n not in later]])
    hashes[key] = _sha(earlier.tobytes())
    if later:
        hashes[key + "+later"] = _sha(recfunctions.repack_fields(records[later]).tobytes())


def _seats(spec: str, players: int = 4) -> list[str]:
    return spec.split("/")[:players] if "/" in spec else [spec] * players


def _for_table(spec: str, rules) -> str:
    """``spec`` as the variant tables of docs/rules section 9 can play it: its first ``players``
    seats, and under two suits no fixed void (none is declared). The identity for the four-
    player, three-suit presets, so their keys and hashes are the ones always written."""
    seats = _seats(spec, rules.players) if "/" in spec else [spec]
    if rules.suits == 2:
        out = []
        for seat in seats:
            name, _, options = seat.partition(":")
            kept = [o for o in options.split(",") if o and o not in ("void=m", "void=p",
                                                                     "void=s")]
            out.append(name + (":" + ",".join(kept) if kept else ""))
        seats = out
    return "/".join(seats)


def compute(quick: bool = False) -> dict[str, str]:
    hashes: dict[str, str] = {}
    deals = 300 if quick else DEALS
    for preset in PRESETS:
        rules = PRESETS[preset]
        for spec in (_for_table(s, rules) for s in SPECS):
            df = play(deals, rules=preset, policies=spec, seed=SEED)
            _hash_frame(hashes, f"play/{preset}/{spec}", df)
        for spec in (_for_table(s, rules) for s in SPECS[2:4]):
            out = simulate(rules, _seats(spec, rules.players), SEED, 5, deals // 8,
                           duplicate=True, debug=True)
            _hash_array(hashes, f"duplicate/{preset}/{spec}", out)
        for spec in (_for_table(s, rules) for s in REPLAY_SPECS):
            for deal in REPLAY_DEALS:
                events, df = replay(SEED, deal, rules=preset, policies=spec)
                _hash_frame(hashes, f"replay/{preset}/{spec}/{deal}", df,
                            prefix=json.dumps(events, sort_keys=True))
        for spec in (_for_table(s, rules) for s in EXPERT_SPECS):
            df = play(deals // 3, rules=preset, policies=spec, seed=SEED)
            _hash_frame(hashes, f"play/{preset}/{spec}", df)
            for deal in EXPERT_REPLAY_DEALS:
                events, df = replay(SEED, deal, rules=preset, policies=spec)
                _hash_frame(hashes, f"replay/{preset}/{spec}/{deal}", df,
                            prefix=json.dumps(events, sort_keys=True))
    from simcore.rollouts import simulate_whatif

    for hand, dealer, preset in WHATIF_CASES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = simulate_whatif(hand, plans=["speed", "flush:k=0", "pungs:k=0",
                                                  "pairs:k=0"],
                                     deals=200 if quick else 1000, rules=preset, dealer=dealer,
                                     seed=SEED, others="speed/random/flush:k=6", debug=True)
        _hash_array(hashes, f"whatif/{preset}/{hand}", result.records_array)
    return hashes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE")
    group.add_argument("--check", metavar="FILE")
    parser.add_argument("--quick", action="store_true", help="fewer deals (a smoke test)")
    args = parser.parse_args()
    t0 = time.time()
    hashes = compute(args.quick)
    elapsed = time.time() - t0
    key = "quick" if args.quick else "full"
    if args.write:
        try:
            with open(args.write) as f:
                stored = json.load(f)
        except FileNotFoundError:
            stored = {}
        stored[key] = hashes
        with open(args.write, "w") as f:
            json.dump(stored, f, indent=1, sort_keys=True)
        print(f"wrote {len(hashes)} hashes ({key}) to {args.write} in {elapsed:.0f} s")
        return 0
    with open(args.check) as f:
        expected = json.load(f)[key]
    bad = [k for k in expected if hashes.get(k) != expected[k]]
    missing = [k for k in hashes if k not in expected]
    for k in bad:
        print(f"MISMATCH {k}")
    for k in missing:
        print(f"not in the golden file: {k}")
    print(f"{len(expected) - len(bad)}/{len(expected)} hashes equal ({key}, {elapsed:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
