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

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import ConfigDict, Field

from graphmem.integrations.tools import UserTools, raising
from graphmem.memory import Memory
from graphmem.recall.engine import RecallHit
from graphmem.timeutil import to_iso

TASK_TOOLS = ("task_add", "task_update", "task_ready", "task_blocked")


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
        options = {
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


__all__ = ["GraphmemRetriever", "hit_document", "memory_tools"]
