"""The tree of graphmem errors.

GraphmemError
├── ValidationError      bad input; names the field, nothing was written
├── NotFoundError        no such card / task / person for this user
├── ConflictError        optimistic-lock or rule conflict (stale version, cycle, ...)
│   └── CycleError       a task dependency would close a cycle
├── QuotaExceededError   over a user's limit (cards, stored bytes, writes per minute)
└── StoreError           the database failed or cannot be reached
    └── StoreUnavailableError
"""

from __future__ import annotations

from typing import Any


class GraphmemError(Exception):
    """Base of every error graphmem raises on purpose."""


class ValidationError(GraphmemError, ValueError):
    """Input was rejected before anything was written.

    ``field`` is the dotted path of the first offending field; ``errors`` holds all of
    them as ``(field, message)`` pairs.
    """

    def __init__(
        self, message: str, *, field: str | None = None, errors: list[tuple[str, str]] | None = None
    ) -> None:
        super().__init__(message)
        self.field = field
        self.errors = errors or ([(field, message)] if field else [])

    @classmethod
    def from_pydantic(cls, exc: Any, *, prefix: str = "") -> ValidationError:
        """Turn a pydantic ``ValidationError`` into ours, naming every field."""
        pairs: list[tuple[str, str]] = []
        for err in exc.errors():
            loc = ".".join(str(part) for part in err.get("loc", ()))
            field = prefix + loc if loc else prefix.rstrip(".") or "input"
            pairs.append((field, err.get("msg", "")))
        first_field = pairs[0][0] if pairs else "input"
        detail = "; ".join(f"{f}: {m}" for f, m in pairs)
        return cls(f"invalid {first_field}: {detail}", field=first_field, errors=pairs)


class NotFoundError(GraphmemError, KeyError):
    """The thing asked for does not exist for this user."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "not found"


class ConflictError(GraphmemError):
    """The write lost a race or breaks a rule; re-read and retry."""


class CycleError(ConflictError):
    """A task dependency would make the dependency graph cyclic."""


class QuotaExceededError(GraphmemError):
    """A write would take a user over a limit; nothing was written.

    ``limit`` names it (``cards``, ``bytes`` or ``writes_per_minute``); ``allowed`` and
    ``used`` are its value and the user's usage before the write, ``requested`` what the
    write would add; ``retry_after`` (seconds) is set for the rate limit only: waiting
    frees room there, while the other limits need data deleted or a higher limit.
    """

    def __init__(
        self,
        message: str,
        *,
        limit: str,
        allowed: int,
        used: int,
        requested: int,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.limit = limit
        self.allowed = allowed
        self.used = used
        self.requested = requested
        self.retry_after = retry_after


class StoreError(GraphmemError):
    """The graph store failed."""


class StoreUnavailableError(StoreError):
    """The graph store cannot be reached or started."""
