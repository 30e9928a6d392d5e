"""graphmem: knowledge-graph memory for LLM agents."""

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

__all__ = [
    "SELF",
    "Card",
    "Category",
    "ConflictError",
    "CycleError",
    "GraphmemError",
    "Memory",
    "NotFoundError",
    "Person",
    "Provenance",
    "RememberResult",
    "Status",
    "StoreError",
    "StoreUnavailableError",
    "ValidationError",
]
__version__ = "0.1.0"
