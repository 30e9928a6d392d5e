"""Free user text reduced to searchable words, the same for every full-text dialect.

Words are runs of letters/digits, lower-cased and de-duplicated in order, so no query
operator of any backend (RediSearch ``|@-~``, Lucene ``AND + " : *``) survives from
user text; each adapter joins the words in its own syntax.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
#: Lucene's English stop set plus question and pronoun words that only add noise.
STOP_WORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is",
    "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
    "these", "they", "this", "to", "was", "will", "with", "what", "who", "whom", "which",
    "when", "where", "why", "how", "do", "does", "did", "my", "me", "i", "you", "your", "we",
    "our", "us", "he", "she", "his", "her", "him", "them", "its", "about"))


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
