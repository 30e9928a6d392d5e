"""Free user text reduced to searchable words, the same for every full-text dialect.

Words are runs of letters/digits, lower-cased and de-duplicated in order, so no query
operator of any backend (RediSearch ``|@-~``, Lucene ``AND + " : *``) survives from
user text; each adapter joins the words in its own syntax.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

_WORD = re.compile(r"\w+")
#: Lucene's English stop set plus question and pronoun words that only add noise.
STOP_WORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
        "what",
        "who",
        "whom",
        "which",
        "when",
        "where",
        "why",
        "how",
        "do",
        "does",
        "did",
        "my",
        "me",
        "i",
        "you",
        "your",
        "we",
        "our",
        "us",
        "he",
        "she",
        "his",
        "her",
        "him",
        "them",
        "its",
        "about",
    )
)


def tenant_token(user_id: str) -> str:
    """The word every card of ``user_id`` carries in the full-text index (``c.tenant``).

    Full-text indexes span all tenants. Searching ``tenant:<token> AND (words)`` lets the
    index keep to one user's cards instead of scoring every tenant's matches and leaving
    the filtering to Cypher. A hash makes any user id one plain, analyzer-proof token.
    Queries still filter on ``user_id``: the token narrows the search, it guards nothing.

    >>> tenant_token("ada")
    't15b0da4321160527'
    """
    return "t" + hashlib.blake2b(user_id.encode(), digest_size=8).hexdigest()


def with_tenant(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """``params`` plus ``tenant`` when they name a user (what every adapter's run does)."""
    out = dict(params or {})
    if isinstance(out.get("user_id"), str):
        out.setdefault("tenant", tenant_token(out["user_id"]))
    return out


def search_words(text: str) -> list[str]:
    """The words of ``text`` worth a full-text search.

    >>> search_words('What is Alice allergic to? "peanuts" AND (nuts*) in 2023, 42')
    ['alice', 'allergic', 'peanuts', 'nuts', '2023']
    """
    return [w for w in dict.fromkeys(_WORD.findall(text.lower())) if _searchable(w)]


def _searchable(word: str) -> bool:
    if word.isdigit():
        return len(word) == 4  # years; other numbers match too much
    return len(word) > 1 and word not in STOP_WORDS
