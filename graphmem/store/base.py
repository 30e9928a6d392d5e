"""The one narrow interface every graph backend implements.

Domain code (cards, recall, consolidation, tasks) asks a store to run a *named* query
from ``cypher/`` with parameters and gets plain rows back. The store owns the dialect:
which file a name resolves to, how vectors are encoded, how full-text queries are
written, and how the schema is created.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

Row = dict[str, Any]
Dialect = Literal["falkordb", "neo4j"]


class WireVector(list[float]):
    """A vector as sent to a store: plain floats rounded to 8 decimals
    (``graphmem.recall.vector.wire_vector``), so an adapter that writes parameters as text can
    print them all with one fixed format."""

    __slots__ = ()


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, detected once; code asks flags, never versions.

    Only the dialect differs today: both backends search vectors exactly per user, neither
    pre-filters its vector index by user (recall over-fetches and filters, see
    ``graphmem.recall.vector``), and every write is one query. Add a flag when behaviour
    differs, read where it does.
    """

    dialect: Dialect


@runtime_checkable
class GraphStore(Protocol):
    """A graph database holding every user's memory, one graph for all tenants."""

    caps: Capabilities

    @property
    def started_server(self) -> bool:
        """True when this store started the server it talks to (an embedded one, at open
        or again after it died); False when it joined a running one."""
        ...

    def run(
        self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> list[Row]:
        """Run the named query (``cypher/<name>.cypher``) and return rows as dicts.

        A query given ``$user_id`` also gets ``$tenant``, the user's full-text token
        (``graphmem.store.text.tenant_token``): cards carry it and full-text search
        narrows to it.
        """
        ...

    def ensure_schema(self, dimension: int) -> None:
        """Create indexes and constraints if missing; safe to call at every open."""
        ...

    def fulltext_query(self, text: str) -> str | None:
        """Turn free user text into this backend's full-text query syntax, safely.

        Returns None when nothing searchable is left (only stop words/punctuation).
        """
        ...

    def purge_deleted(self) -> None:
        """Make deleted data unrecoverable from the store's files (after a hard forget)."""
        ...

    def close(self) -> None:
        """Disconnect; an embedded server this was the last client of stops."""
        ...

    def detach(self) -> None:
        """Disconnect but leave an embedded server running for the next caller (the CLI's
        calls share one); where the store runs no server of its own, the same as close."""
        ...
