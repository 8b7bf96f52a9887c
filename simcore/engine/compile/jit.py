"""How the per-deal engine code is compiled: without numba's reference counting.

Every array the engine touches is owned by the caller of an entry kernel (the
:class:`~.state.DealState`, the tables, the rules, the record buffer), and nothing on the path
of a deal allocates. Numba would still count references: each read of a field of the state
tuple, each row view and each array argument of a call costs an atomic increment and decrement,
made through an out-of-line runtime function. A perf profile of a random-seat run put 80% of
the time in those two functions. ``_nrt=False`` compiles the engine without the runtime, so
these counts vanish; an allocation in this code becomes a typing error ("No implementation of
function empty"), which keeps the rule "no allocation per deal" enforced by the compiler.

Functions inlined at numba's level (``inline="always"``) take the flags of their caller, and
numba compiles a called function with its caller's setting unless the callee sets its own (the
hand and scoring kernels, ``check_deal``): everything reached from :func:`.deal.play_deal` is
compiled without the runtime. The engine's own functions say so explicitly with
:data:`deal_njit`. The entry kernel (kernel.py) is compiled without it too: its Python caller
passes the work space, so that the loop of deals is inlined into it instead of compiled again.
"""

from __future__ import annotations

from numba import njit

from simcore._jit import without_literals


def deal_njit(func):
    """An engine function compiled without the runtime, called (LLVM may still inline it)."""
    return without_literals(njit(_nrt=False, forceinline=False)(func))


def deal_inline(func):
    """An engine function compiled without the runtime and always inlined by LLVM."""
    return without_literals(njit(_nrt=False, forceinline=True)(func))


# Inlined into its caller's numba IR: it is never compiled as a function of its own. Every
# compiled function costs a compile of its own (typing, lowering, and an LLVM optimisation and
# machine-code pass over it and everything it calls), once per argument-type combination it is
# called with. So this is for a function called from one place (the phases of a deal, which
# would otherwise each optimise the whole engine below them once more) or tiny ones called with
# many type combinations (``_log``: 29 compiles). Not for a function that prunes on
# an optional family's switch: its pruning must see its own arguments (dispatch.py's
# ``dispatch_*``; its ``decide_*`` doors, which only unpack ``families``, are inlined).
deal_ir_inline = njit(_nrt=False, inline="always")  # type: ignore[call-overload]  # _nrt: private
