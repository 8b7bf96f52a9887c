"""The experiment questions, one module each (``NAME.py``), found by
:mod:`simcore.experiments.catalog`.

A question module defines ``build(fields=DEFAULT_FIELDS) -> Experiment`` (its arms, its analysis
and its headline) and ``PLACE``, its place among the questions (the order of ``run_all.py`` and
of the results page); ``python -m simcore.experiments NAME`` runs it.
"""
