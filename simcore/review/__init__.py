"""Reviews: one seat's deal decision by decision (:mod:`.deal`), a policy over many deals
(:mod:`.yardstick`), and the HTML report (:mod:`.html`)."""

from __future__ import annotations

from simcore.review.deal import Review, review_deal

__all__ = ["Review", "review_deal"]
