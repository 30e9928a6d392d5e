"""Names a conversation uses as places, whatever one sentence's parse says.

spaCy's small model calls a suburb, an app or a town a person as often as not in chat
("a trek from Marrickville" is a PERSON), and a person a place ("coffee with Tanya" is a
GPE). Where the conversation puts a name says more: a name it puts after "in", "at",
"near" ("a gym in Marrickville", "a flat in marrickville") at least as often as the
parser calls it a person is a place, not one of the user's people. ``Places`` counts
over the conversation so far, as ``ingestion.casing.Casing`` does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ingestion import cues

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


@dataclass
class Places:
    """Per name (lower case): mentions placed after "in", "at"... and mentions the parser
    called a person."""

    placed: Counter[str] = field(default_factory=Counter)
    person: Counter[str] = field(default_factory=Counter)
    #: names placed in the well-cased turns nobody parses (the assistant's)
    said: Counter[str] = field(default_factory=Counter)

    def learn(self, docs: Iterable[Doc]) -> None:
        """Count the proper nouns of parsed turns.

        >>> from ingestion.extract import load_nlp
        >>> places = Places()
        >>> places.learn(load_nlp().pipe(["the office is a trek from Marrickville",
        ...     "theres a gym in Marrickville", "we found a flat in Marrickville",
        ...     "coffee with Tanya went great"]))  # a person once, and Tanya a place
        >>> places.names()
        ['Marrickville']
        """
        for doc in docs:
            for token in doc:
                if token.pos_ != "PROPN" or not token.is_alpha or token.text.isupper():
                    continue
                if _placed(token):
                    self.placed[token.lower_] += 1
                elif token.ent_type_ == "PERSON":
                    self.person[token.lower_] += 1

    def learn_said(self, text: str) -> None:
        """Count the capitalised names a well-cased turn nobody parses (the assistant's)
        puts after "in", "at", "near"... or a trip to or from ("a quiet week in Benidorm",
        "a trip to Jeju is lovely in April"). Not a name followed by "'s" ("at Jenny's",
        "the drive to Mum's").

        >>> places = Places()
        >>> places.learn_said("A trip to Jeju sounds lovely, and the drive to Mum's is short")
        >>> dict(places.said)
        {'jeju': 1}
        """
        for m in _PLACED_IN_TEXT.finditer(text):
            self.said[m["name"].lower()] += 1

    def names(self) -> list[str]:
        """The names placed at least as often as called a person, capitalised."""
        return [
            name.capitalize() for name, votes in self.placed.items() if votes >= self.person[name]
        ]

    def is_place(self, name: str) -> bool:
        """Whether anyone placed ``name`` (lower-cased) at least as often as the parser
        called it a person: "a change in Archie" places a person once, which is why this
        only ever weighs against a name no relationship was read for."""
        votes = self.placed[name] + self.said[name]
        return votes > 0 and votes >= self.person[name]

    def state(self) -> dict[str, dict[str, int]]:
        return {"placed": dict(self.placed), "person": dict(self.person), "said": dict(self.said)}

    def restore_state(self, data: dict[str, dict[str, int]]) -> None:
        self.placed.update(data.get("placed", {}))
        self.person.update(data.get("person", {}))
        self.said.update(data.get("said", {}))


_PLACED_IN_TEXT = re.compile(
    rf"\b(?:{'|'.join(sorted(cues.PLACE_PREPS))}"
    rf"|(?:{'|'.join(sorted(cues.TRAVEL_TO))})\s+(?:back\s+)?(?:to|from))"
    r"\s+(?P<name>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![\w'’-])"
)


def _placed(token: Token) -> bool:
    """After "in", "at", "near"..., not someone's ("at Jenny's") nor tagged a person."""
    return (
        token.dep_ == "pobj"
        and token.head.lower_ in cues.PLACE_PREPS
        and token.ent_type_ != "PERSON"
        and not any(c.dep_ == "case" for c in token.children)
    )
