"""The example family's sources are not tests: they import only inside a copy of the package
that registers them (tests/engine/test_example_family.py)."""

collect_ignore = ["highest.py", "highest_options.py", "registration.py"]
