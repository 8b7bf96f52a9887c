"""Golden replay logs: the readable text of a few deals, beside the golden hashes (golden.json).

    python benchmarks/golden_replays.py --write   # regenerate tests/engine/golden/replay_*.txt
    python benchmarks/golden_replays.py --check   # compare (tests/engine/test_golden.py does this)

Each file is the output of the ``simcore replay`` command on its first line, across the five
presets, plain and duplicate runs and every policy family. A change of the engine or of the log
format shows in the diff of these files, line by line, where the hashes only say that something
changed. Regenerate them in the commit that changes the log, and say why.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "engine" / "golden"

# (rules preset, seed, deal, policies, duplicate)
CASES = (
    ("classic", 11, 1, "speed", False),
    ("classic", 11, 14, "speed/random/flush:k=6/pairs:k=4", True),
    ("baike", 11, 2, "flush:k=7/speed/pungs:k=3/pairs:k=4", False),
    ("qq", 11, 3, "random", False),
    ("app", 11, 17, "flush:k=7/speed/pungs:k=3/pairs:k=4", False),
    ("app", 7, 123, "speed/random/flush:k=8/pungs:k=4", False),  # issue 13's full flush
    ("tfmj", 11, 101, "speed:kong=always/pungs:k=3/speed/random", False),
)


def file_name(preset: str, seed: int, deal: int, duplicate: bool) -> str:
    return f"replay_{preset}_seed{seed}_{'dup' if duplicate else 'deal'}{deal}.txt"


def command(preset: str, seed: int, deal: int, policies: str, duplicate: bool) -> str:
    return (f"simcore replay --seed {seed} --deal {deal} --rules {preset} "
            f"--policies '{policies}'" + (" --duplicate" if duplicate else ""))


def logs() -> dict[str, str]:
    """File name -> text: the command line, then the readable log of the deal."""
    from simcore.engine.replay import render, replay

    out = {}
    for preset, seed, deal, policies, duplicate in CASES:
        events, _records = replay(seed, deal, preset, policies, duplicate=duplicate)
        text = f"$ {command(preset, seed, deal, policies, duplicate)}\n{render(events)}\n"
        out[file_name(preset, seed, deal, duplicate)] = text
    return out


def differences(computed: dict[str, str], directory: Path = GOLDEN_DIR) -> list[str]:
    """A unified diff per golden file that differs from ``computed`` (or is missing, or extra)."""
    out = []
    stored = {p.name for p in directory.glob("replay_*.txt")}
    for name in sorted(stored | set(computed)):
        path = directory / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = computed.get(name, "")
        if old != new:
            out.append("".join(difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True),
                f"stored/{name}", f"computed/{name}")))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="regenerate the golden logs")
    group.add_argument("--check", action="store_true", help="print the diff of changed logs")
    args = parser.parse_args()
    computed = logs()
    if args.write:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        for path in GOLDEN_DIR.glob("replay_*.txt"):
            if path.name not in computed:
                path.unlink()
        for name, text in computed.items():
            (GOLDEN_DIR / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(computed)} replay logs to {GOLDEN_DIR}")
        return 0
    diffs = differences(computed)
    for diff in diffs:
        print(diff)
    print(f"{len(computed) - len(diffs)}/{len(computed)} replay logs equal")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
