"""LangChain integration: a retriever over a user's memory, and memory tools for agents.

Examples:
    >>> import tempfile
    >>> from graphmem import Memory
    >>> with Memory.open(tempfile.mkdtemp()) as mem:
    ...     _ = mem.remember({"user_id": "u1", "fact": "Alice is allergic to peanuts",
    ...                       "person": "Alice", "relationship": "sister"})
    ...     docs = GraphmemRetriever(memory=mem, user_id="u1", k=1).invoke("my sister")
    ...     docs[0].page_content, docs[0].metadata["relationship"]
    ('Alice is allergic to peanuts', 'sister')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    convert_to_messages,
    message_to_dict,
    messages_from_dict,
)
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import ConfigDict, Field

from graphmem.integrations.tools import UserTools, raising
from graphmem.memory import Memory
from graphmem.recall.engine import RecallHit
from graphmem.sessions import SessionTurn
from graphmem.strategies import ResilientTool
from graphmem.timeutil import to_iso

TASK_TOOLS = ("task_add", "task_update", "task_ready", "task_blocked")
#: Where a turn keeps what makes it a LangChain message besides its text.
LANGCHAIN_KEY = "langchain"


def hit_document(hit: RecallHit) -> Document:
    """A recall hit as a Document: the fact as content, everything else as metadata."""
    card, source = hit.card, hit.card.source
    metadata: dict[str, Any] = {
        "id": card.id,
        "person": card.person,
        "relationship": hit.relationship or card.relationship,
        "timestamp": to_iso(card.timestamp),
        "score": hit.score,
        "found_by": list(hit.found_by),
        "category": card.category.value,
        "backstory": card.backstory,
        "status": card.status.value,
        "source_session": source.session_id if source else None,
        "source_turn": source.turn if source else None,
        "source_document": source.document if source else None,
    }
    return Document(page_content=card.fact, metadata=metadata, id=card.id)


class GraphmemRetriever(BaseRetriever):
    """Retrieve a user's memory cards for a query (hybrid recall, best first).

    ``k`` and the filters can also be given per call: ``retriever.invoke(q, k=3)``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Memory
    user_id: str
    k: int = Field(5, ge=1, le=1000)
    person: str | None = None
    relationship: str | None = None
    category: str | list[str] | None = None
    since: str | int | None = None
    until: str | int | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        options: dict[str, Any] = {
            "k": self.k,
            "person": self.person,
            "relationship": self.relationship,
            "category": self.category,
            "since": self.since,
            "until": self.until,
        }
        options |= {key: value for key, value in kwargs.items() if key in options}
        hits = self.memory.recall(self.user_id, query, **options)
        return [hit_document(hit) for hit in hits]


def memory_tools(
    memory: Memory, user_id: str, *, tasks: bool = True, names: tuple[str, ...] | None = None
) -> list[BaseTool]:
    """LangChain tools over ``user_id``'s memory (remember, recall, ... and, with
    ``tasks``, the task tools). The user is bound here, never a tool argument."""
    bound = UserTools(memory, user_id)
    wanted = names or tuple(n for n in UserTools.NAMES if tasks or n not in TASK_TOOLS)
    tools: list[BaseTool] = []
    for name in wanted:
        method = getattr(bound, name)
        tools.append(
            StructuredTool.from_function(
                func=raising(ToolException)(method),
                name=name,
                description=method.__doc__,
                handle_tool_error=True,
            )
        )
    return tools


# -- in the agent loop -------------------------------------------------------------------
_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def turn_message(turn: SessionTurn) -> BaseMessage:
    """A stored turn as the LangChain message it was (tool calls and ids included)."""
    kept = turn.metadata.get(LANGCHAIN_KEY)
    if isinstance(kept, dict):
        return messages_from_dict(
            [{"type": kept["type"], "data": {**kept["data"], "content": turn.text}}]
        )[0]
    if turn.role == "assistant":
        return AIMessage(content=turn.text)
    if turn.role == "system":
        return SystemMessage(content=turn.text)
    return HumanMessage(content=turn.text)


def message_turn(message: BaseMessage) -> dict[str, Any]:
    """A LangChain message as a turn to append: its text, role, and (in the turn's
    metadata) what else makes it that message (tool calls, tool call id, name)."""
    data = message_to_dict(message)
    role = _ROLES.get(data["type"], "user")
    extra = {
        k: v
        for k, v in data["data"].items()
        if k not in ("content", "type") and v not in (None, {}, [], "")
    }
    metadata = {LANGCHAIN_KEY: {"type": data["type"], "data": extra}} if extra else {}
    return {"role": role, "text": message.text, "metadata": metadata}


class GraphmemChatMessageHistory(BaseChatMessageHistory):
    """A LangChain chat history kept as a graphmem session (``Memory.sessions``).

    Messages are session turns: searchable, compactable, and the turns cards cite. Tool
    calls and tool results round-trip (kept in the turn's metadata).

    Examples:
        >>> import tempfile
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> from graphmem import Memory
        >>> with Memory.open(tempfile.mkdtemp()) as mem:
        ...     history = GraphmemChatMessageHistory(mem, "u1", "chat-1")
        ...     history.add_messages([HumanMessage("Hi, I am Ada"), AIMessage("Hello Ada!")])
        ...     [m.content for m in history.messages]
        ['Hi, I am Ada', 'Hello Ada!']
    """

    def __init__(
        self, memory: Memory, user_id: str, session_id: str, *, last: int | None = None
    ) -> None:
        self.memory, self.user_id, self.session_id, self.last = memory, user_id, session_id, last

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        turns = self.memory.sessions.turns(self.user_id, self.session_id, limit=self.last)
        return [turn_message(t) for t in turns]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        self.memory.sessions.append_many(
            self.user_id, self.session_id, [message_turn(m) for m in messages]
        )

    def clear(self) -> None:
        self.memory.sessions.clear(self.user_id, self.session_id)


class MemoryChat(Runnable[Any, Any]):
    """Memory around a chat model or an agent: each call gets a system message with
    what memory knows about the user (``Memory.context`` for the new message) and the
    session so far (its summary and recent turns), and the exchange is recorded as
    turns of the session.

    ``inner`` is a chat model (messages in, a message out) or a LangGraph agent such as
    ``create_react_agent(...)`` (``{"messages": [...]}`` in and out). Input: a string, a
    message, a list of messages or ``{"messages": [...]}``; the output is ``inner``'s.
    """

    def __init__(
        self,
        inner: Runnable[Any, Any],
        memory: Memory,
        user_id: str,
        session_id: str,
        *,
        token_budget: int = 400,
        recent_turns: int = 20,
    ) -> None:
        self.inner, self.memory = inner, memory
        self.user_id, self.session_id = user_id, session_id
        self.token_budget, self.recent_turns = token_budget, recent_turns

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        graph = isinstance(input, dict)
        new = _as_messages(input["messages"] if graph else input)
        prompt = [*self._preamble(new), *new]
        output = self.inner.invoke({"messages": prompt} if graph else prompt, config, **kwargs)
        final: list[BaseMessage]
        if graph:
            replies = [m for m in output["messages"][len(prompt) :] if isinstance(m, AIMessage)]
            final = list(replies[-1:])
        else:
            final = [output if isinstance(output, BaseMessage) else AIMessage(content=str(output))]
        said = [m for m in new if not isinstance(m, SystemMessage)]
        self.memory.sessions.append_many(
            self.user_id,
            self.session_id,
            [message_turn(m) for m in [*said, *final] if m.text or m is not None],
        )
        return output

    def _preamble(self, new: list[BaseMessage]) -> list[BaseMessage]:
        query = next((m.text for m in reversed(new) if isinstance(m, HumanMessage)), "")
        parts = []
        if query.strip():
            known = self.memory.context(self.user_id, query, token_budget=self.token_budget)
            if known:
                parts.append(known)
        window = self.memory.sessions.window(self.user_id, self.session_id)
        if window.summary:
            parts.append(f"Earlier in this conversation:\n{window.summary}")
        preamble: list[BaseMessage] = [SystemMessage(content="\n\n".join(parts))] if parts else []
        turns = window.turns[-self.recent_turns :] if self.recent_turns else []
        return preamble + [turn_message(t) for t in turns]


def with_memory(
    inner: Runnable[Any, Any], memory: Memory, user_id: str, session_id: str, **options: Any
) -> MemoryChat:
    """``inner`` (a chat model or a LangGraph agent) with memory: see ``MemoryChat``."""
    return MemoryChat(inner, memory, user_id, session_id, **options)


def resilient_tool(
    tool: BaseTool, memory: Memory, user_id: str, *, trace_id: str | None = None, max_fixes: int = 3
) -> StructuredTool:
    """``tool`` that retries a failure with the fixes that worked before and learns new
    ones (``graphmem.strategies.ResilientTool``). A failure no strategy fixes reaches
    the model as the tool's error message, so the model can correct its call -- and
    when it does, that correction is the next strategy."""
    guarded = ResilientTool(
        memory, user_id, _call_tool(tool), name=tool.name, trace_id=trace_id, max_fixes=max_fixes
    )

    def run(**arguments: Any) -> Any:
        try:
            return guarded(**arguments)
        except ToolException:
            raise
        except Exception as exc:
            raise ToolException(f"{type(exc).__name__}: {exc}") from exc

    return StructuredTool.from_function(
        func=run,
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        handle_tool_error=True,
    )


def _call_tool(tool: BaseTool) -> Callable[..., Any]:
    """Call the tool's own function, so its exceptions (not a ToolMessage) come back."""
    func = getattr(tool, "func", None)
    if func is not None:
        return func

    def call(**arguments: Any) -> Any:
        return tool.invoke(arguments)

    return call


def _as_messages(value: Any) -> list[BaseMessage]:
    if isinstance(value, str):
        return [HumanMessage(content=value)]
    if isinstance(value, BaseMessage):
        return [value]
    return convert_to_messages(value)


__all__ = [
    "GraphmemChatMessageHistory",
    "GraphmemRetriever",
    "MemoryChat",
    "hit_document",
    "memory_tools",
    "message_turn",
    "resilient_tool",
    "turn_message",
    "with_memory",
]
