"""Shared fixtures: one real store per backend per session, a fresh user per test.

Every store test takes ``memory`` and runs once per backend: the embedded FalkorDB
always, Neo4j when ``GRAPHMEM_NEO4J_URI`` points at a live server (marker ``neo4j``).
Tests stay independent by writing under a user id of their own.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem import Memory

BACKENDS = ["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)]

# pytest-xdist starts its workers (make test) with COLUMNS=80 set; the CLI's console, made
# when graphmem.cli is imported, would keep that width for every test, where each CLI test
# gives its own (CliRunner's env).
os.environ.pop("COLUMNS", None)


def write_chat(folder: Path, rows: list[dict]) -> Path:
    """A chat export (``graphmem ingest --format conversation``): one JSON object a line."""
    path = folder / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


def short_tmpdir(prefix: str = "gm-") -> Path:
    """A short path: unix socket paths are limited to 107 bytes."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


@pytest.fixture(scope="session", params=BACKENDS)
def memory(request: pytest.FixtureRequest) -> Iterator[Memory]:
    if request.param == "neo4j":
        uri = os.environ.get("GRAPHMEM_NEO4J_URI")
        if not uri:
            pytest.skip(
                "Neo4j backend: set GRAPHMEM_NEO4J_URI (and _USER/_PASSWORD) "
                "to run against a live server, e.g. after `docker compose up`"
            )
        mem = Memory.open(neo4j_uri=uri)
    else:
        home = short_tmpdir()
        mem = Memory.open(home)
    yield mem
    mem.close()
    if request.param == "falkordb":
        shutil.rmtree(mem.home, ignore_errors=True)  # type: ignore[arg-type]


@pytest.fixture
def user() -> str:
    """A user id no other test writes under."""
    return f"user-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def home() -> Iterator[Path]:
    """An empty data directory for tests that manage their own embedded server."""
    path = short_tmpdir()
    yield path
    from graphmem import daemon
    from graphmem.store.embedded import EmbeddedServer

    daemon.stop(path)
    EmbeddedServer(path).stop()
    shutil.rmtree(path, ignore_errors=True)
