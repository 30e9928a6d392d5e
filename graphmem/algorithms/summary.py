"""Extractive summaries of conversation turns within a token budget (no LLM needed).

A compacted session keeps a running summary: the sentences that carry the most of what
the folded turns talk about. Sentences are scored by the content words they share with
the rest of the text (a word said often is what the conversation is about), with the
user's own sentences and the previous summary weighted up (the user's words are what
memory is for; the previous summary is already a condensation). The best sentences are
taken while the block fits the budget, then put back in conversation order.

Examples:
    >>> lines = [("user", "I am planning a trip to Lisbon in May."),
    ...          ("assistant", "Great! Lisbon is lovely in May."),
    ...          ("user", "Ok."),
    ...          ("user", "My sister Alice will join the Lisbon trip.")]
    >>> print(summarize_lines(lines, budget_tokens=30))
    user: I am planning a trip to Lisbon in May.
    user: My sister Alice will join the Lisbon trip.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.recall.budget import estimate_tokens

#: How much more a sentence the user said counts than one the assistant said.
USER_WEIGHT = 1.5
#: How much more a sentence of the previous summary counts (already a condensation).
PREVIOUS_WEIGHT = 2.0
USER_SPEAKERS = frozenset({"user", "me", "human", "i", "self"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)
_STOP = frozenset(
    """a about after again all also am an and any are as at be because been before being
    but by can could did do does doing done for from had has have having he her here hers
    him his how i if in into is it its just me more most my no not now of off on once only
    or other our out over own same she should so some such than that the their them then
    there these they this those through to too under until up very was we were what when
    where which while who whom why will with would you your yours ok okay yes yeah thanks
    thank sure great good nice lovely hi hello well really like just got get""".split()
)


@dataclass(frozen=True)
class _Sentence:
    order: tuple[int, int]
    speaker: str
    text: str
    weight: float


def sentences(text: str) -> list[str]:
    """Sentences of a turn: split at end punctuation and line breaks.

    >>> sentences("Hi! I moved to Berlin.\\nIt is cold.")
    ['Hi!', 'I moved to Berlin.', 'It is cold.']
    """
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry content (no stop words, no single letters).

    >>> sorted(content_words("My sister Alice is allergic to peanuts"))
    ['alice', 'allergic', 'peanuts', 'sister']
    """
    return {w for w in (m.group().lower() for m in _WORD.finditer(text)) if len(w) > 1} - _STOP


def summarize_lines(
    lines: Sequence[tuple[str, str]],
    budget_tokens: int,
    *,
    previous: str | None = None,
    header: str = "",
) -> str:
    """The most informative sentences of ``lines`` ((speaker, text) pairs, in order),
    as ``speaker: sentence`` lines in conversation order, never over ``budget_tokens``
    (header included, each line costed by ``line_tokens``). ``previous`` (an earlier
    summary's lines, without its header) competes for the room with the new turns,
    weighted up."""
    candidates: list[_Sentence] = []
    if previous:
        kept = [line for line in previous.splitlines() if line.strip()]
        for i, line in enumerate(kept):
            speaker, _, text = line.partition(": ")
            if not text:
                speaker, text = "", line
            candidates.append(_Sentence((-1, i), speaker, text, PREVIOUS_WEIGHT))
    for t, (speaker, text) in enumerate(lines):
        weight = USER_WEIGHT if speaker.lower() in USER_SPEAKERS else 1.0
        for s, sentence in enumerate(sentences(text)):
            candidates.append(_Sentence((t, s), speaker, sentence, weight))
    words = [content_words(c.text) for c in candidates]
    frequency = Counter(w for found in words for w in found)
    scored = []
    for candidate, found in zip(candidates, words, strict=True):
        if not found:
            continue  # small talk carries nothing worth the room
        mass = sum(math.log1p(frequency[w]) for w in found)
        scored.append((candidate.weight * mass / math.sqrt(len(found) + 1), candidate))
    scored.sort(key=lambda pair: (-pair[0], pair[1].order))
    used = line_tokens(header) if header else 0
    chosen: list[_Sentence] = []
    for _, candidate in scored:
        cost = line_tokens(_render(candidate))
        if used + cost <= budget_tokens:
            chosen.append(candidate)
            used += cost
    body = [_render(c) for c in sorted(chosen, key=lambda c: c.order)]
    return "\n".join(([header] if header and body else []) + body)


def line_tokens(line: str) -> int:
    """Tokens of one line of a block, its line break included: lines costed this way
    add up to at least the estimate of the block they make (the estimator rounds up)."""
    return estimate_tokens(line + "\n")


def _render(sentence: _Sentence) -> str:
    return f"{sentence.speaker}: {sentence.text}" if sentence.speaker else sentence.text
