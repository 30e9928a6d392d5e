"""Every named query resolves for every backend, and ships inside the wheel."""

import subprocess
import sys
import zipfile

import pytest

from graphmem.errors import StoreError
from graphmem.store import queries
from graphmem.store.falkordb import schema_statements


@pytest.mark.parametrize("dialect", queries.DIALECTS)
def test_every_query_name_resolves_for_every_backend(dialect):
    for name in queries.names():
        assert queries.load(name, dialect).strip(), name


def test_the_falkordb_schema_is_declared_and_renders_to_ddl():
    spec = queries.schema_spec("falkordb")
    assert {"range", "vector", "fulltext", "unique"} <= set(spec)
    ddl = schema_statements(spec, 384)
    assert len(ddl) == len(spec["range"]) + len(spec["vector"]) + len(spec["fulltext"])
    ranged = {
        (label, prop) for _, creates in ddl for label, prop, kind in creates if kind == "RANGE"
    }
    for unique in spec["unique"]:  # GRAPH.CONSTRAINT needs a range index first
        assert {(unique["label"], p) for p in unique["properties"]} <= ranged, unique


def test_a_schema_name_that_could_inject_ddl_is_refused():
    with pytest.raises(StoreError, match="not a schema name"):
        schema_statements({"range": [{"label": "Card) DETACH DELETE (x", "properties": []}]}, 384)


def test_dialect_variants_exist_for_every_dialect_or_none():
    root = queries.cypher_dir()
    per_dialect = {d: {p.stem for p in (root / d).glob("*.cypher")} for d in queries.DIALECTS}
    assert per_dialect["falkordb"] | {"schema"} == per_dialect["neo4j"]
    shared = {p.stem for p in root.glob("*.cypher")}
    assert not shared & per_dialect["falkordb"], "a name is either shared or per dialect"


def test_queries_never_interpolate_text():
    """Queries take parameters; only the schema's index dimension is filled in."""
    for name in queries.names():
        for dialect in queries.DIALECTS:
            text = queries.load(name, dialect)
            assert "{}" not in text, (name, dialect)
            assert "%s" not in text, (name, dialect)


@pytest.mark.slow
def test_the_wheel_ships_the_query_files(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            ".",
        ],
        check=True,
        timeout=300,
    )
    wheel = next(tmp_path.glob("graphmem-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {
        n.removeprefix("graphmem/cypher/")
        for n in names
        if n.startswith("graphmem/cypher/") and n.endswith(".cypher")
    }
    root = queries.cypher_dir()
    expected = {str(p.relative_to(root)) for p in root.rglob("*.cypher")}
    assert shipped == expected
    assert "graphmem/cypher/falkordb/schema.json" in names
    assert "ingestion/__init__.py" in names
