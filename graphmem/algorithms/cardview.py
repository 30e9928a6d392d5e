"""The read-only projection of a card that consolidation algorithms work on.

Algorithms never see the store. ``Memory`` projects a user's cards into ``CardView``
rows (or passes ``graphmem.models.Card`` objects: anything with these attributes
works, see ``CardLike``) plus, where needed, one embedding matrix whose row ``i``
belongs to card ``i``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

import numpy as np

DAY_MS = 86_400_000


class CardLike(Protocol):
    """What the algorithms read from a card (``Card`` and ``CardView`` both fit)."""

    @property
    def id(self) -> Any: ...
    @property
    def fact(self) -> str: ...
    @property
    def person(self) -> str: ...
    @property
    def timestamp(self) -> int: ...
    @property
    def confidence(self) -> float: ...
    @property
    def importance(self) -> float: ...
    @property
    def emotion(self) -> float: ...
    @property
    def reward(self) -> float: ...
    @property
    def access_count(self) -> int: ...
    @property
    def last_accessed(self) -> int | None: ...
    @property
    def status(self) -> Any: ...
    @property
    def tags(self) -> Collection[str]: ...


@dataclass(frozen=True)
class CardView:
    """One card as the algorithms see it; defaults match ``graphmem.models.Card``.

    Examples:
        >>> CardView.from_row({"id": "c1", "fact": "Alice lives in Paris",
        ...                    "person": "Alice", "embedding": [0.1], "tags": []})
        ... # doctest: +NORMALIZE_WHITESPACE
        CardView(id='c1', fact='Alice lives in Paris', person='Alice', relationship=None,
                 timestamp=0, confidence=0.8, importance=0.5, emotion=0.0, reward=0.0,
                 access_count=0, last_accessed=None, status='active', category='other',
                 valid_to=None, tags=())
    """

    id: str
    fact: str = ""
    person: str = "me"
    relationship: str | None = None
    timestamp: int = 0
    confidence: float = 0.8
    importance: float = 0.5
    emotion: float = 0.0
    reward: float = 0.0
    access_count: int = 0
    last_accessed: int | None = None
    status: str = "active"
    category: str = "other"
    valid_to: int | None = None
    tags: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> CardView:
        """Build from a store row, ignoring keys it does not know (embedding, tags...).

        ``None`` values fall back to the defaults, so sparse rows are fine.
        """
        known = _FIELDS
        data = {k: v for k, v in row.items() if k in known and v is not None}
        if "status" in data:
            data["status"] = str(data["status"])
        if "tags" in data:
            data["tags"] = tuple(data["tags"])
        return cls(**data)


_FIELDS = frozenset(f.name for f in fields(CardView))


def is_active(card: CardLike) -> bool:
    """True for cards that are neither superseded nor forgotten."""
    return str(getattr(card, "status", "active")) == "active"


def normalise_rows(embeddings: Any) -> np.ndarray:
    """Float32 copy with unit-length rows (zero rows stay zero), shape ``(n, d)``."""
    matrix = np.asarray(embeddings, dtype=np.float32)
    if matrix.ndim != 2:
        raise ValueError(f"embeddings must be a 2-d matrix, got shape {matrix.shape}")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
