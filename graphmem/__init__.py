"""graphmem: knowledge-graph memory for LLM agents.

The public surface is what ``__all__`` lists; everything else is implementation. Names
are imported on first use, so a process that needs one corner of the package (the
embedded server's idle watchdog, ``graphmem status``) does not load the models' stack.
"""

from __future__ import annotations

from importlib import import_module

# Not ``from typing import TYPE_CHECKING``: importing typing is a third of the start-up
# of the ``graphmem`` command's hand-off to its daemon (graphmem.launcher).
TYPE_CHECKING = False

_HOMES = {
    "ConflictError": "graphmem.errors",
    "CycleError": "graphmem.errors",
    "GraphmemError": "graphmem.errors",
    "NotFoundError": "graphmem.errors",
    "StoreError": "graphmem.errors",
    "StoreUnavailableError": "graphmem.errors",
    "ValidationError": "graphmem.errors",
    "Memory": "graphmem.memory",
    "SELF": "graphmem.models",
    "Card": "graphmem.models",
    "CardVersion": "graphmem.history",
    "FieldChange": "graphmem.history",
    "Category": "graphmem.models",
    "Person": "graphmem.models",
    "Provenance": "graphmem.models",
    "RememberResult": "graphmem.models",
    "Status": "graphmem.models",
    "RecallHit": "graphmem.recall.engine",
    "BlockedTask": "graphmem.tasks",
    "Task": "graphmem.tasks",
    "TaskStatus": "graphmem.tasks",
}

__all__ = [
    "SELF",
    "BlockedTask",
    "Card",
    "CardVersion",
    "Category",
    "ConflictError",
    "CycleError",
    "FieldChange",
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


def __getattr__(name: str) -> object:
    if name == "__version__":  # it lives in pyproject.toml only; read when asked (the
        # metadata import would slow the command's hand-off to its daemon)
        from importlib import metadata

        try:
            return metadata.version("graphmem")
        except metadata.PackageNotFoundError:  # a source tree that was never installed
            return "0+unknown"
    if name not in _HOMES:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:
    __version__: str
    from graphmem.errors import (
        ConflictError,
        CycleError,
        GraphmemError,
        NotFoundError,
        StoreError,
        StoreUnavailableError,
        ValidationError,
    )
    from graphmem.history import CardVersion, FieldChange
    from graphmem.memory import Memory
    from graphmem.models import SELF, Card, Category, Person, Provenance, RememberResult, Status
    from graphmem.recall.engine import RecallHit
    from graphmem.tasks import BlockedTask, Task, TaskStatus
