"""Export and import carry the agent loop: sessions with their summary, entities and
relations, reasoning traces, strategies; turns are searchable again after import."""

from __future__ import annotations

import io
import json

from graphmem import Memory
from graphmem.export import export_user, import_file
from tests.test_sessions import conversation


def lines(memory: Memory, user: str) -> list[dict[str, object]]:
    out = io.StringIO()
    export_user(memory, user, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_agent_loop_survives_export_and_import(memory: Memory, user: str) -> None:
    memory.sessions.append_many(user, "chat", conversation(60))
    memory.sessions.compact(user, "chat", 300)
    alice = memory.entities.add(user, "Alice", "PERSON", description="sister")
    acme = memory.entities.add(user, "Acme Corp", "ORGANIZATION")
    memory.entities.relate(user, alice.id, acme.id, "WORKS_AT")
    memory.entities.add_fact(user, "Acme Corp", "LOCATED_IN", "Lisbon")
    task = memory.tasks.create(user, "Plan the dinner")
    trace = memory.reasoning.start(user, "Find a restaurant", session_id="chat", task_id=task.id)
    step = memory.reasoning.step(user, trace.id, thought="search", action="search")
    memory.reasoning.tool_call(user, step.id, "search", {"q": ""}, status="failure", error="empty")
    memory.reasoning.tool_call(user, step.id, "search", {"q": "food"}, result=["Nara"])
    memory.reasoning.complete(user, trace.id, outcome="Nara", success=True)
    memory.strategies.record_fix(user, "search", "ValueError", {"q": ""}, {"q": "food"})

    exported = lines(memory, user)
    kinds = {r["type"] for r in exported}
    assert {"entity", "relation", "mention", "session_summary", "trace"} <= kinds
    twin = f"{user}-twin"
    text = "\n".join(json.dumps(r) for r in exported)
    report = import_file(memory, text.splitlines(), user_id=twin)
    assert report.counts["trace"] == 1

    assert memory.sessions.window(twin, "chat") == memory.sessions.window(user, "chat").model_copy(
        update={
            "turns": [
                t.model_copy(update={"user_id": twin})
                for t in memory.sessions.window(user, "chat").turns
            ]
        }
    )
    [hit] = memory.sessions.search(twin, "half marathon training", session_id="chat", k=1)
    assert "half marathon" in hit.turn.text
    assert {e.name for e in memory.entities.related(twin, alice.id)} == {"Acme Corp"}
    assert [c.triple for c in memory.entities.cards(twin, acme.id)] == [
        ("Acme Corp", "LOCATED_IN", "Lisbon")
    ]
    copied = memory.reasoning.get(twin, trace.id)
    original = memory.reasoning.get(user, trace.id)
    assert copied == original.model_copy(update={"user_id": twin})
    assert memory.reasoning.list(twin, task_id=task.id)[0].id == trace.id
    assert memory.reasoning.similar(twin, "restaurant search")[0].trace.id == trace.id
    [fix] = memory.strategies.lookup(twin, "search", "ValueError")
    assert fix.strategy.fixed == {"q": "food"}
    # Importing again changes nothing.
    before = lines(memory, twin)
    import_file(memory, text.splitlines(), user_id=twin)
    assert lines(memory, twin) == before
