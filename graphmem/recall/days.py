"""Days a question names: "on May 4th", "April 27th", "5月4日", "our first conversation".

People ask their assistant about a day ("On May 4th, where did I plan to go?", "what did
we talk about on May 2nd?", "我们第一次聊天的时候我说了什么？"). A named day narrows
recall to what was said that day: its passages rank above every other day's (even a
question with no other word to match, "what did we talk about on May 2nd?", finds that
day's turns) and among them the question's other words decide (``on_the_day``); a day
on which nothing was said leaves every hit below ``scoring.RELEVANT`` (nothing to
answer with). Without a year, a day is that day of any
year the user's conversations have; the user's own dates decide, never today's.

Plain functions over plain data (dates), no store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache

import numpy as np

from graphmem import lang

#: A passage said on a named day keeps at least this share of the top relevance; its
#: words decide the rest ("on May 14th what did I book for Ella?": the day's booking turn
#: before the day's other turns). Capping day passages at the top instead tied them all,
#: leaving recency and importance to order them: on the English companion chats the top
#: fact held the answer of 3 of 19 day questions.
DAY_FLOOR = 0.6
#: A passage said on another day, asked about a named day: its relevance is scaled by this.
OTHER_DAY = 0.3

_ORD = r"(?:st|nd|rd|th|er|º|°|\.)?"  # "4th", "1er", "3. März"
#: words between a day's number and its month, or its month and year ("15 de marzo", "ika-15
#: ng marso", "le 3 février 2025")
_OF = r"(?:(?:of|de|del|ng)\s+)?"


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Days as written in any language graphmem knows the months of."""
    months = "|".join(sorted(map(re.escape, lang.month_names()), key=len, reverse=True))
    year = rf"(?:,?\s+{_OF}(?P<year>\d{{4}}))?"
    return tuple(
        re.compile(rx, re.IGNORECASE)
        for rx in (
            rf"\b(?P<month>{months})\.?\s+(?P<day>\d{{1,2}}){_ORD}(?!\w){year}",
            rf"\b(?P<day>\d{{1,2}}){_ORD}\s+{_OF}(?P<month>{months})(?!\w){year}",
            r"\b(?P<year>\d{4})-(?P<mm>\d{1,2})-(?P<day>\d{1,2})\b",
            r"(?:(?P<year>\d{4})\s*年\s*)?(?P<mm>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*[日号號]",
        )
    )


#: The first or the last conversation, named instead of a date (data, any language).
_FIRST = re.compile(
    r"\b(?:our|the|my)\s+(?:very\s+)?first\s+(?:conversation|convo|chat|talk|session)\b"
    r"|\bfirst\s+time\s+(?:we|i)\s+(?:talked|chatted|spoke)\b|第一次(?:聊天|聊|对话|對話|说话|說話)"
    r"|\bprimer[ao]\s+(?:conversaci[oó]n|conversa|charla|plática|vez\s+que\s+(?:\w+\s+)?"
    r"(?:hablamos|conversamos|falamos))\b"
    r"|\bpremi[eè]re\s+(?:conversation|discussion|fois\s+qu['’]on\s+a\s+(?:parl|discut)é)"
    r"|\berst(?:es|en)\s+(?:gespräch|chat|mal)\b"
    r"|\bpehli\s+(?:baat\s*cheet|baatcheet|baat|conversation|convo|chat)\b",
    re.IGNORECASE,
)
_LAST = re.compile(
    r"\b(?:our|the|my)\s+(?:last|latest|most recent|previous)\s+"
    r"(?:conversation|convo|chat|talk|session)\b"
    r"|\blast\s+time\s+(?:we|i)\s+(?:talked|chatted|spoke)\b|上次(?:聊天|聊|对话|對話)|最后一次聊",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NamedDays:
    """The days a question names (``days``: those of them the user said anything on) and
    the words that named them."""

    cue: str
    days: frozenset[date]
    #: named by their order ("our first conversation"), not by a date
    in_order: bool = False


def day_of(ms: int) -> date:
    """The (UTC) day of an epoch-ms time."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date()


def names_a_day(query: str) -> bool:
    """Does ``query`` name a day at all? (Cheap: recall asks before it gathers the
    user's days.)

    >>> names_a_day("what did we talk about on May 2nd?"), names_a_day("where do I live?")
    (True, False)
    """
    return any(p.search(query) for p in (_FIRST, _LAST, *_patterns()))


def named_days(query: str, said_on: Iterable[date]) -> NamedDays | None:
    """The days ``query`` names, among the days the user said something on (``said_on``);
    None when it names no day. A named day nothing was said on gives an empty set.

    Examples:
        >>> days = [date(2023, 5, 1), date(2023, 5, 4), date(2023, 5, 9)]
        >>> named_days("On May 4th, where did I plan to go?", days)
        NamedDays(cue='May 4th', days=frozenset({datetime.date(2023, 5, 4)}), in_order=False)
        >>> named_days("what did we talk about on 2 May?", days).days
        frozenset()
        >>> first = named_days("What did I tell you in our first conversation?", days)
        >>> sorted(first.days), first.in_order
        ([datetime.date(2023, 5, 1)], True)
        >>> named_days("5月9日那天我打算去哪里？", days).days
        frozenset({datetime.date(2023, 5, 9)})
        >>> named_days("el 4 de mayo a dónde dije que iba?", days).days
        frozenset({datetime.date(2023, 5, 4)})
        >>> named_days("o que eu te contei no dia 9 de maio", days).cue
        '9 de maio'
        >>> sorted(named_days("je t'ai dit quoi lors de notre première conversation ?", days).days)
        [datetime.date(2023, 5, 1)]
        >>> named_days("Where do I live now?", days) is None
        True
    """
    said = sorted(set(said_on))
    if m := _FIRST.search(query):
        return NamedDays(m[0], frozenset(said[:1]), in_order=True)
    if m := _LAST.search(query):
        return NamedDays(m[0], frozenset(said[-1:]), in_order=True)
    for pattern in _patterns():
        m = pattern.search(query)
        if m is None:
            continue
        groups = m.groupdict()
        month = (
            int(groups["mm"]) if groups.get("mm") else lang.month_names()[groups["month"].lower()]
        )
        day, year = int(groups["day"]), groups.get("year")
        if not (1 <= month <= 12 and 1 <= day <= 31):
            continue
        found = {
            d
            for d in said
            if (d.month, d.day) == (month, day) and (not year or d.year == int(year))
        }
        return NamedDays(m[0].strip(), frozenset(found))
    return None


#: Asked about a named day, how much a turn's place in its session adds to its relevance
#: (``OPENING / (1 + turn)``): what the user opened the day with is what they came to
#: tell ("on june 13th what big news did i tell you?"). On the English companion chats
#: 0.1, 0.2 and 0.4 put the answer in the top 5 facts for 84.1 % of questions (81.3 %
#: without), 0.2 and 0.4 lifted the Chinese ones 94.3 -> 95.7 %.
OPENING = 0.2


#: Asked about a named day and about something else ("on march 30th what did i say my
#: a1c was"), the opening turn gains this share of ``OPENING``: the words decide.
ASKED_SOMETHING = 0.25
#: Words that ask what was said on a day, not what about: "what did i tell you on march
#: 15", "what happened on may 24th", "was hab ich am 4. mai erzählt" (data, any language).
ABOUT_THE_DAY = frozenset(
    """tell told telling say said saying talk talked talking chat chatted chatting speak
    spoke happen happened happening news update updates discuss discussed mention
    mentioned share shared write wrote ask asked conversation day days first last big
    u ya ur hab convo back again bout
    worried worry worrying stressed stressing stress upset complain complaining
    complainin whinge whinging whingin moan moaning moanin
    erzählt erzählen gesagt passiert geredet gesprochen
    dije dijiste conté contaste pasó hablamos dicho
    dit raconté parlé passé
    falei contei disse aconteceu conversamos
    bataya batayi bola boli baat hua hui cheet pareshan
    sinabi kinuwento kwento nangyari usapan
    cerita bilang ngomong""".split()
)
_WORDS = re.compile(r"[^\W\d_]+")


def asks_only_the_day(query: str) -> bool:
    """Does a question naming a day ask only what was said then, no other word to match?
    Chinese, written without spaces, is read so (its openings count in full).

    >>> asks_only_the_day("what did i tell u on march 15"), asks_only_the_day(
    ...     "on march 30th what did i say my a1c was")
    (True, False)
    >>> asks_only_the_day("was hab ich am 4. mai erzählt"), asks_only_the_day("5月4日我说了什么")
    (True, True)

    What the user was worried about, complaining of or upset by is what was said then:

    >>> asks_only_the_day("what was i whingin about in our first convo")
    True
    >>> asks_only_the_day("what was i complainin bout in our first chat")
    True
    >>> asks_only_the_day("hamari pehli baat cheet mein main kis baat pe pareshan tha")
    True
    """
    if lang.script_without_spaces(query):
        return True
    rest = query
    for pattern in (*_patterns(), _FIRST, _LAST):
        rest = pattern.sub(" ", rest)
    stop = _stop_words()
    words = [w for w in _WORDS.findall(rest.lower()) if w not in stop and w not in ABOUT_THE_DAY]
    return not words


@cache
def _stop_words() -> frozenset[str]:
    """Every language's function and stop words, the months' names among them."""
    words: set[str] = set(lang.month_names())
    for known in lang.languages():
        words |= known.stop_words | known.function_words
    return frozenset(w.lower() for w in words)


def openings_first(
    relevance: np.ndarray, on_day: np.ndarray, turns: np.ndarray, opening: float = OPENING
) -> np.ndarray:
    """The named day's passages with ``opening / (1 + turn)`` added: a question about a
    day whose words match no turn better than another ("what did we talk about on
    march 16th?") reads the day from its start.

    >>> openings_first(np.array([0.5, 0.5, 0.5]), np.array([True, True, False]),
    ...                np.array([0, 3, 0])).tolist()
    [0.7, 0.55, 0.5]
    """
    return relevance + np.where(on_day, opening / (1.0 + turns), 0.0)


def on_the_day(relevance: np.ndarray, on_day: np.ndarray, top: float) -> np.ndarray:
    """Relevance asked about a named day: the day's passages between ``DAY_FLOOR * top``
    and ``top`` by their own relevance, every other passage scaled by ``OTHER_DAY``.

    >>> on_the_day(np.array([0.0, 0.65, 1.3, 1.3]), np.array([True, True, True, False]), 1.3)
    array([0.78, 1.04, 1.3 , 0.39])
    """
    own = np.minimum(relevance, top) / top
    return np.where(on_day, top * (DAY_FLOOR + (1 - DAY_FLOOR) * own), relevance * OTHER_DAY)
