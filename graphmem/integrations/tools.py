"""The agent's view of memory: a handful of tools bound to one user.

``UserTools(memory, user_id)`` has one method per tool. Their typed signatures (with
field descriptions) become the input schemas of the MCP server's tools and of the
LangChain tools, so both speak the same language. The user is fixed when the tools are
built: it is never a tool argument, so a model cannot reach another user's memory.
Results are plain JSON data, compact enough to hand back to a model.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from graphmem.errors import GraphmemError
from graphmem.memory import Memory
from graphmem.models import Card, check_user_id
from graphmem.recall.context import MIN_BUDGET
from graphmem.recall.engine import RecallHit
from graphmem.tasks import Task
from graphmem.timeutil import to_iso

CardId = Annotated[
    str,
    Field(
        description="A card id as returned by remember or recall, or a unique prefix of it "
        "(6+ characters)."
    ),
]
TaskId = Annotated[str, Field(description="A task id, as returned by task_add.")]
TaskStatusName = Literal["pending", "in_progress", "completed", "cancelled"]
Signal = Literal["up", "down"] | Annotated[int, Field(ge=1, le=5)]


def card_summary(card: Card) -> dict[str, Any]:
    """A card as a model needs it: the fact, who it is about, when, where from."""
    data: dict[str, Any] = {
        "id": card.id,
        "fact": card.fact,
        "person": card.person,
        "relationship": card.relationship,
        "timestamp": to_iso(card.timestamp),
        "status": card.status.value,
        "category": card.category.value,
        "version": card.version,
    }
    if card.backstory:
        data["backstory"] = card.backstory
    return data


MinRelevance = Annotated[
    float,
    Field(
        ge=0,
        le=1,
        description="Only memories at least this relevant (0-1, comparable across queries; "
        "0.2 leaves out most answers to questions about nothing memory holds).",
    ),
]


def hit_summary(hit: RecallHit) -> dict[str, Any]:
    """A recall hit: the card, its score and how it was found."""
    return {
        **card_summary(hit.card),
        "relationship": hit.relationship or hit.card.relationship,
        "score": round(hit.score, 4),
        "relevance": round(hit.relevance, 4),
        "found_by": hit.found_by,
    }


def task_summary(task: Task) -> dict[str, Any]:
    return task.model_dump(
        mode="json", exclude={"user_id", "created_at", "updated_at", "completed_at"}
    )


def raising(error: type[Exception]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a tool so graphmem errors reach the agent as ``error`` (its framework's tool
    error type): bad input, unknown ids and conflicts are the model's to read and fix."""

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except GraphmemError as exc:
                raise error(f"{type(exc).__name__}: {exc}") from exc

        return call

    return wrap


class UserTools:
    """Memory tools scoped to one user (see the module docstring)."""

    def __init__(self, memory: Memory, user_id: str) -> None:
        check_user_id(user_id)
        self.memory, self.user_id = memory, user_id

    def remember(
        self,
        fact: Annotated[
            str, Field(description="One atomic statement, e.g. 'Alice is allergic to peanuts'.")
        ],
        *,
        person: Annotated[
            str, Field(description="Who the fact is about; 'me' for the user.")
        ] = "me",
        relationship: Annotated[
            str | None, Field(description="That person's relationship to the user, e.g. 'sister'.")
        ] = None,
        backstory: Annotated[str, Field(description="How or where this came up.")] = "",
        timestamp: Annotated[
            str | None,
            Field(description="When it was said or became true (ISO-8601); default now."),
        ] = None,
        category: Annotated[
            Literal[
                "preference",
                "constraint",
                "life",
                "work",
                "health",
                "emotion",
                "strategy",
                "event",
                "other",
            ],
            Field(description="Kind of fact."),
        ] = "other",
        allow_future: Annotated[
            bool,
            Field(description="Accept a timestamp more than a day ahead (a planned event)."),
        ] = False,
    ) -> dict[str, Any]:
        """Remember a fact about the user or someone in their life (idempotent)."""
        data: dict[str, Any] = {
            "user_id": self.user_id,
            "fact": fact,
            "person": person,
            "relationship": relationship,
            "backstory": backstory,
            "category": category,
        }
        if timestamp:
            data["timestamp"] = timestamp
        return card_summary(self.memory.remember(data, allow_future=allow_future))

    def recall(
        self,
        query: Annotated[str, Field(description="What to remember, in plain words.")],
        k: Annotated[int, Field(ge=1, le=50, description="How many cards.")] = 5,
        person: Annotated[str | None, Field(description="Only cards about this person.")] = None,
        since: Annotated[
            str | None, Field(description="Only cards from this date on (ISO-8601).")
        ] = None,
        until: Annotated[
            str | None, Field(description="Only cards up to this date (ISO-8601).")
        ] = None,
        *,
        as_of: Annotated[
            str | None,
            Field(description="Answer from what memory held true at that time (ISO-8601)."),
        ] = None,
        min_relevance: MinRelevance = 0.0,
    ) -> list[dict[str, Any]]:
        """Recall the most relevant memories for a query, best first, with their ids."""
        hits = self.memory.recall(
            self.user_id,
            query,
            k=k,
            person=person,
            since=since,
            until=until,
            as_of=as_of,
            min_relevance=min_relevance,
        )
        return [hit_summary(h) for h in hits]

    def context(
        self,
        query: Annotated[str, Field(description="The task at hand.")],
        token_budget: Annotated[
            int, Field(ge=MIN_BUDGET, le=20_000, description="At most this many tokens.")
        ] = 400,
        min_relevance: MinRelevance = 0.0,
    ) -> str:
        """A compact block of what memory knows about the task at hand, for a prompt."""
        return self.memory.context(
            self.user_id, query, token_budget=token_budget, min_relevance=min_relevance
        )

    def provenance(self, card_id: CardId) -> dict[str, Any]:
        """Where a memory came from: source turn or document, what it superseded,
        conflicts, abstractions."""
        story = self.memory.provenance(self.user_id, card_id)
        return {
            "card": card_summary(story.card),
            **story.model_dump(mode="json", exclude={"card"}, exclude_none=True),
        }

    def forget(
        self,
        card_id: CardId,
        hard: Annotated[
            bool, Field(description="Erase for good instead of a restorable forget.")
        ] = False,
    ) -> dict[str, Any]:
        """Forget a memory the user asked to forget or that is wrong."""
        full_id = self.memory.forget(self.user_id, card_id, hard=hard)
        return {"id": full_id, "forgotten": True, "hard": hard}

    def feedback(
        self,
        card_id: CardId,
        signal: Annotated[
            Signal,
            Field(description="'up' if the memory helped, 'down' if wrong, or a 1-5 rating."),
        ],
    ) -> dict[str, Any]:
        """Tell memory whether a recalled card was useful; recall ranks by it."""
        return card_summary(self.memory.feedback(self.user_id, card_id, signal))

    def history(self, card_id: CardId) -> list[dict[str, Any]]:
        """How a memory changed over time, oldest version first: each change with its
        time, operation, who decided it and the fields it changed (old -> new)."""
        return [
            {
                "version": v.version,
                "at": to_iso(v.at),
                "change": v.change,
                "decided_by": v.decided_by,
                "note": v.note,
                "changed": {c.field: {"old": c.old, "new": c.new} for c in v.changes}
                if v.change != "create"
                else None,
                "fact": (v.state or {}).get("fact"),
                "erased": v.erased,
            }
            for v in self.memory.history(self.user_id, card_id)
        ]

    def profile(
        self,
        as_of: Annotated[
            str | None,
            Field(description="As memory held it at that time (ISO-8601); default now."),
        ] = None,
    ) -> str:
        """A readable Markdown profile of the user: who they are, preferences and
        constraints, people, themes, recent events, open tasks; each line cites its card."""
        return self.memory.profile(self.user_id, as_of=as_of).markdown()

    def task_add(
        self,
        subject: Annotated[str, Field(description="What is to be done.")],
        description: Annotated[str, Field(description="Details.")] = "",
        blocked_by: Annotated[
            list[str], Field(description="Ids of tasks that must finish first.")
        ] = [],  # noqa: B006
        owner: Annotated[str | None, Field(description="Who works on it.")] = None,
        cites: Annotated[list[str], Field(description="Ids of cards the task relies on.")] = [],  # noqa: B006
    ) -> dict[str, Any]:
        """Add a task to the user's task graph, optionally blocked by other tasks."""
        return task_summary(
            self.memory.tasks.create(
                self.user_id, subject, description, blocked_by=blocked_by, owner=owner, cites=cites
            )
        )

    def task_update(
        self,
        task_id: TaskId,
        *,
        status: Annotated[TaskStatusName | None, Field(description="New status.")] = None,
        add_blocked_by: Annotated[
            list[str], Field(description="Add tasks that must finish first.")
        ] = [],  # noqa: B006
        remove_blocked_by: Annotated[list[str], Field(description="Remove blockers.")] = [],  # noqa: B006
        owner: Annotated[str | None, Field(description="New owner ('' clears it).")] = None,
        force: Annotated[
            bool, Field(description="Start or complete it even though a blocker is open.")
        ] = False,
    ) -> dict[str, Any]:
        """Change a task's status, owner or dependencies."""
        extra: dict[str, Any] = {} if owner is None else {"owner": owner or None}
        return task_summary(
            self.memory.tasks.update(
                self.user_id,
                task_id,
                status=status,
                add_blocked_by=add_blocked_by,
                remove_blocked_by=remove_blocked_by,
                force=force,
                **extra,
            )
        )

    def task_ready(self) -> list[dict[str, Any]]:
        """Tasks that can be started now: pending, with nothing open blocking them."""
        return [task_summary(t) for t in self.memory.tasks.ready(self.user_id)]

    def task_blocked(self) -> list[dict[str, Any]]:
        """Open tasks still waiting, each with the open tasks blocking it."""
        return [
            {**task_summary(b.task), "blockers": [task_summary(t) for t in b.blockers]}
            for b in self.memory.tasks.blocked(self.user_id)
        ]

    def session_append(
        self,
        session_id: Annotated[str, Field(description="The conversation, e.g. 'chat-42'.")],
        text: Annotated[str, Field(description="What was said, exactly.")],
        role: Annotated[
            Literal["user", "assistant", "system", "tool"], Field(description="Who said it.")
        ] = "user",
    ) -> dict[str, Any]:
        """Record a turn of a conversation (the session is created on its first turn)."""
        turn = self.memory.sessions.append(self.user_id, session_id, role, text)
        return {"id": turn.id, "session_id": turn.session_id, "turn": turn.turn}

    def session_search(
        self,
        query: Annotated[str, Field(description="What was said, in plain words.")],
        session_id: Annotated[
            str | None, Field(description="One conversation only; all when absent.")
        ] = None,
        k: Annotated[int, Field(ge=1, le=50, description="How many turns.")] = 5,
    ) -> list[dict[str, Any]]:
        """Find turns of past conversations by meaning, best first."""
        hits = self.memory.sessions.search(self.user_id, query, session_id=session_id, k=k)
        return [
            {
                "session_id": h.turn.session_id,
                "turn": h.turn.turn,
                "speaker": h.turn.speaker,
                "text": h.turn.text,
                "when": to_iso(h.turn.timestamp) if h.turn.timestamp else None,
                "score": round(h.score, 4),
            }
            for h in hits
        ]

    def session_compact(
        self,
        session_id: Annotated[str, Field(description="The conversation to compact.")],
        budget_tokens: Annotated[
            int, Field(ge=32, le=1_000_000, description="Token budget of what stays live.")
        ] = 1000,
    ) -> dict[str, Any]:
        """Fold a long conversation's oldest turns into a summary and memory cards."""
        done = self.memory.sessions.compact(self.user_id, session_id, budget_tokens)
        return done.model_dump(mode="json", include={"folded", "cards", "summary", "tokens"})

    def strategy_lookup(
        self,
        tool: Annotated[str, Field(description="The tool that failed.")],
        error_type: Annotated[str, Field(description="The error's type, e.g. 'ValueError'.")],
        error: Annotated[str, Field(description="The error message.")] = "",
    ) -> list[dict[str, Any]]:
        """How similar tool failures were fixed before: arguments to retry with, best first."""
        matches = self.memory.strategies.lookup(self.user_id, tool, error_type, error)
        return [
            {
                "id": m.strategy.id,
                "score": m.score,
                "tool": m.strategy.tool,
                "error_type": m.strategy.error_type,
                "original": m.strategy.original,
                "fixed": m.strategy.fixed,
                "confidence": round(m.strategy.confidence, 3),
                "uses": m.strategy.uses,
            }
            for m in matches
        ]

    def strategy_record(
        self,
        tool: Annotated[str, Field(description="The tool whose call failed, then worked.")],
        error_type: Annotated[str, Field(description="The error's type, e.g. 'ValueError'.")],
        original: Annotated[dict[str, Any], Field(description="The arguments that failed.")],
        fixed: Annotated[dict[str, Any], Field(description="The arguments that worked.")],
        error: Annotated[str, Field(description="The error message.")] = "",
    ) -> dict[str, Any]:
        """Remember how a failed tool call was fixed, to apply it next time."""
        strategy = self.memory.strategies.record_fix(
            self.user_id, tool, error_type, original, fixed, error=error
        )
        return strategy.model_dump(mode="json")

    #: Tool names, in the order they are offered.
    NAMES = (
        "remember",
        "recall",
        "context",
        "provenance",
        "forget",
        "feedback",
        "history",
        "profile",
        "task_add",
        "task_update",
        "task_ready",
        "task_blocked",
        "session_append",
        "session_search",
        "session_compact",
        "strategy_lookup",
        "strategy_record",
    )
