"""The bid analysis's error, and what a player knows at their turn in the
auction: :class:`~solver.knowledge.Knowledge` (:meth:`Knowledge.from_deal
<solver.knowledge.Knowledge.from_deal>`), shared with the play."""
from __future__ import annotations

from ..knowledge import Knowledge, KnowledgeError


class BidError(KnowledgeError):
    """A bid-analysis request that cannot be answered (unknown player, bad
    sample count, a nil on an unknown hand, ...)."""


__all__ = ["BidError", "Knowledge", "KnowledgeError"]
