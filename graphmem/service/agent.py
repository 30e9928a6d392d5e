"""HTTP routes of the agent loop: conversations, reasoning traces, strategies, quotas.

Same shape as the rest of the API (``graphmem.service.http``): under
``/v1/users/{user_id}``, the API key must grant the user, bodies are strict, errors are
JSON with a field; over a quota is a 429 (with ``Retry-After`` for the write rate).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from graphmem.models import MAX_INT, MAX_TEXT
from graphmem.quotas import QuotaUsage
from graphmem.reasoning import Step, ToolCall, ToolStats, Trace, TraceHit
from graphmem.service.http import Mem, User
from graphmem.service.schemas import Body
from graphmem.sessions import Compaction, NewTurn, SessionInfo, SessionTurn, TurnHit, Window
from graphmem.strategies import Strategy, StrategyMatch

sessions = APIRouter(prefix="/v1/users/{user_id}/sessions", tags=["sessions"])
reasoning = APIRouter(prefix="/v1/users/{user_id}", tags=["reasoning"])
strategies = APIRouter(prefix="/v1/users/{user_id}/strategies", tags=["strategies"])
quota = APIRouter(prefix="/v1/users/{user_id}", tags=["quota"])
ROUTERS = (sessions, reasoning, strategies, quota)


def _strict(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(
        extra="forbid", allow_inf_nan=False, json_schema_extra={"examples": list(examples)}
    )


class TurnsIn(Body):
    """Turns to append to a session, in order (all or nothing)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "turns": [
                        {"role": "user", "text": "My sister Alice is allergic to peanuts."},
                        {"role": "assistant", "text": "Noted: no peanuts for Alice."},
                    ]
                }
            ]
        },
    )

    turns: list[NewTurn] = Field(min_length=1, max_length=1000)


class SearchIn(Body):
    model_config = _strict({"query": "what can't Alice eat?", "k": 5})

    query: str = Field(min_length=1, max_length=MAX_TEXT)
    session_id: str | None = Field(None, description="One session; all of them when absent.")
    k: int = Field(10, ge=1, le=1000, strict=True)
    min_score: float | None = Field(None, ge=-1.0, le=1.0)


class CompactIn(Body):
    model_config = _strict({"budget_tokens": 1000})

    budget_tokens: int = Field(1000, ge=32, le=1_000_000, strict=True)


class Cleared(BaseModel):
    session_id: str
    cleared: int


class TraceIn(Body):
    model_config = _strict({"task": "Book dinner for Alice", "session_id": "chat-1"})

    task: str = Field(min_length=1, max_length=MAX_TEXT)
    session_id: str | None = Field(None, max_length=256)
    task_id: str | None = Field(None, description="A task of the user this trace works on.")


class StepIn(Body):
    model_config = _strict({"thought": "find a peanut-free place", "action": "search"})

    thought: str | None = Field(None, max_length=MAX_TEXT)
    action: str | None = Field(None, max_length=MAX_TEXT)
    observation: str | None = Field(None, max_length=MAX_TEXT)


class ToolCallIn(Body):
    model_config = _strict(
        {
            "tool": "search",
            "arguments": {"query": "peanut-free"},
            "result": ["Nara"],
            "duration_ms": 120,
        }
    )

    tool: str = Field(min_length=1, max_length=256)
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    status: str = "success"
    duration_ms: int | None = Field(None, ge=0, strict=True)
    error: str | None = Field(None, max_length=MAX_TEXT)
    error_type: str | None = Field(None, max_length=256)


class CompleteTraceIn(Body):
    model_config = _strict({"outcome": "booked Nara", "success": True})

    outcome: str | None = Field(None, max_length=MAX_TEXT)
    success: bool | None = Field(None, strict=True)


class SimilarIn(Body):
    model_config = _strict({"task": "dinner reservation", "k": 3})

    task: str = Field(min_length=1, max_length=MAX_TEXT)
    k: int = Field(5, ge=1, le=1000, strict=True)
    success_only: bool = Field(True, strict=True)


class FixIn(Body):
    model_config = _strict(
        {
            "tool": "search",
            "error_type": "ValueError",
            "error": "query must not be empty",
            "original": {"query": ""},
            "fixed": {"query": "peanut-free"},
        }
    )

    tool: str = Field(min_length=1, max_length=60)
    error_type: str = Field(min_length=1, max_length=60)
    error: str = Field("", max_length=2000)
    original: dict[str, Any]
    fixed: dict[str, Any]


class LookupIn(Body):
    model_config = _strict(
        {"tool": "search", "error_type": "ValueError", "error": "query must not be empty"}
    )

    tool: str = Field(min_length=1, max_length=60)
    error_type: str = Field(min_length=1, max_length=60)
    error: str = Field("", max_length=2000)
    k: int = Field(5, ge=1, le=100, strict=True)


class StrategyFeedbackIn(Body):
    model_config = _strict({"worked": True})

    worked: bool = Field(strict=True)


# -- sessions ---------------------------------------------------------------------------
@sessions.get("", response_model=list[SessionInfo])
def list_sessions(
    user: User, memory: Mem, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> list[SessionInfo]:
    """The user's sessions with turns or a summary, most recently active first."""
    return memory.sessions.list(user, limit=limit)


@sessions.post("/search", response_model=list[TurnHit])
def search_turns(user: User, memory: Mem, body: SearchIn) -> list[TurnHit]:
    """Turns most similar to a query, in one session or across all of them."""
    return memory.sessions.search(
        user, body.query, session_id=body.session_id, k=body.k, min_score=body.min_score
    )


@sessions.post("/{session_id}/turns", response_model=list[SessionTurn], status_code=201)
def append_turns(user: User, memory: Mem, session_id: str, body: TurnsIn) -> list[SessionTurn]:
    """Append turns (the session is created on its first); all validated, one write."""
    return memory.sessions.append_many(user, session_id, body.turns)


@sessions.get("/{session_id}/turns", response_model=list[SessionTurn])
def get_turns(
    user: User,
    memory: Mem,
    session_id: str,
    limit: Annotated[int | None, Query(ge=1, le=100_000)] = None,
    after: Annotated[int | None, Query(ge=-1, le=MAX_INT)] = None,
) -> list[SessionTurn]:
    """A session's live turns in order: the latest ``limit``, those after ``after``."""
    return memory.sessions.turns(user, session_id, limit=limit, after=after)


@sessions.get("/{session_id}/window", response_model=Window)
def window(user: User, memory: Mem, session_id: str) -> Window:
    """What a prompt needs of the session: its summary and the turns after it."""
    return memory.sessions.window(user, session_id)


@sessions.post("/{session_id}/compact", response_model=Compaction)
def compact(user: User, memory: Mem, session_id: str, body: CompactIn) -> Compaction:
    """Fold the oldest turns into the summary and cards so the window fits the budget."""
    return memory.sessions.compact(user, session_id, body.budget_tokens)


@sessions.delete("/{session_id}", response_model=Cleared)
def clear_session(user: User, memory: Mem, session_id: str) -> Cleared:
    """Remove a session's turns and summary (cards extracted from it stay)."""
    return Cleared(session_id=session_id, cleared=memory.sessions.clear(user, session_id))


@sessions.delete("/{session_id}/turns/{turn_id}", status_code=204)
def delete_turn(user: User, memory: Mem, session_id: str, turn_id: str) -> Response:
    """Remove one turn (404 when there is no such live turn in the session)."""
    from graphmem.errors import NotFoundError

    turn = memory.sessions.get_turn(user, turn_id)
    if turn.session_id != session_id:
        raise NotFoundError(f"no turn {turn_id!r} in session {session_id!r}")
    memory.sessions.delete_turn(user, turn_id)
    return Response(status_code=204)


# -- reasoning --------------------------------------------------------------------------
@reasoning.post("/traces", response_model=Trace, status_code=201)
def start_trace(user: User, memory: Mem, body: TraceIn) -> Trace:
    """Start a reasoning trace for a task (in a session, for a graphmem task)."""
    return memory.reasoning.start(user, body.task, session_id=body.session_id, task_id=body.task_id)


@reasoning.get("/traces", response_model=list[Trace])
def list_traces(
    user: User,
    memory: Mem,
    session_id: str | None = None,
    task_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
) -> list[Trace]:
    """Traces (without steps), newest first; of one session or task if given."""
    return memory.reasoning.list(user, session_id=session_id, task_id=task_id, limit=limit)


@reasoning.post("/traces/similar", response_model=list[TraceHit])
def similar_traces(user: User, memory: Mem, body: SimilarIn) -> list[TraceHit]:
    """Traces whose task is most like this one (successful ones by default)."""
    return memory.reasoning.similar(user, body.task, k=body.k, success_only=body.success_only)


@reasoning.get("/traces/{trace_id}", response_model=Trace)
def get_trace(user: User, memory: Mem, trace_id: str) -> Trace:
    """A trace with its steps and their tool calls, in order."""
    return memory.reasoning.get(user, trace_id)


@reasoning.post("/traces/{trace_id}/steps", response_model=Step, status_code=201)
def add_step(user: User, memory: Mem, trace_id: str, body: StepIn) -> Step:
    """Add the next step (numbered from 1)."""
    return memory.reasoning.step(
        user, trace_id, thought=body.thought, action=body.action, observation=body.observation
    )


@reasoning.post(
    "/traces/{trace_id}/steps/{step_id}/tool-calls", response_model=ToolCall, status_code=201
)
def add_tool_call(
    user: User, memory: Mem, trace_id: str, step_id: str, body: ToolCallIn
) -> ToolCall:
    """Record a tool call of a step: arguments, result, status, duration, error."""
    from graphmem.errors import NotFoundError

    call = memory.reasoning.tool_call(
        user,
        step_id,
        body.tool,
        body.arguments,
        result=body.result,
        status=body.status,
        duration_ms=body.duration_ms,
        error=body.error,
        error_type=body.error_type,
    )
    if call.trace_id != trace_id:
        raise NotFoundError(f"no step {step_id!r} in trace {trace_id!r}")
    return call


@reasoning.post("/traces/{trace_id}/complete", response_model=Trace)
def complete_trace(user: User, memory: Mem, trace_id: str, body: CompleteTraceIn) -> Trace:
    """Close a trace with its outcome."""
    return memory.reasoning.complete(user, trace_id, outcome=body.outcome, success=body.success)


@reasoning.get("/tools/stats", response_model=list[ToolStats])
def tool_stats(user: User, memory: Mem, tool: str | None = None) -> list[ToolStats]:
    """Calls, successes, failures, success rate and mean duration per tool."""
    return memory.reasoning.tool_stats(user, tool)


# -- strategies -------------------------------------------------------------------------
@strategies.post("", response_model=Strategy, status_code=201)
def record_fix(user: User, memory: Mem, body: FixIn) -> Strategy:
    """Store how a failed tool call was fixed (the same fix twice is one strategy)."""
    return memory.strategies.record_fix(
        user, body.tool, body.error_type, body.original, body.fixed, error=body.error
    )


@strategies.post("/lookup", response_model=list[StrategyMatch])
def lookup_strategies(user: User, memory: Mem, body: LookupIn) -> list[StrategyMatch]:
    """Fixes for a failure, best first (error type 0.5, tool 0.3, message 0.2)."""
    return memory.strategies.lookup(user, body.tool, body.error_type, body.error, k=body.k)


@strategies.post("/{strategy_id}/feedback", response_model=Strategy)
def strategy_feedback(
    user: User, memory: Mem, strategy_id: str, body: StrategyFeedbackIn
) -> Strategy:
    """An applied strategy worked or not: moves its reward and confidence."""
    return memory.strategies.feedback(user, strategy_id, worked=body.worked)


# -- quota ------------------------------------------------------------------------------
@quota.get("/quota", response_model=QuotaUsage)
def get_quota(user: User, memory: Mem) -> QuotaUsage:
    """The user's limits (cards, bytes, writes a minute) and what they use of them."""
    return memory.quotas.usage(user)
