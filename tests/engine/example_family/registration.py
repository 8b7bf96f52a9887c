"""The registration of the ``highest`` example family: what a developer adds by hand
(docs/developer/add-policy.md), as data the test applies to a copy of the package.

- copy :data:`MODULES` into ``simcore/engine/policies/``;
- append :data:`FAMILY` to ``FAMILIES`` in ``registry.py``;
- add :data:`IMPORTS` to ``dispatch.py`` and, in each ``dispatch_*`` function, the branch of
  :data:`BRANCHES` before its first test of the policy id (``if pid == POLICY_...``).
"""

FAMILY = "highest"
MODULES = ("highest.py", "highest_options.py")

IMPORTS = (
    "from simcore.engine.policies import highest",
    "from simcore.engine.policies.highest_options import POLICY_HIGHEST",
)

BRANCHES = {
    "dispatch_exchange": ("if pid == POLICY_HIGHEST:\n"
                          "    highest.choose_exchange(st, seat, P, R, T, out)\n"
                          "    return"),
    "dispatch_void": ("if pid == POLICY_HIGHEST:\n"
                      "    return highest.choose_void(st, seat, P, R, T)"),
    "dispatch_plan": ("if pid == POLICY_HIGHEST:\n"
                      "    return  # no per-seat memory"),
    "dispatch_discard": ("if pid == POLICY_HIGHEST:\n"
                         "    return highest.choose_discard(st, seat, P, R, T)"),
    "dispatch_self_win": ("if pid == POLICY_HIGHEST:\n"
                          "    return highest.take_win(st, seat)"),
    "dispatch_discard_win": ("if pid == POLICY_HIGHEST:\n"
                             "    return highest.take_win(st, seat)"),
    "dispatch_claim": ("if pid == POLICY_HIGHEST:\n"
                       "    return highest.choose_claim(st, seat, P, tile, can_kong, R, T)"),
    "dispatch_kong": ("if pid == POLICY_HIGHEST:\n"
                      "    return highest.choose_kong(st, seat, P, R, T, candidates)"),
}
