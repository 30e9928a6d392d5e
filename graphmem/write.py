"""The write path: validated cards into the store, changes understood as they land.

Every door (``Memory.remember`` / ``remember_many``, ingestion, the HTTP and MCP routes)
writes through ``Writer.write``, one job at a time:

1. **plan**: which cards are new, changed or unchanged (one read per 4,096 ids), so a
   stale version anywhere stops the job before anything is written, and no read waits
   behind a write (FalkorDB queues reads behind a running write);
2. **changes**: every new or changed card that states something (a claim:
   ``graphmem.algorithms.conflicts.claim_of``) is compared with the user's active cards
   on the same claim (one read for the whole job) and with the job's own cards, by the
   rules consolidation uses. A newer value supersedes the older card and a same-time
   contradiction is flagged, each with its reason and ``decided_by``, in the same job:
   no agent reads the old city between a move and the next consolidation;
3. **embed ahead**: the next batch embeds while this one is written;
4. **write**: new cards in one UNWIND per user and batch, changed cards in one UNWIND
   that reports the ids it applied, the user's relationship to the people written about
   in one more; then the job's decisions in one UNWIND per user and kind; roles one person
   holds at a time (a manager, a partner) pass from the old holder to the new one, the
   old relationship kept as history.
"""

from __future__ import annotations

import contextlib
import itertools
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphmem.algorithms.cardview import CardView
from graphmem.algorithms.conflicts import (
    SELF_KEY,
    Conflict,
    Decision,
    Supersede,
    card_claim,
    decide_incoming,
)
from graphmem.algorithms.slots import SlotReader
from graphmem.cards import card_props, card_size, person_key, source_row, write_row
from graphmem.embedding import Embedder
from graphmem.errors import ConflictError, NotFoundError
from graphmem.history import CALLER
from graphmem.models import ASSISTANT, SELF, Card, RememberResult
from graphmem.quotas import Quotas
from graphmem.recall.mentions import RELATIONSHIP_SYNONYMS
from graphmem.recall.vector import VectorIndex
from graphmem.relationships import ended, is_single_holder, role
from graphmem.store.base import GraphStore, Row
from graphmem.timeutil import now_ms

Progress = Callable[[int], None]
#: A batching tail shorter than this is written whole.
TAIL = 32
#: ids per ``existing_cards`` read when a job is planned
PLAN_CHUNK = 4096
#: Cards written before the user's relationships to their people are (``know_people``).
KNOW_EVERY = 4096
#: Claims per ``claimed_cards`` read.
CLAIM_CHUNK = 2048
#: Decided by the conflict rules (the same rules consolidation runs).
RULES = "rules"
#: Fields graphmem manages (feedback, recall, consolidation), not content updates.
_MANAGED = (
    "created_at",
    "access_count",
    "last_accessed",
    "reward",
    "needs_revision",
    "status",
    "valid_to",
    "last_seen",
    "seen_count",
)


@dataclass
class _Job:
    """One write job as planned: the cards to write and the changes they bring."""

    todo: set[int]  # id() of the cards that need writing
    seen: list[tuple[str, Card]] = field(default_factory=list)  # (stored id, repeat)
    stored_ids: dict[tuple[str, str], str] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    #: card id -> its version as stored (read while planning, or as our write left it)
    versions: dict[str, int] = field(default_factory=dict)
    user_of: dict[str, str] = field(default_factory=dict)  # card id -> user id
    written: set[str] = field(default_factory=set)  # ids in the store (before or by us)
    unknown: list[Card] = field(default_factory=list)  # written, relationship not yet


class Writer:
    """Writes cards for ``Memory``: plan, detect changes, embed ahead, write, update."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        quotas: Quotas,
        index: VectorIndex | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.slots = SlotReader(embedder)
        self.quotas = quotas
        #: told which users gained cards, so a user who outgrew exact search is promoted
        self.index = index

    def write(
        self, cards: list[Card], *, batch_size: int = 256, progress: Progress | None = None
    ) -> RememberResult:
        """Write validated cards (see the module docstring); what happened to each.

        Batches are written in input order, each while the next ones embed; ``progress``
        hears of a batch once its write is acknowledged.
        """
        result = RememberResult(ids=[c.id for c in cards])
        parsed = cards
        cards, repeats = _dedupe(parsed)
        job = self.plan(cards, repeats, result)
        result.ids = [job.stored_ids.get((c.user_id, c.id), c.id) for c in parsed]
        batches = list(_batches(cards, batch_size))
        plans = [[c for c in batch if id(c) in job.todo] for batch in batches]
        with self._quota_guard([c for c in cards if id(c) in job.todo]):
            vectors = self.embedder.embed_batches([c.embedding_text for c in p] for p in plans)
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-write") as pool:
                # What the job changes is worked out on the write thread while the first
                # batches embed; the first write waits for it (one worker: in order).
                changes = pool.submit(self._changes, job, [c for c in cards if id(c) in job.todo])
                pending: Future[tuple[int, int, int]] | None = None
                for batch, plan, batch_vectors in zip(batches, plans, vectors, strict=True):
                    if pending is not None:
                        _account(pending.result(), result, progress)
                    pending = pool.submit(self._write, job, plan, batch_vectors, len(batch), result)
                changes.result()
                if pending is not None:
                    _account(pending.result(), result, progress)
                # Relationships and decisions land once every card they tie is written: one
                # UNWIND per user for the whole job, not one per batch (an interrupted job
                # leaves its decisions to the next consolidation). Cards the job did not
                # need to write still tell how the user relates to their people (a resent
                # job repairs what an interrupted one missed).
                job.unknown.extend(c for c in cards if id(c) not in job.todo)
                pool.submit(self._know, job, now_ms()).result()
                pool.submit(self._decide, job, now_ms(), result).result()
        if job.seen:
            self._seen_again(job.seen)
            result.seen_again += len(job.seen)
        self._pass_roles([c for c in cards if id(c) in job.todo])
        if self.index is not None and result.created:
            self.index.written(sorted({c.user_id for c in cards if id(c) in job.todo}))
        return result

    @contextlib.contextmanager
    def _quota_guard(self, written: list[Card]) -> Iterator[None]:
        """Every user's quota checked before any card of the job is written (users in
        order, so two jobs never wait on each other's locks)."""
        with contextlib.ExitStack() as guards:
            for user_id in sorted({c.user_id for c in written}):
                mine = [c for c in written if c.user_id == user_id]
                guards.enter_context(
                    self.quotas.guard(
                        user_id,
                        added_cards=sum(1 for c in mine if c.version == 0),
                        added_bytes=sum(card_size(c) for c in mine),
                    )
                )
            yield

    # -- planning ----------------------------------------------------------------------

    def plan(self, cards: list[Card], repeats: list[Card], result: RememberResult) -> _Job:
        """Which cards need writing, the repeats of stored facts to record as (stored id,
        repeat), and the stored id of each (user, id): a fact stored under an older id
        scheme keeps its id. Counts the unchanged cards."""
        stored = self._stored("existing_cards", "ids", [(c.user_id, c.id) for c in cards])
        # A derived id not found: the fact may be stored under an older id scheme.
        stored |= self._stored(
            "cards_by_identity",
            "identities",
            [
                (c.user_id, c.identity)
                for c in cards
                if c.derived_id and c.version == 0 and (c.user_id, c.id) not in stored
            ],
        )
        job = _Job(set())
        for card in cards:
            key: tuple[str, str] = (card.user_id, card.id)
            row = stored.get(key)
            if row is None and card.derived_id and card.version == 0:
                row = stored.get((card.user_id, card.identity))
            job.stored_ids[key] = row["id"] if row is not None else key[1]
            if row is None:
                if card.version > 0:
                    raise NotFoundError(
                        f"card {card.id} of user {card.user_id} does not "
                        f"exist (version {card.version} given)"
                    )
                job.todo.add(id(card))
            elif row["content_hash"] == card.content_hash and card.version in (0, row["version"]):
                result.unchanged += 1
            elif card.version == 0 and card.derived_id and row["identity"] == card.identity:
                if _news(row, card):
                    job.seen.append((row["id"], card))
                else:
                    result.unchanged += 1
            elif card.version != row["version"]:
                raise ConflictError(
                    f"card {card.id} of user {card.user_id} is at version {row['version']}, "
                    f"the write was based on version {card.version}: re-read and retry"
                )
            else:
                job.todo.add(id(card))
        for card in repeats:  # later statements of a card above, in the same job
            key = (card.user_id, card.id)
            row = stored.get(key) or stored.get((card.user_id, card.identity))
            if row is None or _news(row, card):
                job.seen.append((job.stored_ids[key], card))
            else:
                result.unchanged += 1
        return job

    def _stored(
        self, query: str, param: str, keys: list[tuple[str, str]]
    ) -> dict[tuple[str, str], Row]:
        """Stored cards found by ``query`` for (user, id or identity) pairs, keyed the
        same way; of several cards with one identity, the oldest."""
        by_user: dict[str, list[str]] = {}
        for user_id, value in keys:
            by_user.setdefault(user_id, []).append(value)
        column = "id" if param == "ids" else "identity"
        found: dict[tuple[str, str], Row] = {}
        for user_id, values in by_user.items():
            for start in range(0, len(values), PLAN_CHUNK):
                chunk = values[start : start + PLAN_CHUNK]
                for row in self.store.run(query, {"user_id": user_id, param: chunk}):
                    found.setdefault((user_id, row[column]), row)
        return found

    def _seen_again(self, seen: list[tuple[str, Card]]) -> None:
        """Record repeats of stored facts (``card_seen_again``), one query per user."""
        now = now_ms()
        by_user: dict[str, list[dict[str, Any]]] = {}
        for card_id, card in seen:
            by_user.setdefault(card.user_id, []).append(
                {"id": card_id, "at": card.timestamp, **source_row(card)}
            )
        for user_id, rows in by_user.items():
            self.store.run(
                "card_seen_again", {"user_id": user_id, "rows": rows, "now": now}, write=True
            )

    def _changes(self, job: _Job, cards: list[Card]) -> None:
        """Decide what the job's cards change among the user's cards on the same claims."""
        by_user: dict[str, list[Card]] = {}
        claims: dict[str, set[str]] = {}
        for card in cards:
            claim = card_claim(card)
            if claim is not None:
                by_user.setdefault(card.user_id, []).append(card)
                claims.setdefault(card.user_id, set()).add(claim.key)
        for user_id, claiming in by_user.items():
            keys = sorted(claims[user_id])
            mine = {c.id for c in claiming}
            existing = []
            for start in range(0, len(keys), CLAIM_CHUNK):
                for row in self.store.run(
                    "claimed_cards",
                    {"user_id": user_id, "claims": keys[start : start + CLAIM_CHUNK]},
                ):
                    if row["id"] in mine:
                        continue  # an update of a job card: the job's version counts
                    existing.append(CardView.from_row(row))
                    job.versions[row["id"]] = int(row["version"])
                    job.written.add(row["id"])
            for decision in decide_incoming(claiming, existing):
                job.decisions.append(decision)
                for card_id in _ends(decision):
                    job.user_of[card_id] = user_id

    # -- writing -----------------------------------------------------------------------

    def _write(
        self, job: _Job, plan: list[Card], vectors: Any, size: int, result: RememberResult
    ) -> tuple[int, int, int]:
        """Write one planned batch, then the decisions it completes; (cards in the
        batch, created, updated)."""
        created = updated = 0
        now = now_ms()
        pairs = list(zip(plan, vectors, strict=True))
        new = sorted((cv for cv in pairs if cv[0].version == 0), key=lambda cv: cv[0].user_id)
        stale: list[str] = []
        for user_id, group in itertools.groupby(new, key=lambda cv: cv[0].user_id):
            write_id = uuid.uuid4().hex  # one per call: a retried call is the same write
            rows = [{**row, "write": write_id} for row in self._claimed(list(group))]
            for row in self.store.run(
                "upsert_cards", {"user_id": user_id, "rows": rows, "now": now}, write=True
            ):
                job.versions[row["id"]] = int(row["version"])
                # Another writer may have stored the card since the plan (see the query).
                outcome = row["outcome"]
                created += outcome == "created"
                result.seen_again += outcome == "seen"
                result.unchanged += outcome == "unchanged"
                if outcome == "stale":
                    stale.append(f"card {row['id']} of user {user_id}")
            job.written.update(r["id"] for r in rows)
        if stale:
            raise ConflictError(
                f"{stale[0]} was written by another writer meanwhile: re-read and retry"
                + (f" ({len(stale) - 1} more)" if len(stale) > 1 else "")
            )
        changed = sorted((cv for cv in pairs if cv[0].version > 0), key=lambda cv: cv[0].user_id)
        for user_id, group in itertools.groupby(changed, key=lambda cv: cv[0].user_id):
            updated += self._update(job, user_id, list(group), now)
        job.unknown.extend(plan)
        if len(job.unknown) >= KNOW_EVERY:
            self._know(job, now)
        return size, created, updated

    def _claimed(self, cards: list[tuple[Card, Any]]) -> list[dict[str, Any]]:
        """Write rows with each card's claim (``_with_claim``) and, for a card about the
        user no rule reads, the slot its vector likely states (``likely_claim``,
        ``algorithms.slots``: "me|employer", else ""): recall answers with it, nothing
        supersedes by it."""
        rows = [_with_claim(write_row(c, v), c) for c, v in cards]
        asked = [
            i
            for i, (card, _) in enumerate(cards)
            if card.person == SELF and not rows[i]["props"]["claim"]
        ]
        facts = [cards[i][0].fact for i in asked]
        vectors = np.asarray([rows[i]["embedding"] for i in asked], dtype=np.float32)
        for i, slot in zip(asked, self.slots.slots(facts, vectors), strict=True):
            rows[i]["props"]["likely_claim"] = f"{SELF_KEY}|{slot}" if slot else ""
        return rows

    def _know(self, job: _Job, now: int) -> None:
        """The user's relationship to the people of the cards written so far
        (``know_people``): one row per person, their relationships in time order. Every
        few thousand cards and at the end of the job, not per batch: one query per user."""
        cards, job.unknown = job.unknown, []
        for user_id, group in itertools.groupby(
            sorted(cards, key=lambda c: c.user_id), key=lambda c: c.user_id
        ):
            # an assistant's cards are about what it said, not about one of the user's people
            people = _people_rows([_knows_row(c) for c in group if c.relationship != ASSISTANT])
            if people:
                self.store.run(
                    "know_people", {"user_id": user_id, "rows": people, "now": now}, write=True
                )

    def _update(self, job: _Job, user_id: str, cards: list[tuple[Card, Any]], now: int) -> int:
        """Changed cards of one user in one UNWIND, guarded by their versions."""
        rows = []
        for (card, _), row in zip(cards, self._claimed(cards), strict=True):
            props = card_props(card, keep_nulls=True)
            for key in ("claim", "claim_value", "likely_claim"):
                props[key] = row["props"][key]
            for key in _MANAGED:
                props.pop(key, None)
            rows.append(
                {
                    "id": card.id,
                    "expected_version": card.version,
                    "props": props,
                    "embedding": row["embedding"],
                    "person_key": row["person_key"],
                    "person": row["person"],
                    "relationship": row["relationship"],
                    "timestamp": card.timestamp,
                    "change": "update",
                    "decided_by": CALLER,
                    "note": None,
                }
            )
        applied = {
            r["id"]: int(r["version"])
            for r in self.store.run(
                "update_cards", {"user_id": user_id, "rows": rows, "now": now}, write=True
            )
        }
        job.versions.update(applied)
        job.written.update(applied)
        stale = [r["id"] for r in rows if r["id"] not in applied]
        if stale:
            raise ConflictError(
                f"card {stale[0]} of user {user_id} changed since version "
                f"{next(c.version for c, _ in cards if c.id == stale[0])}: re-read and retry"
                + (f" ({len(stale) - 1} more)" if len(stale) > 1 else "")
            )
        return len(applied)

    def _decide(self, job: _Job, now: int, result: RememberResult) -> None:
        """Write the decisions whose two cards are both in the store."""
        ready = [d for d in job.decisions if _ends(d) <= job.written]
        if not ready:
            return
        job.decisions = [d for d in job.decisions if not _ends(d) <= job.written]
        for user_id, group in itertools.groupby(
            sorted(ready, key=lambda d: job.user_of[d.key[1]]), key=lambda d: job.user_of[d.key[1]]
        ):
            decisions = list(group)
            supersede = [
                {
                    "newer": d.newer,
                    "older": d.older,
                    "older_version": job.versions[d.older],
                    "attribute": d.attribute,
                    "reason": d.reason,
                    "decided_by": RULES,
                }
                for d in decisions
                if isinstance(d, Supersede)
            ]
            conflicts = [
                {
                    "a": d.a,
                    "b": d.b,
                    "attribute": d.attribute,
                    "reason": d.reason,
                    "decided_by": RULES,
                    "needs_revision": list(d.needs_revision),
                }
                for d in decisions
                if isinstance(d, Conflict)
            ]
            params = {"user_id": user_id, "now": now}
            if supersede:
                done = self.store.run(
                    "consolidate_supersede", {**params, "rows": supersede}, write=True
                )
                result.superseded += len(done)
                for row in done:
                    job.versions[row["id"]] = job.versions[row["id"]] + 1
            if conflicts:
                for row in self.store.run(
                    "consolidate_conflicts", {**params, "rows": conflicts}, write=True
                ):
                    job.versions[row["a"]], job.versions[row["b"]] = (
                        row["a_version"],
                        row["b_version"],
                    )
                    result.conflicts += 1

    def _pass_roles(self, cards: list[Card]) -> None:
        """A role one person holds at a time (a manager, a partner) leaves its previous
        holder when a newer card gives it to someone else: they become former / ex."""
        latest: dict[tuple[str, str], Card] = {}
        for card in cards:
            if is_single_holder(card.relationship):
                key = (card.user_id, role(card.relationship) or "")
                if key not in latest or card.timestamp > latest[key].timestamp:
                    latest[key] = card
        by_user: dict[str, list[dict[str, Any]]] = {}
        for (user_id, canonical), card in sorted(latest.items()):
            by_user.setdefault(user_id, []).append(
                {
                    "key": person_key(card.person),
                    "roles": sorted({canonical, *RELATIONSHIP_SYNONYMS.get(canonical, ())}),
                    "former": ended(canonical),
                    "since": card.timestamp,
                }
            )
        for user_id, rows in by_user.items():
            self.store.run(
                "pass_roles", {"user_id": user_id, "rows": rows, "now": now_ms()}, write=True
            )


def _knows_row(card: Card) -> dict[str, Any]:
    return {
        "person_key": person_key(card.person),
        "relationship": card.relationship if card.person != SELF else "self",
        "timestamp": card.timestamp,
    }


def _people_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``know_people`` rows: per person, the first card's relationship (for a new edge)
    and each relationship the batch says, in time order (a repeat of the one before is
    left out).

    >>> rows = [{"person_key": "tom", "relationship": r, "timestamp": t}
    ...         for r, t in [("former manager", 3), ("manager", 1), (None, 2)]]
    >>> _people_rows(rows)  # doctest: +NORMALIZE_WHITESPACE
    [{'person_key': 'tom', 'first': 'manager', 'first_since': 1,
      'changes': [{'relationship': 'manager', 'timestamp': 1},
                  {'relationship': 'former manager', 'timestamp': 3}]}]
    """
    people: dict[str, dict[str, Any]] = {}
    for row in sorted(rows, key=lambda r: r["timestamp"]):
        relationship, when = row["relationship"], row["timestamp"]
        person = people.setdefault(
            row["person_key"],
            {
                "person_key": row["person_key"],
                "first": relationship,
                "first_since": when,
                "changes": [],
            },
        )
        changes = person["changes"]
        if relationship is not None and (
            not changes or changes[-1]["relationship"] != relationship
        ):
            changes.append({"relationship": relationship, "timestamp": when})
    return list(people.values())


def _ends(decision: Decision) -> set[str]:
    if isinstance(decision, Supersede):
        return {decision.newer, decision.older}
    return {decision.a, decision.b}


def _with_claim(row: dict[str, Any], card: Card) -> dict[str, Any]:
    """The write row with the card's claim key, what ``claimed_cards`` looks cards up by
    ("" for a card that states no attribute: stored, so it is never read again), and its
    value (recall prefers a stated value to a negated one)."""
    found = card_claim(card)
    row["props"]["claim"] = found.key if found is not None else ""
    row["props"]["claim_value"] = found.value if found is not None else ""
    row["props"]["likely_claim"] = ""
    return row


def _account(
    outcome: tuple[int, int, int], result: RememberResult, progress: Progress | None
) -> None:
    size, created, updated = outcome
    result.created += created
    result.updated += updated
    if progress is not None:
        progress(size)


def _dedupe(cards: list[Card]) -> tuple[list[Card], list[Card]]:
    """One card per (user, id) to plan, and the repeats among the rest.

    Statements of one fact (same identity, derived id) keep the earliest as the card and
    the others, unless exact copies of it, as repeats; an id given twice with different
    content keeps the last, as an upsert would.
    """
    groups: dict[tuple[str, str], list[Card]] = {}
    for card in cards:
        groups.setdefault((card.user_id, card.id), []).append(card)
    kept: list[Card] = []
    repeats: list[Card] = []
    for group in groups.values():
        if len(group) == 1 or any(
            c.version or not c.derived_id or c.identity != group[0].identity for c in group
        ):
            kept.append(group[-1])
            continue
        first, *rest = sorted(group, key=lambda c: c.timestamp)
        kept.append(first)
        hashes = {first.content_hash}
        for card in rest:
            if card.content_hash not in hashes:
                hashes.add(card.content_hash)
                repeats.append(card)
    return kept, repeats


def _news(row: Row, card: Card) -> bool:
    """Whether a repeat tells the store something: a later statement, or a new source."""
    if card.timestamp > (row["last_seen"] or 0):
        return True
    source_id = card.source.source_id if card.source else None
    return source_id is not None and source_id not in (row["sources"] or [])


def _batches(items: list[Any], size: int) -> Iterator[list[Any]]:
    """Batches of ``size``, the last ``size`` cards halving (116, 58, 29, 29 of 232):
    nothing overlaps the final write, so it should be short."""
    size, start = max(1, size), 0
    while start < len(items):
        left = len(items) - start
        step = size if left > size else left if left <= TAIL else (left + 1) // 2
        yield items[start : start + step]
        start += step


__all__ = ["Writer"]
