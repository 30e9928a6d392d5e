"""Lossless export and import of one user's memory as JSON Lines.

One record per line, each with a ``type``; the first is a ``header``. Every record holds
the stored properties as they are (epoch milliseconds, versions, access counts, ...), so
export -> import -> export gives the same lines. This is how memory moves between stores,
e.g. from the embedded FalkorDB to Neo4j::

    graphmem --home ./.graphmem export --user alice alice.jsonl
    graphmem --neo4j-uri bolt://localhost:7687 import alice.jsonl

Record types, in the order written (import relies on it):

========== =================================================================
header     format, version, user_id, whether vectors are included, dimension
user       the User node's properties (task-graph version)
person     a Person's properties and the user's KNOWS edge (relationship,
           since, history)
maybe_same a mention linked for review to a known person (MAYBE_SAME)
session    a conversation session; ``document``: a source document
source     a turn or passage, with the session/document it is in
card       every property of a card (any status), the people it is ABOUT,
           its evidence edges (FROM, with span and extractor), whether it is in
           the vector index (label AnnCard), optionally its vector
card_version an archived version of a card (graphmem/history.py): its
           properties then, or only who/when/how once erased
supersedes / conflicts_with   an edge between two cards, with its properties
abstraction  a summary with the cards it SUMMARIZES
task       a task's properties, the tasks it is BLOCKED_BY and cards it CITES
entity     an entity other than a person (people carry their entity id)
relation / mention   RELATED_TO between entities; a card that MENTIONS an entity
session_summary      a session's running summary and the turns it SUMMARIZES
trace      a reasoning trace with its steps and their tool calls, and its task
========== =================================================================

Without vectors (the default) import embeds the cards with the target's embedder; with
``with_embeddings`` the stored vectors are written as they are when the dimension
matches. Import writes through the store with MERGE: importing twice changes nothing.
Importing under another user id re-homes every record; card ids derived from the
content (the default) are re-derived for the new user, and every reference follows.
An export refuses to run when the user has nodes or edges it does not know, rather than
leave them out silently.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from graphmem.cards import card_from_row, card_props
from graphmem.errors import GraphmemError, ValidationError
from graphmem.export_format import FORMAT, STAGES, VERSION, check_export
from graphmem.models import check_user_id, identity_of

if TYPE_CHECKING:
    from graphmem.embedding import Embedder
    from graphmem.memory import Memory
    from graphmem.store.base import GraphStore

PAGE = 1000
#: Labels and relationship types an export carries; anything else stops it.
KNOWN_LABELS = frozenset(
    {
        "User",
        "Person",
        "Card",
        "AnnCard",
        "CardVersion",
        "Source",
        "Session",
        "Document",
        "Abstraction",
        "Task",
        "Entity",
        "SessionSummary",
        "Trace",
        "Step",
        "ToolCall",
    }
)
KNOWN_RELATIONSHIPS = frozenset(
    {
        "KNOWS",
        "ABOUT",
        "FROM",
        "IN",
        "SUPERSEDES",
        "CONFLICTS_WITH",
        "SUMMARIZES",
        "BLOCKED_BY",
        "CITES",
        "MAYBE_SAME",
        "VERSION_OF",
        "RELATED_TO",
        "MENTIONS",
        "OF",
        "HAS_STEP",
        "HAS_TOOL_CALL",
        "WORKS_ON",
    }
)


@dataclass
class ImportReport:
    """How many records of each type an import wrote."""

    user_id: str
    counts: dict[str, int] = field(default_factory=dict)


#: Per-store bookkeeping, never exported: ``tenant`` is derived from the user id (import
#: sets the importer's); ``revision``/``deletions`` count writes in this store only.
_LOCAL = frozenset({"tenant", "revision", "deletions"})


def _clean(props: dict[str, Any] | None) -> dict[str, Any]:
    """Properties without nulls (a graph stores no null property), sorted, and without
    the store's own bookkeeping (``_LOCAL``)."""
    props = props or {}
    return {k: props[k] for k in sorted(props) if props[k] is not None and k not in _LOCAL}


def export_records(
    memory: Memory, user_id: str, *, with_embeddings: bool = False
) -> Iterator[dict[str, Any]]:
    """Every record of ``user_id``'s memory, header first (``Memory.export_records``)."""
    return memory.export_records(user_id, with_embeddings=with_embeddings)


def records_of(
    store: GraphStore, user_id: str, *, dimension: int | None = None
) -> Iterator[dict[str, Any]]:
    """Every record of ``user_id``'s memory in ``store``, header first (see the module
    docstring); with vectors of ``dimension`` when given."""
    with_embeddings = dimension is not None
    params = {"user_id": user_id}
    _check_inventory(store.run("export_inventory", params))
    yield {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "user_id": user_id,
        "embeddings": with_embeddings,
        "dimension": dimension,
    }
    for row in store.run("export_user", params):
        yield {"type": "user", "props": _clean(row["props"])}
    for row in store.run("export_people", params):
        props = _clean(row["props"])
        yield {
            "type": "person",
            "key": props["key"],
            "props": props,
            "knows": _clean(row["knows"]) if row["knows"] else None,
        }
    for row in store.run("export_person_links", params):
        yield {
            "type": "maybe_same",
            "source": row["source"],
            "target": row["target"],
            "props": _clean(row["props"]),
        }
    for row in sorted(
        store.run("export_containers", params), key=lambda r: (r["type"], r["props"]["id"])
    ):
        props = _clean(row["props"])
        yield {"type": row["type"], "id": props["id"], "props": props}
    for row in store.run("export_sources", params):
        props = _clean(row["props"])
        containers = sorted(
            (
                {"label": c["label"], "id": c["id"]}
                for c in row["containers"]
                if c.get("id") is not None
            ),
            key=lambda c: (c["label"], c["id"]),
        )
        yield {"type": "source", "id": props["id"], "props": props, "containers": containers}
    skip = 0
    while True:
        rows = store.run(
            "export_cards",
            {**params, "skip": skip, "limit": PAGE, "with_embeddings": with_embeddings},
        )
        for row in rows:
            props = _clean(row["props"])
            record = {
                "type": "card",
                "id": props["id"],
                "props": props,
                "ann": bool(row["ann"]),
                "people": sorted(row["people"]),
                "sources": sorted(
                    (
                        {"id": s["id"], "props": _clean(s["props"])}
                        for s in row["sources"]
                        if s.get("id") is not None
                    ),
                    key=lambda s: s["id"],
                ),
            }
            if with_embeddings and row["embedding"] is not None:
                record["embedding"] = [float(x) for x in row["embedding"]]
            yield record
        if len(rows) < PAGE:
            break
        skip += PAGE
    yield from _card_versions(store, params)
    for row in sorted(
        store.run("export_edges", params), key=lambda r: (r["type"], r["source"], r["target"])
    ):
        yield {
            "type": row["type"],
            "source": row["source"],
            "target": row["target"],
            "props": _clean(row["props"]),
        }
    for row in store.run("export_abstractions", {**params, "with_embeddings": with_embeddings}):
        props = _clean(row["props"])
        members = sorted(
            (
                {"id": m["id"], "props": _clean(m["props"])}
                for m in row["members"]
                if m.get("id") is not None
            ),
            key=lambda m: m["id"],
        )
        record = {"type": "abstraction", "id": props["id"], "props": props, "members": members}
        if with_embeddings and row["embedding"] is not None:
            record["embedding"] = [float(x) for x in row["embedding"]]
        yield record
    for row in sorted(store.run("task_graph", params), key=lambda r: r["task"]["id"]):
        props = _clean(row["task"])
        yield {
            "type": "task",
            "id": props["id"],
            "props": props,
            "blocked_by": sorted(row["blocked_by"]),
            "cites": sorted(row["cites"]),
        }
    yield from _agent_records(store, params)


def _agent_records(store: Any, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Entities, session summaries, reasoning traces, then relations and mentions (their
    endpoints first)."""
    for row in store.run("export_agent_entities", params):
        props = _clean(row["props"])
        yield {"type": "entity", "id": props["id"], "props": props}
    for row in store.run("export_session_summaries", params):
        props = _clean(row["props"])
        yield {
            "type": "session_summary",
            "id": props["id"],
            "props": props,
            "turns": sorted(t for t in row["turns"] if t),
        }
    traces: dict[str, dict[str, Any]] = {}
    for row in store.run("export_traces", params):
        trace = traces.setdefault(
            row["trace"]["id"],
            {
                "type": "trace",
                "id": row["trace"]["id"],
                "props": _clean(row["trace"]),
                "task": row["task"],
                "steps": {},
            },
        )
        if row["step"] is not None:
            step = trace["steps"].setdefault(
                row["step"]["id"], {"props": _clean(row["step"]), "calls": {}}
            )
            if row["call"] is not None:
                step["calls"][row["call"]["id"]] = _clean(row["call"])
    for trace_id in sorted(traces):
        trace = traces[trace_id]
        trace["steps"] = [
            {"props": step["props"], "calls": [step["calls"][c] for c in sorted(step["calls"])]}
            for _, step in sorted(trace["steps"].items(), key=lambda kv: kv[1]["props"]["number"])
        ]
        yield trace
    for row in sorted(
        store.run("export_agent_links", params),
        key=lambda r: (r["type"], r["source"], r["target"], (r["props"] or {}).get("type", "")),
    ):
        yield {
            "type": row["type"],
            "source": row["source"],
            "target": row["target"],
            "props": _clean(row["props"]),
        }


def _card_versions(store: Any, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
    skip = 0
    while True:
        rows = store.run("export_card_versions", {**params, "skip": skip, "limit": PAGE})
        for row in rows:
            props = _clean(row["props"])
            yield {
                "type": "card_version",
                "id": props["id"],
                "version": props["version"],
                "props": props,
            }
        if len(rows) < PAGE:
            return
        skip += PAGE


def _check_inventory(rows: list[dict[str, Any]]) -> None:
    labels = {label for row in rows for label in row["labels"]}
    types = {t for row in rows for t in row["types"] if t}
    unknown = sorted(labels - KNOWN_LABELS) + sorted(types - KNOWN_RELATIONSHIPS)
    if unknown:
        raise GraphmemError(
            f"export does not know how to carry {', '.join(unknown)}: "
            f"refusing to write an incomplete export"
        )


def export_user(
    memory: Memory, user_id: str, out: IO[str], *, with_embeddings: bool = False
) -> int:
    """Write ``user_id``'s memory to ``out`` as JSON Lines; returns the records written."""
    check_user_id(user_id)
    written = 0
    for record in export_records(memory, user_id, with_embeddings=with_embeddings):
        out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        written += 1
    return written


def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of JSON Lines (``check_export`` has validated them)."""
    for line in lines:
        if line.strip():
            yield json.loads(line)


def import_records(
    memory: Memory,
    records: Iterable[dict[str, Any]],
    *,
    user_id: str | None = None,
    batch_size: int = 500,
) -> ImportReport:
    """Write exported records into ``memory`` (``Memory.import_records``)."""
    return memory.import_records(records, user_id=user_id, batch_size=batch_size)


def write_records(
    store: GraphStore,
    embedder: Embedder,
    records: Iterable[dict[str, Any]],
    *,
    user_id: str | None = None,
    batch_size: int = 500,
) -> ImportReport:
    """Write exported records into ``store``, for ``user_id`` (default: the exported
    user); vectors missing (or of another dimension) are made with ``embedder``; session
    turns are left for the caller to embed. Idempotent: importing the same records again
    changes nothing. The records must have passed ``check_export`` (``import_file`` sees
    to it)."""
    records = iter(records)
    header = next(records, None)
    if header is None or header.get("type") != "header" or header.get("format") != FORMAT:
        raise ValidationError(
            "not a graphmem export: the first record must be its header", field="header"
        )
    target = user_id or header["user_id"]
    check_user_id(target)
    writer = _Writer(store, embedder, target, batch_size, rehome=target != header["user_id"])
    for record in records:
        writer.add(record)
    writer.flush_all()
    return ImportReport(target, writer.counts)


def import_file(
    memory: Memory, source: Path | Iterable[str], *, user_id: str | None = None
) -> ImportReport:
    """Import an export file (a path, or its lines): every record is checked first
    (``graphmem.export_format``), so a bad record anywhere writes nothing and names its
    line and field; then the records are written."""
    if user_id is not None:
        check_user_id(user_id)
    if isinstance(source, Path):
        with _lines(source) as lines:
            check_export(lines)
        with _lines(source) as lines:
            return import_records(memory, read_records(lines), user_id=user_id)
    text = source if isinstance(source, Sequence) and not isinstance(source, str) else list(source)
    check_export(text)
    return import_records(memory, read_records(text), user_id=user_id)


@contextmanager
def _lines(path: Path) -> Iterator[Iterator[str]]:
    """The lines of a file; bytes that are not UTF-8 are a ValidationError naming the line."""
    with path.open("rb") as handle:

        def decoded() -> Iterator[str]:
            for number, raw in enumerate(handle, start=1):
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise ValidationError(
                        f"line {number}: not UTF-8 text", field=f"line {number}"
                    ) from None

        yield decoded()


# Record type -> (query, stage). Records arrive grouped in stage order; a batch of a
# stage is written before any record of a later stage (cards need their people, edges
# need their cards).


class _Writer:
    """Buffers records per query and writes them in batches, stage by stage."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        user_id: str,
        batch_size: int,
        *,
        rehome: bool = False,
    ) -> None:
        self.store, self.embedder = store, embedder
        self.user_id, self.batch_size = user_id, batch_size
        self.rehome = rehome
        self.card_ids: dict[str, str] = {}  # exported id -> id for the new user
        self.pending: dict[str, list[dict[str, Any]]] = {}
        self.stage = 0
        self.counts: dict[str, int] = {}
        self.task_edges: list[dict[str, Any]] = []

    def add(self, record: dict[str, Any]) -> None:
        kind = record["type"]
        if kind == "header":
            raise ValidationError(
                "a second header: concatenated exports are not supported", field="header"
            )
        stage = STAGES[kind]
        if stage > self.stage:
            self.flush_all()
            self.stage = stage
        query, row = self._row(record)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        rows = self.pending.setdefault(query, [])
        rows.append(row)
        if len(rows) >= self.batch_size:
            self._flush(query)

    def flush_all(self) -> None:
        for query in list(self.pending):
            self._flush(query)
        edges, self.task_edges = self.task_edges, []
        for start in range(0, len(edges), self.batch_size):
            self.store.run(
                "import_task_edges",
                {"user_id": self.user_id, "rows": edges[start : start + self.batch_size]},
                write=True,
            )

    def _flush(self, query: str) -> None:
        rows = self.pending.pop(query, [])
        if not rows:
            return
        if query == "import_cards":
            self._embed(rows)
        if query == "import_traces":  # the task's embedding is derived: made anew
            vectors = self.embedder.embed([r["props"].get("task", "") for r in rows])
            for row, vector in zip(rows, vectors, strict=True):
                row["embedding"] = [float(x) for x in vector]
        if query == "import_user":
            for row in rows:
                self.store.run(query, {"user_id": self.user_id, "props": row}, write=True)
            return
        self.store.run(query, {"user_id": self.user_id, "rows": rows}, write=True)

    def _embed(self, rows: list[dict[str, Any]]) -> None:
        """Vectors for the cards that came without one (or with another dimension)."""
        dimension = self.embedder.dimension
        todo = [r for r in rows if len(r.get("embedding") or []) != dimension]
        if todo:
            texts = [card_from_row({"card": r["props"]}).embedding_text for r in todo]
            for row, vector in zip(todo, self.embedder.embed(texts), strict=True):
                row["embedding"] = [float(x) for x in vector]

    def _row(self, record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        kind = record["type"]
        props = self._own(record.get("props") or {})
        if kind == "user":
            return "import_user", props
        if kind == "person":
            return "import_people", {
                "key": record["key"],
                "props": props,
                "knows": record.get("knows"),
            }
        if kind == "maybe_same":
            return "import_person_links", {
                "source": record["source"],
                "target": record["target"],
                "props": props,
            }
        if kind in ("session", "document"):
            return "import_containers", {"type": kind, "id": record["id"], "props": props}
        if kind == "source":
            return "import_sources", {
                "id": record["id"],
                "props": props,
                "containers": record.get("containers") or [],
            }
        if kind == "card":  # the record's id and user are the card's
            props = {**props, "id": record["id"], "user_id": self.user_id}
            if not {"status", "content_hash", "timestamp"} <= props.keys():
                # A hand-made record (an export always has them): what a card defaults to.
                props = {**card_props(card_from_row({"card": props})), **props}
            props = self._rehome_card(props)
            return "import_cards", {
                "id": props["id"],
                "props": props,
                "embedding": record.get("embedding"),
                "ann": bool(record.get("ann")),
                "people": record.get("people") or [],
                "sources": record.get("sources") or [],
            }
        if kind == "card_version":
            card_id = self._card(record["id"])
            props = {**props, "id": card_id}
            if self.rehome and props.get("erased_at") is None and props.get("content_hash"):
                state = {**props, "id": None, "content_hash": None}
                props["content_hash"] = card_from_row({"card": state}).content_hash
            return "import_card_versions", {
                "id": card_id,
                "version": record["version"],
                "props": props,
            }
        if kind in ("supersedes", "conflicts_with"):
            return "import_edges", {
                "type": kind,
                "source": self._card(record["source"]),
                "target": self._card(record["target"]),
                "props": props,
            }
        if kind == "entity":
            return "import_agent_entities", {"props": props}
        if kind in ("relation", "mention"):
            source = self._card(record["source"]) if kind == "mention" else record["source"]
            return "import_agent_links", {
                "type": kind,
                "source": source,
                "target": record["target"],
                "props": props,
            }
        if kind == "session_summary":
            card_ids = props.get("card_ids")
            if card_ids:
                props["card_ids"] = [self._card(i) for i in card_ids]
            return "import_session_summaries", {
                "id": record["id"],
                "props": props,
                "turns": record.get("turns") or [],
            }
        if kind == "trace":
            steps = [
                {
                    "props": self._own(step.get("props") or {}),
                    "calls": [self._own(c) for c in step.get("calls") or []],
                }
                for step in record.get("steps") or []
            ]
            return "import_traces", {
                "id": record["id"],
                "props": props,
                "task": record.get("task"),
                "steps": steps,
            }
        if kind == "abstraction":
            members = [{**m, "id": self._card(m["id"])} for m in record.get("members") or []]
            for key in ("representative", "ranked"):
                if key in props:
                    props[key] = _map_ids(props[key], self._card)
            return "import_abstractions", {"id": record["id"], "props": props, "members": members}
        self.task_edges.append(
            {
                "id": record["id"],
                "blocked_by": record.get("blocked_by", []),
                "cites": [self._card(c) for c in record.get("cites", [])],
            }
        )
        return "import_tasks", {"id": record["id"], "props": props}

    def _own(self, props: dict[str, Any]) -> dict[str, Any]:
        """Properties re-homed to the target user."""
        return {**props, "user_id": self.user_id} if "user_id" in props else dict(props)

    def _rehome_card(self, props: dict[str, Any]) -> dict[str, Any]:
        """The card's identity for the target user (it includes the user); for another
        user, the content hash and the id too when it was derived from the content, so
        remembering the same fact again for the new user finds this card instead of
        adding a twin. Exports made before identities get theirs here."""
        if not self.rehome:
            if props.get("identity"):
                return props
            return {**props, "identity": _identity(props, self.user_id)}
        old_id = props["id"]
        derived = old_id in (
            (props.get("identity") or "")[:32],
            (props.get("content_hash") or "")[:32],
        )
        card = card_from_row({"card": {**props, "id": None, "content_hash": None}})
        new_id = card.id if derived else old_id
        self.card_ids[old_id] = new_id
        return {
            **props,
            "id": new_id,
            "content_hash": card.content_hash,
            "identity": card.identity,
        }

    def _card(self, card_id: str) -> str:
        return self.card_ids.get(card_id, card_id)


def _identity(props: dict[str, Any], user_id: str) -> str:
    return identity_of(
        user_id, props.get("fact") or "", props.get("person") or "me", props.get("relationship")
    )


def _map_ids(value: Any, rename: Any) -> Any:
    """Card ids inside an abstraction property (an id, or a list of ids), renamed."""
    if isinstance(value, str):
        return rename(value)
    if isinstance(value, list):
        return [rename(v) if isinstance(v, str) else v for v in value]
    return value
