"""The Neo4j adapter: what can be checked without a server, and a live round trip with one.

Without a server: the retry policy (a callable that fails a fixed number of times), the
error for an unreachable address (a closed loopback port), settings from the
environment, capability detection from version strings, full-text query building and
value conversion. With ``GRAPHMEM_NEO4J_URI`` set, the ``neo4j``-marked test writes and
reads cards on the live server.
"""

from __future__ import annotations

import os
import re
import socket
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ServiceUnavailable, SessionExpired, TransientError
from neo4j.spatial import CartesianPoint
from neo4j.time import DateTime, Duration
from neo4j.vector import Vector

from graphmem.cards import card_from_row, write_row
from graphmem.errors import StoreError, StoreUnavailableError, ValidationError
from graphmem.models import Card, Provenance
from graphmem.store.base import Capabilities, GraphStore
from graphmem.store.neo4j import (
    Neo4jStore,
    RetryPolicy,
    capabilities_for,
    connection_settings,
    lucene_query,
    schema_statements,
    to_plain,
)


class FailsTimes:
    """A callable that raises ``error`` for its first ``failures`` calls, then returns."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures, self.error, self.calls = failures, error, 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return "done"


def test_retry_recovers_after_two_service_unavailable() -> None:
    waits: list[float] = []
    flaky = FailsTimes(2, ServiceUnavailable("connection refused"))
    policy = RetryPolicy(attempts=5, first_wait=0.2, sleep=waits.append)
    assert policy.call(flaky, what="cannot reach Neo4j") == "done"
    assert flaky.calls == 3
    assert waits == [0.2, 0.4]


def test_retry_gives_up_after_n_attempts_with_store_unavailable() -> None:
    waits: list[float] = []
    down = FailsTimes(100, ServiceUnavailable("connection refused"))
    policy = RetryPolicy(attempts=5, first_wait=1.0, max_wait=4.0, sleep=waits.append)
    with pytest.raises(StoreUnavailableError) as info:
        policy.call(down, what="cannot reach Neo4j at bolt://db:7687")
    assert down.calls == 5
    assert waits == [1.0, 2.0, 4.0, 4.0]  # doubling, capped at max_wait
    assert str(info.value) == (
        "cannot reach Neo4j at bolt://db:7687: ServiceUnavailable: "
        "connection refused (gave up after 5 attempts)"
    )
    assert isinstance(info.value.__cause__, ServiceUnavailable)


@pytest.mark.parametrize("error", [SessionExpired("gone"), TransientError()])
def test_retry_covers_session_expired_and_transient_errors(error: Exception) -> None:
    flaky = FailsTimes(1, error)
    assert RetryPolicy(sleep=lambda _: None).call(flaky, what="x") == "done"
    assert flaky.calls == 2


def test_retry_does_not_replay_other_errors() -> None:
    wrong_password = FailsTimes(5, AuthError("unauthorized"))
    with pytest.raises(AuthError):
        RetryPolicy(sleep=lambda _: None).call(wrong_password, what="x")
    assert wrong_password.calls == 1


def test_default_policy_is_bounded() -> None:
    policy = RetryPolicy()
    waits = [min(policy.first_wait * 2**i, policy.max_wait) for i in range(policy.attempts - 1)]
    assert (policy.attempts, sum(waits)) == (5, pytest.approx(3.0))
    assert policy.max_total <= 10.0


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_server_is_a_clear_store_unavailable_error() -> None:
    port = _closed_port()
    waits: list[float] = []
    with pytest.raises(StoreUnavailableError) as info:
        Neo4jStore.connect(
            f"bolt://127.0.0.1:{port}",
            auth=("neo4j", "pw"),
            retry=RetryPolicy(attempts=3, sleep=waits.append),
        )
    message = str(info.value)
    assert message.startswith(
        f"cannot reach Neo4j at bolt://127.0.0.1:{port}: ServiceUnavailable: "
    )
    assert message.endswith("(gave up after 3 attempts)")
    assert waits == [0.2, 0.4]


def test_queries_on_a_lost_server_fail_with_store_unavailable() -> None:
    port = _closed_port()
    driver = GraphDatabase.driver(
        f"bolt://127.0.0.1:{port}", auth=("neo4j", "pw"), max_transaction_retry_time=0
    )
    waits: list[float] = []
    store = Neo4jStore(
        driver,
        capabilities_for("5.26.0"),
        uri=f"bolt://127.0.0.1:{port}",
        retry=RetryPolicy(attempts=2, sleep=waits.append),
    )
    try:
        assert isinstance(store, GraphStore)
        with pytest.raises(StoreUnavailableError, match="gave up after 2 attempts"):
            store.run("count_cards", {"user_id": "u1"})
        assert waits == [0.2]
    finally:
        store.close()


def test_only_bolt_addresses_are_accepted() -> None:
    with pytest.raises(ValidationError) as info:
        Neo4jStore.connect("http://localhost:7474", auth=("neo4j", "pw"))
    assert info.value.field == "uri"


def test_settings_come_from_arguments_then_the_environment_at_call_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert connection_settings(environ={}) == ("bolt://localhost:7687", None, None)
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "neo4j://graph.internal:7687")
    monkeypatch.setenv("GRAPHMEM_NEO4J_USER", "memory")
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "s3cret")
    monkeypatch.setenv("GRAPHMEM_NEO4J_DATABASE", "graphmem")
    assert connection_settings() == (
        "neo4j://graph.internal:7687",
        ("memory", "s3cret"),
        "graphmem",
    )
    assert connection_settings("bolt://other:7687", ("neo4j", "pw"), "neo4j") == (
        "bolt://other:7687",
        ("neo4j", "pw"),
        "neo4j",
    )


@pytest.mark.parametrize("version", ["5.26.0", "5.18.1", "2025.01.0", "2025.10.1"])
def test_supported_versions_are_accepted(version: str) -> None:
    assert capabilities_for(version) == Capabilities(dialect="neo4j")


@pytest.mark.parametrize("version", ["4.4.30", "5.11.0", "garbage"])
def test_too_old_servers_are_refused_by_name(version: str) -> None:
    with pytest.raises(StoreError, match=f"needs Neo4j 5.18 or newer, the server is {version}"):
        capabilities_for(version)


def test_schema_writes_the_dimension_as_an_integer_literal() -> None:
    vector = [s for s in schema_statements(384) if "VECTOR INDEX" in s]
    assert len(vector) == 1
    assert "`vector.dimensions`: 384," in vector[0]
    assert all("$" not in s for s in schema_statements(384))
    assert all("IF NOT EXISTS" in s for s in schema_statements(384) if s.startswith("CREATE"))


@pytest.mark.parametrize("bad", [0, -3, 5000, 384.0, "384", True])
def test_schema_refuses_a_dimension_that_is_not_a_small_int(bad: object) -> None:
    with pytest.raises(ValidationError) as info:
        schema_statements(bad)  # type: ignore[arg-type]
    assert info.value.field == "dimension"


def test_fulltext_query_keeps_words_and_drops_operators() -> None:
    assert lucene_query('Alice AND "peanut" -allergy OR title:(x*)') == (
        "alice OR peanut OR peanut~1 OR allergy OR allergy~1 OR title"
    )
    assert lucene_query("Où habite Zoë?") == "où OR habite OR habite~1 OR zoë"
    assert lucene_query("what did I do?") is None
    assert lucene_query("") is None


_TERM = re.compile(r"^\w+(~1)?$")


@given(st.text(max_size=300))
def test_fulltext_query_is_always_plain_terms(text: str) -> None:
    query = lucene_query(text)
    if query is not None:
        terms = query.split(" OR ")
        assert all(_TERM.match(term) for term in terms)
        assert all(term == term.lower() for term in terms)  # no AND/OR/NOT operators
        assert len(terms) <= 32


def test_driver_values_become_plain_python() -> None:
    row = {
        "when": DateTime(2024, 3, 20, 10, 15, 0, tzinfo=UTC),
        "for": Duration(days=2, hours=3),
        "where": CartesianPoint((1.5, 2.0)),
        "embedding": Vector([0.5, 0.25], "f32"),
        "nested": [{"at": DateTime(2024, 1, 1, tzinfo=UTC)}],
    }
    assert to_plain(row) == {
        "when": datetime(2024, 3, 20, 10, 15, tzinfo=UTC),
        "for": "P2DT3H",
        "where": [1.5, 2.0],
        "embedding": [0.5, 0.25],
        "nested": [{"at": datetime(2024, 1, 1, tzinfo=UTC)}],
    }


def test_compose_file_runs_neo4j_and_graphmem_on_it() -> None:
    yaml = pytest.importorskip("yaml")
    root = Path(__file__).resolve().parent.parent
    services = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    neo4j, graphmem = services["neo4j"], services["graphmem"]
    assert neo4j["image"] == "neo4j:5-community"
    assert neo4j["ports"] == ["7474:7474", "7687:7687"]
    assert neo4j["environment"]["NEO4J_AUTH"] == "${NEO4J_AUTH:-neo4j/graphmem-dev-password}"
    assert "cypher-shell" in neo4j["healthcheck"]["test"][1]
    assert graphmem["depends_on"] == {"neo4j": {"condition": "service_healthy"}}
    assert graphmem["environment"]["GRAPHMEM_NEO4J_URI"] == "bolt://neo4j:7687"
    assert graphmem["command"] == ["graphmem", "serve", "--host", "0.0.0.0", "--port", "8420"]
    env_example = (root / ".env.example").read_text()
    assert "NEO4J_AUTH=neo4j/graphmem-dev-password" in env_example
    assert "GRAPHMEM_NEO4J_PASSWORD=graphmem-dev-password" in env_example


# -- live server (make test-neo4j / GRAPHMEM_NEO4J_URI set) ----------------------------
@pytest.mark.neo4j
@pytest.mark.skipif(
    not os.environ.get("GRAPHMEM_NEO4J_URI"),
    reason="set GRAPHMEM_NEO4J_URI (docker compose up -d neo4j) to run",
)
def test_live_neo4j_round_trip() -> None:
    """Write a card with provenance, read it back by id, full-text and exact cosine."""
    store = Neo4jStore.connect()
    user = f"test-{uuid.uuid4().hex[:8]}"
    try:
        assert isinstance(store, GraphStore)
        store.ensure_schema(384)
        store.ensure_schema(384)  # idempotent
        card = Card(
            user_id=user,
            fact="Alice is allergic to peanuts",
            person="Alice",
            relationship="sister",
            timestamp="2024-03-20T10:15:00Z",
            source=Provenance(session_id="s1", turn=3, text="my sister Alice..."),
        )
        vector = [1.0] + [0.0] * 383
        written = store.run(
            "upsert_cards",
            {"user_id": user, "now": 1, "rows": [write_row(card, np.array(vector))]},
            write=True,
        )
        assert written == [{"id": card.id, "version": 1}]
        [row] = store.run("get_cards", {"user_id": user, "ids": [card.id]})
        assert card_from_row(row).fact == "Alice is allergic to peanuts"
        assert row["container_label"] == "Session"
        found = store.run(
            "fulltext_search",
            {
                "user_id": user,
                "query": store.fulltext_query("peanut allergy?"),
                "statuses": ["active"],
                "k": 5,
                "at": None,
            },
        )
        assert [hit["id"] for hit in found] == [card.id]
        nearest = store.run(
            "exact_vector_search",
            {"user_id": user, "vector": vector, "statuses": ["active"], "k": 5, "at": None},
        )
        assert nearest == [{"id": card.id, "score": pytest.approx(1.0)}]
    finally:
        store.execute(
            "MATCH (n {user_id: $user_id}) DETACH DELETE n", {"user_id": user}, write=True
        )
        store.close()
