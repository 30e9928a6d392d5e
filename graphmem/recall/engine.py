"""Hybrid recall: vector + full-text + graph traversal, fused, scored, with provenance.

Channels, each ranking candidate cards of one user:

- **vector**: cosine between the query and each card's embedding (tenant-exact);
- **fulltext**: the full-text index over fact, backstory and person (the lexical channel
  that carries most of conversational recall, see DESIGN.md);
- **graph**: people the query names or refers to by relationship ("my sister" ->
  Alice), expanded to their cards ranked by cosine; then one hop: people named in those
  cards' facts, and cards that share an abstraction with the best hits.

Ranks are fused by reciprocal rank and mixed with recency, importance, confidence and
feedback (``graphmem.recall.scoring``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from pydantic import Field

from graphmem.cards import card_from_row, person_key
from graphmem.embedding import Embedder
from graphmem.history import held_at
from graphmem.models import Card, Category, Model, Status
from graphmem.recall import temporal
from graphmem.recall.mentions import (
    Known,
    Mention,
    canonical_relationship,
    find_mentions,
    relationship_words,
)
from graphmem.recall.mirror import UserVectors, VectorMirror, VectorRoute
from graphmem.recall.scoring import MAX_WORTH, Ranked, final_score, fuse
from graphmem.recall.vector import person_candidates, uses_index, vector_candidates, wire_vector
from graphmem.store.base import GraphStore
from graphmem.timeutil import now_ms

CANDIDATES = 50
#: A person named (or referred to by relationship) in the query is the strongest signal
#: of what it is about; the first-person fallback ("what do I like?") is weaker.
MENTION_WEIGHT = 2.0
HOP_WEIGHT = 0.75
#: Half weight: on bench/data/eval the lexical channel alone finds half what the vector
#: channel does; DESIGN.md's real conversations favour it, so it is not switched off.
FULLTEXT_WEIGHT = 0.5
ABSTRACTION_WEIGHT = 0.3


class RecallFilters(Model):
    """Restrict recall; every filter must hold for a card to be returned."""

    person: str | None = None
    relationship: str | None = None
    category: list[str] | None = None
    tags: list[str] | None = None
    since: int | None = Field(None, description="Only cards from this time on (epoch ms).")
    until: int | None = Field(None, description="Only cards up to this time (epoch ms).")
    statuses: list[Status] = Field(default_factory=lambda: [Status.ACTIVE])
    card_ids: list[str] | None = Field(None, description="Only among these cards (a task's).")
    as_of: int | None = Field(
        None, description="Answer from what memory held true at this time (epoch ms)."
    )
    known_at: int | None = Field(
        None, description="With as_of: what memory knew by this time (default: as_of)."
    )

    def point_in_time(self) -> dict[str, int] | None:
        """``{"as_of", "known_at"}`` for the channel queries' ``$at``, or None."""
        if self.as_of is None:
            return None
        known_at = self.as_of if self.known_at is None else self.known_at
        return {"as_of": self.as_of, "known_at": known_at}


class RecallHit(Model):
    """One recalled card: why it ranks where it does, and how it was found."""

    card: Card
    score: float
    parts: dict[str, float]
    found_by: list[str]
    paths: list[str] = Field(default_factory=list)
    relationship: str | None = Field(
        None, description="The person's relationship to the user now (from the graph)."
    )


@dataclass
class _Candidates:
    rankings: list[Ranked] = field(default_factory=list)
    paths: dict[str, list[str]] = field(default_factory=dict)

    def add(self, channel: str, rows: Sequence[dict[str, Any]], weight: float = 1.0) -> None:
        if rows:
            self.rankings.append(
                Ranked(
                    channel,
                    tuple(r["id"] for r in rows),
                    tuple(float(r["score"]) for r in rows),
                    weight,
                )
            )

    def path(self, card_id: str, text: str) -> None:
        paths = self.paths.setdefault(card_id, [])
        if text not in paths:
            paths.append(text)


CHANNELS = ("vector", "fulltext", "graph")


def recall(
    store: GraphStore,
    embedder: Embedder,
    user_id: str,
    query: str,
    *,
    k: int = 10,
    filters: RecallFilters | None = None,
    now: int | None = None,
    channels: Sequence[str] = CHANNELS,
    mirror: VectorMirror | None = None,
) -> list[RecallHit]:
    """The ``k`` best cards of ``user_id`` for ``query`` (see the module docstring).

    ``channels`` switches candidate channels off, for ablations (bench/recall_quality.py);
    ``mirror``: vectors held in this process, searched instead of the store when current.
    """
    filters = filters or RecallFilters()
    at = filters.point_in_time()
    if at is not None:  # what was held then, whatever became of it since (history.py)
        mirror = None
        now = at["as_of"] if now is None else now
    now = now_ms() if now is None else now
    # "used to", "in 2024": superseded cards join and the card valid then is preferred.
    intent = temporal.read_intent(query, now)
    statuses = temporal.statuses(intent, [s.value for s in filters.statuses])
    if at is not None:
        statuses = [s.value for s in Status]
    candidates = _Candidates()
    depth = max(CANDIDATES, 3 * k)
    pool = _pool()
    # The store answers the people, index-route and full-text lookups while the query is
    # embedded here; then the vector search (the longest query) and the people's cards run
    # side by side.
    known = pool.submit(store.run, "known_people", {"user_id": user_id})
    route_of = mirror.route if mirror is not None else partial(_store_route, store)
    routed = pool.submit(route_of, user_id) if "vector" in channels or "graph" in channels else None
    text_query = store.fulltext_query(query) if "fulltext" in channels else None
    lexical = (
        pool.submit(
            store.run,
            "fulltext_search",
            {"user_id": user_id, "query": text_query, "k": depth, "statuses": statuses, "at": at},
        )
        if text_query
        else None
    )
    vector = wire_vector(embedder.embed([query])[0])
    route = routed.result() if routed is not None else VectorRoute(ann=False)
    dense = (
        pool.submit(
            vector_candidates,
            store,
            user_id,
            vector,
            depth,
            statuses=statuses,
            indexed=route.ann,
            mirrored=route.mirrored,
            at=at,
        )
        if "vector" in channels
        else None
    )
    people = [Known(r["key"], r["name"], r["relationship"]) for r in known.result()]
    mentions = find_mentions(query, people) if "graph" in channels else []
    scoped = _scoped_keys(filters, people)
    if scoped is not None:
        mentions = [m for m in mentions if m.key in scoped] or [
            Mention(key, key, "filter") for key in sorted(scoped)
        ]
    about = (
        pool.submit(
            _people_channel,
            store,
            user_id,
            query=query,
            people=people,
            mentions=mentions,
            vector=vector,
            depth=depth,
            statuses=statuses,
            mirrored=route.mirrored,
            at=at,
        )
        if mentions
        else None
    )
    if dense is not None:
        candidates.add(
            "vector", [{"id": card_id, "score": score} for card_id, score in dense.result()]
        )
    if lexical is not None:
        candidates.add("fulltext", lexical.result(), weight=FULLTEXT_WEIGHT)

    if about is not None:
        rows, hop = about.result()
        explicit = any(m.via != "first person" for m in mentions)
        candidates.add("graph", rows, weight=MENTION_WEIGHT if explicit else 1.0)
        via = {m.key: m for m in mentions}
        for row in rows:
            mention = via[row["key"]]
            candidates.path(row["id"], f"{mention.via} -> {mention.name} -> card")
        if hop is not None:
            hop_rows, hops, targeted = hop
            candidates.add(
                "graph-hop", [r for r in hop_rows if r["key"] in targeted], weight=MENTION_WEIGHT
            )
            candidates.add(
                "graph-hop", [r for r in hop_rows if r["key"] not in targeted], weight=HOP_WEIGHT
            )
            for row in hop_rows:
                candidates.path(
                    row["id"], f"{mentions[0].name} -> mentions {hops[row['key']].name} -> card"
                )

    fused = fuse(candidates.rankings)
    page = max(4 * k, 20)
    ahead = sorted(fused, key=lambda i: (-fused[i], i))[:page]
    # The first page of cards is read while the abstraction siblings are looked up: they
    # join at a low weight, so the page rarely changes (what it misses is read below).
    read_cards = partial(_read_cards, store, user_id, at)
    first = pool.submit(read_cards, ahead) if ahead else None
    if "graph" in channels:
        _abstraction_hop(
            store, user_id, ahead[:5], statuses=statuses, candidates=candidates, fused=fused, at=at
        )

    found_by: dict[str, set[str]] = {}
    for ranking in candidates.rankings:
        for card_id in ranking.ids:
            found_by.setdefault(card_id, set()).add(ranking.channel)
    relationship_now = {p.key: p.relationship for p in people}
    order = sorted(fused, key=lambda i: (-fused[i], i))
    rows = {row["card"]["id"]: row for row in (first.result() if first else ())}
    read = set(ahead)
    scored: list[tuple[float, str, dict[str, Any], dict[str, float]]] = []
    # Read cards a page at a time, best relevance first, and stop once no unread candidate
    # could beat the k-th hit even with the best possible worth (scoring.MAX_WORTH). Rows
    # are filtered and scored as read; only the k returned become Cards (validation is
    # most of recall's own CPU time).
    for start in range(0, len(order), page):
        ids = order[start : start + page]
        unread = [i for i in ids if i not in read]
        if unread:
            read.update(unread)
            rows.update((row["card"]["id"], row) for row in read_cards(unread))
        for card_id in ids:
            row = rows.get(card_id)
            if row is not None and _passes(row["card"], filters, scoped, statuses):
                parts = final_score(fused[card_id], row["card"], now)
                if (factor := temporal.weight(intent, row["card"])) != 1.0:
                    parts["temporal"] = factor
                scored.append((parts.pop("score") * factor, card_id, row, parts))
        scored.sort(key=lambda hit: (-hit[0], hit[1]))
        rest = start + page
        best_worth = MAX_WORTH * (temporal.MAX_WEIGHT if intent.kind else 1.0)
        if len(scored) >= k and (
            rest >= len(order) or fused[order[rest]] * best_worth < scored[k - 1][0]
        ):
            break
    hits = []
    for score, card_id, row, parts in scored[:k]:
        card = card_from_row(row)
        # Built from validated parts: validating again would re-derive the card (~50 us).
        hits.append(
            RecallHit.model_construct(
                card=card,
                score=score,
                parts=parts,
                found_by=sorted(found_by.get(card_id, ())),
                paths=candidates.paths.get(card_id, []),
                relationship=relationship_now.get(person_key(card.person)),
            )
        )
    return hits


def _read_cards(
    store: GraphStore, user_id: str, at: dict[str, int] | None, ids: list[str]
) -> list[dict[str, Any]]:
    """``get_cards`` rows; at a point in time, as memory then held them (the rest left out)."""
    rows = store.run("get_cards", {"user_id": user_id, "ids": ids})
    return rows if at is None else held_at(store, user_id, rows, **at)


def _store_route(store: GraphStore, user_id: str) -> VectorRoute:
    return VectorRoute(ann=uses_index(store, user_id))


@cache
def _pool() -> ThreadPoolExecutor:
    """Threads for the channel queries of one recall (each takes its own connection)."""
    return ThreadPoolExecutor(max_workers=6, thread_name_prefix="graphmem-recall")


_Hop = tuple[list[dict[str, Any]], dict[str, Mention], set[str]]


def _people_channel(
    store: GraphStore,
    user_id: str,
    *,
    query: str,
    people: list[Known],
    mentions: list[Mention],
    vector: list[float],
    depth: int,
    statuses: list[str],
    mirrored: UserVectors | None,
    at: dict[str, int] | None = None,
) -> tuple[list[dict[str, Any]], _Hop | None]:
    """The mentioned people's cards, and the cards one hop away (``_one_hop``).

    One task for the pool, so the hop runs while the vector search is still going.
    """
    rows = person_candidates(
        store,
        user_id,
        [m.key for m in mentions],
        vector,
        depth,
        statuses=statuses,
        mirrored=mirrored,
        at=at,
    )
    return rows, _one_hop(
        store,
        user_id,
        rows[:5],
        query=query,
        people=people,
        mentions=mentions,
        vector=vector,
        depth=depth,
        statuses=statuses,
        mirrored=mirrored,
        at=at,
    )


def _one_hop(
    store: GraphStore,
    user_id: str,
    rows: Sequence[dict[str, Any]],
    *,
    query: str,
    people: list[Known],
    mentions: list[Mention],
    vector: list[float],
    depth: int,
    statuses: list[str],
    mirrored: UserVectors | None,
    at: dict[str, int] | None = None,
) -> _Hop | None:
    """People named in the best cards of the mentioned people, and their cards:
    ``(rows, the people hopped to by key, the targeted keys)``.

    A hop is *targeted* when the card naming the next person also carries a relationship
    word of the query that no person of the user explains: in "my boss's daughter",
    "boss" is Bob, and Bob's card "Bob's daughter Emma ..." makes Emma the target.
    """
    if not rows:
        return None
    best = store.run("get_cards", {"user_id": user_id, "ids": [r["id"] for r in rows]})
    seen = {m.key for m in mentions}
    explained = {
        canonical_relationship(p.relationship) for p in people if p.key in seen and p.relationship
    }
    open_words = relationship_words(query) - explained
    others = [p for p in people if p.key != "me" and p.key not in seen]
    hops: dict[str, Mention] = {}
    targeted: set[str] = set()
    for row in best:
        fact = row["card"]["fact"]
        for mention in find_mentions(fact, others):
            hops.setdefault(mention.key, mention)
            if open_words & relationship_words(fact):
                targeted.add(mention.key)
    if not hops:
        return None
    hop_rows = person_candidates(
        store, user_id, list(hops), vector, depth, statuses=statuses, mirrored=mirrored, at=at
    )
    return hop_rows, hops, targeted


def _abstraction_hop(
    store: GraphStore,
    user_id: str,
    ids: list[str],
    *,
    statuses: list[str],
    candidates: _Candidates,
    fused: dict[str, float],
    at: dict[str, int] | None = None,
) -> None:
    """Cards summarised together with the best hits join at a low weight."""
    if not ids:
        return
    rows = store.run(
        "abstraction_siblings", {"user_id": user_id, "ids": ids, "statuses": statuses, "at": at}
    )
    fresh = [r for r in rows if r["id"] not in fused]
    if not fresh:
        return
    siblings = tuple(dict.fromkeys(r["id"] for r in fresh))
    ranking = Ranked("abstraction", siblings, (1.0,) * len(siblings), ABSTRACTION_WEIGHT)
    candidates.rankings.append(ranking)
    for r in fresh:
        candidates.path(r["id"], f"card {r['via'][:8]} -> abstraction {r['abstraction'][:8]}")
    fused.update({k: v for k, v in fuse(candidates.rankings).items() if k in ranking.ids})


def _scoped_keys(filters: RecallFilters, people: list[Known]) -> set[str] | None:
    """Person keys allowed by the person/relationship filters (None: no such filter)."""
    keys: set[str] | None = None
    if filters.person:
        keys = {person_key(filters.person)}
    if filters.relationship:
        wanted = canonical_relationship(filters.relationship)
        by_relation = {
            p.key
            for p in people
            if p.relationship and canonical_relationship(p.relationship) == wanted
        }
        keys = by_relation if keys is None else keys & by_relation
    return keys


def _passes(
    props: dict[str, Any], filters: RecallFilters, scoped: set[str] | None, statuses: list[str]
) -> bool:
    """Does a stored card (its node properties) pass the filters?"""
    if scoped is not None and person_key(props.get("person") or "") not in scoped:
        return False
    if filters.category and (props.get("category") or Category.OTHER.value) not in filters.category:
        return False
    if filters.tags and not set(filters.tags) & set(props.get("tags") or ()):
        return False
    timestamp = props.get("timestamp") or 0
    if filters.since is not None and timestamp < filters.since:
        return False
    if filters.until is not None and timestamp > filters.until:
        return False
    if filters.card_ids is not None and props["id"] not in filters.card_ids:
        return False
    if filters.as_of is not None:
        return True  # held then (history.held_at), whatever its status now
    return props.get("status") in statuses
