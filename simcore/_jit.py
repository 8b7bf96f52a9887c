"""How simcore's numba functions are compiled when numba code calls them: once per argument
types, never once per constant.

Numba types a constant argument as a literal (``Literal[int](4)``, ``Literal[bool](True)``) and
compiles the called function anew for every literal it is called with: in a cold compile of the
engine, 251 compiles of 65 functions, ``_log`` alone 29 times, ``_score`` 6 and ``score_hand``
5 (benchmarks/bench_compile.py measures the total). :func:`kernel` and :func:`without_literals`
make a dispatcher type each call with the literals widened to their plain types (and small
signed integers to ``int64``), so that one compile serves every call site. Constant folding is
not lost: LLVM still inlines and specialises the calls it finds worth it.
"""

from __future__ import annotations

from numba import njit, types


def plain(arg):
    """The type a call compiles for: a literal widened to its type, and a signed integer
    scalar to ``int64`` (numba computes in ``int64`` whatever the width of the operands, so the
    width of a scalar argument changes nothing but the number of compiles: ``_plan_eval`` was
    compiled for an ``int8`` and an ``int64`` suit)."""
    arg = types.unliteral(arg)
    if isinstance(arg, types.Integer) and arg.signed and arg.bitwidth < 64:
        return types.int64
    return arg


def without_literals(dispatcher):
    """Make ``dispatcher`` compile for the :func:`plain` types of its arguments when numba code
    calls it (calls from Python are not concerned)."""
    get_call_template = dispatcher.get_call_template

    def plain_call_template(args, kws):
        return get_call_template(tuple(plain(a) for a in args),
                                 {k: plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = plain_call_template
    return dispatcher


def kernel(func):
    """A cached hand or scoring kernel: compiled on its own (not force-inlined into callers,
    so that a caller's flags do not leak into it), once per plain argument types."""
    return without_literals(njit(cache=True, forceinline=False)(func))
