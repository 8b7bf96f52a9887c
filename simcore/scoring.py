"""Score a hand: the name users' scripts import (``from simcore.scoring import score``).

The scoring API lives with the rest of hand evaluation, in :mod:`simcore.hand.scoring`.
"""

from simcore.hand.scoring import (
    BONUS_LABELS,
    BONUS_NAMES,
    HEAVEN_EARTH,
    PATTERN_LABELS,
    PATTERN_NAMES,
    ScoreResult,
    ready_value,
    score,
)

__all__ = [
    "BONUS_LABELS", "BONUS_NAMES", "HEAVEN_EARTH", "PATTERN_LABELS", "PATTERN_NAMES",
    "ScoreResult", "ready_value", "score",
]
