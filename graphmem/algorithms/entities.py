"""Ranking a user's entities (people, organisations, places, ...) for a search query.

Plain functions over names and vectors: a name said in the query is the strongest
signal (an agent usually searches for who or what it was just told about), words shared
with the name or description come next, and the cosine of the query to
``name: description`` covers paraphrases ("the company" finds Acme Corp, "engineer"
finds the person described as one).

Examples:
    >>> lexical_score("Alice Johnson", "Alice Johnson", None)
    1.0
    >>> lexical_score("alice", "Alice Johnson", None)
    0.8
    >>> lexical_score("who works at acme", "Acme Corp", "technology company")
    0.35
    >>> lexical_score("a tech company", "Acme Corp", "technology company")
    0.25
    >>> lexical_score("quantum physics", "Acme Corp", "technology company")
    0.0
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Weight of the name/word match against the cosine of query and entity text.
LEXICAL_WEIGHT = 0.6
#: Below this cosine, an entity no word of the query names is not a match.
MIN_COSINE = 0.35
_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(
    "a an and at by for from in is of on or the to who what where which with works work".split()
)


def words(text: str | None) -> set[str]:
    """Lower-cased words of ``text`` without stop words.

    >>> sorted(words("The Acme Corp of San Francisco"))
    ['acme', 'corp', 'francisco', 'san']
    """
    return {w.lower() for w in _WORD.findall(text or "")} - _STOP


def normalise(name: str) -> str:
    """Case- and whitespace-insensitive form of a name."""
    return " ".join(name.lower().split())


def lexical_score(query: str, name: str, description: str | None) -> float:
    """1 for the name itself, 0.8 when one contains the other, else the share of the
    name's words in the query (up to 0.7), else 0.5 x the share of the query's words
    found in the description."""
    q, n = normalise(query), normalise(name)
    if not q or not n:
        return 0.0
    if q == n:
        return 1.0
    if re.search(rf"\b{re.escape(n)}\b", q) or re.search(rf"\b{re.escape(q)}\b", n):
        return 0.8
    query_words = words(query)
    name_words = words(name)
    if query_words and name_words and query_words & name_words:
        return 0.7 * len(query_words & name_words) / len(name_words)
    described = words(description)
    if query_words and described and query_words & described:
        return 0.5 * len(query_words & described) / len(query_words)
    return 0.0


def rank(
    query: str,
    entities: Sequence[tuple[str, str, str | None]],
    cosines: Sequence[float],
    k: int,
) -> list[tuple[str, float]]:
    """``(id, score)`` of the ``k`` best entities for ``query``, best first.

    ``entities`` are ``(id, name, description)``; ``cosines`` the cosine of the query to
    each entity's text. An entity no word of the query matches needs ``MIN_COSINE``.

    >>> rank("acme", [("1", "Acme Corp", None), ("2", "Bob", "a friend")], [0.5, 0.1], 5)
    [('1', 0.68)]
    """
    scored = []
    for (entity_id, name, description), cosine in zip(entities, cosines, strict=True):
        lexical = lexical_score(query, name, description)
        if lexical == 0.0 and cosine < MIN_COSINE:
            continue
        score = LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * max(cosine, 0.0)
        scored.append((entity_id, round(score, 6)))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:k]
