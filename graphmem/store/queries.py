"""Named Cypher queries: one file per need in ``cypher/``, per-dialect only where needed.

``cypher/<name>.cypher`` is shared by every backend; ``cypher/<dialect>/<name>.cypher``
exists only for the constructs that differ (docs/design.md's dialect table), and then for
every dialect. The schema is the one exception: Neo4j's is DDL with IF NOT EXISTS
(``neo4j/schema.cypher``), FalkorDB's is declared as data (``falkordb/schema.json``) that
its adapter renders, since FalkorDB's DDL cannot say "if missing".
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from graphmem.errors import StoreError

DIALECTS = ("falkordb", "neo4j")


def cypher_dir() -> Path:
    """Installed wheels carry the queries as ``graphmem/cypher``; a checkout has ``cypher/``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "cypher", here.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise StoreError(f"query files not found next to {here}")


@cache
def load(name: str, dialect: str) -> str:
    """The text of query ``name`` for ``dialect``."""
    root = cypher_dir()
    for path in (root / dialect / f"{name}.cypher", root / f"{name}.cypher"):
        if path.is_file():
            return _strip_comments(path.read_text(encoding="utf-8"))
    raise StoreError(f"no query named {name!r} for {dialect}")


def names() -> list[str]:
    """Every query name known, shared or per-dialect (the schema is DDL, not a query)."""
    root = cypher_dir()
    found = {p.stem for p in root.glob("*.cypher")}
    for dialect in DIALECTS:
        found |= {p.stem for p in (root / dialect).glob("*.cypher")}
    return sorted(found - {"schema"})


@cache
def schema_spec(dialect: str) -> dict[str, Any]:
    """A dialect's declared schema (``cypher/<dialect>/schema.json``), for backends whose
    DDL has no IF NOT EXISTS and is rendered by the adapter."""
    path = cypher_dir() / dialect / "schema.json"
    if not path.is_file():
        raise StoreError(f"no declared schema for {dialect}")
    return json.loads(path.read_text(encoding="utf-8"))


def statements(name: str, dialect: str) -> list[str]:
    """A multi-statement file (schema) split on ``;`` at line ends."""
    return [part.strip() for part in load(name, dialect).split(";\n") if part.strip()]


def _strip_comments(text: str) -> str:
    """Drop ``//`` comment lines and a trailing ``;`` (drivers reject both in places)."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return "\n".join(lines).strip().rstrip(";").rstrip()
