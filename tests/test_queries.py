"""Every named query resolves for every backend, and ships inside the wheel."""

import subprocess
import sys
import zipfile

import pytest

from graphmem.store import queries


@pytest.mark.parametrize("dialect", queries.DIALECTS)
def test_every_query_name_resolves_for_every_backend(dialect):
    for name in queries.names():
        assert queries.load(name, dialect).strip(), name


def test_dialect_variants_exist_for_every_dialect_or_none():
    root = queries.cypher_dir()
    per_dialect = {d: {p.stem for p in (root / d).glob("*.cypher")} for d in queries.DIALECTS}
    assert per_dialect["falkordb"] == per_dialect["neo4j"]
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
    assert "ingestion/__init__.py" in names
