"""Every experiment question by name: the modules of :mod:`simcore.experiments.questions`.

A question is a module ``simcore/experiments/questions/NAME.py`` that defines
``build(fields=DEFAULT_FIELDS) -> Experiment`` and ``PLACE`` (its place in the order of
``run_all.py`` and of the results page). :data:`BUILDERS` holds their builders in that order,
:data:`EXPERIMENTS` each built for the default fields, and :func:`with_fields` builds one for
other fields.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from types import ModuleType

from simcore._input import unknown_name
from simcore.experiments import questions
from simcore.experiments.base import Experiment
from simcore.experiments.fields import DEFAULT_FIELDS, parse_fields

Builder = Callable[[Sequence[str]], Experiment]


def question_modules() -> dict[str, ModuleType]:
    """Every question module by name, in the order of their ``PLACE``."""
    found = {info.name: importlib.import_module(f"{questions.__name__}.{info.name}")
             for info in pkgutil.iter_modules(questions.__path__)
             if not info.name.startswith("_")}
    for module in found.values():
        if not callable(getattr(module, "build", None)) or not hasattr(module, "PLACE"):
            raise TypeError(f"question module {module.__name__} must define build(fields) and "
                            f"PLACE")
    return dict(sorted(found.items(), key=lambda item: (item[1].PLACE, item[0])))


# every experiment, built for a tuple of field specs
BUILDERS: dict[str, Builder] = {name: module.build
                                for name, module in question_modules().items()}
EXPERIMENTS: dict[str, Experiment] = {name: build(DEFAULT_FIELDS)
                                      for name, build in BUILDERS.items()}


def with_fields(experiment: str | Experiment, fields: Sequence[str] | str) -> Experiment:
    """The experiment (or the one named) built for other fields (specs as for ``--fields``:
    one policy, or three joined by ``/``); ValueError naming a bad spec."""
    name = experiment if isinstance(experiment, str) else experiment.name
    if name not in BUILDERS:
        raise ValueError(unknown_name("experiment", name, BUILDERS))
    specs = [fields] if isinstance(fields, str) else list(fields)
    parse_fields(specs)  # raises on a bad spec
    return BUILDERS[name](tuple(specs))
