"""``Memory``: the one object users hold. Thin: it validates and delegates (writes to
``graphmem.write``, recall to ``graphmem.recall``, consolidation to ``graphmem.consolidation``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from graphmem import private
from graphmem.cards import (
    card_from_row,
    person_key,
    provenance_of,
    resolve_card_id,
)
from graphmem.config import Settings
from graphmem.embedding import Embedder, claim_vector_space, default_embedder
from graphmem.errors import (
    ConflictError,
    GraphmemError,
    NotFoundError,
    StoreUnavailableError,
    ValidationError,
)
from graphmem.history import CALLER, CardVersion, card_history
from graphmem.history import revert as revert_card
from graphmem.models import (
    MAX_LIMIT,
    MAX_OFFSET,
    TURN,
    AbstractionRef,
    Card,
    CardLink,
    CardProvenance,
    Person,
    RememberResult,
    Status,
    check_range,
    check_user_id,
    person_name,
    status_reason,
)
from graphmem.quotas import QuotaLimits, Quotas
from graphmem.recall.access import AccessRecorder
from graphmem.recall.context import MIN_BUDGET, build_context
from graphmem.recall.engine import CHANNELS, RecallFilters, RecallHit
from graphmem.recall.engine import recall as hybrid_recall
from graphmem.recall.passages import BUDGET_MB, PassageIndex
from graphmem.recall.scoring import MIN_RELEVANCE
from graphmem.recall.vector import ANN_THRESHOLD, VectorIndex
from graphmem.store.base import Dialect, GraphStore, Row
from graphmem.timeutil import allow_future as allow_future_times
from graphmem.timeutil import now_ms, to_ms
from graphmem.write import Progress, Writer

if TYPE_CHECKING:
    from graphmem.consolidation import ConsolidationReport, StepProgress
    from graphmem.entities import Entities
    from graphmem.explore import Explorer
    from graphmem.export import ImportReport
    from graphmem.profile import Profile
    from graphmem.reasoning import Reasoning
    from graphmem.reflections import MarkdownExport
    from graphmem.sessions import Sessions
    from graphmem.strategies import Strategies
    from graphmem.tasks import Tasks


class Memory:
    """Long-term memory about users, as a graph.

    Examples:
        >>> import tempfile
        >>> with Memory.open(tempfile.mkdtemp()) as mem:
        ...     card = mem.remember({"user_id": "u1", "fact": "Alice is allergic to peanuts",
        ...                          "person": "Alice", "relationship": "sister"})
        ...     mem.get("u1", card.id).relationship
        'sister'
    """

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        *,
        home: Path | None = None,
        keep_server: bool = False,
        recall_passages_mb: int = BUDGET_MB,
        quotas: QuotaLimits | None = None,
        ann_threshold: int = ANN_THRESHOLD,
    ) -> None:
        self._store = store
        self.embedder = embedder
        self.home = home
        self._keep_server = keep_server
        #: per-user limits every write of user content is checked against first
        self.quotas = Quotas(store, quotas)
        #: users past ``ann_threshold`` cards search through the HNSW index
        #: (``graphmem.recall.vector``): promoted after the write that takes them there
        self.vector_index = VectorIndex(store, ann_threshold)
        self._writer = Writer(store, embedder, self.quotas, self.vector_index)
        self.accesses = AccessRecorder(store)
        #: the passages (turns and their cards) recall ranks, per user recalled; saved
        #: beside the embedded store so that a new process does not rebuild them
        self.passages = PassageIndex(
            store,
            budget_bytes=recall_passages_mb * 2**20,
            directory=home / "passages" if home else None,
            spaces=embedder.spaces,
        )
        self._store.ensure_schema(embedder.dimension)

    # -- opening and closing -----------------------------------------------------------
    @classmethod
    def open(
        cls,
        home: Path | str | None = None,
        *,
        neo4j_uri: str | None = None,
        auth: tuple[str, str] | None = None,
        embedder: Embedder | None = None,
        keep_server: bool = False,
        settings: Settings | None = None,
    ) -> Memory:
        """Open memory: the embedded FalkorDB store in ``home`` (default ``$GRAPHMEM_HOME``
        or ``./.graphmem``), or Neo4j when ``neo4j_uri`` / ``GRAPHMEM_NEO4J_URI`` is set.

        With ``keep_server`` the embedded server stays up after ``close`` for the next
        caller; otherwise the last graphmem client to close stops it.
        """
        settings = settings or Settings.from_env()
        chosen = embedder is None  # by the settings: the data directory must agree
        if embedder is None:
            embedder = default_embedder(settings.model_dir, settings.embedding_model)
        uri = neo4j_uri or (settings.neo4j.uri if home is None else None)
        if uri:
            from graphmem.store.neo4j import Neo4jStore

            return cls(
                Neo4jStore.connect(
                    uri, auth=auth or settings.neo4j.auth, database=settings.neo4j.database
                ),
                embedder,
                recall_passages_mb=settings.recall_passages_mb,
                quotas=settings.quotas,
                ann_threshold=settings.ann_threshold,
            )
        from graphmem.store.falkordb import FalkorDBStore

        path = Path(home) if home is not None else settings.home
        try:
            private.make_dir(path)
            private.warn(private.tighten(path))
        except OSError as exc:
            raise StoreUnavailableError(
                f"cannot use {path} as the data directory: {exc.strerror or exc}"
            ) from None
        if chosen:
            claim_vector_space(path, embedder)
        return cls(
            FalkorDBStore.open_embedded(path, idle_timeout=settings.idle_timeout),
            embedder,
            home=path.resolve(),
            keep_server=keep_server,
            recall_passages_mb=settings.recall_passages_mb,
            quotas=settings.quotas,
            ann_threshold=settings.ann_threshold,
        )

    @property
    def started_server(self) -> bool:
        """True when this Memory started the embedded server it uses (at open, or again
        after it died), rather than joining one that was running."""
        return self._store.started_server

    def close(self, *, stop_server: bool | None = None) -> None:
        """Flush and disconnect. The embedded server stops when this was its last client,
        unless ``keep_server`` was given at open; ``stop_server`` decides for this close
        (``memory.close(stop_server=memory.started_server)``: stop it only if we started
        it, as ``graphmem serve`` and ``graphmem mcp`` do)."""
        self.accesses.close()  # pending access-count updates land first
        self.vector_index.close()
        self.passages.close()
        keep = self._keep_server if stop_server is None else not stop_server
        if keep:
            self._store.detach()
        else:
            self._store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------
    def remember(self, card: Card | Mapping[str, Any], *, allow_future: bool = False) -> Card:
        """Store one card (idempotent by content) and return it as stored.

        A timestamp more than a day ahead is refused unless ``allow_future``."""
        with allow_future_times(allow_future):
            parsed = Card.parse(card)
        result = self._writer.write([parsed])
        self.passages.written([parsed.user_id])
        return self.get(parsed.user_id, result.ids[0])

    def remember_many(
        self,
        cards: Iterable[Card | Mapping[str, Any]],
        *,
        batch_size: int = 256,
        progress: Progress | None = None,
        allow_future: bool = False,
    ) -> RememberResult:
        """Store many cards in batches; everything is validated before anything is written.

        Same fact, person and relationship for the same user = same card: re-sending
        exactly changes nothing, stating it again (another time or source) refreshes the
        stored card's ``last_seen`` and access and links the new source (``seen_again``).
        A card with an existing id and different content is an update and must carry the
        stored ``version`` (else ``ConflictError``). A card that gives a newer value of
        what a stored card says (a new city, a new manager) supersedes it in the same
        write (``graphmem.write``). Embedding the next batch overlaps with writing the
        previous one. Timestamps more than a day ahead are refused unless
        ``allow_future``.
        """
        with allow_future_times(allow_future):
            parsed = [Card.parse(c, where=f"cards[{i}]") for i, c in enumerate(cards)]
        result = self._writer.write(parsed, batch_size=batch_size, progress=progress)
        self.passages.written(card.user_id for card in parsed)
        return result

    # -- reading -----------------------------------------------------------------------
    def get(self, user_id: str, card_id: str) -> Card:
        """One card of one user, with its provenance; ``NotFoundError`` if absent.

        ``card_id`` may be a unique prefix of the id (6+ characters, like git)."""
        cards = self.get_many(user_id, [card_id])
        if not cards:
            cards = self.get_many(user_id, [self.resolve(user_id, card_id)])
        if not cards:
            raise NotFoundError(f"no card {card_id!r} for user {user_id!r}")
        return cards[0]

    def _expand(self, user_id: str, card_id: str) -> str:
        """``resolve``, or ``card_id`` as given when no card has it (an erased card's
        history outlives the card)."""
        try:
            return self.resolve(user_id, card_id)
        except NotFoundError:
            return card_id

    def resolve(self, user_id: str, card_id: str) -> str:
        """The full id of a card given its id or a unique prefix of 6+ characters.

        ``NotFoundError`` when nothing matches; an ambiguous prefix is a
        ``ValidationError`` listing the cards it matches."""
        check_user_id(user_id)
        if not isinstance(card_id, str) or not card_id:
            raise ValidationError("card_id must be non-empty text", field="card_id")
        return resolve_card_id(self._store, user_id, card_id)

    def get_many(self, user_id: str, card_ids: list[str]) -> list[Card]:
        """Cards of one user in the order asked; ids that do not exist are skipped."""
        check_user_id(user_id)
        rows = self._store.run("get_cards", {"user_id": user_id, "ids": list(card_ids)})
        by_id = {row["card"]["id"]: card_from_row(row) for row in rows}
        return [by_id[i] for i in card_ids if i in by_id]

    def cards(
        self,
        user_id: str,
        *,
        status: Status | str | None = Status.ACTIVE,
        limit: int = 1000,
        offset: int = 0,
    ) -> list[Card]:
        """A user's cards, newest first (``status=None`` for every status)."""
        check_user_id(user_id)
        check_range("limit", limit, 1, MAX_LIMIT)
        check_range("offset", offset, 0, MAX_OFFSET)
        statuses = None if status is None else [Status(status).value]
        ids = [
            row["id"]
            for row in self._store.run(
                "list_cards",
                {"user_id": user_id, "statuses": statuses, "skip": offset, "limit": limit},
            )
        ]
        return self.get_many(user_id, ids)

    def count(self, user_id: str) -> dict[str, int]:
        """Cards per status for one user."""
        check_user_id(user_id)
        return {
            row["status"]: row["cards"]
            for row in self._store.run("count_cards", {"user_id": user_id})
        }

    # -- the store -----------------------------------------------------------------------
    @property
    def backend(self) -> Dialect:
        """Which graph database holds this memory: ``"falkordb"`` or ``"neo4j"``."""
        return self._store.caps.dialect

    def health(self) -> bool:
        """Does the store answer (one round trip)?"""
        try:
            self._store.run("health")
        except GraphmemError:
            return False
        return True

    def export_records(
        self, user_id: str, *, with_embeddings: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Every record of ``user_id``'s memory, header first, as ``graphmem export``
        writes them (``graphmem.export``); vectors too with ``with_embeddings``."""
        from graphmem.export import records_of

        check_user_id(user_id)
        dimension = self.embedder.dimension if with_embeddings else None
        return records_of(self._store, user_id, dimension=dimension)

    def import_records(
        self,
        records: Iterable[dict[str, Any]],
        *,
        user_id: str | None = None,
        batch_size: int = 500,
    ) -> ImportReport:
        """Write exported records (checked by ``graphmem.export_format.check_export``),
        for ``user_id`` (default: the exported user); idempotent. Session turns are
        embedded anew."""
        from graphmem.export import write_records

        report = write_records(
            self._store, self.embedder, records, user_id=user_id, batch_size=batch_size
        )
        self.sessions.embed_missing(report.user_id)  # turn embeddings are derived
        self.passages.written([report.user_id])
        return report

    # -- tasks ---------------------------------------------------------------------------
    @cached_property
    def tasks(self) -> Tasks:
        """Task dependency graph per user (see graphmem.tasks)."""
        from graphmem.tasks import Tasks

        return Tasks(self._store)

    # -- the explorer --------------------------------------------------------------------
    @cached_property
    def explore(self) -> Explorer:
        """Bounded graph views of a user's memory, for the explorer page (see
        graphmem.explore)."""
        from graphmem.explore import Explorer

        return Explorer(self._store, self.tasks, self.provenance)

    # -- the agent loop: conversations, reasoning, strategies, entities ------------------
    @cached_property
    def sessions(self) -> Sessions:
        """Conversations as ordered turns: append, search, compact (graphmem.sessions)."""
        from graphmem.sessions import Sessions

        return Sessions(self, self._store)

    @cached_property
    def reasoning(self) -> Reasoning:
        """Reasoning traces, steps and tool calls (graphmem.reasoning)."""
        from graphmem.reasoning import Reasoning

        return Reasoning(self, self._store)

    @cached_property
    def strategies(self) -> Strategies:
        """Fixes for failed tool calls, learnt and applied (graphmem.strategies)."""
        from graphmem.strategies import Strategies

        return Strategies(self, self._store)

    @cached_property
    def entities(self) -> Entities:
        """People, places, organisations and their relations (graphmem.entities)."""
        from graphmem.entities import Entities

        return Entities(self, self._store)

    # -- recall --------------------------------------------------------------------------
    def recall(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 10,
        person: str | None = None,
        relationship: str | None = None,
        category: str | list[str] | None = None,
        tags: list[str] | None = None,
        since: Any = None,
        until: Any = None,
        include_superseded: bool = False,
        include_forgotten: bool = False,
        task_id: str | None = None,
        card_ids: list[str] | None = None,
        channels: Sequence[str] = CHANNELS,
        as_of: Any = None,
        known_at: Any = None,
        min_relevance: float = MIN_RELEVANCE,
    ) -> list[RecallHit]:
        """The ``k`` most useful cards of ``user_id`` for ``query``, best first.

        Hybrid (``graphmem.recall.engine``): each source turn is ranked with the cards
        extracted from it by BM25 and vector similarity, its neighbouring turns and the
        people the query is about (by name, by relationship, one hop further), then
        offers its best card, scored with recency, importance, confidence and feedback.
        Each hit says how it was found and carries a calibrated ``relevance`` in [0, 1],
        comparable across queries: hits below ``min_relevance`` are left out, so an empty
        list can mean "nothing relevant" (``graphmem.recall.scoring.RELEVANT``, 0.2, leaves
        out 95% of the best hits of questions about nothing memory holds). Filters narrow
        the candidates before ranking. Superseded and forgotten cards are left out unless
        asked for. ``task_id`` limits recall to the cards a task (and what it depends on)
        cites.

        ``as_of``: answer from what memory held true at that time, as it then knew it
        (bi-temporal: the card was valid at ``as_of`` and graphmem had learnt it by
        ``known_at``, default ``as_of``), each card as it then was; superseded and
        forgotten cards count as they stood then.
        """
        check_user_id(user_id)
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must be non-empty text", field="query")
        if not 1 <= k <= 1000:
            raise ValidationError("k must be between 1 and 1000", field="k")
        if as_of is None and known_at is not None:
            raise ValidationError("known_at needs as_of", field="known_at")
        if as_of is not None and (include_superseded or include_forgotten):
            raise ValidationError(
                "as_of answers from what memory held at that time; "
                "include_superseded/include_forgotten do not apply",
                field="as_of",
            )
        if not 0.0 <= min_relevance <= 1.0:
            raise ValidationError("min_relevance must be between 0 and 1", field="min_relevance")
        statuses = [Status.ACTIVE]
        if include_superseded:
            statuses.append(Status.SUPERSEDED)
        if include_forgotten:
            statuses.append(Status.FORGOTTEN)
        if card_ids is not None:
            card_ids = [self.resolve(user_id, card_id) for card_id in card_ids]
        if task_id is not None:
            cited = self.tasks.context_card_ids(user_id, task_id)
            card_ids = cited if card_ids is None else [i for i in card_ids if i in cited]
        filters = RecallFilters.parse(
            {
                "person": person,
                "relationship": relationship,
                "category": [category] if isinstance(category, str) else category,
                "tags": [t.lower() for t in tags] if tags else None,
                "since": _ms(since, "since"),
                "until": _ms(until, "until"),
                "statuses": statuses,
                "card_ids": card_ids,
                "as_of": _moment(as_of, "as_of"),
                "known_at": _moment(known_at, "known_at"),
            }
        )
        hits = hybrid_recall(
            self._store,
            self.embedder,
            user_id,
            query,
            k=k,
            filters=filters,
            channels=channels,
            passages=self.passages,
            min_relevance=min_relevance,
        )
        if hits:
            ids = [h.card.id for h in hits]
            self.accesses.record(user_id, ids, now_ms())
        return hits

    def context(
        self,
        user_id: str,
        query: str,
        *,
        token_budget: int = 400,
        k: int = 30,
        min_relevance: float = MIN_RELEVANCE,
    ) -> str:
        """A compact block of what memory knows that bears on ``query``, for a prompt.

        Preferences and constraints first, then rewarded strategies, then relevant facts;
        never over ``token_budget`` (estimated, see ``graphmem.recall.budget``); only
        cards at or above ``min_relevance`` (see ``recall``).
        """
        if token_budget < MIN_BUDGET:
            raise ValidationError(
                f"a token_budget of {token_budget} cannot hold a line of memory: use "
                f"{MIN_BUDGET} or more",
                field="token_budget",
            )
        hits = self.recall(user_id, query, k=k, min_relevance=min_relevance)
        return build_context(hits, token_budget)

    def provenance(self, user_id: str, card_id: str) -> CardProvenance:
        """Where a card came from and what became of it: every source turn or passage
        it was stated in, the person and relationship, the cards it superseded or that
        superseded it and conflicts (each with its reason), the abstractions that include
        it, and in words why it is superseded, forgotten or flagged."""
        card = self.get(user_id, card_id)
        row = self._store.run("card_provenance", {"user_id": user_id, "id": card.id})[0]
        sources = sorted(
            (provenance_of(s["source"], s["evidence"]) for s in row["sources"] if s.get("source")),
            key=lambda p: (p.session_date or 0, p.session_id or p.document or "", p.turn or 0),
        )
        links = {
            name: sorted(
                (CardLink.parse(link) for link in row[name] if link.get("id")),
                key=lambda link: link.id,
            )
            for name in ("supersedes", "superseded_by", "conflicts")
        }
        story = CardProvenance(
            card=card,
            source=card.source,
            sources=sources,
            person=row["person"],
            relationship=row["relationship"],
            relationship_history=row["relationship_history"] or [],
            abstractions=sorted(
                (AbstractionRef.parse(a) for a in row["abstractions"] if a.get("id")),
                key=lambda a: a.id,
            ),
            forgotten_reason=row["forgotten_reason"],
            forgotten_at=row["forgotten_at"],
            **links,
        )
        story.status_reason = status_reason(story)
        return story

    def people(self, user_id: str) -> list[Person]:
        """The user's people with their relationship (and its history) and card counts."""
        check_user_id(user_id)
        return [
            Person(
                user_id=user_id,
                name=r["name"],
                relationship=r["relationship"],
                aliases=r["aliases"] or [],
                relationship_history=r["history"] or [],
                since=r["since"],
                card_count=r["active"],
                maybe_same_as=sorted(r["maybe_same"] or []),
            )
            for r in self._store.run("people", {"user_id": user_id})
        ]

    def save_people(
        self,
        user_id: str,
        people: Iterable[Person],
        candidates: Iterable[tuple[str, str, str]] = (),
    ) -> None:
        """Store people learnt elsewhere (ingestion): aliases and relationships, the old
        relationship kept as history; ``candidates`` are (mention, known name, where)
        triples linked by MAYBE_SAME for review, never merged."""
        check_user_id(user_id)
        people = [Person.parse(p, where=f"people[{i}]") for i, p in enumerate(people)]
        candidates = [_candidate(i, *c) for i, c in enumerate(candidates)]
        now = now_ms()
        rows = [
            {
                "key": person_key(p.name),
                "name": p.name,
                "aliases": list(p.aliases),
                "relationship": p.relationship,
                "history": list(p.relationship_history),
                "since": p.since or now,
            }
            for p in people
        ]
        if rows:
            self._store.run(
                "upsert_people", {"user_id": user_id, "people": rows, "now": now}, write=True
            )
        links = [
            {"mention_key": person_key(m), "mention": m, "candidate_key": person_key(c), "where": w}
            for m, c, w in candidates
            if person_key(m) != person_key(c)
        ]
        if links:
            self._store.run(
                "link_person_candidates",
                {"user_id": user_id, "links": links, "now": now},
                write=True,
            )

    # -- consolidation -------------------------------------------------------------------
    def consolidate(
        self,
        user_id: str,
        steps: tuple[str, ...] | list[str] = ("conflicts", "abstraction", "forgetting"),
        *,
        dry_run: bool = False,
        llm: Any = None,
        progress: StepProgress | None = None,
        now: Any = None,
        capacity: int | None = None,
        threshold: float = 0.8,
        seed: int = 0,
        recluster: bool | None = None,
    ) -> ConsolidationReport:
        """Resolve conflicts, build abstractions and forget faded cards for one user.

        ``dry_run`` writes nothing and reports what would happen; ``llm`` is an optional
        langchain-core chat model; ``now`` the time to reason at (default: now). See
        ``graphmem.consolidation``.
        """
        from graphmem.consolidation import consolidate

        check_user_id(user_id)
        report = consolidate(
            self._store,
            user_id,
            steps,
            dry_run=dry_run,
            llm=llm,
            progress=progress,
            now=_ms(now, "now"),
            capacity=capacity,
            threshold=threshold,
            seed=seed,
            recluster=recluster,
        )
        if not dry_run:  # a user who shrank leaves the vector index, one who grew joins it
            self.vector_index.maintain(user_id)
        return report

    def feedback(self, user_id: str, card_id: str, signal: str | int) -> Card:
        """Thumbs "up"/"down" or a 1-5 rating: moves reward and confidence; negative
        feedback flags the card ``needs_revision``."""
        from graphmem.consolidation import feedback

        return feedback(self._store, user_id, self.resolve(user_id, card_id), signal)

    # -- readable views ------------------------------------------------------------------
    def profile(
        self, user_id: str, *, as_of: Any = None, known_at: Any = None, llm: Any = None
    ) -> Profile:
        """A readable profile of the user rendered from the graph (``graphmem.profile``):
        who they are, preferences and constraints, people, themes, recent events, open
        tasks; every line links to its card, changed values show as "(was: ...)".
        ``as_of`` / ``known_at`` as in ``recall``; ``llm`` (a langchain-core chat model)
        adds a polished wording, marked as such, in ``Profile.polished``."""
        from graphmem.profile import build, gather, polish

        check_user_id(user_id)
        at, known = _moment(as_of, "as_of"), _moment(known_at, "known_at")
        if at is None and known is not None:
            raise ValidationError("known_at needs as_of", field="known_at")
        if at is not None and known is None:
            known = at
        snapshot = gather(self._store, user_id, as_of=at, known_at=known)
        made = build(
            user_id,
            snapshot,
            self.tasks.list(user_id),
            at=now_ms() if at is None else at,
            as_of=at,
            known_at=known,
        )
        return made if llm is None else polish(made, llm)

    def export_markdown(self, user_id: str, directory: Path | str) -> MarkdownExport:
        """Write the user's memory as a folder of Markdown files (``graphmem.reflections``):
        the profile, a file per theme (abstraction) and per strategy card, each with YAML
        front matter. Exporting again writes only what changed."""
        from graphmem.profile import build, gather
        from graphmem.reflections import render_folder, write_folder

        check_user_id(user_id)
        snapshot = gather(self._store, user_id)
        tasks, at = self.tasks.list(user_id), now_ms()
        profile = build(user_id, snapshot, tasks, at=at)
        themes = build(user_id, snapshot, tasks, at=at, limits=None).themes
        return write_folder(directory, user_id, render_folder(profile, themes, snapshot))

    # -- history -------------------------------------------------------------------------
    def history(self, user_id: str, card_id: str) -> list[CardVersion]:
        """Every version of a card, oldest first: the change that made each (what changed,
        old and new values, when, which operation, decided by whom) and the card as it then
        was. A hard-forgotten card keeps its history without its text."""
        return card_history(self._store, user_id, self._expand(user_id, card_id))

    def revert(
        self, user_id: str, card_id: str, to_version: int, *, version: int | None = None
    ) -> Card:
        """Bring a card back to what it was at ``to_version`` (text, vector, fields and
        status), as a new version. ``version``: the card's current version the caller
        saw (optimistic locking: a stale one raises ``ConflictError``)."""
        card_id = self._expand(user_id, card_id)
        revert_card(
            self._store,
            self.embedder,
            user_id,
            card_id,
            to_version,
            expected_version=version,
        )
        return self.get(user_id, card_id)

    # -- forgetting ----------------------------------------------------------------------
    def forget(
        self, user_id: str, card_id: str, *, hard: bool = False, reason: str = "asked by the user"
    ) -> str:
        """Soft-forget a card (restorable), or with ``hard`` erase its text and vector;
        returns the card's full id. The turn kept whole beside a card read from part of
        it (``models.TURN``) holds the card's words: it is forgotten with it."""
        card = self.get(user_id, card_id)
        holding = f"holds the words of forgotten card {card.id}"
        for whole in self._wholes(user_id, card):
            if hard or whole["status"] == Status.ACTIVE.value:
                self.forget(user_id, whole["id"], hard=hard, reason=holding)
        if not hard:
            self._set_status(
                card,
                Status.FORGOTTEN,
                {"forgotten_reason": reason, "forgotten_at": now_ms()},
                change="forget",
                note=reason,
            )
            return card.id
        from graphmem.consolidation import resummarize

        summarised_by = [
            r["id"]
            for r in self._store.run("card_abstractions", {"user_id": user_id, "id": card.id})
        ]
        rows = self._store.run(
            "delete_card",
            {"user_id": user_id, "id": card.id, "now": now_ms(), "decided_by": CALLER},
            write=True,
        )
        self.passages.drop(user_id)  # its vector and text leave this process too, now
        shared = rows[0]["shared"] if rows else []
        kept_whole = TURN in card.tags  # its parts redact their own words from the turn
        if shared and card.source and card.source.text and card.source.span and not kept_whole:
            start, end = card.source.span
            text = card.source.text
            masked = text[:start] + "█" * (end - start) + text[end:]
            for source_id in shared:
                self._store.run(
                    "redact_source",
                    {"user_id": user_id, "id": source_id, "text": masked},
                    write=True,
                )
        resummarize(self._store, user_id, summarised_by)
        self.embedder.forget(card.embedding_text)
        self._store.purge_deleted()
        return card.id

    def forget_user(self, user_id: str, *, purge: bool = True) -> int:
        """Erase everything stored for ``user_id`` (cards, people, sessions, traces,
        tasks...), for good; the number of nodes deleted. Other users are untouched.

        ``purge`` also rewrites the store's files so no copy of the data stays on disk
        (a hard erase); without it (test isolation) the graph forgets at once and the
        files shed the old data at their next rewrite."""
        check_user_id(user_id)
        rows = self._store.run("delete_user", {"user_id": user_id}, write=True)
        self.passages.drop(user_id)
        if purge:
            self._store.purge_deleted()
        return rows[0]["deleted"] if rows else 0

    def restore(self, user_id: str, card_id: str) -> Card:
        """Bring a soft-forgotten card back: active, or superseded when a newer card
        superseded it before it was forgotten."""
        card = self.get(user_id, card_id)
        if card.status != Status.FORGOTTEN:
            raise ConflictError(f"card {card.id} is {card.status.value}, not forgotten")
        replaced = self.provenance(user_id, card.id).superseded_by
        self._set_status(
            card,
            Status.SUPERSEDED if replaced else Status.ACTIVE,
            {"forgotten_reason": None, "forgotten_at": None},
            change="restore",
        )
        holding = f"holds the words of forgotten card {card.id}"
        for whole in self._wholes(user_id, card):
            if whole["forgotten_reason"] == holding:  # forgotten with it, back with it
                self.restore(user_id, whole["id"])
        return self.get(user_id, card.id)

    def _wholes(self, user_id: str, card: Card) -> list[Row]:
        """The turn kept whole beside ``card``, read from part of it (none for a turn)."""
        if TURN in card.tags:
            return []
        return self._store.run("turn_kept_whole", {"user_id": user_id, "id": card.id})

    def _set_status(
        self,
        card: Card,
        status: Status,
        extra: dict[str, Any],
        *,
        change: str,
        note: str | None = None,
    ) -> None:
        done = self._store.run(
            "set_card_status",
            {
                "user_id": card.user_id,
                "id": card.id,
                "expected_version": card.version,
                "props": {"status": status.value, **extra},
                "now": now_ms(),
                "change": change,
                "decided_by": CALLER,
                "note": note,
            },
            write=True,
        )
        if not done:
            raise ConflictError(f"card {card.id} changed meanwhile: re-read and retry")


def _ms(value: Any, field: str) -> int | None:
    if value is None:
        return None
    try:
        return to_ms(value)
    except ValueError as exc:
        raise ValidationError(f"{field}: {exc}", field=field) from None


def _moment(value: Any, field: str) -> int | None:
    """A point in time for ``as_of`` / ``known_at``: any time ``_ms`` reads, or "now" (so
    ``as_of=T, known_at="now"`` asks what was true at T by what memory knows today)."""
    if isinstance(value, str) and value.strip().lower() == "now":
        return now_ms()
    return _ms(value, field)


def _candidate(index: int, mention: str, known: str, where: str) -> tuple[str, str, str]:
    """A (mention, known name, where) triple whose names can become person keys."""
    try:
        return person_name(mention), person_name(known), where
    except ValueError as exc:
        raise ValidationError(f"candidates[{index}]: {exc}", field=f"candidates[{index}]") from None
