"""Which of a user's people a query is about: by name or by relationship.

"what does my sister like?" names no one, but the user's graph knows who the sister is:
(:User)-[:KNOWS {relationship: 'sister'}]->(:Person {name: 'Alice'}). This module
matches a query against the user's people (a short list) in plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from graphmem import lang

#: Words for several relatives at once ("my parents"), and whom each points at.
GROUPS: dict[str, tuple[str, ...]] = {
    "parents": ("mother", "father"),
    "folks": ("mother", "father"),
    "mum and dad": ("mother", "father"),
    "mom and dad": ("mother", "father"),
    "siblings": ("sister", "brother"),
    "kids": ("son", "daughter"),
    "children": ("son", "daughter"),
    "grandparents": ("grandmother", "grandfather"),
    "in-laws": ("mother-in-law", "father-in-law"),
}

#: Words people use for the same relationship; the key is the stored form.
RELATIONSHIP_SYNONYMS: dict[str, tuple[str, ...]] = {
    "mother": (
        "mom",
        "mum",
        "mother",
        "mommy",
        "mama",
        "ma",
        "mam",
        "mammy",
        "mummy",
        "momma",
        "maw",
    ),
    "father": ("dad", "father", "daddy", "papa", "pa", "da"),
    "sister": ("sister", "sis"),
    "brother": ("brother", "bro", "boet"),
    "manager": (
        "manager",
        "boss",
        "supervisor",
        "line manager",
        "team lead",
        "team leader",
        "headteacher",
        "head teacher",
        "principal",
        "gaffer",
        "oga",  # Nigerian English: "who was my oga before mrs bello came?"
    ),
    "partner": (
        "partner",
        "wife",
        "husband",
        "girlfriend",
        "boyfriend",
        "spouse",
        "fiance",
        "fiancee",
        "fiancé",
        "fiancée",
        "gf",
        "bf",
        "hubby",
        "missus",
        "dating",  # "who am i dating now?"
        # "who am i engaged to?", not "who got engaged at the cricket?"
        "am i engaged",
        "i'm engaged",
        "im engaged",
        "i am engaged",
        "i got engaged",
        "i get engaged",
    ),
    "neighbour": ("neighbour", "neighbor"),
    "colleague": ("colleague", "coworker", "co-worker", "teammate"),
    "friend": (
        "friend",
        "buddy",
        "pal",
        "mate",
        "best friend",
        "best mate",
        "bestfriend",
        "bff",
        "bestie",
        "bezzie",
    ),
    "son": ("son",),
    "daughter": ("daughter",),
    "grandmother": (
        "grandmother",
        "grandma",
        "granny",
        "grannie",
        "gran",
        "nana",
        "nanna",
        "nan",
        "ouma",
    ),
    "grandfather": ("grandfather", "grandpa", "grandad", "granddad", "gramps", "oupa"),
    "cousin": ("cousin",),
    "aunt": ("aunt", "auntie"),
    "uncle": ("uncle",),
    "doctor": ("doctor", "gp", "physician"),
    "therapist": ("therapist",),
    "roommate": ("roommate", "flatmate", "housemate"),
    "stepfather": ("stepfather", "stepdad"),
    "stepmother": ("stepmother", "stepmum", "stepmom"),
}
_FIRST_PERSON = re.compile(r"\b(i|me|my|mine|myself|i'm|i've|i'd)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Known:
    """A person of the user as recall needs them."""

    key: str
    name: str
    relationship: str | None
    #: when the card that said the relationship was said (epoch ms), where known
    since: int | None = None


@dataclass(frozen=True)
class Mention:
    key: str
    name: str
    via: str  # how it was found: "name 'Alice'" or "relationship 'sister'"

    @property
    def relationship_said(self) -> str | None:
        """The relationship word the question found them by ("mama"), if it was one.

        >>> Mention("d", "Darlene", "relationship 'mama'").relationship_said
        'mama'
        >>> Mention("a", "Alice", "name 'Alice'").relationship_said is None
        True
        """
        said = self.via.removeprefix(_BY_RELATIONSHIP)
        return said.removesuffix("'") if said != self.via else None


#: How ``Mention.via`` begins for someone found by a relationship word.
_BY_RELATIONSHIP = "relationship '"


@lru_cache(maxsize=4096)
def canonical_relationship(word: str) -> str:
    """The stored form of a relationship word (kept per word: a recall reads the
    relationship of every card stating what it asks, ~200 words a recall at 10k cards).

    >>> canonical_relationship("Mum")
    'mother'
    >>> canonical_relationship("tennis partner")
    'tennis partner'
    >>> canonical_relationship("late dad")  # someone who died is still the user's father
    'father'
    >>> canonical_relationship("ex-girlfriend")
    'ex'
    >>> canonical_relationship("older sister"), canonical_relationship("little brother")
    ('sister', 'brother')
    >>> canonical_relationship("former boss"), canonical_relationship("former neighbor")
    ('former manager', 'former neighbour')
    >>> canonical_relationship("老婆"), canonical_relationship("我妈")  # read in English
    ('partner', 'mother')
    """
    word = " ".join(word.lower().split()).removeprefix("late ")
    for age in ("older ", "younger ", "little ", "big ", "elder "):  # "my older sister"
        word = word.removeprefix(age)
    if (english := lang.relationship_in_english(word)) is not None:
        return canonical_relationship(english)
    for prefix in ("ex-", "ex ", "former "):  # "ex-girlfriend": an ex
        if word.startswith(prefix):
            held = canonical_relationship(word[len(prefix) :])
            if held == "partner":
                return "ex"
            return f"former {held}"  # "former boss", "ex-boss": a former manager
    for canonical, synonyms in RELATIONSHIP_SYNONYMS.items():
        if word in synonyms:
            return canonical
    return word


def relationship_words(text: str) -> set[str]:
    """Canonical relationships a text refers to.

    >>> sorted(relationship_words("what does my boss's daughter play?"))
    ['daughter', 'manager']

    A mother word right before another relationship word is a possessive, as Scots and
    French type "my": "whos ma gaffer noo?" asks of no mother.

    >>> sorted(relationship_words("whos ma gaffer noo?")), relationship_words("how's ma?")
    (['manager'], {'mother'})
    """
    text = _POSSESSIVE_MA.sub("my ", text)
    found = set()
    for canonical, synonyms in RELATIONSHIP_SYNONYMS.items():
        if any(_words_pattern(word).search(text) for word in synonyms):
            found.add(canonical)
    return found


#: "ma" before another relationship word: a possessive ("ma gaffer", "ma sœur").
_RELATIONSHIP_WORDS = sorted(
    (re.escape(w) for ws in RELATIONSHIP_SYNONYMS.values() for w in ws if w != "ma"),
    key=len,
    reverse=True,
)
_POSSESSIVE_MA = re.compile(rf"\bma\s+(?=(?:{'|'.join(_RELATIONSHIP_WORDS)})\b)", re.IGNORECASE)


@lru_cache(maxsize=8192)
def _words_pattern(phrase: str, ignore_case: bool = True) -> re.Pattern[str]:
    """The phrase as whole words, possessive or not as chat types it ("my boyfriends
    name"); in a script written without spaces (小雨), as is."""
    body = r"\s+".join(map(re.escape, phrase.split()))
    if not any(ch.isascii() and ch.isalpha() for ch in phrase):
        return re.compile(body)
    return re.compile(
        r"(?<!\w)" + body + r"(?:['’]?s)?(?!\w)",
        re.IGNORECASE if ignore_case else 0,
    )


def pointer_phrases(person: Known) -> list[str]:
    """The words that can point at ``person`` in a question: their name and the words for
    their relationship to the user, in every language ("Luz", "sis", "姐姐").

    >>> pointer_phrases(Known("luz", "Luz", "sister"))  # doctest: +NORMALIZE_WHITESPACE
    ['Luz', 'sister', 'sis', '妹妹', '姐姐', '姊姊', '我姐', '我妹', '家姐', '細妹', '阿妹', 'sœur',
     'soeur', 'hermana', 'hermanita', 'irmã', 'schwester', 'sorella']
    """
    if not person.relationship:
        return [person.name]
    canonical = canonical_relationship(person.relationship)
    words = RELATIONSHIP_SYNONYMS.get(canonical, (canonical,))
    return [
        person.name,
        *words,
        *(
            w
            for known in lang.languages()
            for w, rel in known.relationships.items()
            if rel == canonical
        ),
    ]


def _pointing_words(relationship: str, canonical: str) -> tuple[str, ...]:
    """The words for a relationship, and for the role it is a kind of while it holds:
    "my boss" points at a "regional manager", not at a "former manager"."""
    from graphmem.relationships import is_current, role  # it reads relationships with ours

    words = RELATIONSHIP_SYNONYMS.get(canonical, (canonical,))
    words = (*words, *(group for group, members in GROUPS.items() if canonical in members))
    kind = role(relationship)
    if kind and kind != canonical and is_current(relationship):
        words = (*words, *RELATIONSHIP_SYNONYMS.get(kind, (kind,)))
    return words


def _capitalises(text: str) -> bool:
    """Does the text capitalise words other than its first (so names show as names)?

    >>> _capitalises("what does alice like?"), _capitalises("What does Alice like?")
    (False, True)
    """
    return any(word[:1].isupper() for word in text.split()[1:])


_POSSESSOR = re.compile(r"(\w+)['’]s\s+$")


def _someone_elses(before: str, own: set[str]) -> bool:
    """Is a relationship word after ``before`` someone else's ("Luis's wife"), not the
    user's ("my wife", and the user's own name's: "Melanie's kids" said by Melanie)?"""
    possessor = _POSSESSOR.search(before)
    return possessor is not None and possessor.group(1).lower() not in own


def find_mentions(query: str, people: Iterable[Known]) -> list[Mention]:
    """People the query names or refers to by relationship, in order of first mention.

    Examples:
        >>> people = [Known("alice", "Alice", "sister"), Known("bob smith", "Bob Smith", "manager"),
        ...           Known("me", "me", "self")]
        >>> [m.name for m in find_mentions("what is my sis allergic to?", people)]
        ['Alice']
        >>> [m.via for m in find_mentions("Does Bob like my sister?", people)]
        ["name 'Bob'", "relationship 'sister'"]
        >>> [m.key for m in find_mentions("what do I like?", people)]
        ['me']
        >>> [m.name for m in find_mentions("what's Bob's sister's name?", people)]
        ['Bob Smith']
        >>> [m.name for m in find_mentions("where do my parents live?", [Known("m", "Mum",
        ...     "mum"), Known("d", "Dad", "dad"), Known("t", "Tom", "brother")])]
        ['Mum', 'Dad']
        >>> [m.name for m in find_mentions("who's my boss now?", [Known("d", "Danjuma",
        ...     "regional manager"), Known("o", "Okafor", "former manager")])]
        ['Danjuma']
    """
    found: list[tuple[int, Mention]] = []
    seen: set[str] = set()
    people = list(people)
    # A query that capitalises names must write a name as the name is written: "What
    # kind of art does she make?" does not name the "Art" extraction took for a person.
    # One written all in lower case matches names in any case.
    ignore_case = not _capitalises(query)
    lowered = query.lower()  # a cheap test before each pattern
    for person in people:
        if person.name == "me":  # the user, named only by first person below
            continue
        first = person.name.split()[:1]
        # full name, then first name ("Melanie's kid" is a phrase, not Melanie; the "my"
        # of an unnamed "my doctor" is no name)
        names = [
            person.name,
            *(w for w in first if not w.endswith(("'s", "’s")) and w[:1].isupper()),
        ]
        for name in names:
            if len(name) < 2 or name.lower() not in lowered:
                continue
            match = _words_pattern(name, ignore_case).search(query)
            if match and person.key not in seen:
                found.append((match.start(), Mention(person.key, person.name, f"name '{name}'")))
                seen.add(person.key)
                break
    named = {canonical_relationship(r) for r in lang.relationships_in(query)}
    own = {w.lower() for p in people if p.key == "me" for w in p.name.split()}
    for person in people:
        if person.key in seen or not person.relationship or person.key == "me":
            continue
        canonical = canonical_relationship(person.relationship)
        if canonical in named:  # "我妹妹": the relationship in the query's own words
            found.append((0, Mention(person.key, person.name, f"{_BY_RELATIONSHIP}{canonical}'")))
            seen.add(person.key)
            continue
        for word in _pointing_words(person.relationship, canonical):
            if word.split()[0] not in lowered:
                continue
            match = _words_pattern(word).search(query)
            if match and not _someone_elses(query[: match.start()], own):
                found.append(
                    (
                        match.start(),
                        Mention(person.key, person.name, f"{_BY_RELATIONSHIP}{match.group(0)}'"),
                    )
                )
                seen.add(person.key)
                break
    if not found and (_FIRST_PERSON.search(query) or lang.speaks_of_self(query)):
        me = next((p for p in people if p.key == "me"), None)
        if me is not None:
            found.append((0, Mention("me", "me", "first person")))
    return [mention for _, mention in sorted(found, key=lambda pair: pair[0])]
