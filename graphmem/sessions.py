"""Conversations: a user's sessions as ordered turns, searchable, compacted past a budget.

A turn is the ``(:Source {session_id, turn, speaker, text})-[:IN]->(:Session)`` node that
ingestion writes for the turn a card came from: its id is ``Provenance.source_id`` of
(session, turn index), so a card extracted from turn 7 of session ``s1`` -- by
ingestion or by ``compact`` -- cites the very node ``append`` wrote. One provenance model.
Turns also carry ``role``, ``timestamp``, ``metadata`` (JSON) and an embedding of
``[day] speaker: text`` for search.

Turn indexes only grow within a session (a counter on the Session node, written with a
compare-and-set so concurrent appends never share an index), so a turn id is never
reused: a card citing a deleted turn never starts citing a new one.

Deleting a turn removes it from the conversation. Its text is erased; the node itself
stays as a tombstone only when a card or the session summary still cites it (so their
provenance still says "session s1, turn 7"), otherwise it goes entirely.

``compact(user, session, budget_tokens)`` keeps a session's live window -- the running
summary plus the turns after it -- within a token budget: the oldest turns are folded
into the summary (extractive by default, a langchain-core chat model optionally) and
their durable facts become cards (spaCy extraction, or the LLM extractor), each citing
its turn. A cursor on the summary (``through``: the last turn folded) makes every turn
folded exactly once: a turn is either in the buffer or ``SUMMARIZES``-linked to the one
summary, and re-running ``compact`` on a window that fits changes nothing.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import pydantic
from pydantic import ConfigDict, Field, field_validator

from graphmem.algorithms.summary import line_tokens, summarize_lines
from graphmem.errors import ConflictError, NotFoundError, ValidationError
from graphmem.models import (
    MAX_INT,
    MAX_LIMIT,
    MAX_TURN,
    InputModel,
    Model,
    Provenance,
    check_range,
    check_user_id,
)
from graphmem.recall.vector import wire_vector
from graphmem.timeutil import now_ms, to_iso, to_ms

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.store.base import GraphStore

#: Smallest budget ``compact`` accepts: room for a header and a sentence or two.
MIN_BUDGET = 32
#: Share of the budget kept for the newest turns, verbatim; the summary gets the rest.
BUFFER_SHARE = 0.5
#: Compare-and-set attempts when other writers append to the same session meanwhile.
MAX_ATTEMPTS = 8
SUMMARY_EXTRACTOR = "extractive/1"
HEADER_PREFIX = "[summary of session "
#: "No limit" for queries (FalkorDB returns nothing for a LIMIT near 2**63).
ALL = 10**9

SessionId = pydantic.constr(min_length=1, max_length=256, pattern=r"^[^\x00-\x1f\x7f]+$")


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


_VERBATIM = ConfigDict(
    extra="forbid", allow_inf_nan=False, str_strip_whitespace=False, validate_assignment=True
)


class NewTurn(InputModel):
    """One turn to append. The text is kept exactly as given (whitespace included)."""

    model_config = ConfigDict(
        extra="forbid",
        allow_inf_nan=False,
        str_strip_whitespace=False,
        validate_assignment=True,
        json_schema_extra={
            "examples": [
                {"role": "user", "text": "My sister Alice is allergic to peanuts."},
                {"role": "assistant", "text": "Noted.", "metadata": {"model": "gpt"}},
            ]
        },
    )

    role: Role
    text: str = Field(max_length=MAX_TURN)
    speaker: str | None = Field(
        None, min_length=1, max_length=256, description="Who spoke (default: the role)."
    )
    timestamp: int | None = Field(None, description="When it was said (default: now).")
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("timestamp", mode="before")
    @classmethod
    def _time(cls, value: Any) -> int | None:
        return None if value is None else to_ms(value)

    @field_validator("metadata", mode="after")
    @classmethod
    def _json(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"metadata must be JSON data: {exc}") from None
        return value


class SessionTurn(Model):
    """A turn as stored."""

    model_config = _VERBATIM

    id: str = Field(description="The turn's Source id (same as cards' provenance).")
    user_id: str
    session_id: str
    turn: int = Field(ge=0, le=MAX_INT, description="Index in the session, from 0.")
    role: str | None = None
    speaker: str
    text: str
    timestamp: int | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    compacted: bool = Field(False, description="Folded into the session summary.")

    @property
    def line(self) -> str:
        """The turn as one line of a prompt window."""
        return f"{self.speaker}: {self.text}"


class TurnHit(Model):
    """A turn found by ``search``, with its cosine similarity to the query."""

    turn: SessionTurn
    score: float


class SessionInfo(Model):
    """A session with its live turn count and its summary, if compacted."""

    user_id: str
    session_id: str
    turns: int = 0
    created_at: int | None = None
    updated_at: int | None = None
    title: str | None = None
    summary: str | None = None
    compacted_through: int | None = Field(None, description="Last turn folded into summary.")


class Window(Model):
    """What a prompt needs of a session: the summary of older turns, the newer ones."""

    model_config = _VERBATIM

    summary: str | None = None
    turns: list[SessionTurn] = Field(default_factory=list)

    @property
    def tokens(self) -> int:
        """Estimated tokens of the window as ``text`` renders it."""
        return sum(line_tokens(line) for line in self._lines())

    @property
    def text(self) -> str:
        return "\n".join(self._lines())

    def _lines(self) -> list[str]:
        return ([self.summary] if self.summary else []) + [t.line for t in self.turns]


class Compaction(Model):
    """What one ``compact`` call did."""

    user_id: str
    session_id: str
    folded: list[int] = Field(default_factory=list, description="Turn indexes folded now.")
    cards: list[str] = Field(default_factory=list, description="Ids of cards extracted.")
    summary: str | None = None
    through: int | None = Field(None, description="Last turn in the summary.")
    buffer: list[int] = Field(default_factory=list, description="Turns kept verbatim.")
    tokens: int = Field(0, description="Estimated tokens of the window after compaction.")
    extractor: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.folded)


def turn_id(session_id: str, turn: int) -> str:
    """The Source id of a session's turn: the one ingestion's provenance gives it."""
    source_id = Provenance(session_id=session_id, turn=turn).source_id
    assert source_id is not None
    return source_id


def _embedding_text(speaker: str, text: str, timestamp: int) -> str:
    """What search embeds: the speaker and day help every retriever (measured on LoCoMo
    turns: docs/design.md, "Recall and its ranking")."""
    return f"[{to_iso(timestamp)[:10]}] {speaker}: {text}"


def _session_id(session_id: Any) -> str:
    try:
        return pydantic.TypeAdapter(SessionId).validate_python(session_id)
    except pydantic.ValidationError as exc:
        raise ValidationError.from_pydantic(exc, prefix="session_id") from None


def _turn_from_row(user_id: str, props: Mapping[str, Any], compacted: bool) -> SessionTurn:
    metadata = props.get("metadata")
    return SessionTurn(
        id=props["id"],
        user_id=user_id,
        session_id=props["session_id"],
        turn=props["turn"],
        role=props.get("role"),
        speaker=props.get("speaker") or props.get("role") or "unknown",
        text=props.get("text") or "",
        timestamp=props.get("timestamp") or props.get("session_date"),
        metadata=json.loads(metadata) if metadata else {},
        compacted=bool(compacted),
    )


class Sessions:
    """A user's conversations (``Memory.sessions``)."""

    def __init__(self, memory: Memory, store: GraphStore) -> None:
        self._memory = memory
        self._store = store
        self._embedder = memory.embedder

    # -- writing ----------------------------------------------------------------------
    def append(
        self,
        user_id: str,
        session_id: str,
        role: Role | str,
        text: str,
        ts: Any = None,
        *,
        speaker: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> SessionTurn:
        """Append one turn; the session is created on its first turn."""
        turn = {"role": role, "text": text, "timestamp": ts, "speaker": speaker}
        return self.append_many(user_id, session_id, [{**turn, "metadata": metadata or {}}])[0]

    def append_many(
        self, user_id: str, session_id: str, turns: Iterable[NewTurn | Mapping[str, Any]]
    ) -> list[SessionTurn]:
        """Append turns in order, all or nothing (validated, then one write)."""
        check_user_id(user_id)
        session_id = _session_id(session_id)
        parsed = [NewTurn.parse(t, where=f"turns[{i}]") for i, t in enumerate(turns)]
        if not parsed:
            return []
        now = now_ms()
        stamps = [t.timestamp if t.timestamp is not None else now for t in parsed]
        speakers = [t.speaker or t.role.value for t in parsed]
        vectors = self._embedder.embed(
            [
                _embedding_text(s, t.text, when)
                for s, t, when in zip(speakers, parsed, stamps, strict=True)
            ]
        )
        sizes = [
            len(t.text.encode()) + (len(json.dumps(t.metadata).encode()) if t.metadata else 0)
            for t in parsed
        ]
        with self._memory.quotas.guard(user_id, added_bytes=sum(sizes)):
            for _ in range(MAX_ATTEMPTS):
                written = self._write_turns(
                    user_id=user_id,
                    session_id=session_id,
                    parsed=parsed,
                    speakers=speakers,
                    stamps=stamps,
                    sizes=sizes,
                    vectors=vectors,
                    now=now,
                )
                if written is not None:
                    return written
        raise ConflictError(
            f"session {session_id!r} of user {user_id!r} kept changing while appending; retry"
        )

    def _write_turns(
        self,
        *,
        user_id: str,
        session_id: str,
        parsed: Sequence[NewTurn],
        speakers: Sequence[str],
        stamps: Sequence[int],
        sizes: Sequence[int],
        vectors: Any,
        now: int,
    ) -> list[SessionTurn] | None:
        """One compare-and-set attempt; None when another writer took the indexes."""
        [state] = self._store.run(
            "session_next_turn", {"user_id": user_id, "session_id": session_id}
        )
        counter = state["counter"]
        first = max(counter or 0, (state["last"] + 1) if state["last"] is not None else 0)
        rows: list[dict[str, Any]] = []
        for i, (turn, speaker, when, size, vector) in enumerate(
            zip(parsed, speakers, stamps, sizes, vectors, strict=True)
        ):
            props = {
                "session_id": session_id,
                "turn": first + i,
                "role": turn.role.value,
                "speaker": speaker,
                "text": turn.text,
                "timestamp": when,
                "metadata": json.dumps(turn.metadata) if turn.metadata else None,
                "size": size,
            }
            rows.append(
                {
                    "id": turn_id(session_id, first + i),
                    "props": {k: v for k, v in props.items() if v is not None},
                    "embedding": wire_vector(vector),
                }
            )
        written = self._store.run(
            "session_append",
            {
                "user_id": user_id,
                "session_id": session_id,
                "expected": -1 if counter is None else counter,
                "next": first + len(rows),
                "rows": rows,
                "now": now,
            },
            write=True,
        )
        if not written:
            return None
        return [_turn_from_row(user_id, {"id": r["id"], **r["props"]}, False) for r in rows]

    def embed_missing(self, user_id: str, *, batch: int = 256) -> int:
        """Embed the user's session turns that have no search embedding yet (turns
        written by ingestion, or imported); the number embedded."""
        check_user_id(user_id)
        done = 0
        while True:
            rows = self._store.run("session_unembedded", {"user_id": user_id, "limit": batch})
            if not rows:
                return done
            vectors = self._embedder.embed(
                [_embedding_text(r["speaker"] or "", r["text"], r["timestamp"]) for r in rows]
            )
            self._store.run(
                "session_set_embeddings",
                {
                    "user_id": user_id,
                    "rows": [
                        {"id": r["id"], "embedding": wire_vector(v)}
                        for r, v in zip(rows, vectors, strict=True)
                    ],
                },
                write=True,
            )
            done += len(rows)

    def delete_turn(self, user_id: str, turn_id: str) -> bool:
        """Remove a turn from its conversation; False if there is no such live turn.

        Its text is erased; a card or summary that cites it keeps a tombstone with the
        session and turn index, so their provenance still resolves."""
        check_user_id(user_id)
        rows = self._store.run(
            "session_delete_turn", {"user_id": user_id, "id": turn_id, "now": now_ms()}, write=True
        )
        return bool(rows)

    def clear(self, user_id: str, session_id: str) -> int:
        """Remove every turn and the summary of a session; the number of turns removed.

        Cards extracted from the session stay (they are long-term memory); the turns
        they cite become tombstones. Clearing an empty or unknown session is a no-op."""
        check_user_id(user_id)
        session_id = _session_id(session_id)
        rows = self._store.run(
            "session_clear",
            {"user_id": user_id, "session_id": session_id, "now": now_ms()},
            write=True,
        )
        return rows[0]["cleared"] if rows else 0

    # -- reading ----------------------------------------------------------------------
    def turns(
        self,
        user_id: str,
        session_id: str,
        *,
        limit: int | None = None,
        after: int | None = None,
    ) -> list[SessionTurn]:
        """A session's live turns in order: the most recent ``limit`` of them (all when
        None), only those after turn index ``after`` if given. Unknown session: []."""
        check_user_id(user_id)
        session_id = _session_id(session_id)
        if limit is not None:
            check_range("limit", limit, 1, MAX_LIMIT)
        if after is not None:
            check_range("after", after, -1, MAX_INT)
        rows = self._store.run(
            "session_turns",
            {
                "user_id": user_id,
                "session_id": session_id,
                "after": -1 if after is None else after,
                "limit": ALL if limit is None else limit,
            },
        )
        found = [_turn_from_row(user_id, r["turn"], r["compacted"]) for r in rows]
        return sorted(found, key=lambda t: t.turn)

    def get_turn(self, user_id: str, turn_id: str) -> SessionTurn:
        """One live turn by id; ``NotFoundError`` if absent or deleted."""
        check_user_id(user_id)
        rows = self._store.run("session_get_turn", {"user_id": user_id, "id": turn_id})
        if not rows:
            raise NotFoundError(f"no turn {turn_id!r} for user {user_id!r}")
        return _turn_from_row(user_id, rows[0]["turn"], rows[0]["compacted"])

    def info(self, user_id: str, session_id: str) -> SessionInfo | None:
        """One session, or None when it holds no turn and no summary."""
        found = self._infos(user_id, _session_id(session_id), 1)
        return found[0] if found else None

    def list(self, user_id: str, *, limit: int = 100) -> list[SessionInfo]:
        """A user's sessions that hold turns or a summary, most recently active first."""
        check_range("limit", limit, 1, MAX_LIMIT)
        return self._infos(user_id, None, limit)

    def _infos(
        self, user_id: str, session_id: str | None, limit: int
    ) -> builtins.list[SessionInfo]:
        check_user_id(user_id)
        return [
            SessionInfo(
                user_id=user_id,
                session_id=r["session"]["id"],
                turns=r["turns"],
                created_at=r["session"].get("created_at") or r["first"] or r["session"].get("date"),
                updated_at=r["session"].get("updated_at") or r["last"],
                title=r["session"].get("title"),
                summary=r["summary"],
                compacted_through=r["through"],
            )
            for r in self._store.run(
                "session_list", {"user_id": user_id, "session_id": session_id, "limit": limit}
            )
        ]

    def search(
        self,
        user_id: str,
        query: str,
        *,
        session_id: str | None = None,
        k: int = 10,
        min_score: float | None = None,
    ) -> builtins.list[TurnHit]:
        """Turns most similar to ``query`` (cosine of MiniLM embeddings), best first;
        in one session or across all of the user's sessions; at least ``min_score``."""
        check_user_id(user_id)
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must be non-empty text", field="query")
        if not 1 <= k <= 1000:
            raise ValidationError("k must be between 1 and 1000", field="k")
        [vector] = self._embedder.embed([query])
        rows = self._store.run(
            "session_search",
            {
                "user_id": user_id,
                "session_id": None if session_id is None else _session_id(session_id),
                "vector": wire_vector(vector),
                "min_score": -1.0 if min_score is None else float(min_score),
                "k": k,
            },
        )
        hits = [
            TurnHit(turn=_turn_from_row(user_id, r["turn"], r["compacted"]), score=r["score"])
            for r in rows
        ]
        return sorted(hits, key=lambda h: (-h.score, h.turn.session_id, h.turn.turn))

    def window(self, user_id: str, session_id: str) -> Window:
        """The session as a prompt sees it after compaction: summary + newer turns."""
        state = self._summary(user_id, session_id)
        after = state["through"] if state else None
        return Window(
            summary=state["text"] if state else None,
            turns=self.turns(user_id, session_id, after=after),
        )

    def _summary(self, user_id: str, session_id: str) -> dict[str, Any] | None:
        check_user_id(user_id)
        rows = self._store.run(
            "session_summary", {"user_id": user_id, "session_id": _session_id(session_id)}
        )
        return rows[0] if rows else None

    # -- compaction -------------------------------------------------------------------
    def compact(
        self, user_id: str, session_id: str, budget_tokens: int, *, llm: Any = None
    ) -> Compaction:
        """Keep the session's window (summary + newer turns) within ``budget_tokens``.

        When it is over, the oldest turns past the cursor are folded: their facts are
        extracted into cards (spaCy, or ``llm``'s structured extraction with spaCy as
        fallback) and they join the running summary (extractive, or written by ``llm``,
        falling back to extractive when the reply is unusable or too long). The newest
        turns worth ``BUFFER_SHARE`` of the budget stay verbatim. A window that fits is
        left as it is, so compacting twice changes nothing.
        """
        if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int):
            raise ValidationError("budget_tokens must be an integer", field="budget_tokens")
        if budget_tokens < MIN_BUDGET:
            raise ValidationError(
                f"budget_tokens must be at least {MIN_BUDGET}", field="budget_tokens"
            )
        for _ in range(MAX_ATTEMPTS):
            done = self._compact_once(user_id, session_id, budget_tokens, llm)
            if done is not None:
                return done
        raise ConflictError(f"session {session_id!r} kept being compacted meanwhile; retry")

    def _compact_once(
        self, user_id: str, session_id: str, budget: int, llm: Any
    ) -> Compaction | None:
        state = self._summary(user_id, session_id)
        previous = state["text"] if state else None
        through = state["through"] if state else None
        live = self.turns(user_id, session_id, after=through)
        summary_cost = line_tokens(previous) if previous else 0
        costs = [line_tokens(t.line) for t in live]
        outcome = Compaction(
            user_id=user_id,
            session_id=session_id,
            summary=previous,
            through=through,
            buffer=[t.turn for t in live],
            tokens=summary_cost + sum(costs),
            extractor=state["extractor"] if state else None,
        )
        if outcome.tokens <= budget:
            return outcome
        kept, used = 0, 0
        for cost in reversed(costs):
            if used + cost > int(budget * BUFFER_SHARE):
                break
            kept, used = kept + 1, used + cost
        fold, buffer = live[: len(live) - kept], live[len(live) - kept :]
        cards = self._extract(user_id, fold, llm) if fold else []
        header = _header(session_id, through, fold)
        summary, extractor = self._summarize(previous, fold, budget - used, header, llm)
        new_through = fold[-1].turn if fold else through
        written = self._store.run(
            "session_fold",
            {
                "user_id": user_id,
                "session_id": session_id,
                "expected": -1 if through is None else through,
                "through": -1 if new_through is None else new_through,
                "text": summary,
                "extractor": extractor,
                "ids": [t.id for t in fold],
                "card_ids": cards,
                "now": now_ms(),
            },
            write=True,
        )
        if not written:
            return None  # another compaction moved the cursor: start over from it
        return outcome.model_copy(
            update={
                "folded": [t.turn for t in fold],
                "cards": cards,
                "summary": summary,
                "through": new_through,
                "buffer": [t.turn for t in buffer],
                "tokens": (line_tokens(summary) if summary else 0) + used,
                "extractor": extractor,
            }
        )

    def _extract(self, user_id: str, fold: Sequence[SessionTurn], llm: Any) -> builtins.list[str]:
        """Ids of the cards from the folded turns, written through ingestion's one path
        (idempotent: same content, same card; the people learnt are stored too)."""
        from ingestion.loaders import Turn
        from ingestion.pipeline import ingest_turns

        turns = [
            Turn(
                session_id=t.session_id,
                turn=t.turn,
                speaker=t.speaker,
                text=t.text,
                timestamp=t.timestamp,
            )
            for t in fold
            if t.text
        ]
        return ingest_turns(self._memory, turns, user_id, llm=llm).ids if turns else []

    def _summarize(
        self,
        previous: str | None,
        fold: Sequence[SessionTurn],
        budget: int,
        header: str,
        llm: Any,
    ) -> tuple[str, str]:
        lines = [(t.speaker, t.text) for t in fold]
        if previous and previous.startswith(HEADER_PREFIX):  # the header is rewritten
            previous = previous.partition("\n")[2]
        if llm is not None:
            written = _llm_summary(llm, previous, lines, budget)
            if written is not None:
                return written
        return (
            summarize_lines(lines, budget, previous=previous, header=header),
            SUMMARY_EXTRACTOR,
        )


def _header(session_id: str, through: int | None, fold: Sequence[SessionTurn]) -> str:
    last = fold[-1].turn if fold else through
    return f"{HEADER_PREFIX}{session_id}, turns 0-{last}]"


def _llm_summary(
    llm: Any, previous: str | None, lines: Sequence[tuple[str, str]], budget: int
) -> tuple[str, str] | None:
    """A summary written by a chat model, or None when it fails or runs over budget."""
    from graphmem.llm import decided_by

    words = max(10, int(budget * 0.6))
    prompt = [
        (
            "system",
            "You keep a running summary of a conversation for an assistant's memory. "
            f"Write at most {words} words: who said what that matters later (facts, "
            "decisions, preferences, open questions). Plain sentences, no preamble.",
        ),
        (
            "human",
            f"Summary so far:\n{previous or '(none)'}\n\nNew turns:\n"
            + "\n".join(f"{speaker}: {text}" for speaker, text in lines),
        ),
    ]
    try:
        reply = llm.invoke(prompt)
    except Exception:  # any provider failure: the extractive summary loses nothing
        return None
    text = reply.text if hasattr(reply, "text") else str(reply)
    text = text.strip() if isinstance(text, str) else ""
    if not text or line_tokens(text) > budget:
        return None
    return text, decided_by(llm)
