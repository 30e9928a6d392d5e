"""A claim's likely slot by meaning, for the cards about the user no rule reads.

"signed with the alder in collingwood, sous chef not head chef" states where the user
works, in words no pattern of ``conflicts.RULES`` lists. Its card's vector (computed at
ingest anyway) is compared with the vectors of a few example sentences per attribute
that each language keeps as data (``Language.slot_examples``), among them near misses
("work was brutal today", "thinking of moving to denver") under "": the card takes the
attribute of its nearest example when that example is near enough (``THRESHOLD``) and
nearer than every example of another class, near misses included (``MARGIN``).

The slot so read only helps recall answer a question that asks it
(``recall.engine._answering``); it never supersedes or conflicts anything: consolidation
reads slots by rules alone.
"""

from __future__ import annotations

import threading

import numpy as np

from graphmem import lang
from graphmem.embedding import Embedder

#: cosine the nearest example must reach (MiniLM, "I: <fact>" against "I: <example>")
THRESHOLD = 0.5
#: how much nearer than any example of another class (near misses included) it must be
MARGIN = 0.03


class SlotReader:
    """Reads likely slots with one embedder; the examples are embedded once, at the first
    card that asks (one model call per process, not per card)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._lock = threading.Lock()
        self._classes: list[str] = []
        self._vectors: np.ndarray | None = None

    def _examples(self) -> tuple[list[str], np.ndarray]:
        with self._lock:
            if self._vectors is None:
                examples = lang.slot_examples()
                vectors = np.asarray(
                    self._embedder.embed([f"I: {s}" for _, s in examples]), dtype=np.float32
                )
                norms = np.linalg.norm(vectors, axis=1, keepdims=True)
                self._vectors = vectors / np.where(norms > 0, norms, 1.0)
                self._classes = [attribute for attribute, _ in examples]
            return self._classes, self._vectors

    def slots(self, vectors: np.ndarray) -> list[str]:
        """Per card vector (rows), the attribute it likely states, "" for none."""
        if not len(vectors):
            return []
        classes, examples = self._examples()
        if not classes:
            return [""] * len(vectors)
        rows = np.asarray(vectors, dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        cosines = (rows / np.where(norms > 0, norms, 1.0)) @ examples.T
        return [_decide(classes, row) for row in cosines]


def _decide(classes: list[str], cosines: np.ndarray) -> str:
    """The class of the nearest example, when near enough and clear of every other class.

    >>> _decide(["employer", "employer", ""], np.array([0.7, 0.4, 0.5]))
    'employer'
    >>> _decide(["employer", "location", ""], np.array([0.7, 0.4, 0.68]))
    ''
    """
    best = int(np.argmax(cosines))
    attribute = classes[best]
    if not attribute or cosines[best] < THRESHOLD:
        return ""
    others = [c for c, a in zip(cosines, classes, strict=True) if a != attribute]
    return attribute if not others or cosines[best] - max(others) >= MARGIN else ""


__all__ = ["MARGIN", "THRESHOLD", "SlotReader"]
