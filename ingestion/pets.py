"""A pet known by what is said of it, when nothing introduced it as one.

People rarely introduce their animals ("a cat named luna"): they just talk about them.
"obama dey bark for gate", "had to take biscuit to the vets", "rusty my old heeler",
"pak mat (our cat lah not my uncle)", "gerald is gonna have to come w me tho, my mom said
she is NOT keeping my cat". A name no relationship was read for is a pet when a sentence,
said by anyone in the conversation, puts an animal word right beside it: a kind ("cat",
"heeler", "chien"), or what only animals do or need ("bark", "purr", "the vets"), or,
where the sentence names no one else, the user's "my cat" / "our dog". A word of what
people do beside the name ("said", "texted", "works") counts against it.

Plain functions over text; the knowledge is data (``ingestion.cues`` and every
language's ``Language.pets``).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache

from graphmem import lang
from ingestion import cues

#: words between a name and an animal word said of it: "rusty my old heeler",
#: "take biscuit to the vets", "obama dey bark"
NEAR = 4
#: words after a name that a person's doing of its own sits in: "jake said", "jake
#: texted me", not "danny wanted to call her biscuit 2 but i said no way"
DOER = 2
#: "pet" where the words say an animal but not which
PET = "pet"

_SENTENCES = re.compile(r"(?<=[.!?。！？\n])\s*")
_WORD = re.compile(r"[\w'’-]+")


@cache
def _kinds() -> dict[str, str]:
    """Every word naming an animal, in any language, and the kind it says (a kind is
    its own); what animals do is ``cues.ANIMAL_DOINGS``."""
    kinds = {word: word for word in cues.PETS}
    kinds |= dict(cues.PET_KINDS)
    for known in lang.languages():
        kinds |= {word.lower(): kind for word, kind in known.pets.items()}
    return kinds


def kind_of(name: str, texts: Iterable[str], others: Iterable[str] = ()) -> str | None:
    """The kind of animal ``name`` is by what ``texts`` say beside it ("dog", "cat",
    "pet"), None when they say it of no animal or more of a person; ``others``: the
    other names known, whose sentences' "my cat" is theirs to claim.

    >>> kind_of("Obama", ["let me go sleep, obama dey bark for gate since"])
    'dog'
    >>> kind_of("Biscuit", ["had to take biscuit to the vets yesterday, its his kidneys"])
    'pet'
    >>> kind_of("Gerald", ["gerald is gonna have to come w me tho, my mom said she is NOT "
    ...                    "keeping my cat lmaoo"])
    'cat'
    >>> kind_of("Jake", ["jake said he'd walk the dog"]) is None  # a person's doing
    True
    >>> kind_of("Biscuit", ["took biscuit to the vets", "call her biscuit 2 but i said no"])
    'pet'
    >>> kind_of("Jake", ["jake came round with his dog"]) is None  # his dog, not him
    True
    >>> kind_of("Rex", ["her dog is cute. Rex, a husky mix, loves snow"]) is None
    True
    >>> kind_of("Herr Braun", ["herr braun downstairs has a dachshund called kaiser"]) is None
    True
    """
    target = [w.lower() for w in _WORD.findall(name)]
    if not target:
        return None
    known = [[w.lower() for w in _WORD.findall(n)] for n in others]
    known = [k for k in known if k and k != target]
    votes: Counter[str] = Counter()
    for text in texts:
        if _someone_elses(text):
            continue
        for sentence in _SENTENCES.split(text):
            words = [w.lower() for w in _WORD.findall(sentence)]
            at = _find(words, target)
            if not at:
                continue
            votes.update(_said_of(words, at, len(target)))
            if not any(_find(words, k) for k in known):
                votes.update(_owned(words))
    people = votes.pop("", 0)
    if not votes or sum(votes.values()) <= people:
        return None
    specific = [kind for kind, _ in votes.most_common() if kind != PET]
    return specific[0] if specific else PET


def _someone_elses(text: str) -> bool:
    """Whether a turn speaks of someone else's animal ("her dog is cute. Rex, a husky
    mix"): the animal words beside a name in it are not the user's pet's."""
    words = [w.lower() for w in _WORD.findall(text)]
    kinds = _kinds()
    return any(before in cues.THEIR and word in kinds for before, word in itertools.pairwise(words))


def _find(words: list[str], target: list[str]) -> list[int]:
    n = len(target)
    return [i for i in range(len(words) - n + 1) if words[i : i + n] == target]


def _said_of(words: list[str], at: list[int], size: int) -> list[str]:
    """The kinds the words within ``NEAR`` of each mention say ("" for a person's
    doing), a possessive before a kind word making it someone's animal, not the name."""
    kinds = _kinds()
    out: list[str] = []
    for start in at:
        end = start + size
        for i in range(max(0, start - NEAR), min(len(words), end + NEAR)):
            if start <= i < end:
                continue
            word = words[i]
            if word in cues.PEOPLE_DOINGS:  # its subject: "jake said", not "i said"
                if end <= i < end + DOER:
                    out.append("")
            elif word in cues.ANIMAL_DOINGS:
                out.append(cues.ANIMAL_DOINGS[word])
            elif word in kinds and not (i > end and _owns(words, i)):
                out.append(kinds[word])
    return out


#: "herr braun has a dachshund", "jo got a puppy", "bo caught a red fish": the animal is
#: theirs, or what they did something to, not them
_HAVING = frozenset(
    {"has", "have", "had", "got", "gets", "owns", "adopted"}
    | {"caught", "catch", "catches", "saw", "sees", "fed", "feeds", "bought", "ate", "eats"}
)


def _owns(words: list[str], i: int) -> bool:
    """Whether the kind word at ``i`` is someone's animal or what someone did something
    to: "her dog", "has a dachshund", "caught a red fish" (a word may describe it).

    >>> _owns("bo caught a red fish off the pier".split(), 4)
    True
    """
    if words[i - 1] in cues.THEIR:
        return True
    article = next((k for k in (i - 1, i - 2) if k > 0 and words[k] in {"a", "an"}), None)
    return article is not None and words[article - 1] in _HAVING


def _owned(words: list[str]) -> list[str]:
    """The kinds a sentence gives the user ("my cat", "our dog")."""
    kinds = _kinds()
    return [
        kinds[word]
        for before, word in itertools.pairwise(words)
        if before in cues.MINE and word in kinds
    ]


def kinds_by_what_is_said(
    names: Iterable[str], texts: list[str], known: Iterable[str] = ()
) -> Mapping[str, str]:
    """Each of ``names`` that ``texts`` speak of as an animal, with its kind."""
    everyone = list(known)
    lowered = [(text.lower(), text) for text in texts]
    return {
        name: kind
        for name in names
        if (kind := kind_of(name, [t for low, t in lowered if name.lower() in low], everyone))
    }


__all__ = ["DOER", "NEAR", "PET", "kind_of", "kinds_by_what_is_said"]
