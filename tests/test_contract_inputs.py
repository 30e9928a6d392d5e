"""Input a user can get wrong is read the way they meant or refused with the field named
(issue 19, point 7 and the HTTP items of 12): years, booleans, negative and future
times; strict HTTP bodies; one error shape."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel
from typer.testing import CliRunner

from graphmem import Card, Memory, ValidationError
from graphmem.cli import app as cli
from graphmem.service import ServiceSettings, create_app
from graphmem.service.schemas import Body
from graphmem.timeutil import to_ms


@pytest.fixture(scope="module")
def client(memory: Memory) -> Iterator[TestClient]:
    app = create_app(memory, settings=ServiceSettings(max_body_bytes=10_000))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_a_four_digit_string_is_a_year_and_a_month_is_its_first_day():
    assert Card(user_id="u", fact="x", timestamp="2024").timestamp == to_ms("2024-01-01")
    assert Card(user_id="u", fact="x", timestamp="2024-03").timestamp == to_ms("2024-03-01")
    assert Card(user_id="u", fact="x", timestamp=" 1999 ").timestamp == to_ms("1999-01-01")
    assert Card(user_id="u", fact="x", timestamp="1931-05-01").timestamp < 0  # dates before 1970


@pytest.mark.parametrize("value", [True, False, -1, -1.5, "-1", "3000-01-01", "9999"])
def test_booleans_negative_numbers_and_far_futures_are_refused(value):
    with pytest.raises(ValidationError) as caught:
        Card(user_id="u", fact="x", timestamp=value)
    assert caught.value.field == "timestamp"


def test_a_planned_event_may_be_in_the_future_when_asked(memory: Memory, user: str):
    wedding = {"user_id": user, "fact": "My wedding day", "timestamp": "2031-06-01"}
    with pytest.raises(ValidationError, match="allow_future"):
        memory.remember(wedding)
    stored = memory.remember(wedding, allow_future=True)
    assert stored.timestamp == to_ms("2031-06-01")
    assert memory.get(user, stored.id).timestamp == stored.timestamp  # type: ignore[arg-type]


def test_http_reads_years_and_refuses_coercion(client: TestClient, user: str):
    base = f"/v1/users/{user}"
    made = client.post(f"{base}/cards", json={"fact": "I moved to Lisbon", "timestamp": "2024"})
    assert made.json()["timestamp"] == to_ms("2024-01-01")
    for body, field in (
        ({"query": "Lisbon", "k": "5"}, "k"),
        ({"query": "Lisbon", "k": True}, "k"),
        ({"query": "Lisbon", "include_superseded": "yes"}, "include_superseded"),
    ):
        answer = client.post(f"{base}/recall", json=body)
        assert (answer.status_code, answer.json()["field"]) == (422, field), answer.text
    bad_time = client.post(f"{base}/cards", json={"fact": "x", "timestamp": True})
    assert (bad_time.status_code, bad_time.json()["field"]) == (422, "timestamp")
    future = {"fact": "dinner at Nara", "timestamp": "2031-01-01"}
    assert client.post(f"{base}/cards", json=future).status_code == 422
    planned = client.post(f"{base}/cards", json={**future, "allow_future": True})
    assert planned.status_code == 200, planned.text
    turn = {"fact": "x", "source": {"turn": "3"}}
    assert client.post(f"{base}/cards", json=turn).json()["field"] == "source.turn"


def test_every_error_has_one_shape(client: TestClient, user: str):
    base = f"/v1/users/{user}"
    broken = client.post(
        f"{base}/recall",
        content=b'{"query": "x", "k": }',
        headers={"Content-Type": "application/json"},
    )
    assert broken.status_code == 422
    assert broken.json()["field"] == "body"
    assert broken.json()["detail"].startswith("body: not valid JSON")
    too_big = client.post(f"{base}/cards", json={"fact": "x" * 20_000})
    assert (too_big.status_code, too_big.json()["field"]) == (413, "body")
    answers = [
        broken,
        too_big,
        client.get(f"{base}/cards/nope"),
        client.post(f"{base}/recall", json={"query": "x", "k": 0}),
        client.post(f"{base}/cards", json={"fact": "x", "timestamp": "soon"}),
        client.delete(f"{base}/cards"),
    ]
    for answer in answers:
        body = answer.json()
        assert {"error", "detail", "field", "request_id"} <= set(body), body
        assert isinstance(body["detail"], str), body
    assert answers[3].json()["errors"] == [
        {"field": "k", "message": "Input should be greater than or equal to 1"}
    ]


def api_routes(routes) -> Iterator[APIRoute]:
    """Every route of an app, through included routers (FastAPI includes them lazily)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)
        elif hasattr(route, "routes"):
            yield from api_routes(route.routes)


def test_every_route_takes_a_strict_body(memory: Memory):
    """A rule, not a habit: new routes (sessions, traces, ...) get it too."""
    routes = [r for r in api_routes(create_app(memory).routes) if r.body_field is not None]
    assert len(routes) > 20
    loose = []
    for route in routes:
        model = route.body_field.field_info.annotation  # type: ignore[union-attr]
        for candidate in (m for m in (*get_args(model), model) if isinstance(m, type)):
            if issubclass(candidate, BaseModel) and not issubclass(candidate, Body):
                loose.append(f"{route.path}: {candidate.__name__}")
    assert loose == []


def test_cli_remember_reads_a_year_and_refuses_the_far_future(home: Path):
    runner = CliRunner()
    gm = ["--home", str(home)]
    made = runner.invoke(
        cli, [*gm, "remember", "I moved", "-u", "ada", "--timestamp", "2024", "--json"]
    )
    assert json.loads(made.stdout)["timestamp"] == to_ms("2024-01-01")
    refused = runner.invoke(cli, [*gm, "remember", "x", "-u", "ada", "--timestamp", "2999-01-01"])
    assert refused.exit_code == 2
    assert "allow_future" in refused.output
    allowed = runner.invoke(
        cli, [*gm, "remember", "x", "-u", "ada", "--timestamp", "2999-01-01", "--allow-future"]
    )
    assert allowed.exit_code == 0, allowed.output


def test_http_and_mcp_take_min_relevance_and_refuse_a_tiny_budget(
    client: TestClient, memory: Memory, user: str
):
    from graphmem.integrations.tools import UserTools

    base = f"/v1/users/{user}"
    client.post(f"{base}/cards", json={"fact": "I am allergic to peanuts"})
    floor = {"query": "boiling point of mercury", "min_relevance": 0.2}
    assert client.post(f"{base}/recall", json=floor).json() == []
    assert client.post(f"{base}/context", json=floor).json() == {"context": ""}
    hits = client.post(f"{base}/recall", json={"query": "what am I allergic to?"}).json()
    assert 0.2 <= hits[0]["relevance"] <= 1
    for route, body in (
        ("recall", {"query": "x", "min_relevance": 2}),
        ("context", {"query": "x", "token_budget": 5}),
    ):
        answer = client.post(f"{base}/{route}", json=body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == next(k for k in body if k != "query")

    tools = UserTools(memory, user)
    assert tools.recall("boiling point of mercury", min_relevance=0.2) == []
    assert tools.recall("what am I allergic to?")[0]["relevance"] >= 0.2
