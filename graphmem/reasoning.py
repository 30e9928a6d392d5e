"""Reasoning memory: what an agent did for a task, step by step, tool call by tool call.

Stored per user as ``(:Trace {task, session_id, outcome, success, started_at,
completed_at})-[:HAS_STEP]->(:Step {number, thought, action, observation})
-[:HAS_TOOL_CALL]->(:ToolCall {tool, arguments, result, status, duration_ms, error})``,
with ``(:Trace)-[:WORKS_ON]->(:Task)`` when the trace worked on one of the user's tasks.
Arguments and results are JSON text (any JSON value). A trace's task is embedded, so
``similar`` finds how comparable tasks went before (successful ones by default), and
``tool_stats`` aggregates every recorded call per tool: what an agent needs to choose a
tool, and what ``graphmem.strategies`` learns fixes from.

Step numbers count from 1 within a trace and only grow (a counter on the trace, taken in
the same write as the step). Ids are UUIDs.
"""

from __future__ import annotations

import builtins
import json
import uuid
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, overload

from pydantic import ConfigDict, Field

from graphmem.errors import NotFoundError, ValidationError
from graphmem.models import MAX_TEXT, Model, check_user_id, has_nul
from graphmem.recall.vector import wire_vector
from graphmem.timeutil import now_ms

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.store.base import GraphStore


class ToolStatus(StrEnum):
    PENDING = "pending"
    SUCCESS = "success"
    FAILURE = "failure"
    ERROR = "error"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"


#: Statuses counted as failed calls (pending and cancelled are neither way).
FAILED = (ToolStatus.FAILURE, ToolStatus.ERROR, ToolStatus.TIMEOUT)


class _Verbatim(Model):
    """Stored records come back exactly as written (no whitespace stripping)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, str_strip_whitespace=False)


class ToolCall(_Verbatim):
    id: str
    trace_id: str
    step_id: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    status: ToolStatus = ToolStatus.SUCCESS
    duration_ms: int | None = None
    error: str | None = None
    error_type: str | None = None
    created_at: int | None = None


class Step(_Verbatim):
    id: str
    trace_id: str
    number: int
    thought: str | None = None
    action: str | None = None
    observation: str | None = None
    created_at: int | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)


class Trace(_Verbatim):
    id: str
    user_id: str
    task: str
    session_id: str | None = None
    task_id: str | None = Field(None, description="The graphmem task worked on, if any.")
    outcome: str | None = None
    success: bool | None = None
    started_at: int
    completed_at: int | None = None
    steps: list[Step] = Field(default_factory=list)


class TraceHit(_Verbatim):
    trace: Trace
    score: float


class ToolStats(_Verbatim):
    tool: str
    calls: int
    succeeded: int
    failed: int
    success_rate: float
    avg_duration_ms: float | None = None


@overload
def _text(value: str | None, field: str, *, required: Literal[True]) -> str: ...
@overload
def _text(value: str | None, field: str, *, required: bool = False) -> str | None: ...
def _text(value: str | None, field: str, *, required: bool = False) -> str | None:
    if value is None:
        if required:
            raise ValidationError(f"{field} is required", field=field)
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{field} must be text", field=field)
    if len(value) > MAX_TEXT:
        raise ValidationError(f"{field} is longer than {MAX_TEXT} characters", field=field)
    if "\x00" in value:
        raise ValidationError(f"{field} must not contain NUL characters", field=field)
    return value


def _json(value: Any, field: str) -> str:
    if has_nul(value):  # NUL ends a query string in the store's protocol
        raise ValidationError(f"{field} must not contain NUL characters", field=field)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"{field} must be JSON data: {exc}", field=field) from None


def _size(*texts: str | None) -> int:
    return sum(len(t.encode()) for t in texts if t)


def _call(props: Mapping[str, Any]) -> ToolCall:
    data = dict(props)
    data["arguments"] = json.loads(data.get("arguments") or "{}")
    data["result"] = json.loads(data["result"]) if data.get("result") is not None else None
    return ToolCall(**{k: v for k, v in data.items() if k in ToolCall.model_fields})


def _step(props: Mapping[str, Any], calls: list[ToolCall]) -> Step:
    data = {k: v for k, v in props.items() if k in Step.model_fields}
    return Step(**data, tool_calls=calls)


def _trace(user_id: str, props: Mapping[str, Any], steps: list[Step]) -> Trace:
    data = {k: v for k, v in props.items() if k in Trace.model_fields and k != "user_id"}
    return Trace(user_id=user_id, **data, steps=steps)


class Reasoning:
    """A user's reasoning traces (``Memory.reasoning``)."""

    def __init__(self, memory: Memory, store: GraphStore) -> None:
        self._memory = memory
        self._store = store
        self._embedder = memory.embedder

    # -- writing ----------------------------------------------------------------------
    def start(
        self,
        user_id: str,
        task: str,
        *,
        session_id: str | None = None,
        task_id: str | None = None,
    ) -> Trace:
        """Start a trace for ``task`` (text), in a session and for a graphmem task if
        given (``NotFoundError`` if the user has no such task)."""
        check_user_id(user_id)
        task = _text(task, "task", required=True)
        session_id = _text(session_id, "session_id")
        if task_id is not None:
            self._memory.tasks.get(user_id, task_id)
        now = now_ms()
        props: dict[str, Any] = {
            "task": task,
            "session_id": session_id,
            "task_id": task_id,
            "started_at": now,
            "size": _size(task),
        }
        [vector] = self._embedder.embed([task])
        trace_id = str(uuid.uuid4())
        with self._memory.quotas.guard(user_id, added_bytes=props["size"]):
            self._store.run(
                "trace_start",
                {
                    "user_id": user_id,
                    "id": trace_id,
                    "props": {k: v for k, v in props.items() if v is not None},
                    "embedding": wire_vector(vector),
                    "task_id": task_id,
                },
                write=True,
            )
        return Trace(
            id=trace_id,
            user_id=user_id,
            task=task,
            session_id=session_id,
            task_id=task_id,
            started_at=now,
        )

    def step(
        self,
        user_id: str,
        trace_id: str,
        *,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> Step:
        """Add the next step to a trace (any of thought, action, observation)."""
        check_user_id(user_id)
        props: dict[str, Any] = {
            "thought": _text(thought, "thought"),
            "action": _text(action, "action"),
            "observation": _text(observation, "observation"),
            "created_at": now_ms(),
        }
        props["size"] = _size(thought, action, observation)
        with self._memory.quotas.guard(user_id, added_bytes=props["size"]):
            rows = self._store.run(
                "trace_step",
                {
                    "user_id": user_id,
                    "trace_id": trace_id,
                    "id": str(uuid.uuid4()),
                    "props": {k: v for k, v in props.items() if v is not None},
                    "now": props["created_at"],
                },
                write=True,
            )
        if not rows:
            raise NotFoundError(f"no trace {trace_id!r} for user {user_id!r}")
        return _step(rows[0]["step"], [])

    def tool_call(
        self,
        user_id: str,
        step_id: str,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        result: Any = None,
        status: ToolStatus | str = ToolStatus.SUCCESS,
        duration_ms: int | None = None,
        error: str | None = None,
        error_type: str | None = None,
    ) -> ToolCall:
        """Record a tool call of a step: arguments and result as JSON, the outcome."""
        check_user_id(user_id)
        tool = _text(tool, "tool", required=True)
        if not tool:
            raise ValidationError("tool must not be empty", field="tool")
        try:
            status = ToolStatus(status)
        except ValueError:
            raise ValidationError(
                f"status must be one of {', '.join(s.value for s in ToolStatus)}", field="status"
            ) from None
        if duration_ms is not None and (
            isinstance(duration_ms, bool) or not isinstance(duration_ms, int) or duration_ms < 0
        ):
            raise ValidationError("duration_ms must be a non-negative integer", field="duration_ms")
        args = _json(dict(arguments or {}), "arguments")
        outcome = None if result is None else _json(result, "result")
        props: dict[str, Any] = {
            "tool": tool,
            "arguments": args,
            "result": outcome,
            "status": status.value,
            "duration_ms": duration_ms,
            "error": _text(error, "error"),
            "error_type": _text(error_type, "error_type"),
            "created_at": now_ms(),
            "size": _size(tool, args, outcome, error),
        }
        with self._memory.quotas.guard(user_id, added_bytes=props["size"]):
            rows = self._store.run(
                "trace_tool_call",
                {
                    "user_id": user_id,
                    "step_id": step_id,
                    "id": str(uuid.uuid4()),
                    "props": {k: v for k, v in props.items() if v is not None},
                },
                write=True,
            )
        if not rows:
            raise NotFoundError(f"no step {step_id!r} for user {user_id!r}")
        return _call(rows[0]["call"])

    def complete(
        self,
        user_id: str,
        trace_id: str,
        *,
        outcome: str | None = None,
        success: bool | None = None,
    ) -> Trace:
        """Close a trace with its outcome; returns it with its steps."""
        check_user_id(user_id)
        if success is not None and not isinstance(success, bool):
            raise ValidationError("success must be true or false", field="success")
        rows = self._store.run(
            "trace_complete",
            {
                "user_id": user_id,
                "id": trace_id,
                "props": {
                    "outcome": _text(outcome, "outcome"),
                    "success": success,
                    "completed_at": now_ms(),
                },
            },
            write=True,
        )
        if not rows:
            raise NotFoundError(f"no trace {trace_id!r} for user {user_id!r}")
        return self.get(user_id, trace_id)

    # -- reading ----------------------------------------------------------------------
    def get(self, user_id: str, trace_id: str) -> Trace:
        """A trace with its steps in order, each with its tool calls in order."""
        check_user_id(user_id)
        rows = self._store.run("trace_get", {"user_id": user_id, "id": trace_id})
        if not rows:
            raise NotFoundError(f"no trace {trace_id!r} for user {user_id!r}")
        steps: dict[str, tuple[Mapping[str, Any], list[tuple[int, ToolCall]]]] = {}
        for row in rows:
            if row["step"] is None:
                continue
            _, calls = steps.setdefault(row["step"]["id"], (row["step"], []))
            if row["call"] is not None:
                calls.append((row["call"].get("number") or 0, _call(row["call"])))
        built = [
            _step(props, [c for _, c in sorted(calls, key=lambda n: (n[1].created_at or 0, n[0]))])
            for props, calls in steps.values()
        ]
        return _trace(user_id, rows[0]["trace"], sorted(built, key=lambda s: s.number))

    def list(
        self,
        user_id: str,
        *,
        session_id: str | None = None,
        task_id: str | None = None,
        limit: int = 100,
    ) -> list[Trace]:
        """Traces (without their steps), newest first; of one session or task if given."""
        check_user_id(user_id)
        if not 1 <= limit <= 10_000:
            raise ValidationError("limit must be between 1 and 10000", field="limit")
        rows = self._store.run(
            "trace_list",
            {"user_id": user_id, "session_id": session_id, "task_id": task_id, "limit": limit},
        )
        return [_trace(user_id, r["trace"], []) for r in rows]

    def tool_stats(self, user_id: str, tool: str | None = None) -> builtins.list[ToolStats]:
        """Per tool: calls, successes, failures (failure, error, timeout), success rate
        and mean duration; the most used tools first."""
        check_user_id(user_id)
        return [
            ToolStats(
                tool=r["tool"],
                calls=r["calls"],
                succeeded=r["succeeded"],
                failed=r["failed"],
                success_rate=r["succeeded"] / r["calls"] if r["calls"] else 0.0,
                avg_duration_ms=r["avg_duration_ms"],
            )
            for r in self._store.run("tool_stats", {"user_id": user_id, "tool": tool})
        ]

    def similar(
        self,
        user_id: str,
        task: str,
        *,
        k: int = 5,
        success_only: bool = True,
        min_score: float | None = None,
    ) -> builtins.list[TraceHit]:
        """Traces whose task is most like ``task`` (cosine), best first; by default only
        those that succeeded, which is what an agent wants to learn from."""
        check_user_id(user_id)
        if not isinstance(task, str) or not task.strip():
            raise ValidationError("task must be non-empty text", field="task")
        if not 1 <= k <= 1000:
            raise ValidationError("k must be between 1 and 1000", field="k")
        [vector] = self._embedder.embed([task])
        rows = self._store.run(
            "trace_similar",
            {
                "user_id": user_id,
                "vector": wire_vector(vector),
                "success_only": bool(success_only),
                "min_score": -1.0 if min_score is None else float(min_score),
                "k": k,
            },
        )
        hits = [TraceHit(trace=_trace(user_id, r["trace"], []), score=r["score"]) for r in rows]
        return sorted(hits, key=lambda h: (-h.score, h.trace.id))
