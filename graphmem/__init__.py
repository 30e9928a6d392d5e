"""graphmem: knowledge-graph memory for LLM agents.

The public surface is what ``__all__`` lists; everything else is implementation.
"""

from graphmem.errors import (
    ConflictError,
    CycleError,
    GraphmemError,
    NotFoundError,
    StoreError,
    StoreUnavailableError,
    ValidationError,
)
from graphmem.memory import Memory
from graphmem.models import SELF, Card, Category, Person, Provenance, RememberResult, Status
from graphmem.recall.engine import RecallHit
from graphmem.tasks import BlockedTask, Task, TaskStatus

__all__ = [
    "SELF",
    "BlockedTask",
    "Card",
    "Category",
    "ConflictError",
    "CycleError",
    "GraphmemError",
    "Memory",
    "NotFoundError",
    "Person",
    "Provenance",
    "RecallHit",
    "RememberResult",
    "Status",
    "StoreError",
    "StoreUnavailableError",
    "Task",
    "TaskStatus",
    "ValidationError",
]
__version__ = "0.1.0"
