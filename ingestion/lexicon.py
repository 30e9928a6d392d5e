"""English words as a dictionary knows them: what a lower-case name is not.

Chat types names in lower case, where "my manager is chill" and "manager would be sandeep"
differ only in the word: "chill" is in the dictionary, "sandeep" is not. The dictionary is
the one spaCy's English lemmatizer ships (WordNet's nouns, verbs, adjectives and adverbs,
``lemma_index``), so no word list is kept here.
"""

from __future__ import annotations

import functools


@functools.cache
def _index() -> frozenset[str]:
    from ingestion.extract import DEFAULT_MODEL, load_nlp

    lookups = getattr(load_nlp(DEFAULT_MODEL).get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return frozenset()
    table = lookups.get_table("lemma_index")
    return frozenset(w for words in table.values() for w in words)


def is_word(word: str) -> bool:
    """Whether ``word`` (any case) is an English dictionary word, as a lemma or an
    inflected form ("chill", "solid", "surgery", "easter"), not a name only ("sandeep").

    >>> is_word("chill"), is_word("Surgery"), is_word("sandeep"), is_word("farah")
    (True, True, False, False)
    """
    low = word.lower()
    index = _index()
    return low in index or low.removesuffix("s") in index or low.removesuffix("es") in index
