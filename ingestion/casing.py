"""Names as the conversation writes them, for turns typed all in lower case.

People type to an assistant in lower case ("my labmate oscar made a spreadsheet"), and a
parser trained on edited text finds no name in it. The conversation itself knows better:
the assistant, or the user on another day, wrote "Oscar" with a capital. ``Casing``
learns, from every turn, the words written capitalised inside a sentence and never in
lower case where the writer capitalises (a well-cased turn); ``restore`` gives a
lower-case turn those capitals back, and "I" its capital (sentence starts stay as typed:
a capitalised "Coffee with Tanya went great" reads as a name to the parser). Only letters change
case, so every character offset still points into the turn as said.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphmem.lang import en
from graphmem.relationships import TITLES

if TYPE_CHECKING:
    from spacy.tokens import Doc

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: A title's period ends no sentence ("Dr. Nguyen": the name after it is a name).
_TITLED = "".join(rf"(?<!\b{t}\.)(?<!\b{t.capitalize()}\.)" for t in sorted(TITLES))
#: Where a sentence, a list item or a quote starts (its first word is capitalised anyway).
#: What starts a sentence: the text's start, or after an end mark, a line break or a run
#: of emoji ("💍💍💍 theo proposed": in chat an emoji ends what was said).
_SENTENCE_START = re.compile(
    rf"(?:^|\.{_TITLED}\s+|[!?:;\u2600-\u27bf\U0001f300-\U0001faff]\s+|\n)"
    r"[\s\-*•#>\"'“‘(\d.)]*([^\W\d_])"
)
_QUOTED = re.compile(
    r'"[^"\n]{1,80}"|“[^”\n]{1,80}”|‘[^’\n]{1,80}’|\*[^*\n]{1,80}\*|_[^_\n]{1,80}_'
    r"|(?<!\w)'[^'\n]{1,80}'(?!\w)"
)
_I = re.compile(r"\bi(?=\b|['’])")


@dataclass
class Casing:
    """Words seen capitalised mid-sentence (``capital``) and lower-cased in well-cased
    turns (``lower``), counted over the conversation so far."""

    capital: Counter[str] = field(default_factory=Counter)
    lower: Counter[str] = field(default_factory=Counter)
    #: words seen inside quotes ("Braiding Sweetgrass", *Ponyo*, 《活着》): titles, not names
    quoted: Counter[str] = field(default_factory=Counter)

    def learn(self, text: str) -> None:
        """Count the words of a turn: capitalised inside a sentence, or lower-cased in a
        turn whose writer capitalises sentence starts."""
        cased = well_cased(text)
        starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
        for quote in _QUOTED.finditer(text):
            for m in _WORD.finditer(quote.group()):
                self.quoted[m.group().lower()] += 1
        for m in _WORD.finditer(text):
            word = m.group()
            if m.start() in starts:
                continue
            if word[0].isupper() and not word.isupper():
                self.capital[word.lower()] += 1
            elif cased and word.islower():
                self.lower[word] += 1

    def name_like(self, word: str) -> bool:
        """Written capitalised somewhere, never lower-cased by a writer who capitalises,
        and no function word (a title's "The" names nothing)."""
        return (
            self.capital[word] > 0
            and self.lower[word] == 0
            and self.quoted[word] == 0
            and word not in en.STOP_WORDS
        )

    def restore(self, text: str) -> str:
        """A lower-case turn with the conversation's capitals back; any other unchanged.

        >>> casing = Casing()
        >>> casing.learn("That's great news about Oscar! Did he fix the spreadsheet?")
        >>> casing.learn('Try "Braiding Sweetgrass", or Stardew.')
        >>> casing.restore("my labmate oscar made it. i think so. braiding sweetgrass?")
        'my labmate Oscar made it. I think so. braiding sweetgrass?'
        >>> casing.learn("I'd suggest reading The First 90 Days by Michael Watkins.")
        >>> casing.restore("starting at the cleveland clinic payroll team on the 19th")
        'starting at the cleveland clinic payroll team on the 19th'
        """
        if any(ch.isupper() for ch in text):
            return text
        chars = list(text)
        for m in _WORD.finditer(text):
            if self.name_like(m.group()):
                chars[m.start()] = chars[m.start()].upper()
        for m in _I.finditer(text):
            chars[m.start()] = "I"
        return "".join(chars)

    def state(self) -> dict[str, dict[str, int]]:
        return {
            "capital": dict(self.capital),
            "lower": dict(self.lower),
            "quoted": dict(self.quoted),
        }

    def restore_state(self, data: dict[str, dict[str, int]]) -> None:
        self.capital.update(data.get("capital", {}))
        self.lower.update(data.get("lower", {}))
        self.quoted.update(data.get("quoted", {}))


#: A run of emoji: in chat it ends what was said ("ALEXIS IS ENGAGED 💍💍💍 theo proposed").
_EMOJI = re.compile(r"[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f\u200d]+")


#: Tags of a word that opens a clause as its subject, and of the verb after it.
_SUBJECT_TAGS = frozenset({"PRP", "NNP", "NN", "NNS", "NNPS"})


def emoji_ends_sentences(doc: Doc) -> Doc:
    """A pipeline step between the tagger and the parser: after a run of emoji, a
    subject and its verb start a sentence, as they do for the person who typed it (the
    parser keeps that start: "theo" is then the one who proposed, not a noun of the
    sentence before). An emoji said as a word ("a new lodger 🐱 a cat") joins what
    follows as before."""
    for token in doc[1:-2]:
        after, verb = doc[token.i + 1], doc[token.i + 2]
        if (
            _EMOJI.fullmatch(token.text)
            and after.is_alpha
            and after.tag_ in _SUBJECT_TAGS
            and (verb.tag_.startswith("VB") or verb.tag_ == "MD")
        ):
            after.is_sent_start = True
    return doc


def well_cased(text: str) -> bool:
    """A turn whose sentences start with capitals (so its lower case words are words)."""
    starts = [m.group(1) for m in _SENTENCE_START.finditer(text)]
    return bool(starts) and all(s.isupper() for s in starts if s.isalpha())
