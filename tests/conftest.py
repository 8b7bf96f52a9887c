"""Test-wide settings: reproducible hypothesis runs without deadlines (numba compiles lazily),
and the tiers a developer runs (CONTRIBUTING.md):

- ``pytest -m "not numba and not slow"``: the fast tier, no numba compile (seconds);
- ``pytest``: the full suite, what CI runs (``slow`` deselected by pyproject's addopts);
- ``pytest -m slow``: the long Monte Carlo runs.

The ``numba`` marker is given by place, not by hand on each test: every test under
``tests/engine``, ``tests/statistical`` and ``tests/integration``, every notebook, and the doctests
of the modules in :data:`NUMBA_DOCTESTS`; a test module elsewhere (``tests/unit``) that needs a
compile says so once, with ``pytestmark = pytest.mark.numba``.

The fast tier is enforced: when a session selects no ``numba`` test, a numba dispatcher that is
asked for a new signature (a compile, or a load from the disk cache) fails the test that asked, so
a test that needs numba and is not marked fails on every machine, whatever its cache holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "simcore",
    deadline=None,  # the first call of a numba kernel compiles for seconds
    derandomize=True,  # the same examples on every run: CI is reproducible
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("simcore")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# test directories whose every test runs numba code (scripted deals, Monte Carlo, the CLI)
NUMBA_DIRS = ("engine", "statistical", "integration")
# modules whose doctests call a numba kernel (the doctests of every other module are fast)
NUMBA_DOCTESTS = frozenset({
    "simcore.engine.api", "simcore.hand", "simcore.hand.scoring", "simcore.hand.scoring_kernels",
    "simcore.rollouts", "simcore.testing.policy", "simcore.advice.advisor",
})


def _needs_numba(item: pytest.Item) -> bool:
    path = Path(str(item.path)).resolve()
    if path.is_relative_to(TESTS):
        parts = path.relative_to(TESTS).parts
        return len(parts) > 1 and parts[0] in NUMBA_DIRS
    if path.suffix == ".ipynb":
        return True
    if isinstance(item, pytest.DoctestItem):
        parts = path.relative_to(ROOT).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) in NUMBA_DOCTESTS
    return False


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _needs_numba(item):
            item.add_marker(pytest.mark.numba)


@pytest.hookimpl(trylast=True)  # after ``-m`` and ``-k`` have deselected
def pytest_collection_finish(session: pytest.Session) -> None:
    if session.items and not any(item.get_closest_marker("numba") for item in session.items):
        _forbid_compiles()


def _forbid_compiles() -> None:
    """Make a numba dispatcher fail the running test instead of compiling a new signature.

    ``Dispatcher.compile`` is where every new signature goes (a lazy first call, an explicit
    compile, a load from the disk cache); a signature already compiled in this process (at import
    time, say) passes. ``pytest.fail`` raises an exception that ``except Exception`` in the code
    under test does not catch.
    """
    from numba.core import sigutils
    from numba.core.dispatcher import Dispatcher

    compile_ = Dispatcher.compile

    def compile_in_fast_tier(self: Dispatcher, sig: object) -> object:
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) not in self.overloads:
            pytest.fail(
                f"numba compiles {self.py_func.__module__}.{self.py_func.__qualname__}{args} "
                "in the fast tier: mark the test module with pytestmark = pytest.mark.numba "
                "(tests/conftest.py, CONTRIBUTING.md)", pytrace=False)
        return compile_(self, sig)

    Dispatcher.compile = compile_in_fast_tier  # type: ignore[method-assign]
