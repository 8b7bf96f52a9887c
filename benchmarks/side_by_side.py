"""A policy as it plays now against the same policy at an earlier commit, on the same walls.

    python benchmarks/side_by_side.py [--base REV] [--spec expert] [--base-spec SPEC]
                                      [--field speed] [--rules classic,app] [--walls 10000]
                                      [--seed 0]

The commit ``REV`` (default ``HEAD~1``) is taken from git (``git archive``) and installed beside
the working tree as the package ``simcore_base`` (its imports renamed), in
``~/.cache/simcore/side_by_side/<commit>``, where its compiled engine stays for the next run.
Both packages play the duplicate table ``SPEC/FIELD/FIELD/FIELD`` (every wall four times, the
seats rotated) on the walls of ``--seed``; the field must play as it did at ``REV`` (checked
first: a field-only table of 200 walls gives the same nets in both, else the comparison would
measure the field's change too, and the script stops). Printed per preset: each package's
switching gain (the seat's mean net a deal), and the paired difference now minus then, per
wall, with its 95% interval, and how many walls differ at all.

One version of a policy cannot sit at the same table as the other (one engine plays a table),
so this compares each version's gain against an unchanged field: what the targets of issue 30
measure against ``speed``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
from _machine import describe_machine  # benchmarks/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parents[1]
BASE_NAME = "simcore_base"
CACHE = Path.home() / ".cache" / "simcore" / "side_by_side"
FIELD_CHECK_WALLS = 200
# an import of the package, or a dotted name of it inside a string (importlib calls)
_IMPORT = re.compile(r"\bsimcore(?=[.\s])")


def install_base(rev: str) -> Path:
    """The folder holding ``simcore_base``, the package as it was at ``rev``."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True)
    if sha.returncode != 0:
        raise SystemExit(f"side_by_side: unknown revision {rev!r}: {sha.stderr.strip()}")
    home = CACHE / sha.stdout.strip()
    package = home / BASE_NAME
    if (package / "__init__.py").exists():
        return home
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha.stdout.strip(), "simcore"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith("simcore/"):
                continue
            target = package / member.name[len("simcore/"):]
            target.parent.mkdir(parents=True, exist_ok=True)
            data = tar.extractfile(member).read()  # type: ignore[union-attr]
            if member.name.endswith(".py"):
                data = _IMPORT.sub(BASE_NAME, data.decode()).encode()
            target.write_bytes(data)
    return home


def seat_nets(package_name: str, preset: str, seats: list[str], walls: int,
              seed: int) -> np.ndarray:
    """``float[walls, 4]``: each wall's net of the seat ``seats[i]`` sat in, per rotation order
    (the policy of rotation-seat 0 is ``seats[0]``), summed over its four deals."""
    api = importlib.import_module(f"{package_name}.engine.api")
    rules = importlib.import_module(f"{package_name}.rules").get_rules(preset)
    rec = api.simulate(rules, seats, seed, 0, walls, duplicate=True)
    out = np.zeros((walls, 4))
    # rotation r seats seats[(s + r) % 4] at seat s
    np.add.at(out, (rec["wall"], (rec["seat"] + rec["rotation"]) % 4), rec["net"])
    return out


def check_field(preset: str, field: str, seed: int) -> None:
    seats = [field] * 4
    now = seat_nets("simcore", preset, seats, FIELD_CHECK_WALLS, seed)
    then = seat_nets(BASE_NAME, preset, seats, FIELD_CHECK_WALLS, seed)
    if not np.array_equal(now, then):
        raise SystemExit(f"side_by_side: the field '{field}' plays differently at the base "
                         f"commit under {preset} ({int((now != then).any(axis=1).sum())} of "
                         f"{FIELD_CHECK_WALLS} walls differ): choose a field unchanged since")


def interval(x: np.ndarray) -> str:
    m = x.mean()
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{m:+.4f} [{m - half:+.4f}, {m + half:+.4f}]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="HEAD~1", help="the earlier commit (default HEAD~1)")
    ap.add_argument("--spec", default="expert", help="the policy now")
    ap.add_argument("--base-spec", default=None, help="the policy then (default: --spec)")
    ap.add_argument("--field", default="speed", help="the three other seats, unchanged since")
    ap.add_argument("--rules", default="classic,app")
    ap.add_argument("--walls", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.walls < 2:
        raise SystemExit(f"side_by_side: --walls must be at least 2 (got {args.walls})")
    sys.path.insert(0, str(install_base(args.base)))  # simcore_base importable
    base_spec = args.base_spec or args.spec
    print(describe_machine())
    print(f"{args.spec} now against {base_spec} at {args.base}, one seat against three "
          f"{args.field} ({args.walls} walls of seed {args.seed}, duplicate; units a deal)")
    for preset in args.rules.split(","):
        check_field(preset, args.field, args.seed)
        now = seat_nets("simcore", preset, [args.spec] + [args.field] * 3, args.walls,
                        args.seed)[:, 0] / 4
        then = seat_nets(BASE_NAME, preset, [base_spec] + [args.field] * 3, args.walls,
                         args.seed)[:, 0] / 4
        differ = int((now != then).sum())
        print(f"{preset:9s} now {interval(now)}  then {interval(then)}  "
              f"now - then {interval(now - then)}  walls differing {differ}")


if __name__ == "__main__":
    main()
