"""Helpers shared by the test modules (``from helpers.scripted import play``): scripted walls
(:mod:`helpers.scripted`), the reference splitmix streams (:mod:`helpers.splitmix`), and the
process checks of the tests that start workers (:mod:`helpers.processes`).

``tests/`` is on ``sys.path`` through pytest's ``pythonpath`` setting (pyproject.toml); a test
module imports helpers from here, never from another test module."""
