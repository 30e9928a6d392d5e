"""graphmem behind Neo4j Labs' agent-memory TCK: its ``BaseAdapter`` over graphmem's API.

The kit (``neo4j-agent-memory-tck``, package ``tck``) is an optional dependency: ``make
tck`` installs it from ``TCK_DIR`` and runs its scenarios against ``graphmem bridge``,
which serves this adapter over the kit's HTTP bridge protocol, so the kit's clients in
five languages can use graphmem too. The kit is single-tenant; the adapter serves one
graphmem user (``user_id``, default ``tck``).

How the kit's model maps onto graphmem's (one memory, not a copy beside it):

============== ===============================================================
kit            graphmem
============== ===============================================================
message        a session turn (``Memory.sessions``): the Source node ingestion
               writes; its 24-hex id is shown as a UUID (zero-padded)
conversation   a Session; its id is a UUID5 of (user, session id)
entity         ``Memory.entities``: a person is the Person node cards are about
preference     a card, category ``preference``, tag ``topic:<category>``, the
               context as its backstory
fact           a card carrying its (subject, predicate, object) triple
trace, step,   ``Memory.reasoning``
tool call
============== ===============================================================

Blocking graphmem calls run in worker threads so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

try:
    from tck.adapters.base_adapter import (
        BaseAdapter,
        TCKConversation,
        TCKEntity,
        TCKFact,
        TCKMessage,
        TCKPreference,
        TCKReasoningStep,
        TCKReasoningTrace,
        TCKRelationship,
        TCKSessionInfo,
        TCKToolCall,
        TCKToolStats,
        ToolCallStatus,
    )
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "graphmem.integrations.agent_memory needs Neo4j Labs' agent-memory TCK "
        "(package 'tck'): `make tck` installs it from TCK_DIR "
        "(default ../shared/vendor/agent-memory-tck)"
    ) from exc

from graphmem.entities import Entity
from graphmem.errors import NotFoundError
from graphmem.memory import Memory
from graphmem.models import Card, Category
from graphmem.reasoning import Step, ToolCall, Trace
from graphmem.sessions import SessionTurn
from graphmem.timeutil import ms_to_datetime, now_ms

T = TypeVar("T")
#: Namespace of conversation ids (UUID5 of user and session id).
CONVERSATIONS = uuid.UUID("6f1b3c52-3a57-4b0e-9a55-67a1f1a3b9d2")
PADDING = "0" * 8
TOPIC = "topic:"


def message_uuid(turn_id: str) -> uuid.UUID:
    """A turn's 24-hex Source id as the UUID the kit wants (zero-padded)."""
    return uuid.UUID(hex=turn_id + PADDING)


def turn_id_of(message_id: uuid.UUID | str) -> str | None:
    """The turn id behind a message UUID, None when it is not one of ours."""
    hex_id = uuid.UUID(str(message_id)).hex
    return hex_id[:24] if hex_id.endswith(PADDING) else None


def conversation_uuid(user_id: str, session_id: str) -> uuid.UUID:
    return uuid.uuid5(CONVERSATIONS, f"{user_id}\x00{session_id}")


def _time(ms: int | None) -> datetime:
    return ms_to_datetime(ms if ms is not None else now_ms())


def _message(turn: SessionTurn) -> TCKMessage:
    return TCKMessage(
        id=message_uuid(turn.id),
        role=turn.role or turn.speaker,
        content=turn.text,
        timestamp=_time(turn.timestamp),
        metadata=turn.metadata,
    )


def _entity(entity: Entity) -> TCKEntity:
    return TCKEntity(
        id=uuid.UUID(entity.id),
        name=entity.name,
        type=entity.type,
        description=entity.description,
        canonical_name=entity.name,
        created_at=_time(entity.created_at),
    )


def _preference(card: Card) -> TCKPreference:
    topic = next((t.removeprefix(TOPIC) for t in card.tags if t.startswith(TOPIC)), "")
    return TCKPreference(
        id=uuid.UUID(hex=card.id),
        category=topic,
        preference=card.fact,
        context=card.backstory or None,
    )


def _call(call: ToolCall) -> TCKToolCall:
    return TCKToolCall(
        id=uuid.UUID(call.id),
        tool_name=call.tool,
        arguments=call.arguments,
        result=call.result,
        status=ToolCallStatus(call.status.value),
        duration_ms=call.duration_ms,
        error=call.error,
    )


def _step(step: Step) -> TCKReasoningStep:
    return TCKReasoningStep(
        id=uuid.UUID(step.id),
        trace_id=uuid.UUID(step.trace_id),
        step_number=step.number,
        thought=step.thought,
        action=step.action,
        observation=step.observation,
        tool_calls=[_call(c) for c in step.tool_calls],
    )


def _trace(trace: Trace) -> TCKReasoningTrace:
    return TCKReasoningTrace(
        id=uuid.UUID(trace.id),
        session_id=trace.session_id or "",
        task=trace.task,
        steps=[_step(s) for s in trace.steps],
        outcome=trace.outcome,
        success=trace.success,
        started_at=_time(trace.started_at),
        completed_at=_time(trace.completed_at) if trace.completed_at is not None else None,
    )


class GraphmemAdapter(BaseAdapter):
    """The kit's ``BaseAdapter`` over one graphmem user's memory.

    Pass an open ``Memory`` (left open at teardown), or a ``home`` for ``setup`` to open
    (and ``teardown`` to close).
    """

    def __init__(
        self,
        memory: Memory | None = None,
        *,
        home: Path | str | None = None,
        user_id: str = "tck",
    ) -> None:
        self._memory = memory
        self._owned = memory is None
        self._home = home
        self.user_id = user_id

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            raise RuntimeError("the adapter is not set up: call setup() first")
        return self._memory

    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(partial(fn, *args, **kwargs))

    # -- lifecycle --------------------------------------------------------------------
    async def setup(self) -> None:
        if self._memory is None:
            self._memory = await self._run(Memory.open, self._home)

    async def teardown(self) -> None:
        if self._owned and self._memory is not None:
            await self._run(self._memory.close)
            self._memory = None

    async def clear_all_data(self) -> None:
        # Test isolation, not a privacy erase: no rewrite of the store's files.
        await self._run(self.memory.forget_user, self.user_id, purge=False)

    # -- short-term memory ------------------------------------------------------------
    async def add_message(
        self,
        session_id: str,
        role: str,
        content: str,
        *,
        metadata: dict[str, Any] | None = None,
    ) -> TCKMessage:
        turn = await self._run(
            self.memory.sessions.append,
            self.user_id,
            session_id,
            role,
            content,
            metadata=metadata or {},
        )
        return _message(turn)

    async def get_conversation(
        self, session_id: str, *, limit: int | None = None
    ) -> TCKConversation:
        sessions = self.memory.sessions
        turns = await self._run(sessions.turns, self.user_id, session_id, limit=limit)
        info = await self._run(sessions.info, self.user_id, session_id)
        return TCKConversation(
            id=conversation_uuid(self.user_id, session_id),
            session_id=session_id,
            messages=[_message(t) for t in turns],
            title=info.title if info else None,
            created_at=_time(info.created_at if info else None),
            updated_at=_time(info.updated_at) if info and info.updated_at else None,
        )

    async def search_messages(
        self,
        query: str,
        *,
        session_id: str | None = None,
        limit: int = 10,
        threshold: float = 0.7,
    ) -> list[TCKMessage]:
        hits = await self._run(
            self.memory.sessions.search,
            self.user_id,
            query,
            session_id=session_id,
            k=limit,
            min_score=threshold,
        )
        return [_message(h.turn) for h in hits]

    async def list_sessions(self, *, limit: int = 100) -> list[TCKSessionInfo]:
        found = await self._run(self.memory.sessions.list, self.user_id, limit=limit)
        return [
            TCKSessionInfo(
                session_id=s.session_id,
                message_count=s.turns,
                created_at=_time(s.created_at),
                updated_at=_time(s.updated_at) if s.updated_at else None,
            )
            for s in found
        ]

    async def delete_message(self, message_id: uuid.UUID) -> bool:
        turn_id = turn_id_of(message_id)
        if turn_id is None:
            return False
        return await self._run(self.memory.sessions.delete_turn, self.user_id, turn_id)

    async def clear_session(self, session_id: str) -> None:
        await self._run(self.memory.sessions.clear, self.user_id, session_id)

    # -- long-term memory -------------------------------------------------------------
    async def add_entity(
        self, name: str, entity_type: str, *, description: str | None = None
    ) -> TCKEntity:
        entity = await self._run(
            self.memory.entities.add, self.user_id, name, entity_type, description=description
        )
        return _entity(entity)

    async def add_preference(
        self, category: str, preference: str, *, context: str | None = None
    ) -> TCKPreference:
        card = Card(
            user_id=self.user_id,
            fact=preference,
            backstory=context or "",
            category=Category.PREFERENCE,
            tags=[f"{TOPIC}{category}"],
        )
        return _preference(await self._run(self.memory.remember, card))

    async def add_fact(self, subject: str, predicate: str, obj: str) -> TCKFact:
        card = await self._run(self.memory.entities.add_fact, self.user_id, subject, predicate, obj)
        assert card.triple is not None
        return TCKFact(
            id=uuid.UUID(hex=card.id),
            subject=card.triple[0],
            predicate=card.triple[1],
            object=card.triple[2],
        )

    async def search_entities(self, query: str, *, limit: int = 10) -> list[TCKEntity]:
        hits = await self._run(self.memory.entities.search, self.user_id, query, k=limit)
        return [_entity(h.entity) for h in hits]

    async def search_preferences(
        self, query: str, *, category: str | None = None, limit: int = 10
    ) -> list[TCKPreference]:
        hits = await self._run(
            self.memory.recall,
            self.user_id,
            query,
            k=limit,
            category=Category.PREFERENCE.value,
            tags=[f"{TOPIC}{category}"] if category else None,
        )
        return [_preference(h.card) for h in hits]

    async def get_entity_by_name(self, name: str) -> TCKEntity | None:
        entity = await self._run(self.memory.entities.by_name, self.user_id, name)
        return _entity(entity) if entity is not None else None

    async def get_related_entities(
        self,
        entity_id: uuid.UUID,
        *,
        relationship_type: str | None = None,
        depth: int = 1,
    ) -> list[TCKEntity]:
        try:
            found = await self._run(
                self.memory.entities.related,
                self.user_id,
                str(entity_id),
                type=relationship_type,
                depth=depth,
            )
        except NotFoundError:
            return []
        return [_entity(e) for e in found]

    # -- reasoning memory -------------------------------------------------------------
    async def start_trace(self, session_id: str, task: str) -> TCKReasoningTrace:
        trace = await self._run(
            self.memory.reasoning.start, self.user_id, task, session_id=session_id
        )
        return _trace(trace)

    async def add_step(
        self,
        trace_id: uuid.UUID,
        *,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> TCKReasoningStep:
        step = await self._run(
            self.memory.reasoning.step,
            self.user_id,
            str(trace_id),
            thought=thought,
            action=action,
            observation=observation,
        )
        return _step(step)

    async def record_tool_call(
        self,
        step_id: uuid.UUID,
        tool_name: str,
        arguments: dict[str, Any],
        *,
        result: Any = None,
        status: ToolCallStatus = ToolCallStatus.SUCCESS,
        duration_ms: int | None = None,
        error: str | None = None,
    ) -> TCKToolCall:
        call = await self._run(
            self.memory.reasoning.tool_call,
            self.user_id,
            str(step_id),
            tool_name,
            arguments,
            result=result,
            status=ToolCallStatus(status).value,
            duration_ms=duration_ms,
            error=error,
        )
        return _call(call)

    async def complete_trace(
        self,
        trace_id: uuid.UUID,
        *,
        outcome: str | None = None,
        success: bool | None = None,
    ) -> TCKReasoningTrace:
        trace = await self._run(
            self.memory.reasoning.complete,
            self.user_id,
            str(trace_id),
            outcome=outcome,
            success=success,
        )
        return _trace(trace)

    async def get_trace_with_steps(self, trace_id: uuid.UUID) -> TCKReasoningTrace | None:
        try:
            trace = await self._run(self.memory.reasoning.get, self.user_id, str(trace_id))
        except NotFoundError:
            return None
        return _trace(trace)

    async def list_traces(
        self, *, session_id: str | None = None, limit: int = 100
    ) -> list[TCKReasoningTrace]:
        traces = await self._run(
            self.memory.reasoning.list, self.user_id, session_id=session_id, limit=limit
        )
        return [_trace(t) for t in traces]

    async def get_tool_stats(self, tool_name: str | None = None) -> list[TCKToolStats]:
        stats = await self._run(self.memory.reasoning.tool_stats, self.user_id, tool_name)
        return [
            TCKToolStats(
                name=s.tool,
                total_calls=s.calls,
                successful_calls=s.succeeded,
                failed_calls=s.failed,
                success_rate=s.success_rate,
                avg_duration_ms=s.avg_duration_ms,
            )
            for s in stats
        ]

    # -- gold: cross-memory -----------------------------------------------------------
    async def add_relationship(
        self,
        source_id: uuid.UUID,
        target_id: uuid.UUID,
        relationship_type: str,
        *,
        properties: dict[str, Any] | None = None,
    ) -> TCKRelationship:
        relation = await self._run(
            self.memory.entities.relate,
            self.user_id,
            str(source_id),
            str(target_id),
            relationship_type,
            properties=properties,
        )
        return TCKRelationship(
            id=uuid.UUID(relation.id),
            source_id=uuid.UUID(relation.source_id),
            target_id=uuid.UUID(relation.target_id),
            relationship_type=relation.type,
            properties=relation.properties,
        )

    async def merge_duplicate_entities(
        self,
        source_id: uuid.UUID,
        target_id: uuid.UUID,
        *,
        canonical_name: str | None = None,
    ) -> TCKEntity:
        merged = await self._run(
            self.memory.entities.merge,
            self.user_id,
            str(source_id),
            str(target_id),
            name=canonical_name,
        )
        return _entity(merged)

    async def get_similar_traces(
        self, task: str, *, limit: int = 5, success_only: bool = True
    ) -> list[TCKReasoningTrace]:
        hits = await self._run(
            self.memory.reasoning.similar,
            self.user_id,
            task,
            k=limit,
            success_only=success_only,
        )
        return [_trace(h.trace) for h in hits]


__all__ = ["GraphmemAdapter", "conversation_uuid", "message_uuid", "turn_id_of"]
