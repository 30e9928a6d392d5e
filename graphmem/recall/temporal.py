"""What a question says about time, and which cards that favours.

A card is valid from ``valid_from`` (when it became true) until ``valid_to`` (set when a
newer card superseded it; open while it is current). Questions carry three kinds of
temporal intent, read by ``read_intent`` from plain words:

- **current** ("now", "currently", "still", "these days", "anymore"): the card valid
  now; superseded cards stay out (as they do by default);
- **past** ("used to", "before", "previously", "originally", "my old ..."): the value
  that held before it changed, so superseded cards are searched too and rank above the
  current cards that state a value or name what the question asks around ("before
  Northwind": the cards about Northwind);
- **during** a window of the past ("where did I live in 2024?", "last summer", "in March
  2025", "two years ago"): cards valid at some point of the window are preferred,
  superseded or not; cards valid only outside it are damped. A window in a question about
  a plan ("am I going to Tokyo in April?") is not about the past and is left alone.

A question also names what it asks the value of ("where do I live?": a location; "who
is my manager?": the user's manager role): a card whose claim (``graphmem.write`` stores
each card's claim key, ``graphmem.algorithms.conflicts.claim_of``) states that attribute
is preferred, whatever the wording ("I'm pescatarian now" answers "what's my diet?").

``weight`` turns the intent into a factor on a card's final score (see
``graphmem.recall.scoring``, which halves superseded cards); ``statuses`` says which card
statuses recall must search for it; ``predecessors_first`` puts a replaced value just
above its replacement for a question about the past. Plain functions over plain data,
no store.
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, overload

from graphmem import lang
from graphmem.recall.mentions import GROUPS, RELATIONSHIP_SYNONYMS, canonical_relationship
from graphmem.recall.scoring import SUPERSEDED_FACTOR
from graphmem.relationships import WORDS

Kind = Literal["current", "past", "during"]

#: Asked about the past, a superseded card is the likelier answer than the card that
#: replaced it (which the question is asking around): half again over a current card.
PAST_SUPERSEDED = 1.5 / SUPERSEDED_FACTOR
#: Asked about the past, a current card that states a value (it has a claim key, see
#: ``graphmem.write``) is what the question asks around ("before Globex"). Not much
#: less: the turn that says the change often says what it replaced ("offer mil gaya!!
#: zentrix labs ... infovance mein 18 tha"). Over the thirteen chat dev sets, such a
#: turn had been kept out of the top by this factor for 9 questions whose answer sat at
#: ranks 2-5; at 0.75 against 0.5 the top fact answers 7 more and 3 fewer, LoCoMo dev
#: R@10 74.2 either way (MRR 52.4 -> 52.8).
PAST_CURRENT = 0.75
#: A card valid during the asked window, against one valid only outside it.
DURING_INSIDE = 1.5
DURING_OUTSIDE = 0.5
#: A card that states what the question asks ("where do I live?": a location claim).
ASKED = 2.0
#: The largest factor ``weight`` returns (recall's early stop needs the bound).
MAX_WEIGHT = DURING_INSIDE / SUPERSEDED_FACTOR * ASKED


@dataclass(frozen=True)
class TemporalIntent:
    """The time a question is about: ``kind`` (None: no cue), the window of a "during"
    question as epoch ms ``[start, end)``, and the words that decided it."""

    kind: Kind | None = None
    start: int | None = None
    end: int | None = None
    cue: str | None = None
    #: "before Northwind", "before I moved": what the past question is asked around
    anchor: tuple[str, ...] = ()
    #: the attributes the question asks the value of ("where do I live?": location)
    asks: tuple[str, ...] = ()
    #: whose attributes: the user (empty), or the people it names or refers to by
    #: relationship ("my sister" -> "sister", "Ana" -> "ana")
    about: tuple[str, ...] = ()
    #: a yes/no question ("am I dating anyone?"): a negated value answers it too
    yes_no: bool = False


NONE = TemporalIntent()

#: The user asking about themself, or their household ("where do we live now?").
_FIRST_PERSON = re.compile(r"\b(?:i|my|me|i'm|am i|do i|we|our|us)\b", re.IGNORECASE)
#: Who a question's "my ..." names: relationship words and the ways chat says them
#: ("where does my hubby work now?" asks the husband's job, not the user's).
_SOMEONE_WORDS = WORDS | {w for words in RELATIONSHIP_SYNONYMS.values() for w in words}
_MY_SOMEONE = re.compile(
    rf"\bmy\s+(?P<word>{'|'.join(sorted(map(re.escape, _SOMEONE_WORDS), key=len, reverse=True))})"
    r"\b",
    re.IGNORECASE,
)
_MY_GROUP = re.compile(rf"\b(?:my|our)\s+(?P<word>{'|'.join(GROUPS)})\b", re.IGNORECASE)
_NAME = re.compile(r"\b(?!I\b)[A-Z][a-z]+")
#: Words before a name that make it where or with whom, not whose the slot is: "did i
#: move to Québec with Sofia?" asks the user's home, "je travaille chez Mila?" their job.
_NOT_WHOSE = re.compile(r"(?:\b(?:to|in|from|at|chez)\s+|[去在到]\s*)$", re.IGNORECASE)
_WITH = re.compile(r"\b(?:with|avec|con)\s+$", re.IGNORECASE)
_WHO_IS_MY = re.compile(
    rf"\bwho(?:'s| is| was)\s+my\s+(?:new\s+|current\s+)?(?P<word>"
    rf"{'|'.join(sorted(map(re.escape, WORDS), key=len, reverse=True))})\b",
    re.IGNORECASE,
)
_YES_NO = re.compile(r"(?:am|is|are|was|were|do|does|did|have|has|had|can|will)\b", re.I)
#: What a question asks the current value of, by its words: (pattern, attribute prefixes
#: of ``graphmem.algorithms.conflicts`` claims). A card stating that attribute is what
#: the question wants ("what's my diet?" -> "I'm pescatarian now").
_ASKS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), attributes)
    for rx, attributes in (
        # the city one lives in, beside the home ("which city do we live in?"): a card
        # stating the city answers before one naming the flat or its neighbourhood
        (r"\b(?:what|which)\s+(?:\w+\s+)?(?:city|town)\b", ("city", "location")),
        # (chat drops a g: "where am i livin now", "where am i workin")
        (r"\bwhere\b.*\b(?:live|living|livin|based|home|stay|staying|stayin)\b", ("location",)),
        (
            r"\b(?:what|which)\s+(?:\w+\s+)?(?:country|state|neighbou?rhood|area|"
            r"suburb|street|district|complex)\b|\b(?:do|did)\s+(?:i|we)\s+(?:\w+\s+)?live\b",
            ("location",),
        ),
        (r"\b(?<!mail )address\b", ("location",)),  # "what's my address now?"
        # where one is from: "wheres my hometown again", "where did i grow up?"
        (
            r"\bhome\s*town\b|\bwhere\b.*\b(?:grow|grew|raised|born)\b"
            r"|\bwhere\s+(?:am|are|is)\s+(?:i|we)\s+(?:originally\s+)?from\b",
            ("hometown",),
        ),
        # "where was the old flat?", "where's our place"
        (r"\bwhere\b.*\b(?:flat|apartment|apt|house|place|gaff|condo)\b", ("location",)),
        # "did i move to orlando?", "where did we end up moving?": where one lives now
        (r"\b(?:move|moved|moving|relocate|relocated|relocating)\b", ("location",)),
        (r"\be-?mail\b", ("email",)),
        (r"\b(?:phone|mobile|cell)\b|\bmy\s+(?:new\s+|old\s+)?number\b", ("phone",)),
        (
            r"\bwhere\b.*\b(?:work|working|workin|employed)\b"
            r"|\b(?:what|which)\s+(?:company|employer|firm)\b"
            # "which hospital does aoife work in"
            r"|\b(?:what|which)\s+\w+\s+(?:does|did)\s+\w+\s+work\s+(?:in|at|for)\b"
            # "what was the cafe i worked at before", "which hospital was i at before"
            r"|\b(?:i|we)\s+(?:still\s+|now\s+)?(?:worked|work|working|workin|was\s+working)"
            r"\s+(?:at|for|in)\b"
            r"|\b(?:what|which)\s+(?:\w+\s+)?(?:school|hospital|cafe|café|restaurant|bank|"
            r"shop|store|agency|office|clinic|bar|pub|branch|warehouse|factory|depot|salon|"
            r"ward|hotel|studio|lab|startup)\b.*\b(?:teach|taught|was\s+i\s+at|i\s+was\s+at|"
            r"did\s+i\s+use[d]?\s+to\s+be\s+at)\b",
            ("employer", "job"),
        ),
        (
            r"\b(?:job|role|profession|occupation|for a living|for work|work as)\b",
            ("job", "employer"),
        ),
        (
            r"\bwhat (?:does|did) (?:my \w+|(?!you\b|we\b|they\b)\w+) do\b"
            r"(?!\s+(?:on|at|in|for fun|with|after|before|every|when|to|about)\b)",
            ("job", "employer"),
        ),
        (
            r"\b(?:sports?|hobby|hobbies|exercise|work out|for fun|free time|spare time|"
            r"pastime|known for|good at)\b",
            ("activity:",),
        ),
        # "what van am i driving these days", Pidgin "which motor i dey use"; not a commute
        # ("how long is my drive to work now")
        (
            r"\b(?:car|driving|drivin|vehicle|van|motor|truck)\b|\bdrive\b(?!\s+(?:to|from)\b)",
            ("car",),
        ),
        (r"\b(?:alive|dead|died|passed away)\b", ("alive",)),
        (r"\b(?:diet|eat meat|vegetarian|vegan)\b", ("diet",)),
        (r"\b(?:smoke|smoking|smoker|vape|vaping|cigarettes?)\b", ("smokes",)),
        (
            r"\b(?:diagnos\w*|condition|pre-?diabetic|diabetic|diabetes|an(?:a)?emic|co?eliac|"
            r"lactose|asthma\w*|epilep\w*|hypertensi\w*)\b",
            ("condition:",),
        ),
        (r"\bhow old\b|\bmy age\b", ("age",)),
        (r"\bmy name\b|\bwho am i\b(?!\s+\w)", ("name", "preferred name")),
        (r"\bcall me\b", ("preferred name",)),
        (r"\bbirthday\b|\bborn\b", ("birthday",)),
        (r"\ballerg", ("allergy",)),
        (r"\breport to\b", ("my manager",)),
        (
            r"\b(?:am i|are we) (?:still )?(?:married|dating|single|seeing|engaged|with)\b|"
            r"\bdo i have an? (?:partner|wife|husband|girlfriend|boyfriend)\b",
            ("my partner",),
        ),
        (r"\bseat\b", ("preferred seat",)),
        (r"\bmeal\b", ("preferred meal",)),
        (r"\broom\b", ("preferred room",)),
        (r"\bformat\b", ("preferred format",)),
        (r"\blanguage\b", ("preferred language", "reply language")),
        (r"\bcalled\b|\bname of\b", ("name:",)),
        (r"\bwhen\b", ("date:",)),
    )
)

#: Words a question says "now" with ("rn", "atm": chat's "right now", "at the moment")
_NOW_WORDS = (
    r"now|right now|rn|atm|currently|current|these days|nowadays|at the moment|at present|"
    r"presently|still|anymore|any more|any longer|as of now|by now"
)

#: A question naming no one, said as chat drops the "my": "what's the family car these
#: days". Only a "what" or "which" with no one's "'s": "where's thiago working now" and
#: one with he, she, "does" or "who" ask of someone else, known to memory or not.
_ASKS_TERSELY = re.compile(
    rf"^\s*(?:what|which)\b(?!.*\b(?!what|that|it)\w+'s\b)"
    rf".*(?:\b(?:{_NOW_WORDS})\b|\bthe family\b)",
    re.IGNORECASE,
)
_SOMEONE_ELSE = re.compile(
    r"\b(?:he|she|they|his|her|their|him|them|does|doesn't|who|whos|who's)\b", re.IGNORECASE
)
#: Words a question says "before" with
_BEFORE_WORDS = r"used to|use to|before|previously|formerly|originally|back then|at first|earlier"
#: How a question says when, not what it asks ("where do i live rn", "what car did i
#: used to have", "main abhi kaha rehti hu" read "now"): no passage is searched for
#: these words ("applying rn" answers nothing of where the user lives).
_WHEN_WORDS = re.compile(rf"\b(?:{_NOW_WORDS}|{_BEFORE_WORDS})\b", re.IGNORECASE)


def without_when(query: str) -> str:
    """``query`` without its words of now and before, which the temporal intent reads:
    searched, "我现在在播啥品类" matches any "我现在挺好的" said since.

    >>> without_when("where do i live rn"), without_when("main abhi kaha rehti hu")
    ('where do i live', 'main kaha rehti hu')
    >>> without_when("what car did i used to have?"), without_when("我以前住在哪里")
    ('what car did i have?', '我 住在哪里')
    """
    if lang.script_without_spaces(query):
        for word in _spaceless_when_words():
            query = query.replace(word, " ")
        return re.sub(r" +", " ", query).strip()
    return re.sub(r" +", " ", _WHEN_WORDS.sub(" ", lang.in_english_time_words(query))).strip()


@functools.cache
def _spaceless_when_words() -> tuple[str, ...]:
    """The time words of scripts without spaces that say now or before ("现在", "以前"),
    longest first."""
    words = {
        word
        for known in lang.languages()
        for word, english in known.time_words.items()
        if lang.script_without_spaces(word) and _WHEN_WORDS.fullmatch(english)
    }
    return tuple(sorted(words, key=len, reverse=True))


_CURRENT = re.compile(rf"\b(?:{_NOW_WORDS}|today)\b", re.IGNORECASE)
_PAST = re.compile(
    rf"\b(?:{_BEFORE_WORDS}|in the past|at the time|prior to|"
    # "my old flat", "me old job", "the old place", "old boss at the bank?" (a long-time
    # friend, "my old man" and "how old" are not of another time)
    r"(?:(?:my|our|me|the)\s+|^)old\s+(?!man\b|lady\b|friends?\b|mates?\b|pals?\b|buddy\b)|"
    # a home or a job of another time: "what neighbourhood was I in when I lived with
    # Flo?" ("where did I live?" alone stays today's: superseded cards stay hidden)
    r"(?:i|we)\s+(?:lived|worked|stayed)|"
    r"(?:was\s+i|were\s+we)\s+(?:in|at|living|working|staying)|"
    # a job that ended: "which company laid me off?", "where did i quit?"
    r"laid\s+me\s+off|let\s+me\s+go|fired\s+me|made\s+me\s+redundant|did\s+i\s+quit)\b",
    re.IGNORECASE,
)
#: "where did I work before Northwind?": the words after "before", up to the end.
_ANCHOR = re.compile(r"\bbefore\s+(?P<anchor>[^?.!,;]+)", re.IGNORECASE)
_ANCHOR_STOP = frozenset(
    {
        "i",
        "we",
        "my",
        "our",
        "the",
        "a",
        "an",
        "to",
        "that",
        "this",
        "then",
        "it",
        "got",
        "was",
        "were",
        "had",
        "did",
        "started",
        "became",
        "he",
        "she",
        "they",
    }
)
#: A question about a time window in the past: "did", "was", "were", "used to"...
_PAST_TENSE = re.compile(
    r"\b(?:did|was|were|had|used to|ago|last|back in|went|lived|worked|said|told)\b",
    re.IGNORECASE,
)
#: A question of what one does ("where do i walk every morning before standup"): its
#: "before" is of the day, not of the past.
_HABIT = re.compile(r"\b(?:do|does)\s+(?:i|we)\b(?!.*\b(?:did|was|were|used to)\b)", re.IGNORECASE)
_DATED = re.compile(r"\d{4}|\bago\b|\blast\b|\bpast\b", re.IGNORECASE)
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_WORDS = "|".join(_MONTHS)
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_SEASON_YEAR = re.compile(
    rf"\b(?:(?:in|during)\s+)?(?:the\s+)?(?P<season>spring|summer|autumn|fall|winter)\s+"
    rf"(?:of\s+)?{_YEAR}\b",
    re.IGNORECASE,
)
_SEASON_REL = re.compile(
    r"\b(?P<which>last|this|past)\s+(?P<season>spring|summer|autumn|fall|winter)\b",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(rf"\b(?P<month>{_MONTH_WORDS})\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE)
_MONTH_REL = re.compile(
    rf"\b(?P<which>last|this|in|during)\s+(?P<month>{_MONTH_WORDS})\b", re.IGNORECASE
)
_YEAR_ONLY = re.compile(rf"\b(?:in|during|back in|since|of|for)?\s*{_YEAR}\b", re.IGNORECASE)
_REL_UNIT = re.compile(r"\b(?P<which>last|this|past)\s+(?P<unit>week|month|year)\b", re.IGNORECASE)
_AGO = re.compile(
    rf"\b(?P<n>\d+|{'|'.join(_NUMBERS)})\s+(?P<unit>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _month_start(year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def _span(year: int, month: int, months: int) -> tuple[int, int]:
    return _ms(_month_start(year, month)), _ms(_month_start(year, month + months))


def _season(season: str, year: int) -> tuple[int, int]:
    """Meteorological seasons (northern hemisphere); winter starts in December."""
    return _span(year, _SEASONS[season.lower()], 3)


def _window(query: str, now: datetime) -> tuple[int, int, str] | None:
    """The time window a question names, with the words that name it."""
    if m := _SEASON_YEAR.search(query):
        return (*_season(m["season"], int(m["year"])), m[0].strip())
    if m := _SEASON_REL.search(query):
        first = _SEASONS[m["season"].lower()]
        year = now.year if now.month >= first else now.year - 1  # this year's, once begun
        if m["which"].lower() in {"last", "past"} and _span(year, first, 3)[1] > _ms(now):
            year -= 1  # "last summer" while it is summer: the one before
        return (*_season(m["season"], year), m[0].strip())
    if m := _MONTH_YEAR.search(query):
        return (*_span(int(m["year"]), _MONTHS[m["month"].lower()], 1), m[0].strip())
    if m := _MONTH_REL.search(query):
        month = _MONTHS[m["month"].lower()]
        year = now.year if month <= now.month else now.year - 1  # the latest one begun
        if m["which"].lower() == "last" and month == now.month:
            year -= 1
        return (*_span(year, month, 1), m[0].strip())
    if m := _REL_UNIT.search(query):
        unit, which = m["unit"].lower(), m["which"].lower()
        back = 0 if which == "this" else 1
        if unit == "year":
            return (*_span(now.year - back, 1, 12), m[0].strip())
        if unit == "month":
            return (*_span(now.year, now.month - back, 1), m[0].strip())
        monday = datetime(now.year, now.month, now.day, tzinfo=UTC) - timedelta(now.weekday())
        start = monday - timedelta(weeks=back)
        return _ms(start), _ms(start + timedelta(weeks=1)), m[0].strip()
    if m := _AGO.search(query):
        n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].lower()]
        days = _UNITS[m["unit"].lower()]
        centre = now - timedelta(days=n * days)
        half = timedelta(days=max(1, days) / 2 + (days >= 30) * days / 2)
        return _ms(centre - half), _ms(centre + half), m[0].strip()
    if m := _YEAR_ONLY.search(query):
        return (*_span(int(m["year"]), 1, 12), m[0].strip())
    return None


def read_intent(query: str, now: int, names: Sequence[str] = ()) -> TemporalIntent:
    """The temporal intent of a question asked at ``now`` (epoch ms); ``names``: the
    people memory knows, by name, whom a question typed in lower case is about ("where
    does kayla work?").

    A named window wins over the other cues ("where did I live before 2024" is about
    2024's neighbourhood only loosely, but "in 2024" is exact); then past cues, then
    current ones.

    Examples:
        >>> from graphmem.timeutil import to_ms
        >>> now = to_ms("2026-11-23T12:00:00Z")
        >>> read_intent("Where do I live now?", now).kind
        'current'
        >>> read_intent("Is Greg still my manager?", now).cue
        'still'
        >>> read_intent("What instrument did I use to play?", now).kind
        'past'
        >>> read_intent("Where did I live before I moved?", now).anchor
        ('moved',)
        >>> read_intent("What neighbourhood was I in when I lived with Flo?", now).kind
        'past'
        >>> read_intent("Am I going to Tokyo in April?", now).kind is None  # a plan, not the past
        True
        >>> read_intent("What did my dad love doing?", now).kind is None
        True
        >>> read_intent("How old am I?", now).kind is None
        True
        >>> [read_intent(q, now).kind for q in ("who was the manager at me old job", "my old man")]
        ['past', None]
        >>> read_intent("which hospital was i at before", now).asks
        ('employer', 'job')
        >>> read_intent("where am i workin now", now).asks  # typed without its g
        ('employer', 'job')
        >>> read_intent("What's my diet now?", now).asks, read_intent("Who's my boss?", now).asks
        (('diet',), ('my manager',))
        >>> read_intent("what company was i at before i switched jobs?", now).asks
        ('employer', 'job')
        >>> read_intent("who am i?", now).asks, read_intent("who am i dating now?", now).asks
        (('name', 'preferred name'), ('my partner',))
        >>> i = read_intent("What is my sister allergic to?", now)  # her allergy, not mine
        >>> i.asks, i.about
        (('allergy',), ('sister',))
        >>> from graphmem.timeutil import to_iso
        >>> def window(q):
        ...     i = read_intent(q, now)
        ...     return i.kind, to_iso(i.start)[:10], to_iso(i.end)[:10], i.cue
        >>> window("Where did I live in 2024?")
        ('during', '2024-01-01', '2025-01-01', 'in 2024')
        >>> window("Where did I work last summer?")
        ('during', '2026-06-01', '2026-09-01', 'last summer')
        >>> window("what did we do in the winter of 2023")
        ('during', '2023-12-01', '2024-03-01', 'in the winter of 2023')
        >>> window("Who did I meet in March?")
        ('during', '2026-03-01', '2026-04-01', 'in March')
        >>> window("What was I reading last year?")
        ('during', '2025-01-01', '2026-01-01', 'last year')
        >>> read_intent("我现在住在哪里？", now).kind, read_intent("我以前住在哪里？", now).kind
        ('current', 'past')
        >>> read_intent("我妹妹住在哪里？", now).about
        ('sister',)
        >>> read_intent("where does kayla work?", now, ["kayla"]).about  # typed in lower case
        ('kayla',)
        >>> read_intent("did we end up moving to Tauranga", now).about  # a place, no one
        ()
        >>> read_intent("did i move to Québec with Sofia?", now).about  # my home, not hers
        ()
        >>> read_intent("where was the flat I shared with Javi", now).about  # which flat
        ('javi',)
        >>> read_intent("我是不是去 Arizona 工作了？", now).asks  # my job, not Arizona's
        ('employer', 'job')
        >>> read_intent("what's the family car these days", now).asks  # no "my" typed
        ('car',)
        >>> i = read_intent("where am i from originally", now)  # no move changes it
        >>> i.asks, i.kind
        (('hometown',), None)
    """
    asks, about = _asks(_asking(query), names)
    intent = _time_intent(lang.in_english_time_words(query), now)
    if not asks:
        return intent
    if intent.kind == "past" and set(asks) <= _NEVER_CHANGED:
        intent = replace(intent, kind=None)  # "where am i from originally": no earlier value
    return replace(intent, asks=asks, about=about, yes_no=bool(_YES_NO.match(query.strip())))


#: Attributes no change replaces, asked "originally" or "before" all the same.
_NEVER_CHANGED = frozenset({"hometown"})


#: Where a question's clauses part.
_CLAUSES = re.compile(r"[,;?，；？]")


def _asking(query: str) -> str:
    """The clause that asks, when several are said: "danny started at google, where do
    i work?" asks the user's employer, not Danny's, nor a job's.

    >>> _asking("callum got offered a job in edinburgh, which city do we live in?")
    'which city do we live in'
    >>> _asking("where do I live now?")
    'where do I live now?'
    """
    parts = [p.strip() for p in _CLAUSES.split(query) if p.strip()]
    asking = [p for p in parts if lang.asks_here(p)]
    return asking[-1] if len(parts) > 1 and asking else query


def _asks(query: str, names: Sequence[str] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attributes a question asks the value of, and whose: ``about`` is empty for
    the user's own ("where do I live?"), else the relationship words and names it uses
    ("where does my sister live?": sister; "where does Ana live?", "where does ana
    live?" when memory knows an Ana: ana). A name said where is not whose ("je
    travaille chez Mila ?"), nor one said with whom in a yes-or-no question ("did i move
    to Québec with Sofia?": the user's home), where in a question of which value it says
    which ("where was the flat i shared with riley?")."""
    asks = tuple(a for pattern, attributes in _ASKS if pattern.search(query) for a in attributes)
    asks = tuple(dict.fromkeys((*asks, *lang.asks(query))))  # and in the other languages
    if who := _WHO_IS_MY.search(query):  # "who is my roommate?": the user's roommate
        asks = tuple(dict.fromkeys((*asks, f"my {canonical_relationship(who['word'])}")))
    if not asks:
        return (), ()
    roles = {a[3:] for a in asks if a.startswith("my ")}
    about = [
        canonical_relationship(m["word"])
        for m in _MY_SOMEONE.finditer(query)
        if canonical_relationship(m["word"]) not in roles
    ]
    about += [who for m in _MY_GROUP.finditer(query) for who in GROUPS[m["word"].lower()]]
    low = query.lower()
    yes_no = bool(_YES_NO.match(query.strip()))

    def whose(at: int) -> bool:
        before = low[:at]
        return not _NOT_WHOSE.search(before) and not (yes_no and _WITH.search(before))

    about += [m[0].lower() for m in _NAME.finditer(query) if m.start() > 0 and whose(m.start())]
    about += [
        n
        for n in names
        if n not in about
        and any(whose(m.start()) for m in re.finditer(rf"\b{re.escape(n)}\b", low))
    ]
    in_words = [canonical_relationship(r) for r in lang.relationships_in(query)]
    about += [r for r in in_words if r not in roles and r not in about]
    if (
        not about
        and not _FIRST_PERSON.search(lang.in_english_time_words(query))
        and not lang.asks_of_self(query)
        and (_SOMEONE_ELSE.search(query) or not _ASKS_TERSELY.search(query))
    ):
        return (), ()
    return asks, tuple(dict.fromkeys(about))


def _time_intent(query: str, now: int) -> TemporalIntent:
    moment = datetime.fromtimestamp(now / 1000, tz=UTC)
    found = _window(query, moment)
    if found is not None and (_PAST_TENSE.search(query) or (found[1] <= now and "in 20" in query)):
        return TemporalIntent("during", found[0], found[1], found[2])
    if (m := _PAST.search(query)) and not (m[0].lower() == "before" and _HABIT.search(query)):
        anchor = _ANCHOR.search(query)
        words = anchor["anchor"].lower().split() if anchor else []
        return TemporalIntent(
            "past", cue=m[0], anchor=tuple(w for w in words if w not in _ANCHOR_STOP)
        )
    if m := _CURRENT.search(query):
        return TemporalIntent("current", cue=m[0])
    return NONE


def statuses(intent: TemporalIntent, wanted: list[str]) -> list[str]:
    """The card statuses recall searches: superseded ones join for the past.

    >>> statuses(TemporalIntent("past"), ["active"])
    ['active', 'superseded']
    >>> statuses(TemporalIntent("current"), ["active"])
    ['active']
    """
    if intent.kind in ("past", "during") and "superseded" not in wanted:
        return [*wanted, "superseded"]
    return list(wanted)


def weight(intent: TemporalIntent, card: Mapping[str, object], said: str = "") -> float:
    """The factor on a card's final score for this intent (1.0: no opinion).

    ``card`` holds the stored fields ``status``, ``timestamp``, ``valid_from``,
    ``valid_to`` (epoch ms) and ``claim`` (what the card states a value of, if anything);
    ``said``, the turn it is a part of (a long message is several cards), else its fact.

    Examples:
        >>> old = {"status": "superseded", "timestamp": 0, "valid_from": 0, "valid_to": 10,
        ...        "claim": "me|employer"}
        >>> new = {"status": "active", "timestamp": 10, "valid_from": 10, "claim": "me|employer"}
        >>> story = {"status": "active", "timestamp": 10, "claim": ""}
        >>> [weight(TemporalIntent("past"), card) for card in (old, new, story)]
        [3.0, 0.75, 1.0]
        >>> violin = {"status": "active", "timestamp": 10, "claim": "me|activity:violin"}
        >>> asked = TemporalIntent("past", asks=("location",))  # where did I live before?
        >>> weight(asked, {**new, "claim": "me|location"}), weight(asked, violin)
        (0.75, 1.0)
        >>> moved = {**new, "claim": "me|location", "claim_value": "bridgeport",
        ...          "fact": "movin outta pilsen too, got keys to a 1br in bridgeport"}
        >>> weight(asked, moved)  # the card that says where from holds the old value too
        2.0
        >>> anchored = TemporalIntent("past", asks=("location",), anchor=("pune",))
        >>> shifted = {**story, "fact": "flat in baner finalised, shifted from andheri. pune >>>"}
        >>> weight(anchored, shifted), weight(anchored, {**story, "fact": "pune weather is nice"})
        (1.0, 0.75)
        >>> weight(anchored, {**story, "fact": "pune weather >>>"}, said=shifted["fact"])
        1.0
        >>> during = TemporalIntent("during", 2, 5)
        >>> weight(during, old), weight(during, new)
        (3.0, 0.5)
    """
    factor = ASKED if intent.asks and states(card, intent) else 1.0
    if intent.kind is None or intent.kind == "current":
        return factor
    superseded = card.get("status") == "superseded"
    if intent.kind == "past":
        if superseded:
            return PAST_SUPERSEDED * factor
        # today's value of what is asked ("where did I live before?": not here), or of
        # anything when the question names no slot
        current = states(card, intent) if intent.asks else bool(card.get("claim"))
        fact = str(card.get("fact") or "")
        if current and lang.left_behind(fact, _value(card)):
            return factor  # "movin outta pilsen, got keys in bridgeport": it says both
        if _mentions(card, intent.anchor):
            # "where was i living before pune?": "shifted from andheri ... pune weather"
            # says what came before it (in its turn), a card that only mentions pune does not
            left = all(lang.left_behind(said or fact, word) for word in intent.anchor)
            return factor if left else PAST_CURRENT
        return PAST_CURRENT if current else factor
    start = _int(card.get("valid_from"), _int(card.get("timestamp"), 0))
    end = _int(card.get("valid_to"), None)
    window_start, window_end = intent.start or 0, intent.end or 0
    inside = start < window_end and (end is None or end > window_start)
    if not inside:
        return DURING_OUTSIDE
    return (DURING_INSIDE / SUPERSEDED_FACTOR if superseded else DURING_INSIDE) * factor


#: Asked whether something still holds, the newest of the first hits scoring at least
#: this share of the best one ranks first; asked about the past, the oldest at this
#: share (``first_in_time``). On the life-change dev chats a past share of 0.7, 0.8,
#: 0.85 and 0.9 answered 5 (-2 on dev2), 4, 5 and 2 more questions at the top.
STILL_SHARE = 0.7
PAST_SHARE = 0.8


def raised(hit: Any) -> bool:
    """Whether a claim stating what is asked raised this scored hit (its ``temporal``
    part above 1)."""
    return bool(hit[4].get("temporal", 1.0) > 1.0)


def first_in_time(
    scored: list[Any], said: Callable[[Any], int], *, newest: bool, share: float
) -> list[Any]:
    """The hit said last (or first) among the first three that score within ``share`` of
    the best ranks first, ``said(hit)`` being when its conversation took place: asked "am
    i still prediabetic?", "my a1c came back 5.6, not prediabetic anymore" answers, not
    the older "my doctor says im prediabetic" that shares more words with the question;
    asked "which branch was i at before the promotion?", "im a relationship manager at
    the ikeja branch" said long before, not "wuse 2 branch is big" said since. Hits said
    the same day keep their order: a remark after the news is no newer news.

    ``scored``: tuples (score, card id, passage, relevance, parts), best first. Where a
    claim raised the best hit (its ``temporal`` part above 1: "where did I live before
    Berlin?" is answered by what Berlin replaced), the order stands, or, asked whether it
    still holds, only the hits a claim raised take part.

    >>> said = {"old": 1, "new": 9, "far": 10}
    >>> hits = [(0.9, "old", 0, 0.5, {}), (0.7, "new", 1, 0.4, {}), (0.2, "far", 2, 0.1, {})]
    >>> when = lambda hit: said[hit[1]]
    >>> [hit[1] for hit in first_in_time(hits, when, newest=True, share=0.7)]
    ['new', 'old', 'far']
    >>> hits = [(0.9, "new", 1, 0.4, {}), (0.8, "old", 0, 0.5, {})]
    >>> [hit[1] for hit in first_in_time(hits, when, newest=False, share=0.7)]
    ['old', 'new']
    >>> claimed = [(0.9, "new", 1, 0.4, {"temporal": 2.0}), (0.8, "old", 0, 0.5, {})]
    >>> [hit[1] for hit in first_in_time(claimed, when, newest=False, share=0.7)]
    ['new', 'old']

    Asked whether it still holds, the newest of the claims that answer ranks first:

    >>> claims = [(0.9, "old", 0, 0.4, {"temporal": 2.0}), (0.8, "new", 1, 0.4, {"temporal": 2.0}),
    ...           (0.85, "far", 2, 0.4, {})]
    >>> [hit[1] for hit in first_in_time(claims, when, newest=True, share=0.7)]
    ['new', 'old', 'far']
    """
    if not scored:
        return scored
    claimed = raised(scored[0])
    if claimed and not newest:  # a claim answers already
        return scored
    head = [
        hit for hit in scored[:3] if hit[0] >= share * scored[0][0] and (raised(hit) or not claimed)
    ]
    if len(head) < 2:
        return scored
    first = max(head, key=said) if newest else min(head, key=said)
    return [first, *(hit for hit in scored if hit is not first)]


def corrections_first(
    scored: list[Any],
    said: Callable[[Any], int],
    corrects: Callable[[Any], bool],
    share: float = STILL_SHARE,
) -> list[Any]:
    """A message correcting what was said before ("我上次说错了，是5月15号入职，不是4月15号",
    "eh correction from last time, the condo we sold already, not rent out") ranks above
    what it corrects: among the first three hits within ``share`` of the best, the latest
    correction said no earlier than the best hit goes first.

    >>> said = {"told": 1, "fixed": 2}
    >>> hits = [(0.9, "told", 0, 0.5, {}), (0.8, "fixed", 1, 0.4, {})]
    >>> [h[1] for h in corrections_first(hits, lambda h: said[h[1]], lambda h: h[1] == "fixed")]
    ['fixed', 'told']
    """
    if len(scored) < 2:
        return scored
    head = [hit for hit in scored[1:3] if hit[0] >= share * scored[0][0]]
    fixes = [hit for hit in head if corrects(hit) and said(hit) >= said(scored[0])]
    if not fixes:
        return scored
    first = max(fixes, key=said)
    return [first, *(hit for hit in scored if hit is not first)]


def predecessors_first(
    intent: TemporalIntent, scored: list[Any], fields: Mapping[str, Mapping[str, Any]]
) -> list[Any]:
    """Asked about the past, a superseded card ranks just above the current card that
    replaced it (same claim key, its validity ending where the other's begins): "where
    did I work before Globex?" matches Globex best, and wants what Globex replaced.

    ``scored``: tuples (score, card id, ...), best first; ``fields``: each card's stored
    ``status``, ``claim``, ``valid_from`` / ``timestamp`` and ``valid_to`` by id. Returns
    the tuples re-ranked, a predecessor's score raised just above its successor's.

    Examples:
        >>> acme = {"status": "superseded", "claim": "me|employer", "valid_to": 5}
        >>> globex = {"status": "active", "claim": "me|employer", "valid_from": 5}
        >>> hits = [(0.9, "globex"), (0.3, "acme")]
        >>> [i for _, i in predecessors_first(TemporalIntent("past"), hits,
        ...                                   {"acme": acme, "globex": globex})]
        ['acme', 'globex']
    """
    if intent.kind != "past":
        return scored
    successors: dict[tuple[str, int], float] = {}
    for hit in scored:
        card = fields[hit[1]]
        if card.get("status") == "active" and card.get("claim"):
            since = _int(card.get("valid_from"), _int(card.get("timestamp"), 0)) or 0
            key = (str(card["claim"]), since)
            successors[key] = max(successors.get(key, 0.0), hit[0])
    if not successors:
        return scored
    # The value just before the current one tops its chain ("before Berlin": Austin, not
    # Portland before it), above any older value of the same claim.
    chain: dict[str, float] = {}
    for hit in scored:
        card = fields[hit[1]]
        if card.get("status") == "superseded" and card.get("claim"):
            chain[str(card["claim"])] = max(chain.get(str(card["claim"]), 0.0), hit[0])
    out = []
    for hit in scored:
        card = fields[hit[1]]
        ended = _int(card.get("valid_to"), None)
        if card.get("status") == "superseded" and card.get("claim") and ended is not None:
            after = successors.get((str(card["claim"]), ended))
            if after is not None:
                top = max(after, chain[str(card["claim"])])
                if top >= hit[0]:
                    hit = (top * 1.01, *hit[1:])
        out.append(hit)
    return sorted(out, key=lambda hit: (-hit[0], hit[1]))


def states(card: Mapping[str, object], intent: TemporalIntent) -> bool:
    """Does the card state a value of one of the asked attributes (its stored claim key
    is ``subject|attribute``, its value ``claim_value``) of the user, or of someone the
    question is ``about`` (by the card's person or relationship)? A negated value ("I
    handed in my notice at Deloitte") answers only a yes/no question."""
    subject, _, attribute = str(card.get("claim") or "").partition("|")
    if not attribute or not attribute.startswith(intent.asks):
        return False
    value = _value(card)
    if not intent.yes_no and (value == "no" or value.startswith("not ")):
        return False
    if not intent.about:
        return subject == "me"
    person = str(card.get("person") or "").lower()
    relationship = canonical_relationship(str(card.get("relationship") or ""))
    return subject != "me" and (
        relationship in intent.about or any(n in person.split() for n in intent.about)
    )


def _value(card: Mapping[str, object]) -> str:
    return str(card.get("claim_value") or "")


def _mentions(card: Mapping[str, object], words: tuple[str, ...]) -> bool:
    """Does the card name one of ``words`` (its fact or its person)?"""
    if not words:
        return False
    text = f"{card.get('fact') or ''} {card.get('person') or ''}".lower()
    return any(re.search(rf"\b{re.escape(word)}", text) for word in words)


@overload
def _int(value: object, default: int) -> int: ...
@overload
def _int(value: object, default: None) -> int | None: ...
def _int(value: object, default: int | None) -> int | None:
    return int(value) if isinstance(value, int | float) else default


__all__ = [
    "MAX_WEIGHT",
    "TemporalIntent",
    "predecessors_first",
    "read_intent",
    "states",
    "statuses",
    "weight",
]
