"""Checks of user input shared by every command and Python entry point, so that the same mistake
gets the same words everywhere: an unknown name (with its did-you-mean) and a count that must
be positive. Dependency-free: the fast commands (``simcore --help``, ``simcore policies``) may
import it.

>>> unknown_name("preset", "clasic", ["classic", "baike", "qq"])
"unknown preset 'clasic'; did you mean 'classic'? (known presets: classic, baike, qq)"
>>> unknown_name("preset", "chengdu", ["classic", "baike", "qq"])
"unknown preset 'chengdu'; known presets: classic, baike, qq"
>>> did_you_mean("MAX", ["max", "min"])
"; did you mean 'max'?"
>>> positive_int("deals", -5)
Traceback (most recent call last):
...
ValueError: deals must be a positive integer, got -5
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's similarity a suggestion needs (its default)


def close_matches(name: object, known: Iterable[object], n: int = 1) -> list[str]:
    """Up to ``n`` known names close to ``name``: one differing only in case first, then
    :func:`difflib.get_close_matches`'s."""
    texts = [str(k) for k in known]
    word = str(name)
    same_case = [k for k in texts if k.lower() == word.lower() and k != word]
    close = difflib.get_close_matches(word, texts, n=n, cutoff=CUTOFF)
    return list(dict.fromkeys(same_case + close))[:n]


def did_you_mean(name: object, known: Iterable[object], n: int = 1) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) when a known name is close, else ``""``."""
    close = close_matches(name, known, n)
    if not close:
        return ""
    return f"; did you mean {' or '.join(repr(c) for c in close)}?"


def unknown_name(kind: str, name: object, known: Iterable[object], *, where: str = "",
                 known_as: str | None = None, n: int = 1) -> str:
    """The message for an unknown ``kind`` (``"preset"``, ``"policy"``...): the name, ``where``
    it was read (e.g. ``" in spec 'x'"``), then :func:`known_names`."""
    return f"unknown {kind} {name!r}{where}{known_names(name, known, known_as or kind + 's', n)}"


def known_names(name: object, known: Iterable[object], known_as: str, n: int = 1) -> str:
    """The tail of a message about an unknown ``name``: ``"; did you mean 'x'? (known
    KNOWN_AS: a, b, c)"`` when a known name is close, else ``"; known KNOWN_AS: a, b, c"``.

    >>> known_names("kongs", ["kong", "exchange"], "options")
    "; did you mean 'kong'? (known options: kong, exchange)"
    """
    names = [str(k) for k in known]
    listing = f"known {known_as}: {', '.join(names)}"
    hint = did_you_mean(name, names, n)
    return f"{hint} ({listing})" if hint else f"; {listing}"


def seed_int(value: object, name: str = "seed", spare: int = 0) -> int:
    """``value`` as an ``int`` if it is a seed: an integer in ``0..2**63-1`` (less ``spare``,
    for a command that also plays ``seed + spare``), else ValueError:
    ``"seed must be in 0..2**63-1, got -1"``.

    >>> seed_int(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be in 0..2**63-1, got -1
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not 0 <= int(value) <= 2**63 - 1 - spare:
        raise ValueError(f"{name} must be in 0..2**63-{1 + spare}, got {int(value)}")
    return int(value)


def positive_int(name: str, value: object) -> int:
    """``value`` as an ``int`` if it is a positive integer (numpy integers too, never a bool),
    else ValueError: ``"{name} must be a positive integer, got {value!r}"``."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral)
            or int(value) <= 0):
        shown = value if isinstance(value, numbers.Integral) and not isinstance(value, bool) \
            else repr(value)
        raise ValueError(f"{name} must be a positive integer, got {shown}")
    return int(value)
