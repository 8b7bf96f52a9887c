"""A new policy family plugs in through ``simcore/engine/policies/`` alone (issue 27).

The ``highest`` example family (``example_family/``: its decisions, its registration and the
lines a developer adds to ``registry.py`` and ``dispatch.py``) is registered only here, in a
copy of the package: the test copies ``simcore/``, makes the edits docs/developer/add-policy.md
describes, checks that nothing outside ``engine/policies/`` changed, and runs the copy in a
subprocess. The cheap test stops at the registry (no numba); the slow one compiles a fresh
engine with the family and passes it through :func:`simcore.testing.check_policy`.
"""

from __future__ import annotations

import ast
import filecmp
import os
import re
import resource
import runpy
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent / "example_family"
PACKAGE = Path(__file__).resolve().parents[2] / "simcore"
POLICIES = Path("engine") / "policies"
REG = runpy.run_path(str(EXAMPLE / "registration.py"))
# what the registration changes in the package: the family's two modules and two edited files
TOUCHED = {POLICIES / name for name in (*REG["MODULES"], "registry.py", "dispatch.py")}


def add_family(registry_py: str, family: str) -> str:
    """``registry.py`` with ``family`` appended to ``FAMILIES``."""
    new, n = re.subn(r'^(FAMILIES = \(.*?)\)$', rf'\1, "{family}")', registry_py, flags=re.M)
    assert n == 1, "registry.py has no one-line FAMILIES tuple"
    return new


def add_branches(dispatch_py: str, imports: tuple[str, ...], branches: dict[str, str]) -> str:
    """``dispatch.py`` with the family's imports and one branch first in each ``dispatch_*``."""
    tree = ast.parse(dispatch_py)
    doors = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)
             and f.name.startswith("dispatch_")}
    assert set(doors) == set(branches), f"dispatch.py's dispatch_* functions are {sorted(doors)}"
    lines = dispatch_py.splitlines(keepends=True)
    last_import = max(i for i, line in enumerate(lines)
                      if line.startswith("from simcore.engine.policies"))
    # from the last function up, so that the line numbers above stay true; each branch goes
    # before the function's own first test of the pid (whatever family it names)
    for name in sorted(branches, key=lambda n: -doors[n].lineno):
        first = next(node.lineno - 1 for node in doors[name].body
                     if isinstance(node, ast.If) and "pid ==" in ast.unparse(node.test))
        lines[first:first] = [textwrap.indent(branches[name], "    ") + "\n"]
    lines[last_import + 1:last_import + 1] = [line + "\n" for line in imports]
    return "".join(lines)


def install_example(dest: Path) -> Path:
    """Copy ``simcore`` into ``dest`` and register the example family in the copy (the
    developer's edits); return the copy's package folder."""
    package = dest / "simcore"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    policies = package / POLICIES
    for name in REG["MODULES"]:
        shutil.copy(EXAMPLE / name, policies / name)
    registry = policies / "registry.py"
    registry.write_text(add_family(registry.read_text(), REG["FAMILY"]))
    dispatch = policies / "dispatch.py"
    dispatch.write_text(add_branches(dispatch.read_text(), REG["IMPORTS"], REG["BRANCHES"]))
    return package


def changed_files(a: Path, b: Path, under: Path = Path()) -> set[Path]:
    """Files added, removed or changed between two package trees (``__pycache__`` aside)."""
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out = {under / name for name in cmp.left_only + cmp.right_only + cmp.diff_files}
    out |= {under / name for name in cmp.funny_files}
    for sub in cmp.common_dirs:
        out |= changed_files(a / sub, b / sub, under / sub)
    return out


def run_in_copy(root: Path, code: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def copy_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("example_family")
    install_example(root)
    return root


def test_the_registration_touches_only_the_policies_folder(copy_root: Path) -> None:
    assert changed_files(PACKAGE, copy_root / "simcore") == TOUCHED
    dispatch = (copy_root / "simcore" / POLICIES / "dispatch.py").read_text()
    compile(dispatch, "dispatch.py", "exec")
    # one branch in each dispatch_* function, its own (a branch in the wrong function compiles
    # in Python and fails numba's typing, or dispatches a decision to the wrong kernel)
    doors = {f.name: ast.unparse(f) for f in ast.parse(dispatch).body
             if isinstance(f, ast.FunctionDef) and f.name.startswith("dispatch_")}
    for name, branch in REG["BRANCHES"].items():
        assert doors[name].count("pid == POLICY_HIGHEST") == 1, name
        assert textwrap.indent(ast.unparse(ast.parse(branch)), "    ") in doors[name], name


def test_the_copy_lists_and_parses_the_family_without_numba(copy_root: Path) -> None:
    done = run_in_copy(copy_root, """
        import os
        import sys
        import simcore
        from simcore.cli import main
        from simcore.engine.spec import parse_spec, split_policies
        assert simcore.__file__.startswith(os.environ["PYTHONPATH"]), simcore.__file__
        spec = parse_spec("highest")
        assert (spec.text, spec.policy.family, spec.policy.pid) == ("highest", "highest", 20)
        assert split_policies("highest/speed/speed/speed", 4)[0] == "highest"
        try:
            parse_spec("highest:k=1")
        except ValueError as err:
            assert "takes no options" in str(err), err
        else:
            raise AssertionError("highest:k=1 was accepted")
        main(["policies"])
        assert not [m for m in sys.modules if m.split(".")[0] == "numba"]
        """, copy_root / "numba-cache")
    assert re.search(r"^\s*highest\b.*example family", done.stdout, flags=re.M), done.stdout


@pytest.mark.slow
def test_the_copy_seats_the_family_and_it_passes_the_contract(copy_root: Path) -> None:
    # compiles a fresh engine without the expert: 143 s wall, 126 s CPU on two loaded cores
    # (slow: a cold compile varies from 2 to 10 min here; the cheap tests above run in CI)
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = run_in_copy(copy_root, """
        import numpy as np
        from simcore.engine import simulate
        from simcore.rules import resolve_rules
        from simcore.testing import check_policy
        rules = resolve_rules("classic")
        records = simulate(rules, ["highest", "speed", "speed", "speed"], seed=5, start=0,
                           count=300, debug=True)
        assert len(records) == 4 * 300
        checked = check_policy("highest", "classic", deals=40, replays=2)
        assert checked.spec == "highest" and checked.options == ()
        print("ok", checked)
        """, copy_root / "numba-cache")
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - wall
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(f"example family: {wall:.0f} s wall, {cpu:.0f} s CPU")
    assert "ok" in done.stdout
