"""The task dependency graph on a real store (every backend), and its CLI."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from graphmem import ConflictError, CycleError, Memory, NotFoundError, ValidationError
from graphmem.cli import app
from graphmem.store.embedded import EmbeddedServer
from graphmem.tasks import ID_ALPHABET, ID_LENGTH, Task, Tasks
from tests.conftest import short_tmpdir


def ids(tasks: list[Task]) -> set[str]:
    return {t.id for t in tasks}


@pytest.fixture
def plan(memory: Memory, user: str) -> dict[str, Task]:
    """design -> build -> test, and docs blocked by design too."""
    tasks = memory.tasks
    design = tasks.create(user, "Design the API", "endpoints and errors")
    build = tasks.create(user, "Build it", blocked_by=[design.id])
    test = tasks.create(user, "Test it", blocked_by=[build.id])
    docs = tasks.create(user, "Write the docs", blocked_by=[design.id])
    return {"design": design, "build": build, "test": test, "docs": docs}


def test_a_new_task_as_stored(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "  Design   the API ", "endpoints and errors", owner="bot")
    assert len(task.id) == ID_LENGTH
    assert set(task.id) <= set(ID_ALPHABET)
    assert (task.user_id, task.subject, task.description, task.status.value, task.owner) == (
        user,
        "Design the API",
        "endpoints and errors",
        "pending",
        "bot",
    )
    assert (task.version, task.blocked_by, task.blocks, task.cites) == (1, [], [], [])
    assert task.created_at == task.updated_at
    assert task.completed_at is None
    assert memory.tasks.get(user, task.id) == task


def test_blocks_is_the_inverse_of_blocked_by(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    design = memory.tasks.get(user, plan["design"].id)
    assert design.blocks == sorted([plan["build"].id, plan["docs"].id])
    assert memory.tasks.get(user, plan["test"].id).blocked_by == [plan["build"].id]


def test_ready_blocked_done_follow_completions(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    tasks, p = memory.tasks, {name: t.id for name, t in plan.items()}
    assert ids(tasks.ready(user)) == {p["design"]}
    assert {b.task.id: ids(b.blockers) for b in tasks.blocked(user)} == {
        p["build"]: {p["design"]},
        p["test"]: {p["build"]},
        p["docs"]: {p["design"]},
    }
    assert tasks.done(user) == []

    design = tasks.complete(user, p["design"])
    assert (design.status.value, design.completed_at is not None) == ("completed", True)
    assert ids(tasks.ready(user)) == {p["build"], p["docs"]}
    assert {b.task.id for b in tasks.blocked(user)} == {p["test"]}

    tasks.complete(user, p["build"])
    tasks.cancel(user, p["docs"])
    assert ids(tasks.ready(user)) == {p["test"]}
    assert tasks.blocked(user) == []
    assert ids(tasks.done(user)) == {p["design"], p["build"]}
    assert ids(tasks.list(user, status="cancelled")) == {p["docs"]}
    assert ids(tasks.list(user)) == set(p.values())


def test_a_cancelled_blocker_no_longer_blocks(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    memory.tasks.cancel(user, plan["design"].id)
    assert ids(memory.tasks.ready(user)) == {plan["build"].id, plan["docs"].id}


def test_the_graph_for_notebooks(memory: Memory, user: str, plan: dict[str, Task]) -> None:
    graph = memory.tasks.graph(user)
    p = {name: t.id for name, t in plan.items()}
    assert set(graph.edges) == {
        (p["build"], p["design"]),
        (p["test"], p["build"]),
        (p["docs"], p["design"]),
    }  # u -> v: u is blocked by v
    assert graph.nodes[p["design"]]["subject"] == "Design the API"
    assert graph.nodes[p["design"]]["status"] == "pending"


def test_a_dependency_closing_a_cycle_is_refused_and_nothing_written(
    memory: Memory, user: str
) -> None:
    tasks = memory.tasks
    c = tasks.create(user, "c")
    b = tasks.create(user, "b", blocked_by=[c.id])
    a = tasks.create(user, "a", blocked_by=[b.id])
    before = tasks.get(user, c.id)
    with pytest.raises(CycleError) as err:
        tasks.update(user, c.id, add_blocked_by=[a.id])
    assert str(err.value) == (
        f"that dependency would close a cycle: "
        f"{c.id} -> {a.id} -> {b.id} -> {c.id} (each blocked by the next)"
    )
    with pytest.raises(CycleError):
        tasks.update(user, a.id, add_blocks=[c.id])  # the same edge, from the other end
    assert tasks.get(user, c.id) == before
    assert set(tasks.graph(user).edges) == {(a.id, b.id), (b.id, c.id)}


def test_a_task_cannot_block_itself(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "a")
    with pytest.raises(ValidationError, match="cannot be blocked by itself"):
        memory.tasks.update(user, task.id, add_blocked_by=[task.id])
    with pytest.raises(ValidationError, match="cannot be blocked by itself"):
        memory.tasks.create(user, "b", blocked_by=["b1"], task_id="b1")


def test_unknown_ids_are_named(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "a")
    with pytest.raises(NotFoundError, match="no task nope1, nope2 for user"):
        memory.tasks.create(user, "b", blocked_by=["nope2", task.id, "nope1"])
    with pytest.raises(NotFoundError, match="no task nope for user"):
        memory.tasks.update(user, task.id, add_blocks=["nope"])
    with pytest.raises(NotFoundError, match="no task 'nope'"):
        memory.tasks.complete(user, "nope")
    with pytest.raises(NotFoundError, match="no card 'c-missing' for user"):
        memory.tasks.create(user, "c", cites=["c-missing"])
    assert ids(memory.tasks.list(user)) == {task.id}


def test_one_task_in_progress_per_owner(memory: Memory, user: str) -> None:
    tasks = memory.tasks
    first = tasks.create(user, "first", owner="bot")
    second = tasks.create(user, "second", owner="bot")
    other = tasks.create(user, "other", owner="someone")
    tasks.update(user, first.id, status="in_progress")
    with pytest.raises(ConflictError) as err:
        tasks.update(user, second.id, status="in_progress")
    assert str(err.value) == f"bot already has task {first.id} in progress ('first'): one at a time"
    assert tasks.update(user, other.id, status="in_progress").status.value == "in_progress"
    with pytest.raises(ConflictError, match=f"bot already has task {first.id}"):
        tasks.update(user, other.id, owner="bot")  # taking over in-progress work counts too
    tasks.complete(user, first.id)
    assert tasks.update(user, second.id, status="in_progress").status.value == "in_progress"


def test_completing_with_open_blockers_needs_force(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    tasks = memory.tasks
    with pytest.raises(ConflictError) as err:
        tasks.complete(user, plan["test"].id)
    assert str(err.value) == (
        f"task {plan['test'].id} is blocked by open task(s) "
        f"{plan['build'].id}: finish them first or force"
    )
    assert tasks.get(user, plan["test"].id).status.value == "pending"
    assert tasks.complete(user, plan["test"].id, force=True).status.value == "completed"


def test_starting_with_open_blockers_needs_force(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    tasks = memory.tasks
    with pytest.raises(ConflictError) as err:
        tasks.update(user, plan["build"].id, status="in_progress")
    assert str(err.value) == (
        f"task {plan['build'].id} is blocked by open task(s) "
        f"{plan['design'].id}: finish them first or force"
    )
    assert tasks.get(user, plan["build"].id).status.value == "pending"
    started = tasks.update(user, plan["build"].id, status="in_progress", force=True)
    assert started.status.value == "in_progress"
    tasks.complete(user, plan["design"].id)
    docs = tasks.update(user, plan["docs"].id, status="in_progress")  # its blocker is done
    assert docs.status.value == "in_progress"


def test_unblocking_lets_a_task_complete(memory: Memory, user: str, plan: dict[str, Task]) -> None:
    docs = memory.tasks.update(user, plan["docs"].id, remove_blocked_by=[plan["design"].id])
    assert docs.blocked_by == []
    assert ids(memory.tasks.ready(user)) == {plan["design"].id, plan["docs"].id}
    assert memory.tasks.complete(user, plan["docs"].id).status.value == "completed"


def test_a_stale_version_is_a_conflict(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "a")
    renamed = memory.tasks.update(user, task.id, subject="b", expected_version=task.version)
    assert (renamed.subject, renamed.version) == ("b", 2)
    with pytest.raises(ConflictError, match="at version 2, the change was based on version 1"):
        memory.tasks.update(user, task.id, subject="c", expected_version=task.version)
    with pytest.raises(ConflictError, match="at version 2"):
        memory.tasks.delete(user, task.id, expected_version=1)
    assert memory.tasks.get(user, task.id).subject == "b"


def test_a_write_based_on_a_stale_task_graph_writes_nothing(memory: Memory, user: str) -> None:
    a, b = memory.tasks.create(user, "a"), memory.tasks.create(user, "b")
    memory.tasks.update(user, a.id, owner="bot")  # bumps the user's task-graph version
    rows = memory._store.run(
        "task_update",
        {
            "user_id": user,
            "id": b.id,
            "expected_version": None,
            "graph_version": 0,
            "props": {},
            "blocked_ids": [a.id],
            "unblock_ids": [],
            "blocks_ids": [],
            "card_ids": [],
            "now": 0,
        },
        write=True,
    )
    assert rows == []
    assert memory.tasks.get(user, b.id) == b


def test_racing_writers_cannot_close_a_cycle_together(memory: Memory, user: str) -> None:
    pairs = [
        (memory.tasks.create(user, f"a{i}").id, memory.tasks.create(user, f"b{i}").id)
        for i in range(4)
    ]

    def block(task: str, on: str) -> str:
        try:
            memory.tasks.update(user, task, add_blocked_by=[on])
        except CycleError:
            return "cycle"
        return "ok"

    with ThreadPoolExecutor(max_workers=2) as pool:
        for a, b in pairs:
            outcomes = sorted(pool.map(lambda edge: block(*edge), [(a, b), (b, a)]))
            assert outcomes == ["cycle", "ok"]
    assert nx.is_directed_acyclic_graph(memory.tasks.graph(user))


def test_a_change_that_changes_nothing_keeps_the_version(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "a", owner="bot")
    assert memory.tasks.update(user, task.id, subject="a", owner="bot").version == 1


def test_reopening_clears_completed_at(memory: Memory, user: str) -> None:
    task = memory.tasks.create(user, "a")
    assert memory.tasks.complete(user, task.id).completed_at is not None
    reopened = memory.tasks.update(user, task.id, status="pending")
    assert (reopened.status.value, reopened.completed_at) == ("pending", None)


def test_delete_frees_its_dependants(memory: Memory, user: str, plan: dict[str, Task]) -> None:
    memory.tasks.delete(user, plan["design"].id)
    assert ids(memory.tasks.ready(user)) == {plan["build"].id, plan["docs"].id}
    with pytest.raises(NotFoundError):
        memory.tasks.get(user, plan["design"].id)


def test_citations_and_the_context_of_a_task(
    memory: Memory, user: str, plan: dict[str, Task]
) -> None:
    cards = [
        memory.remember({"user_id": user, "fact": fact})
        for fact in (
            "The API must be REST",
            "Errors are RFC 7807 problem documents",
            "Tests run on CI",
            "Docs live in the wiki",
        )
    ]
    rest, errors, ci, wiki = (c.id for c in cards)
    tasks = memory.tasks
    tasks.cite(user, plan["design"].id, [rest, errors])
    tasks.cite(user, plan["test"].id, [ci])
    tasks.cite(user, plan["docs"].id, [wiki, rest])
    assert tasks.cited_cards(user, plan["design"].id) == sorted([rest, errors])
    assert tasks.context_card_ids(user, plan["test"].id) == sorted([rest, errors, ci])
    assert tasks.context_card_ids(user, plan["build"].id) == sorted([rest, errors])
    assert tasks.context_card_ids(user, plan["design"].id) == sorted([rest, errors])
    with pytest.raises(NotFoundError, match="no card 'nope'"):
        tasks.cite(user, plan["build"].id, ["nope"])
    created = tasks.create(user, "Deploy", blocked_by=[plan["test"].id], cites=[wiki])
    assert tasks.context_card_ids(user, created.id) == sorted([rest, errors, ci, wiki])


def test_users_cannot_see_block_on_or_complete_each_others_tasks(memory: Memory, user: str) -> None:
    other = f"{user}-b"
    mine = memory.tasks.create(user, "mine")
    theirs = memory.tasks.create(other, "theirs")
    assert ids(memory.tasks.list(other)) == {theirs.id}
    assert ids(memory.tasks.ready(other)) == {theirs.id}
    with pytest.raises(NotFoundError):
        memory.tasks.get(other, mine.id)
    with pytest.raises(NotFoundError):
        memory.tasks.create(other, "sneaky", blocked_by=[mine.id])
    with pytest.raises(NotFoundError):
        memory.tasks.update(other, theirs.id, add_blocks=[mine.id])
    with pytest.raises(NotFoundError):
        memory.tasks.complete(other, mine.id)
    with pytest.raises(NotFoundError):
        memory.tasks.delete(other, mine.id)
    assert memory.tasks.get(user, mine.id).status.value == "pending"
    assert memory.tasks.get(user, mine.id).blocks == []


def test_bad_input_is_a_validation_error(memory: Memory, user: str) -> None:
    with pytest.raises(ValidationError, match="subject"):
        memory.tasks.create(user, "   ")
    with pytest.raises(ValidationError, match="status"):
        memory.tasks.list(user, status="finished")
    with pytest.raises(ValidationError, match="user_id"):
        memory.tasks.ready("")
    task = memory.tasks.create(user, "a")
    with pytest.raises(ValidationError, match="status"):
        memory.tasks.update(user, task.id, status="finished")


def test_tasks_persist_across_reopen(home: Path) -> None:
    with Memory.open(home) as mem:
        design = mem.tasks.create("u1", "Design")
        build = mem.tasks.create("u1", "Build", blocked_by=[design.id])
        mem.tasks.complete("u1", design.id)
    with Memory.open(home) as mem:
        assert mem.tasks.get("u1", build.id).blocked_by == [design.id]
        assert ids(mem.tasks.ready("u1")) == {build.id}
        assert ids(mem.tasks.done("u1")) == {design.id}
        assert isinstance(mem.tasks, Tasks)
        assert mem.tasks is mem.tasks  # one service per Memory


# -- CLI ------------------------------------------------------------------------------
@pytest.fixture
def cli_home() -> Iterator[Path]:
    path = short_tmpdir()
    yield path
    EmbeddedServer(path).stop()  # the CLI leaves the embedded server up for the next call
    shutil.rmtree(path, ignore_errors=True)


def test_cli_add_block_done_ready(cli_home: Path) -> None:
    runner = CliRunner()

    def call(*args: str) -> str:
        result = runner.invoke(app, ["--home", str(cli_home), "tasks", *args, "--user", "u1"])
        assert result.exit_code == 0, result.output
        return result.output

    design = json.loads(call("add", "Design the API", "--owner", "bot", "--json"))
    build = json.loads(call("add", "Build it", "--blocked-by", design["id"], "--json"))
    assert (design["subject"], design["owner"], build["blocked_by"]) == (
        "Design the API",
        "bot",
        [design["id"]],
    )
    docs = json.loads(call("add", "Write docs", "--json"))
    call("update", docs["id"], "--blocked-by", design["id"])

    assert {t["id"] for t in json.loads(call("ready", "--json"))} == {design["id"]}
    blocked = json.loads(call("blocked", "--json"))
    assert {b["task"]["id"]: [t["id"] for t in b["blockers"]] for b in blocked} == {
        build["id"]: [design["id"]],
        docs["id"]: [design["id"]],
    }
    assert "Build it" in call("blocked")

    done = json.loads(call("done", design["id"], "--json"))
    assert done["task"]["status"] == "completed"
    assert sorted(done["now_ready"]) == sorted([build["id"], docs["id"]])
    assert {t["id"] for t in json.loads(call("ready", "--json"))} == {build["id"], docs["id"]}
    assert json.loads(call("show", design["id"], "--json"))["blocks"] == sorted(
        [build["id"], docs["id"]]
    )
    assert "Design the API" in call("list")


def test_cli_errors_map_to_exit_codes(cli_home: Path) -> None:
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["--home", str(cli_home), "tasks", *args, "--user", "u1"])
        return result.exit_code, result.output

    a = json.loads(invoke("add", "a", "--json")[1])["id"]
    b = json.loads(invoke("add", "b", "--blocked-by", a, "--json")[1])["id"]
    assert invoke("done", b)[0] == 4  # open blocker: conflict
    assert invoke("done", b, "--force")[0] == 0
    assert invoke("update", a, "--blocked-by", b)[0] == 4  # cycle
    assert invoke("show", "nope")[0] == 3
    assert invoke("update", a, "--status", "finished")[0] == 2
