"""The fast commands stay fast: ``simcore --help`` and ``simcore policies`` import neither numba
nor pandas (each costs more than the 0.3 s budget on the 2-core machine), a command's options
are loaded with its module only, and ``import simcore`` is light with its lazy attributes
working. Timings themselves are measured by ``benchmarks/bench_commands.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "pandas", "pyarrow", "matplotlib", "simcore.engine.turns", "simcore.hand.tables")

PROBE = """
import json, sys
from simcore.cli import main
try:
    code = main({argv!r})
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "loaded": [m for m in {heavy!r} if m in sys.modules]}}),
      file=sys.stderr)
"""


def _probe(argv: list[str]) -> tuple[int, list[str], str]:
    """Run ``simcore ARGV`` in a fresh interpreter: exit code, heavy modules loaded, stdout."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], report["loaded"], done.stdout


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["policies"], ["policies", "--json"], ["run", "--help"], ["replay", "--help"]],
)
def test_help_and_policies_load_no_numba_nor_pandas(argv: list[str]) -> None:
    code, loaded, out = _probe(argv)
    assert code == 0
    assert loaded == []
    assert out.strip()


def test_top_level_help_lists_every_command_with_its_line() -> None:
    from simcore.cli import COMMANDS

    code, _, out = _probe(["--help"])
    assert code == 0
    for name, line in COMMANDS.items():
        assert name in out
        assert line.split()[0] in out


def test_a_command_loads_its_options_only_when_used() -> None:
    from simcore.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["policies", "--json"])
    assert args.json is True and args.func.__module__ == "simcore.commands.policies"
    args = parser.parse_args(["replay", "--seed", "7", "--deal", "3"])
    assert (args.seed, args.deal, args.rules, args.policies) == (7, 3, "classic", "speed")
    with pytest.raises(SystemExit):
        parser.parse_args(["replay", "--seed", "-1", "--deal", "3"])


def test_policies_json_lists_every_policy() -> None:
    code, _, out = _probe(["policies", "--json"])
    assert code == 0
    names = [p["name"] for p in json.loads(out)]
    assert names[:2] == ["random", "speed"] and {"flush", "pungs", "pairs"} <= set(names)


def test_import_simcore_is_light_and_its_attributes_are_lazy() -> None:
    code = (
        "import sys, simcore\n"
        f"loaded = [m for m in {HEAVY + ('numpy',)!r} if m in sys.modules]\n"
        "assert loaded == [], loaded\n"
        "assert callable(simcore.run) and callable(simcore.load) and callable(simcore.whatif)\n"
        "assert simcore.records.WALL_SIZE == 108\n"
        "assert callable(simcore.analysis.compare_policies)\n"
        "assert callable(simcore.testing.synthetic_records)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        import simcore

        _ = simcore.nothing  # type: ignore[attr-defined]
