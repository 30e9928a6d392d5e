"""Strategy memory: how a failed tool call was fixed, kept and applied the next time.

When a tool call fails and a retry with corrected arguments succeeds, the fix becomes a
strategy card: category ``strategy``, tags ``tool:<name>`` and ``error:<type>``, a fact
saying what to change, and a Markdown detail (the error, the original and the fixed
arguments) as its backstory. The arguments themselves are kept on the card node
(``strategy_*`` properties) so a fix can be applied without reading prose.

Lookup ranks a user's strategies for a failure by

    score = 0.5 [same error type] + 0.3 [same tool] + 0.2 x similarity(error messages)

(the cosine of the two messages' embeddings, clipped to [0, 1]), then by confidence, then
by how often the strategy was used. Feedback on an applied strategy moves its reward and
confidence like any card's (``Memory.feedback``) and counts the use.

``resilient`` wraps a tool: on failure it looks up strategies, retries (tenacity) with
each applicable fix in turn, and records the outcome; after a failure the caller fixed
itself (the next call of the same tool succeeds with other arguments) it stores the fix.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import Field
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt

from graphmem.errors import NotFoundError, ValidationError
from graphmem.history import CALLER
from graphmem.models import Card, Category, Model, check_user_id, has_nul
from graphmem.timeutil import now_ms

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.store.base import GraphStore

ERROR_TYPE_WEIGHT = 0.5
TOOL_WEIGHT = 0.3
MESSAGE_WEIGHT = 0.2
#: Confidence a new strategy starts with: it worked once.
FIRST_CONFIDENCE = 0.6
_MISSING = object()


class Strategy(Model):
    """A stored fix for a failing tool call."""

    id: str = Field(description="The strategy card's id.")
    tool: str
    error_type: str
    error: str = Field(description="The error message the fix was learnt from.")
    original: dict[str, Any]
    fixed: dict[str, Any]
    confidence: float
    reward: float = 0.0
    uses: int = 0
    successes: int = 0


class StrategyMatch(Model):
    strategy: Strategy
    score: float


def strategy_score(same_error_type: bool, same_tool: bool, similarity: float) -> float:
    """0.5 for the error type, 0.3 for the tool, 0.2 x the messages' similarity.

    >>> strategy_score(True, True, 1.0), strategy_score(True, False, 0.5)
    (1.0, 0.6)
    >>> strategy_score(False, True, -0.4)
    0.3
    """
    clipped = min(max(similarity, 0.0), 1.0)
    return round(
        ERROR_TYPE_WEIGHT * same_error_type + TOOL_WEIGHT * same_tool + MESSAGE_WEIGHT * clipped,
        6,
    )


def apply_fix(
    arguments: Mapping[str, Any], original: Mapping[str, Any], fixed: Mapping[str, Any]
) -> dict[str, Any] | None:
    """``arguments`` with a fix applied, or None when the fix does not fit the call.

    The fix is what changed from ``original`` to ``fixed``: an argument it changed takes
    its fixed value where the call has the value that failed (or lacks it, as the
    original did); an argument it removed goes where the call has the failing value.

    >>> apply_fix({"query": "", "k": 5}, {"query": ""}, {"query": "weather"})
    {'query': 'weather', 'k': 5}
    >>> apply_fix({"query": "news"}, {"query": ""}, {"query": "weather"}) is None
    True
    >>> apply_fix({"q": "x", "debug": True}, {"q": "x", "debug": True}, {"q": "x"})
    {'q': 'x'}
    """
    out = dict(arguments)
    applied = False
    for key in set(original) | set(fixed):
        was, now = original.get(key, _MISSING), fixed.get(key, _MISSING)
        if was == now or out.get(key, _MISSING) != was:
            continue
        if now is _MISSING:
            del out[key]
        else:
            out[key] = now
        applied = True
    return out if applied else None


def _changes(original: Mapping[str, Any], fixed: Mapping[str, Any]) -> list[str]:
    parts = []
    for key in sorted(set(original) | set(fixed)):
        was, now = original.get(key, _MISSING), fixed.get(key, _MISSING)
        if was == now:
            continue
        if now is _MISSING:
            parts.append(f"drop {key}")
        elif was is _MISSING:
            parts.append(f"add {key}={json.dumps(now, ensure_ascii=False)}")
        else:
            old, new = (json.dumps(v, ensure_ascii=False) for v in (was, now))
            parts.append(f"{key}: {old} -> {new}")
    return parts


def _detail(
    tool: str, error_type: str, error: str, original: Mapping[str, Any], fixed: Mapping[str, Any]
) -> str:
    """The Markdown a person reads (and a profile or export renders)."""
    return "\n".join(
        [
            f"### `{tool}` failing with `{error_type}`",
            f"Error: {error}" if error else "Error: (no message)",
            "",
            "Original arguments:",
            "```json",
            json.dumps(original, ensure_ascii=False, sort_keys=True),
            "```",
            "Fixed arguments (the retry that worked):",
            "```json",
            json.dumps(fixed, ensure_ascii=False, sort_keys=True),
            "```",
        ]
    )


class Strategies:
    """A user's tool-failure strategies (``Memory.strategies``)."""

    def __init__(self, memory: Memory, store: GraphStore) -> None:
        self._memory = memory
        self._store = store
        self._embedder = memory.embedder

    def record_fix(
        self,
        user_id: str,
        tool: str,
        error_type: str,
        original: Mapping[str, Any],
        fixed: Mapping[str, Any],
        *,
        error: str = "",
    ) -> Strategy:
        """Store how a failed call was fixed (idempotent: the same fix is one strategy)."""
        check_user_id(user_id)
        for name, value in (("tool", tool), ("error_type", error_type)):
            if not isinstance(value, str) or not value.strip() or len(value) > 60:
                raise ValidationError(f"{name} must be a short name", field=name)
        for label, arguments in (("original", original), ("fixed", fixed)):
            if has_nul(arguments):
                raise ValidationError(f"{label} must not contain NUL characters", field=label)
        changes = _changes(original, fixed)
        if not changes:
            raise ValidationError("the fixed arguments equal the original ones", field="fixed")
        try:
            original_json = json.dumps(dict(original), ensure_ascii=False, sort_keys=True)
            fixed_json = json.dumps(dict(fixed), ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise ValidationError(
                f"arguments must be JSON data: {exc}", field="arguments"
            ) from None
        card = self._memory.remember(
            Card(
                user_id=user_id,
                fact=f"When {tool} fails with {error_type}, retry with " + "; ".join(changes),
                backstory=_detail(tool, error_type, error, original, fixed),
                category=Category.STRATEGY,
                tags=[f"tool:{tool}"[:64], f"error:{error_type}"[:64]],
                confidence=FIRST_CONFIDENCE,
                importance=0.6,
            )
        )
        known = self._store.run("strategy_get", {"user_id": user_id, "id": card.id})
        if known and known[0]["original"] == original_json and known[0]["fixed"] == fixed_json:
            return _strategy(known[0])  # recorded before: nothing changes
        self._store.run(
            "strategy_record",
            {
                "user_id": user_id,
                "id": card.id,
                "decided_by": CALLER,
                "now": now_ms(),
                "props": {
                    "strategy_tool": tool,
                    "strategy_error_type": error_type,
                    "strategy_error": error[:2000],
                    "strategy_original": original_json,
                    "strategy_fixed": fixed_json,
                },
            },
            write=True,
        )
        return self.get(user_id, card.id)

    def get(self, user_id: str, strategy_id: str) -> Strategy:
        check_user_id(user_id)
        rows = self._store.run("strategy_get", {"user_id": user_id, "id": strategy_id})
        if not rows:
            raise NotFoundError(f"no strategy {strategy_id!r} for user {user_id!r}")
        return _strategy(rows[0])

    def lookup(
        self, user_id: str, tool: str, error_type: str, error: str = "", *, k: int = 5
    ) -> list[StrategyMatch]:
        """The user's strategies for a failure, best first (see the module docstring)."""
        check_user_id(user_id)
        rows = self._store.run(
            "strategy_candidates",
            {
                "user_id": user_id,
                "tags": [f"tool:{tool}".lower()[:64], f"error:{error_type}".lower()[:64]],
            },
        )
        if not rows:
            return []
        found = [_strategy(r) for r in rows]
        vectors = self._embedder.embed(
            [error or error_type, *[s.error or s.error_type for s in found]]
        )
        similarities = vectors[1:] @ vectors[0]
        matches = [
            StrategyMatch(
                strategy=s,
                score=strategy_score(s.error_type == error_type, s.tool == tool, float(sim)),
            )
            for s, sim in zip(found, similarities, strict=True)
        ]
        matches.sort(
            key=lambda m: (-m.score, -m.strategy.confidence, -m.strategy.uses, m.strategy.id)
        )
        return matches[:k]

    def feedback(self, user_id: str, strategy_id: str, *, worked: bool) -> Strategy:
        """An applied strategy worked or not: its reward and confidence move (card
        feedback) and the use is counted."""
        self._memory.feedback(user_id, strategy_id, "up" if worked else "down")
        rows = self._store.run(
            "strategy_used",
            {"user_id": user_id, "id": strategy_id, "worked": bool(worked)},
            write=True,
        )
        if not rows:
            raise NotFoundError(f"no strategy {strategy_id!r} for user {user_id!r}")
        return self.get(user_id, strategy_id)


def _strategy(row: Mapping[str, Any]) -> Strategy:
    return Strategy(
        id=row["id"],
        tool=row["tool"],
        error_type=row["error_type"],
        error=row["error"] or "",
        original=json.loads(row["original"] or "{}"),
        fixed=json.loads(row["fixed"] or "{}"),
        confidence=row["confidence"],
        reward=row["reward"] or 0.0,
        uses=row["uses"] or 0,
        successes=row["successes"] or 0,
    )


@dataclass
class _Failure:
    arguments: dict[str, Any]
    error_type: str
    error: str


class ResilientTool:
    """A tool that learns from its failures and retries with what worked before.

    Call it with keyword arguments. On an exception it looks up the user's strategies
    for (tool, error type, message), and retries (tenacity, one attempt per applicable
    fix, best first) with each fixed set of arguments, sending feedback on each; the
    last error is raised when none works. When a call fails and the caller's next call
    of the same tool succeeds with other arguments, that fix is recorded as a strategy.
    With ``trace_id``, every attempt is recorded in that reasoning trace.
    """

    def __init__(
        self,
        memory: Memory,
        user_id: str,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        max_fixes: int = 3,
        trace_id: str | None = None,
    ) -> None:
        self.memory, self.user_id, self.func = memory, user_id, func
        self.name: str = name or str(getattr(func, "__name__", "tool"))
        self.max_fixes = max_fixes
        self.trace_id = trace_id
        self._failure: _Failure | None = None
        functools.update_wrapper(self, func)

    def __call__(self, **arguments: Any) -> Any:
        try:
            result = self._attempt(arguments)
        except Exception as exc:
            return self._recover(arguments, exc)
        failure, self._failure = self._failure, None
        if failure is not None and failure.arguments != arguments:
            self.memory.strategies.record_fix(
                self.user_id,
                self.name,
                failure.error_type,
                failure.arguments,
                arguments,
                error=failure.error,
            )
        return result

    def _recover(self, arguments: dict[str, Any], exc: Exception) -> Any:
        error_type, error = type(exc).__name__, str(exc)
        matches = self.memory.strategies.lookup(self.user_id, self.name, error_type, error)
        fixes: list[tuple[Strategy, dict[str, Any]]] = []
        for match in matches:
            fixed = apply_fix(arguments, match.strategy.original, match.strategy.fixed)
            if fixed is not None and fixed not in [f for _, f in fixes]:
                fixes.append((match.strategy, fixed))
        fixes = fixes[: self.max_fixes]
        if not fixes:
            self._failure = _Failure(dict(arguments), error_type, error)
            raise exc
        tries = iter(fixes)
        try:
            for attempt in Retrying(
                stop=stop_after_attempt(len(fixes)),
                retry=retry_if_exception_type(Exception),
                reraise=True,
            ):
                with attempt:
                    strategy, fixed = next(tries)
                    try:
                        result = self._attempt(fixed, strategy_id=strategy.id)
                    except Exception:
                        self.memory.strategies.feedback(self.user_id, strategy.id, worked=False)
                        raise
                    self.memory.strategies.feedback(self.user_id, strategy.id, worked=True)
                    return result
        except Exception:
            self._failure = _Failure(dict(arguments), error_type, error)
            raise
        raise exc  # pragma: no cover - Retrying either returns or raises

    def _attempt(self, arguments: dict[str, Any], *, strategy_id: str | None = None) -> Any:
        started = time.perf_counter()
        try:
            result = self.func(**arguments)
        except Exception as exc:
            self._record(arguments, "error", started, error=exc, strategy_id=strategy_id)
            raise
        self._record(arguments, "success", started, result=result, strategy_id=strategy_id)
        return result

    def _record(
        self,
        arguments: dict[str, Any],
        status: str,
        started: float,
        *,
        result: Any = None,
        error: Exception | None = None,
        strategy_id: str | None = None,
    ) -> None:
        if self.trace_id is None:
            return
        reasoning = self.memory.reasoning
        action = f"call {self.name}" + (f" with strategy {strategy_id}" if strategy_id else "")
        step = reasoning.step(self.user_id, self.trace_id, action=action)
        reasoning.tool_call(
            self.user_id,
            step.id,
            self.name,
            arguments,
            result=result if status == "success" else None,
            status=status,
            duration_ms=round((time.perf_counter() - started) * 1000),
            error=str(error) if error is not None else None,
            error_type=type(error).__name__ if error is not None else None,
        )


def resilient(
    memory: Memory, user_id: str, func: Callable[..., Any], **options: Any
) -> ResilientTool:
    """``func`` (called with keyword arguments) wrapped in a ``ResilientTool``."""
    return ResilientTool(memory, user_id, func, **options)
