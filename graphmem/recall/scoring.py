"""How recall scores passages and cards: plain functions over plain data.

1. **Relevance of a passage** (``fuse``): a convex combination of its lexical and dense
   relevance, each scaled to [0, 1] within the query's candidates,
   ``LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * dense``; then
   ``NEIGHBOUR_SHARE`` of the better of its two neighbouring turns' relevance is added (a
   question often matches the turn that asks and is answered by the next one); then the
   people the question is about (``boost``).

   - lexical: BM25 over the passage's key, divided by the best candidate's BM25, or by
     ``LEXICAL_SCALE`` of what a passage holding every query word would score, whichever is
     larger: a passage matching only the name in "What's Hana's favourite dish?" is not a
     full lexical match just because nothing matches better.
   - dense: the cosine of the passage's best card over the best candidate's cosine.

   Why a convex combination and not rank fusion: on LoCoMo's dev conversations, rank
   fusion of BM25 and cosine (R@10 55.1) does not beat BM25 alone (58.2), while a convex
   combination of the normalised scores does (63.2; 71 with stemming): ranks throw away
   how far ahead the best match is.
2. **Worth of a card** (``final_score``): the passage's relevance mixed with what the card
   is worth right now::

       final = relevance * (W_REL + W_RECENCY * recency + W_IMPORTANCE * importance
                            + W_CONFIDENCE * confidence + W_REWARD * reward)

   with ``recency = 0.5 ** (age_days / HALF_LIFE_DAYS)`` and reward in [-1, 1].
   Multiplying keeps an irrelevant but important card from floating to the top;
   superseded cards (shown only on request) are halved.
3. **Calibrated relevance** (``calibrated``): what a hit reports as ``relevance`` and
   ``min_relevance`` compares with. The ranking above scales within one query (the best
   candidate always scores 1), so it cannot say "nothing here is relevant". Calibrated
   relevance uses absolute scales instead: the share of the query's words (weighted by
   idf, each once: ``BM25.coverage``) the passage holds, and the cosine between
   ``COS_UNRELATED`` and ``COS_SAME``; comparable across queries and users. A passage
   holding no word of what the question asks beyond who it is about ("what's Barb's
   favourite flower?": not "Barb", but "favourite", "flower"), nor its neighbouring turns,
   keeps ``OFF_FOCUS`` of it: the name alone carries the cosine of every passage about
   Barb. On the companion dev chats (English and Chinese, 34 questions about things never
   said) this takes the best hits at 0.2 or more from 47% to 32%, while the answerable
   questions whose best hit falls under 0.2 go from 9.6% to 11.3%. The word must be said
   in the turn, not only added by its key (who its people are to the user: "grace" ->
   "wife" is the user's wife, not the "Luis's wife" asked), and a question about someone
   must find the turn or a neighbour naming them. An assistant's passage keeps ``ECHO``
   of it unless the question asks what the assistant said, as it ranks. Unanswerable
   questions with a hit at 0.2 or more (k=20): companion-en 40 -> 25%, companion-zh
   50 -> 36%, life-changes dev2 100 -> 80%, dev3 71 -> 57%, dev4 89% (unchanged); the
   answerable questions whose evidence hit falls under 0.2 unchanged on every set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: Lexical share of a passage's relevance. BM25 carries real conversations (LoCoMo dev
#: R@10: stemmed BM25 65.5, cosine 45.7), the cosine carries paraphrase (graphmem's eval
#: set: cosine 0.91, BM25 0.49); an even split is within a point of the best on both
#: (LoCoMo 0.4-0.6: 70.7-73.3; eval set 0.4-0.6: 0.908-0.925) and favours neither.
LEXICAL_SHARE = 0.5
#: The best lexical match counts fully only if it holds at least this share of the query's
#: BM25 weight (see the module docstring). LoCoMo questions share most of their words with
#: the evidence (0.3-0.5 cost < 1 point there); questions worded unlike the evidence
#: ("favourite dish" / "insists on spanakopita") stop being carried by a bare name match
#: (eval set MRR 0.645 -> 0.670 at 0.5).
LEXICAL_SCALE = 0.5
#: Share of the better neighbouring turn's relevance a passage gets: answers follow
#: questions, and chat says one thing over several turns ("got the keys!!" after "signed
#: for a studio in kapitolyo"). 0.3 was the figure the LoCoMo issue measured outside
#: (LoCoMo dev R@10 67.3 -> 73.3 against none). Measured again with everything since, at
#: 0.2 / 0.3 / 0.45 / 0.6: answer in the top fact over fourteen chat dev sets, mean
#: 78.98 / 79.19 / 79.49 / 79.39 % (0.45: 12 questions gained, 8 lost); LoCoMo dev R@10
#: - / 74.2 / 75.9 / 76.0, MRR - / 52.7 / 52.5 / 51.9; graphmem's own eval set hybrid
#: recall@10 0.961 -> 0.958 and MRR 0.761 -> 0.748 at 0.45.
NEIGHBOUR_SHARE = 0.45
#: A person the query names or refers to by relationship ("my sister" -> Alice): their
#: passages gain this much, times how much naming them narrows the user's passages
#: (``selectivity``): the speaker named in every LoCoMo question narrows little, the one
#: sister among twenty people a lot. Chosen on both sets together (0.3 / 0.6 / 1.0:
#: LoCoMo R@10 71.7 / 72.4 / 73.5, eval set recall@10 0.923 / 0.934 / 0.933 with hops 0.6
#: at 0.6 and 1.0), the eval set's MRR best at 0.6 (0.707).
MENTION_WEIGHT = 0.6
#: People named in the best passages (one hop: "my landlady's daughter" -> Hana's card
#: "Hana's daughter Beth ..." -> Beth): their passages gain this much when the card
#: carries a relationship word of the query no known person explains ("targeted"), a
#: share of it otherwise (``UNTARGETED_HOP``); times their selectivity. The eval set's
#: multi-hop questions need it (recall@10 0.729 at 0.3, 0.812 at 0.6, 0.823 at 1.0);
#: LoCoMo loses a point at 1.0.
HOP_WEIGHT = 0.6
#: The share of ``HOP_WEIGHT`` a hop gets that no relationship word of the question
#: explains: "where do i live now?" hops from the user's best passages to everyone they
#: name. Over twelve chat dev sets, at 0.5 such a hop had raised the top hit of 378 of
#: 1,271 answerable questions, and that hit held the answer for 68% of them against 83%
#: for the rest. At 0.5, 0.25 and 0, over thirteen: answer in the top fact +0, +7 and +4
#: questions net (at 0.25: 12 more, 5 fewer), LoCoMo dev R@10 73.5, 73.9 and -, MRR 51.1, 52.4; the
#: eval set hybrid recall@10 0.955, 0.961, MRR 0.764, 0.761.
UNTARGETED_HOP = 0.25
#: The most a passage's relevance can reach before it is scaled to [0, 1]: its own match,
#: its neighbour's share, a mention and a hop.
MAX_RELEVANCE = 1 + NEIGHBOUR_SHARE + MENTION_WEIGHT + HOP_WEIGHT
#: Asked what the assistant said ("which app did you suggest?"), another speaker's
#: passage counts for this share of its relevance: the user's request ("can you
#: recommend an app") shares the question's words, the assistant's answer holds the answer.
#: The chat benches give the same figures at 0.5 and 0.3; at 0.5 "lol gina loved that
#: book" still outranked the reply naming the book for "what book did you recommend?".
OTHER_SPEAKER = 0.3
#: Asked anything else, the assistant's passage counts for this share: what the user
#: lives comes from the user's words, and a reply echoing them ("congrats on the new job
#: at Keystone!") is second-hand. Life-changes dev, answer in the top fact: 57.5 % at 1.0,
#: 60.0 at 0.7, 60.0 at 0.5; Chinese companion chats, in the top five: 90.0, 87.1, 84.3.
ECHO = 0.7
#: Asked how many or how much, a candidate passage that gives no number counts for this
#: share of its relevance (``engine._numbers_first``).
NO_NUMBER = 0.6
#: Asked someone's surname, a candidate passage that gives none counts for this share of
#: its relevance (``engine._surnames_first``).
NO_SURNAME = 0.6
#: Asked which book, app or place the assistant suggested, a reply of its that names or
#: suggests nothing counts for this share of its relevance (``engine._suggestions_first``).
NO_SUGGESTION = 0.6
#: Passages whose cards were summarised together with the best hits' (consolidation).
ABSTRACTION_WEIGHT = 0.1
#: The cosine scale of calibrated relevance (MiniLM): on graphmem's eval set a random card
#: of the user sits at a median 0.11 from a question (95th percentile 0.30), the evidence
#: card at a median 0.44 (a quarter below 0.35); 0.7 and above is a near paraphrase.
COS_UNRELATED, COS_SAME = 0.1, 0.7
#: The default ``min_relevance`` of ``recall`` and ``context``: 0, the k best whatever they
#: are, because relevance that takes inference ("planning dinner with my sister" -> "Alice
#: cannot eat peanuts") scores low on words and meaning alike. To say "nothing relevant",
#: pass ``RELEVANT`` or more.
MIN_RELEVANCE = 0.0
#: A question about nothing memory holds ("What is the boiling point of mercury?") tops
#: out below this: its best hit's 95th percentile is 0.29 over the LoCoMo dev users, 0.20
#: over the eval set's; 95% of the evidence cards found score above 0.32 on LoCoMo, 75%
#: above 0.27 on the eval set (whose questions paraphrase).
RELEVANT = 0.2
#: Calibrated relevance of a passage that holds no word of what the query asks beyond who
#: it is about (nor does a neighbouring turn) is scaled by this.
OFF_FOCUS = 0.3

HALF_LIFE_DAYS = 180.0
W_REL, W_RECENCY, W_IMPORTANCE, W_CONFIDENCE, W_REWARD = 0.55, 0.15, 0.15, 0.10, 0.10
SUPERSEDED_FACTOR = 0.5
#: the largest ``final / relevance`` can be (recency, importance, confidence, reward all 1)
MAX_WORTH = W_REL + W_RECENCY + W_IMPORTANCE + W_CONFIDENCE + W_REWARD
DAY_MS = 86_400_000


def lexical_relevance(scores: np.ndarray, best_possible: float) -> np.ndarray:
    """BM25 scores scaled to [0, 1] (see ``LEXICAL_SCALE``).

    >>> lexical_relevance(np.array([4.0, 1.0, 0.0]), 4.0).tolist()
    [1.0, 0.25, 0.0]
    >>> lexical_relevance(np.array([1.0, 0.5]), 4.0).tolist()  # matches a quarter of it
    [0.5, 0.25]
    """
    top = max(float(scores.max(initial=0.0)), LEXICAL_SCALE * best_possible)
    return scores / top if top > 0 else np.zeros_like(scores)


def dense_relevance(cosines: Mapping[int, float], size: int) -> np.ndarray:
    """Per passage, its best card's cosine over the best candidate's (negative: 0).

    Only the top vector candidates have a cosine; a passage without one is at most as
    close as the last candidate, and gets that (a cliff to 0 there cost 3 points of
    LoCoMo R@10: lexical matches just outside the vector top lost to weak ones inside).

    >>> dense_relevance({0: 0.8, 2: 0.2, 3: 0.4}, 4).tolist()
    [1.0, 0.25, 0.25, 0.5]
    """
    if not cosines:
        return np.zeros(size, dtype=np.float64)
    values = np.fromiter(cosines.values(), dtype=np.float64, count=len(cosines))
    high = float(values.max())
    if high <= 0:
        return np.zeros(size, dtype=np.float64)
    out = np.full(size, max(0.0, float(values.min())) / high, dtype=np.float64)
    rows = np.fromiter(cosines.keys(), dtype=np.int64, count=len(cosines))
    out[rows] = np.maximum(values, 0.0) / high
    return out


def fuse(
    lexical: np.ndarray, dense: np.ndarray, before: np.ndarray, after: np.ndarray
) -> np.ndarray:
    """Passage relevance from lexical and dense relevance and the neighbouring turns
    (``before``/``after``: the neighbour's row, -1 for none).

    >>> fuse(np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]),
    ...      np.array([-1, 0, 1]), np.array([1, 2, -1])).round(2).tolist()
    [0.72, 0.72, 0.22]
    """
    base = LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * dense
    padded = np.append(base, 0.0)  # row -1 reads this 0
    return base + NEIGHBOUR_SHARE * np.maximum(padded[before], padded[after])


def selectivity(about: int, total: int) -> float:
    """How much naming someone narrows a user's passages: 1 when one passage in all is
    about them, 0 when all are.

    >>> round(selectivity(10, 100), 2), selectivity(100, 100), selectivity(0, 100)
    (0.5, 0.0, 0.0)
    """
    if about <= 0 or total <= 1:
        return 0.0
    return float(np.log(total / about) / np.log(total))


def calibrated(lexical_share: float, cosine: float) -> float:
    """Relevance comparable across queries (module docstring, 3): ``lexical_share`` is
    the passage's BM25 over the query's best possible, ``cosine`` its best card's.

    >>> calibrated(1.0, 0.7), calibrated(0.0, 0.1), round(calibrated(0.2, 0.4), 2)
    (1.0, 0.0, 0.35)
    """
    dense = (cosine - COS_UNRELATED) / (COS_SAME - COS_UNRELATED)
    value = LEXICAL_SHARE * min(1.0, lexical_share) + (1 - LEXICAL_SHARE) * dense
    return float(min(1.0, max(0.0, value)))


def recency(timestamp_ms: int, now_ms: int, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """1 for now, 0.5 after one half-life; future dates count as now.

    >>> recency(0, 180 * DAY_MS)
    0.5
    """
    age_days = max(0.0, (now_ms - timestamp_ms) / DAY_MS)
    return 0.5 ** (age_days / half_life_days)


def final_score(relevance: float, card: Mapping[str, Any], now_ms: int) -> dict[str, float]:
    """The final score and its parts, for one card given as a mapping of its fields."""
    parts = {
        "relevance": relevance,
        "recency": recency(int(card["timestamp"]), now_ms),
        "importance": float(card.get("importance", 0.5)),
        "confidence": float(card.get("confidence", 0.8)),
        "reward": float(card.get("reward", 0.0)),
    }
    worth = (
        W_REL
        + W_RECENCY * parts["recency"]
        + W_IMPORTANCE * parts["importance"]
        + W_CONFIDENCE * parts["confidence"]
        + W_REWARD * parts["reward"]
    )
    score = relevance * worth
    if card.get("status") == "superseded":
        score *= SUPERSEDED_FACTOR
    parts["score"] = score
    return parts


#: Scores this close to the best (a share of it) tie: what answers the question asked
#: goes first ("so rachel is officially mrs adeyemi now" against "no more rachel marsh",
#: which differ by how much each card is worth otherwise, 0.1912 to 0.1914).
NEAR_TIE = 0.97
