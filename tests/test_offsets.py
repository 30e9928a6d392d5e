"""Every offset and limit is bounded (issue 31, point 9): the store reads SKIP and LIMIT
as 32-bit counts, so ``offset=4294967296`` wrapped to 0 and answered the first page."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import Memory
from graphmem.cli import app
from graphmem.errors import ValidationError
from graphmem.service import create_app

WRAPS = 2**32  # 0 once wrapped


@pytest.fixture(scope="module")
def client(memory: Memory) -> Iterator[TestClient]:
    with TestClient(create_app(memory), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def user(memory: Memory) -> str:
    """A user with a card about a person, a session turn: every page has a first item."""
    user = f"pages-{uuid.uuid4().hex[:8]}"
    memory.remember({"user_id": user, "fact": "Alice likes tea", "person": "Alice"})
    memory.sessions.append(user, "s1", "user", "hello")
    return user


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/cards", {"offset": WRAPS}, "offset"),
        ("/cards", {"offset": WRAPS + 1}, "offset"),
        ("/cards", {"limit": WRAPS + 1}, "limit"),
        ("/graph/people/Alice", {"offset": WRAPS}, "offset"),
        ("/sessions/s1/turns", {"after": 2**64 - 1}, "after"),
        ("/sessions/s1/turns", {"limit": WRAPS + 1}, "limit"),
    ],
)
def test_a_wrapping_offset_or_limit_is_a_422(client, user, path, params, field):
    answer = client.get(f"/v1/users/{user}{path}", params=params)
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == field


def test_the_largest_offset_taken_answers_an_empty_page(client, user):
    assert client.get(f"/v1/users/{user}/cards").json() != []
    answer = client.get(f"/v1/users/{user}/cards", params={"offset": 10**9})
    assert (answer.status_code, answer.json()) == (200, [])


def test_the_library_refuses_them_too(memory: Memory, user: str):
    with pytest.raises(ValidationError, match="offset"):
        memory.cards(user, offset=WRAPS)
    with pytest.raises(ValidationError, match="limit"):
        memory.cards(user, limit=WRAPS + 1)
    with pytest.raises(ValidationError, match="limit"):
        memory.sessions.turns(user, "s1", limit=WRAPS + 1)
    with pytest.raises(ValidationError, match="limit"):
        memory.sessions.list(user, limit=WRAPS + 1)


def test_the_cli_list_refuses_a_wrapping_limit(home: Path):
    result = CliRunner().invoke(
        app, ["--home", str(home), "list", "--user", "u1", "--limit", str(WRAPS + 1)]
    )
    assert result.exit_code == 2, result.output
    assert "limit" in result.output
