"""Every query that changes what recall's passages hold stamps the user's revision.

The passages (graphmem.recall's in-process copy of a user's cards, with their vectors)
are current only while every write that changes a card's vector, status or content also
moves the card's and the user's ``revision``: a recall compares the user's revision with
its copy's and reads just the cards past it. A new query that forgets the stamp would
leave copies stale with no test failing, so this reads every named query and checks the
stamp is there.
"""

from __future__ import annotations

import re

import pytest

from graphmem.store import queries

_CARD = re.compile(r"\((\w+):Card\b")
_USER = re.compile(r"\((\w+):User\b")
_SET = re.compile(
    r"\bSET\b(.*?)(?=\b(?:MATCH|OPTIONAL|MERGE|WITH|RETURN|UNWIND|CREATE|DELETE|DETACH|"
    r"FOREACH|CALL|REMOVE|ON)\b|^\s*\)\s*$|\Z)",
    re.S | re.M,
)
#: Card properties recall's passages hold or filter on; ``+=`` may carry any of them.
MIRRORED = ("embedding", "status", "fact", "person", "timestamp", "+=")
#: Queries that change mirrored properties without a stamp, and why that is safe.
EXEMPT: dict[str, str] = {}


def unstamped(text: str) -> list[str]:
    """Card variables a query writes mirrored properties of without stamping revisions.

    Examples:
        >>> unstamped("MATCH (c:Card {id: $id}) SET c.status = 'forgotten' RETURN c")
        ['c: writes status but sets no c.revision', "c: no User's revision is moved"]
        >>> unstamped("MATCH (c:Card) MERGE (u:User {user_id: $u}) "
        ...           "SET c.status = 'x', c.revision = 1, u.revision = 1 RETURN c")
        []
        >>> unstamped("MATCH (c:Card {id: $id}) SET c.access_count = 3 RETURN c")
        []
    """
    cards = set(_CARD.findall(text))
    users = set(_USER.findall(text))
    written: dict[str, set[str]] = {}
    stamped: set[str] = set()
    for clause in _SET.finditer(text):
        body = clause.group(1)
        for var, prop in re.findall(r"\b(\w+)\.(\w+)\s*=(?!=)", body):
            if prop == "revision":
                stamped.add(var)
            elif var in cards and prop in MIRRORED:
                written.setdefault(var, set()).add(prop)
        for var in re.findall(r"\b(\w+)\s*\+=", body):
            if var in cards:
                written.setdefault(var, set()).add("+=")
    problems = []
    for var, props in sorted(written.items()):
        if var not in stamped:
            problems.append(f"{var}: writes {', '.join(sorted(props))} but sets no {var}.revision")
        if not users & stamped:
            problems.append(f"{var}: no User's revision is moved")
    return problems


def test_every_query_that_changes_mirrored_card_data_stamps_the_revision() -> None:
    problems = []
    checked = set()
    for name in queries.names():
        for dialect in queries.DIALECTS:
            if _writes_mirrored(name, dialect):
                checked.add(name)
            if name not in EXEMPT:
                problems += [
                    f"{dialect}/{name}: {p}" for p in unstamped(queries.load(name, dialect))
                ]
    assert problems == []
    # The check reads the queries that matter: if these stop being found, it reads nothing.
    assert {"upsert_cards", "update_cards", "set_card_status", "consolidate_supersede"} <= checked


def _writes_mirrored(name: str, dialect: str) -> bool:
    text = queries.load(name, dialect)
    cards = set(_CARD.findall(text))
    for clause in _SET.finditer(text):
        body = clause.group(1)
        if any(v in cards and p in MIRRORED for v, p in re.findall(r"\b(\w+)\.(\w+)\s*=", body)):
            return True
        if any(v in cards for v in re.findall(r"\b(\w+)\s*\+=", body)):
            return True
    return False


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (c:Card {user_id: $user_id, id: $id}) SET c.embedding = $v RETURN c",
        "MATCH (c:Card {user_id: $user_id, id: $id}) MERGE (u:User {user_id: $user_id}) "
        "SET c += $props, c.revision = 1 RETURN c",
    ],
)
def test_a_query_without_the_stamp_is_caught(query: str) -> None:
    assert unstamped(query)
