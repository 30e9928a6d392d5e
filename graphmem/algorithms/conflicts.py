"""Conflict detection: which cards about the same person contradict each other.

Pipeline: ``attribute_of`` reads an (attribute, value) pair out of a fact with a few
documented patterns; ``candidate_pairs`` proposes pairs *within one person's cards*
(vector neighbours plus cards sharing an attribute, a bounded window each, never all
pairs); ``resolve`` turns the pairs into decisions; ``detect_conflicts`` does all three.

Decisions (``Memory`` writes them back):

- ``Supersede(newer, older)``: ``(newer)-[:SUPERSEDES]->(older)``, older -> superseded.
- ``Conflict(a, b, needs_revision)``: ``(a)-[:CONFLICTS_WITH {reason}]->(b)`` and
  ``needs_revision`` set on the listed cards.

Rules for two cards with the same person and the same attribute but different values:

- said within ``same_time_ms`` of each other (default one hour, one conversation): a
  true contradiction, ``Conflict`` and both need revision;
- the older card is more confident by at least ``confidence_margin`` (default 0.3):
  the older one stands, ``Conflict`` with only the newer one needing revision;
- otherwise the newer card supersedes the older one.

Multi-valued attributes (allergies) accumulate: they only conflict with their own
negation ("allergic to peanuts" / "not allergic to peanuts"). Same value = duplicate,
never a conflict. An optional chat model (``adjudicate_with_llm``) can judge pairs the
patterns cannot read; it falls back to the rule decision on any failure.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tenacity import Retrying, stop_after_attempt, wait_none

from graphmem.algorithms.cardview import CardLike, is_active, normalise_rows
from graphmem.algorithms.clustering import top_k_neighbours
from graphmem.timeutil import to_iso

HOUR_MS = 3_600_000

#: Attributes a person has one value of at a time. ``likes:``/``eats:``/``drinks:``
#: keys (one per object, value "yes"/"no") are single-valued as well.
SINGLE_VALUED = frozenset(
    {
        "location",
        "employer",
        "job",
        "partner",
        "birthday",
        "diet",
        "age",
        "smokes",
        "car",
    }
)
#: Attributes that accumulate (several values are fine); only a negation conflicts.
MULTI_VALUED = frozenset({"allergy"})
_POLAR_PREFIXES = ("likes:", "eats:", "drinks:")

# -- attribute extraction ---------------------------------------------------------------

_STOP_WORDS = (
    "since|from|until|till|because|but|and|or|now|anymore|any more|these days|nowadays|"
    "for|at|with|in|last|this|next|ago|recently|again|when|where|who|which|though|as of|"
    "after|before|every|each|so|very|too|a lot"
)
# A value runs up to punctuation, the end, or a word that starts a qualifier clause.
_VAL = (
    r"(?P<value>[^,.;:!?()\[\]\"]+?)"
    rf"(?=\s*(?:[,.;:!?()\[\]\"]|$)|\s+(?:{_STOP_WORDS})\b)"
)
_DATE_VAL = r"(?P<value>[a-z0-9][a-z0-9 ,/-]*?)(?=\s*(?:[.;!?()]|$))"
_BE = r"(?:is|am|are|'m|'s|was)"
_INLINE_NEG = r"(?:(?P<neg>not|no longer|never)\s+)?"

#: Job head nouns for "X is a <job>" (the last word of the value must be one of these;
#: "works as a X" takes any X).
_JOB_TEXT = """
    accountant actor actress analyst architect artist assistant attorney baker barista
    bartender carpenter cashier ceo cfo chef chemist cleaner clerk coach consultant cook
    cto dentist designer developer director doctor driver economist editor electrician
    engineer entrepreneur farmer firefighter freelancer gardener hairdresser historian
    journalist judge lawyer lecturer librarian manager mechanic musician nurse officer
    painter paramedic pharmacist photographer physician physicist pilot plumber
    policeman policewoman professor programmer psychologist receptionist researcher
    salesman saleswoman scientist secretary singer surgeon teacher technician therapist
    translator tutor vet veterinarian waiter waitress writer student intern founder
"""
JOB_WORDS = frozenset(_JOB_TEXT.split())

_DIETS = "vegetarian|vegan|pescatarian|pescetarian|carnivore|keto|gluten-free|omnivore"


@dataclass(frozen=True)
class _Rule:
    attribute: str  # "likes:" style prefixes take the object into the key
    pattern: re.Pattern[str]
    possessive_ok: bool = False  # "Alice's favourite..." is about Alice herself
    polarity: str | None = None  # for polar keys: "yes" or "no" before negation


def _rule(attribute: str, pattern: str, **kw: Any) -> _Rule:
    return _Rule(attribute, re.compile(pattern), **kw)


#: Checked in order; the first rule that matches wins. Each row: attribute, pattern.
RULES: tuple[_Rule, ...] = (
    _rule(
        "favourite",
        rf"\bfavou?rite\s+(?P<thing>[a-z][a-z ]*?)\s+(?:is|are|was)\s+{_VAL}",
        possessive_ok=True,
    ),
    _rule("birthday", rf"\bbirthday\s+is\s+(?:on\s+)?{_DATE_VAL}", possessive_ok=True),
    _rule("birthday", rf"\bborn\s+on\s+{_DATE_VAL}"),
    _rule("allergy", rf"\ballergic\s+to\s+{_VAL}"),
    _rule(
        "partner",
        rf"\b(?:married\s+to|engaged\s+to|dating|in\s+a\s+relationship\s+with|"
        rf"married)\s+{_VAL}",
    ),
    _rule("location", rf"\b(?:lives?|living|resides?|residing)\s+in\s+{_VAL}"),
    _rule(
        "location",
        rf"\b(?:moved|moves|moving|relocated|relocating)\s+"
        rf"(?:from\s+.+?\s+)?(?:back\s+)?to\s+{_VAL}",
    ),
    _rule("location", rf"\bbased\s+in\s+{_VAL}"),
    _rule("employer", rf"\b(?:works?|working)\s+(?:at|for)\s+{_VAL}"),
    _rule("employer", rf"\b(?:employed\s+(?:by|at)|joined|(?:job|position|role)\s+at)\s+{_VAL}"),
    _rule("job", rf"\b(?:works?|working)\s+as\s+(?:an?\s+)?{_VAL}"),
    _rule(
        "diet",
        rf"\b(?:{_BE}|became|become)\s+{_INLINE_NEG}(?:an?\s+|strictly\s+|fully\s+)?"
        rf"(?P<value>{_DIETS})\b",
    ),
    _rule("diet", r"\b(?:follows?|on)\s+an?\s+(?P<value>[a-z-]+)\s+diet\b"),
    _rule("job", rf"\b(?:{_BE}|became)\s+{_INLINE_NEG}(?:now\s+)?an?\s+{_VAL}"),
    _rule("age", r"\b(?P<value>\d{1,3})\s+years?\s+old\b"),
    _rule("age", r"\bturned\s+(?P<value>\d{1,3})\b"),
    _rule(
        "likes:",
        rf"\b(?:hates?|hated|dislikes?|detests?|loathes?|can't\s+stand|"
        rf"cannot\s+stand)\s+{_VAL}",
        polarity="no",
    ),
    _rule(
        "likes:",
        rf"\b(?:likes?|loves?|enjoys?|adores?|prefers?|is\s+into|is\s+fond\s+of|"
        rf"is\s+a\s+fan\s+of)\s+{_VAL}",
        polarity="yes",
    ),
    _rule("eats:", rf"\b(?:eats?|eating)\s+{_VAL}", polarity="yes"),
    _rule("drinks:", rf"\b(?:drinks?|drinking)\s+{_VAL}", polarity="yes"),
    _rule("smokes", r"\b(?P<value>smokes|smoke|smoking|smoker)\b", polarity="yes"),
    _rule("car", rf"\bdrives?\s+an?\s+{_VAL}"),
)

# Negation in the few words before the verb: "doesn't (really) like", "no longer lives".
_NEG_BEFORE = re.compile(
    r"(?:\bno\s+longer|\bnot|n't|\bnever|\bstopped|\bquit|\bused\s+to|\bno\s+more)"
    r"\s+(?:\w+\s+){0,2}$"
)
# "would like to", "looks like": not a preference.
_LIKE_NOT_PREFERENCE = re.compile(
    r"(?:\bwould|'d|\blooks?|\blooked|\bseems?|\bsounds?|\bfeels?|\bfelt|\bjust|\bmuch)\s+$"
)
# "Alice's brother lives in Rome" is not about Alice (pronouns like "she's" are fine).
_OTHER_POSSESSOR = re.compile(r"\b(?!(?:he|she|it|that|who|there|what|where|here)'s\b)\w+'s\s+\w+")
_LEADING = re.compile(r"^(?:the|a|an|my|his|her|their|our|some|to)\s+")


def _norm_value(value: str) -> str:
    value = re.sub(r"\s+", " ", value.strip().lower())
    previous = None
    while previous != value:
        previous, value = value, _LEADING.sub("", value)
    return value.strip(" '\"-")


_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_RE = re.compile(r"\b(" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?\b")


def _norm_date(value: str) -> str:
    """A birthday is a day of the year: "March 3, 1990" and "3 march" -> "march 3"."""
    iso = re.search(r"\b\d{4}-(\d{1,2})-(\d{1,2})\b", value)
    if iso and 1 <= int(iso.group(1)) <= 12 and 1 <= int(iso.group(2)) <= 31:
        return f"{_MONTHS[int(iso.group(1)) - 1]} {int(iso.group(2))}"
    month = _MONTH_RE.search(value)
    day = re.search(r"\b([0-3]?\d)(?:st|nd|rd|th)?\b(?!\d)", value)
    if month is None or day is None or not 1 <= int(day.group(1)) <= 31:
        return value
    full = next(m for m in _MONTHS if m.startswith(month.group(1)))
    return f"{full} {int(day.group(1))}"


@lru_cache(maxsize=65_536)
def attribute_of(fact: str) -> tuple[str, str] | None:
    """Read ``(attribute, value)`` from a fact, or None when no pattern fits.

    Values are lower-cased without leading articles; a negated single value reads
    ``"not <value>"``; preferences read ``("likes:<object>", "yes" | "no")``.

    Examples:
        >>> attribute_of("Alice moved to Berlin in 2024")
        ('location', 'berlin')
        >>> attribute_of("Bob doesn't like spicy food")
        ('likes:spicy food', 'no')
        >>> attribute_of("Her favourite colour is green.")
        ('favourite colour', 'green')
        >>> attribute_of("Alice's brother lives in Rome") is None
        True
    """
    text = fact.replace("\u2019", "'").lower().strip()
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            prefix = text[: match.start()]
            if not rule.possessive_ok and _OTHER_POSSESSOR.search(prefix):
                continue
            if rule.attribute == "likes:" and _LIKE_NOT_PREFERENCE.search(prefix):
                continue
            if rule.attribute == "job" and "as" not in match.group(0).split()[:2]:
                words = match.group("value").split()
                if not words or words[-1] not in JOB_WORDS:
                    continue
            negated = bool(match.groupdict().get("neg")) or bool(_NEG_BEFORE.search(prefix))
            raw = match.group("value")
            value = _norm_value(raw)
            if not value:
                continue
            attribute = rule.attribute
            if attribute == "birthday":
                value = _norm_date(value)
            if attribute == "favourite":
                attribute = f"favourite {_norm_value(match.group('thing'))}"
            if rule.polarity is not None:
                yes = (rule.polarity == "yes") != negated
                if attribute.endswith(":"):
                    return f"{attribute}{value}", "yes" if yes else "no"
                return attribute, "yes" if yes else "no"
            return attribute, f"not {value}" if negated else value
    return None


def is_single_valued(attribute: str) -> bool:
    """True when a person holds one value of ``attribute`` at a time."""
    return (
        attribute in SINGLE_VALUED
        or attribute.startswith("favourite ")
        or attribute.startswith(_POLAR_PREFIXES)
    )


def _values_conflict(attribute: str, a: str, b: str) -> bool:
    if a == b:
        return False
    if is_single_valued(attribute):
        return True
    return a == f"not {b}" or b == f"not {a}"


# -- decisions ---------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class CandidatePair:
    """Two cards of the same person worth comparing (``a < b``)."""

    a: str
    b: str
    similarity: float | None = None


@dataclass(frozen=True)
class Supersede:
    """``newer`` replaces ``older``: write SUPERSEDES, mark ``older`` superseded."""

    newer: str
    older: str
    attribute: str
    reason: str
    kind: str = "supersede"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.newer, self.older)


@dataclass(frozen=True)
class Conflict:
    """``a`` and ``b`` contradict: write CONFLICTS_WITH, flag ``needs_revision`` cards."""

    a: str
    b: str
    attribute: str
    needs_revision: tuple[str, ...]
    reason: str
    kind: str = "conflict"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.a, self.b)


Decision = Supersede | Conflict


def _person_key(card: CardLike) -> str:
    return str(card.person).strip().lower()


def _day(ms: int) -> str:
    return (to_iso(ms) or "?")[:10]


def knn_within_person(
    cards: Sequence[CardLike],
    embeddings: Any,
    *,
    k: int = 10,
    min_similarity: float = 0.3,
    chunk_rows: int = 1024,
) -> dict[str, list[tuple[str, float]]]:
    """Top-``k`` cosine neighbours of each card among the *same person's* cards.

    ``embeddings[i]`` belongs to ``cards[i]``. Work is per person group and chunked, so
    the cost is the sum of squared group sizes, never the whole user squared.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> cards = [CardView("a", person="Al"), CardView("b", person="Al"),
        ...          CardView("c", person="Bo")]
        >>> knn_within_person(cards, [[1, 0], [0.8, 0.6], [1, 0]], k=2)
        {'a': [('b', 0.8)], 'b': [('a', 0.8)], 'c': []}
    """
    matrix = normalise_rows(embeddings)
    if len(matrix) != len(cards):
        raise ValueError(f"{len(cards)} cards but {len(matrix)} embedding rows")
    groups: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(cards):
        groups[_person_key(card)].append(i)
    result: dict[str, list[tuple[str, float]]] = {}
    for members in groups.values():
        rows = top_k_neighbours(
            matrix[members], k=k, min_similarity=min_similarity, chunk_rows=chunk_rows
        )
        for local, neighbours in enumerate(rows):
            result[str(cards[members[local]].id)] = [
                (str(cards[members[j]].id), round(sim, 4)) for j, sim in neighbours
            ]
    return result


def candidate_pairs(
    cards: Sequence[CardLike],
    neighbours: Mapping[str, Iterable[tuple[str, float]]] | None = None,
    *,
    window: int = 5,
) -> list[CandidatePair]:
    """Pairs of active cards about the same person that may contradict, sorted.

    Two sources, both bounded: each card's vector ``neighbours`` (ids with cosine, e.g.
    from ``knn_within_person`` or the vector index), and, within a person's cards that
    share an attribute (see ``attribute_of``), each card with the ``window`` cards just
    before it in time.
    """
    by_id = {str(c.id): c for c in cards if is_active(c)}
    sims: dict[tuple[str, str], float | None] = {}
    for cid, near in (neighbours or {}).items():
        if cid not in by_id:
            continue
        for raw_id, sim in near:
            nid = str(raw_id)
            if nid == cid or nid not in by_id:
                continue
            if _person_key(by_id[cid]) != _person_key(by_id[nid]):
                continue
            key = (min(cid, nid), max(cid, nid))
            old = sims.get(key)
            sims[key] = float(sim) if old is None else max(old, float(sim))
    buckets: dict[tuple[str, str], list[CardLike]] = defaultdict(list)
    for card in by_id.values():
        found = attribute_of(card.fact)
        if found is not None:
            buckets[(_person_key(card), found[0])].append(card)
    for bucket in buckets.values():
        bucket.sort(key=lambda c: (c.timestamp, str(c.id)))
        for i, card in enumerate(bucket):
            for other in bucket[max(0, i - window) : i]:
                key = (min(str(card.id), str(other.id)), max(str(card.id), str(other.id)))
                sims.setdefault(key, None)
    return sorted(CandidatePair(a, b, s) for (a, b), s in sims.items())


def _rule_decision(
    one: CardLike,
    two: CardLike,
    *,
    similarity: float | None,
    same_time_ms: int,
    confidence_margin: float,
) -> Decision | None:
    if _person_key(one) != _person_key(two):
        return None
    read_one, read_two = attribute_of(one.fact), attribute_of(two.fact)
    if read_one is None or read_two is None or read_one[0] != read_two[0]:
        return None
    attribute = read_one[0]
    if not _values_conflict(attribute, read_one[1], read_two[1]):
        return None
    (older, old_val), (newer, new_val) = sorted(
        [(one, read_one[1]), (two, read_two[1])], key=lambda p: (p[0].timestamp, str(p[0].id))
    )
    old_id, new_id = str(older.id), str(newer.id)
    sim = f"; similarity {similarity:.2f}" if similarity is not None else ""
    what = (
        f"{attribute} of {older.person}: {old_val!r} ({_day(older.timestamp)}) vs "
        f"{new_val!r} ({_day(newer.timestamp)}){sim}"
    )
    gap = newer.timestamp - older.timestamp
    if gap <= same_time_ms:
        a, b = sorted((old_id, new_id))
        return Conflict(
            a,
            b,
            attribute,
            (a, b),
            f"contradiction at the same time ({gap // 60_000} min apart): {what}",
        )
    if older.confidence - newer.confidence >= confidence_margin:
        return Conflict(
            new_id,
            old_id,
            attribute,
            (new_id,),
            f"newer card is less confident ({newer.confidence:.2f} vs "
            f"{older.confidence:.2f}), older value kept: {what}",
        )
    return Supersede(new_id, old_id, attribute, f"newer value replaces older: {what}")


def resolve(
    pairs: Iterable[CandidatePair],
    cards: Sequence[CardLike],
    *,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
) -> list[Decision]:
    """Decide each candidate pair by the rules in the module docstring; sorted.

    When several newer cards supersede the same older card, only the earliest (its
    direct successor) is kept, so a chain Paris -> Berlin -> Rome stays a chain.
    """
    by_id = {str(c.id): c for c in cards}
    found: list[Decision] = []
    for pair in pairs:
        one, two = by_id.get(pair.a), by_id.get(pair.b)
        if one is None or two is None:
            continue
        decision = _rule_decision(
            one,
            two,
            similarity=pair.similarity,
            same_time_ms=same_time_ms,
            confidence_margin=confidence_margin,
        )
        if decision is not None:
            found.append(decision)
    return _direct_successors(found, by_id)


def _direct_successors(found: list[Decision], by_id: Mapping[str, CardLike]) -> list[Decision]:
    best: dict[str, Supersede] = {}
    others: dict[tuple[str, str, str], Decision] = {}
    for d in found:
        if isinstance(d, Supersede):
            current = best.get(d.older)
            rank = (by_id[d.newer].timestamp, d.newer)
            if current is None or rank < (by_id[current.newer].timestamp, current.newer):
                best[d.older] = d
        else:
            others[d.key] = d
    return sorted([*best.values(), *others.values()], key=lambda d: d.key)


def detect_conflicts(
    cards: Sequence[CardLike],
    embeddings: Any = None,
    *,
    k: int = 10,
    min_similarity: float = 0.3,
    window: int = 5,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
    chat_model: Any = None,
    llm_min_similarity: float = 0.75,
    llm_max_pairs: int = 20,
) -> list[Decision]:
    """Candidates (``knn_within_person`` when embeddings are given) + ``resolve``.

    With a ``chat_model``, up to ``llm_max_pairs`` close pairs (cosine >=
    ``llm_min_similarity``) that the patterns cannot read are judged by
    ``adjudicate_with_llm``.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> cards = [CardView("p", "Alice lives in Paris", "Alice", timestamp=1672531200000),
        ...          CardView("b", "Alice moved to Berlin", "Alice", timestamp=1704067200000)]
        >>> [(d.kind, d.newer, d.older) for d in detect_conflicts(cards)]
        [('supersede', 'b', 'p')]
    """
    active = [c for c in cards if is_active(c)]
    neighbours = None
    if embeddings is not None:
        matrix = normalise_rows(embeddings)
        if len(matrix) != len(cards):
            raise ValueError(f"{len(cards)} cards but {len(matrix)} embedding rows")
        keep = [i for i, c in enumerate(cards) if is_active(c)]
        neighbours = knn_within_person(active, matrix[keep], k=k, min_similarity=min_similarity)
    pairs = candidate_pairs(active, neighbours, window=window)
    decisions = resolve(
        pairs, active, same_time_ms=same_time_ms, confidence_margin=confidence_margin
    )
    if chat_model is not None:
        by_id = {str(c.id): c for c in active}
        unread = [
            p
            for p in pairs
            if p.similarity is not None
            and p.similarity >= llm_min_similarity
            and (attribute_of(by_id[p.a].fact) is None or attribute_of(by_id[p.b].fact) is None)
        ]
        unread.sort(key=lambda p: (-(p.similarity or 0.0), p.a, p.b))
        for pair in unread[:llm_max_pairs]:
            decision = adjudicate_with_llm(
                (by_id[pair.a], by_id[pair.b]),
                chat_model,
                similarity=pair.similarity,
                same_time_ms=same_time_ms,
                confidence_margin=confidence_margin,
            )
            if decision is not None:
                decisions.append(decision)
        decisions = _direct_successors(decisions, by_id)
    return decisions


# -- optional LLM adjudication -----------------------------------------------------------

_LLM_INSTRUCTIONS = """You check a personal memory store for contradictions.
Two memories about the same person are given with the date each was recorded.
Answer with one JSON object and nothing else:
{"verdict": "update" | "contradiction" | "compatible", "current": "A" | "B", "reason": "..."}
- "update": one memory replaces the other (the situation changed); "current" names the
  memory that is true now.
- "contradiction": both cannot be true and it is unclear which one is right.
- "compatible": both can be true (or they say the same thing)."""


def _llm_prompt(a: CardLike, b: CardLike) -> str:
    return (
        f"Person: {a.person}\nA ({_day(a.timestamp)}): {a.fact}\nB ({_day(b.timestamp)}): {b.fact}"
    )


def _parse_verdict(text: str) -> dict[str, str]:
    match = re.search(r"\{.*\}", text, flags=re.DOTALL)
    if match is None:
        raise ValueError("no JSON object in the reply")
    data = json.loads(match.group(0))
    verdict = str(data.get("verdict", "")).strip().lower()
    if verdict not in {"update", "contradiction", "compatible"}:
        raise ValueError(f"unknown verdict {verdict!r}")
    current = str(data.get("current", "")).strip().upper()
    return {
        "verdict": verdict,
        "current": current,
        "reason": str(data.get("reason", "")).strip()[:300],
    }


def _reply_text(reply: Any) -> str:
    content = getattr(reply, "content", reply)
    if isinstance(content, list):  # content blocks
        return "".join(
            part.get("text", "") if isinstance(part, dict) else str(part) for part in content
        )
    return str(content)


def adjudicate_with_llm(
    pair: tuple[CardLike, CardLike],
    chat_model: Any,
    *,
    similarity: float | None = None,
    attempts: int = 2,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
) -> Decision | None:
    """Ask a langchain-core chat model whether two cards contradict.

    The reply must be a JSON object (see ``_LLM_INSTRUCTIONS``); it is asked up to
    ``attempts`` times. On any failure (model error, garbage reply) the rule decision
    is returned with the failure named in its reason (None when the rules see nothing).
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    one, two = sorted(pair, key=lambda c: (c.timestamp, str(c.id)))
    rule = _rule_decision(
        one,
        two,
        similarity=similarity,
        same_time_ms=same_time_ms,
        confidence_margin=confidence_margin,
    )
    messages = [SystemMessage(_LLM_INSTRUCTIONS), HumanMessage(_llm_prompt(one, two))]
    try:
        for attempt in Retrying(
            stop=stop_after_attempt(max(1, attempts)), wait=wait_none(), reraise=True
        ):
            with attempt:
                verdict = _parse_verdict(_reply_text(chat_model.invoke(messages)))
    except Exception as exc:
        if rule is None:
            return None
        note = f" (LLM adjudication failed: {type(exc).__name__}: {exc}; rule decision kept)"
        return _with_reason(rule, rule.reason + note)
    attribute = rule.attribute if rule is not None else "llm"
    sim = f"; similarity {similarity:.2f}" if similarity is not None else ""
    said = f"LLM: {verdict['reason'] or verdict['verdict']}{sim}"
    if verdict["verdict"] == "compatible":
        return None
    if verdict["verdict"] == "contradiction":
        a, b = sorted((str(one.id), str(two.id)))
        return Conflict(a, b, attribute, (a, b), f"contradiction per {said}")
    current, old = (one, two) if verdict["current"] == "A" else (two, one)
    return Supersede(str(current.id), str(old.id), attribute, f"update per {said}")


def _with_reason(decision: Decision, reason: str) -> Decision:
    if isinstance(decision, Supersede):
        return Supersede(decision.newer, decision.older, decision.attribute, reason)
    return Conflict(decision.a, decision.b, decision.attribute, decision.needs_revision, reason)


__all__ = [
    "JOB_WORDS",
    "MULTI_VALUED",
    "RULES",
    "SINGLE_VALUED",
    "CandidatePair",
    "Conflict",
    "Decision",
    "Supersede",
    "adjudicate_with_llm",
    "attribute_of",
    "candidate_pairs",
    "detect_conflicts",
    "is_single_valued",
    "knn_within_person",
    "resolve",
]
