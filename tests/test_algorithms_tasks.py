"""Task dependency rules on tiny graphs: exact ready/blocked sets, cycles, the owner rule."""

from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from graphmem.algorithms.tasks import (
    blocked,
    build_graph,
    context_cards,
    cycle_after,
    dependencies,
    open_blockers,
    owner_conflict,
    ready,
    unblocked_by,
    unknown,
    with_status,
)


def project(statuses: dict[str, str], blocked_by: dict[str, list[str]]) -> nx.DiGraph:
    return build_graph(
        {"id": t, "status": s, "blocked_by": blocked_by.get(t, [])} for t, s in statuses.items()
    )


# design -> build -> test, and docs waits on design too (edges read "is blocked by").
DEPS = {"build": ["design"], "test": ["build"], "docs": ["design"]}


def test_edges_point_from_a_task_to_its_blocker() -> None:
    graph = project(dict.fromkeys(["design", "build", "test", "docs"], "pending"), DEPS)
    assert sorted(graph.edges) == [("build", "design"), ("docs", "design"), ("test", "build")]
    assert sorted(graph.successors("build")) == ["design"]  # build is blocked by design
    assert sorted(graph.predecessors("design")) == ["build", "docs"]  # design blocks these


def test_ready_and_blocked_before_and_after_completions() -> None:
    statuses = dict.fromkeys(["design", "build", "test", "docs"], "pending")
    graph = project(statuses, DEPS)
    assert ready(graph) == {"design"}
    assert blocked(graph) == {"build": ["design"], "test": ["build"], "docs": ["design"]}
    assert unblocked_by(graph, "design") == {"build", "docs"}

    graph = project(statuses | {"design": "completed"}, DEPS)
    assert ready(graph) == {"build", "docs"}
    assert blocked(graph) == {"test": ["build"]}
    assert with_status(graph, "completed") == {"design"}

    graph = project(
        statuses | {"design": "completed", "build": "completed", "docs": "in_progress"}, DEPS
    )
    assert ready(graph) == {"test"}  # in progress is not "ready": it has started
    assert blocked(graph) == {}


def test_cancelled_blockers_no_longer_block() -> None:
    graph = project(
        {"t": "pending", "a": "cancelled", "b": "completed", "c": "in_progress"},
        {"t": ["a", "b", "c"]},
    )
    assert open_blockers(graph, "t") == ["c"]
    assert ready(graph) == set()
    graph = project({"t": "pending", "a": "cancelled", "b": "completed"}, {"t": ["a", "b"]})
    assert ready(graph) == {"t"}


def test_closed_tasks_are_never_blocked() -> None:
    graph = project(
        {"done": "completed", "gone": "cancelled", "open": "pending"},
        {"done": ["open"], "gone": ["open"]},
    )
    assert blocked(graph) == {}


def test_a_closing_edge_is_reported_with_its_cycle() -> None:
    graph = project(dict.fromkeys("abc", "pending"), {"a": ["b"], "b": ["c"]})
    assert cycle_after(graph, add=[("c", "a")]) == ["c", "a", "b", "c"]
    assert cycle_after(graph, add=[("a", "c")]) is None  # a shortcut, not a cycle
    assert cycle_after(graph, add=[("b", "b")]) == ["b", "b"]
    assert sorted(graph.edges) == [("a", "b"), ("b", "c")]  # the graph is not changed


def test_removing_an_edge_in_the_same_change_can_open_the_cycle() -> None:
    graph = project(dict.fromkeys("abc", "pending"), {"a": ["b"], "b": ["c"]})
    assert cycle_after(graph, add=[("c", "a")], remove=[("b", "c")]) is None


def test_several_new_edges_closing_a_cycle_together() -> None:
    graph = project(dict.fromkeys("ab", "pending"), {})
    assert cycle_after(graph, add=[("a", "b"), ("b", "a")]) == ["a", "b", "a"]


def test_owner_rule_one_in_progress_task_per_owner() -> None:
    graph = build_graph(
        [
            {"id": "a", "status": "in_progress", "owner": "bot"},
            {"id": "b", "status": "pending", "owner": "bot"},
            {"id": "c", "status": "in_progress", "owner": None},
            {"id": "d", "status": "pending", "owner": None},
        ]
    )
    assert owner_conflict(graph, "b", "bot") == "a"
    assert owner_conflict(graph, "a", "bot") is None  # itself does not count
    assert owner_conflict(graph, "b", "someone-else") is None
    assert owner_conflict(graph, "d", None) is None  # unowned work is not limited


def test_unknown_ids_are_named_sorted_once() -> None:
    graph = project({"a": "pending"}, {})
    assert unknown(graph, ["z", "a", "y", "z"]) == ["y", "z"]


def test_edges_to_tasks_outside_the_projection_are_dropped() -> None:
    graph = project({"a": "pending"}, {"a": ["other-users-task"]})
    assert list(graph.edges) == []


def test_context_is_the_task_and_everything_it_depends_on() -> None:
    graph = build_graph(
        [
            {"id": "test", "blocked_by": ["build"], "cites": ["c-test"]},
            {"id": "build", "blocked_by": ["design"], "cites": []},
            {"id": "design", "blocked_by": [], "cites": ["c-design", "c-shared"]},
            {"id": "docs", "blocked_by": ["design"], "cites": ["c-docs", "c-shared"]},
        ]
    )
    assert dependencies(graph, "test") == {"test", "build", "design"}
    assert context_cards(graph, "test") == ["c-design", "c-shared", "c-test"]
    assert context_cards(graph, "design") == ["c-design", "c-shared"]
    assert context_cards(graph, "build") == ["c-design", "c-shared"]


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=30))
def test_accepting_only_edges_that_close_no_cycle_keeps_a_dag(edges: list[tuple[int, int]]) -> None:
    graph = nx.DiGraph()
    graph.add_nodes_from(range(7))
    for u, v in edges:
        cycle = cycle_after(graph, add=[(u, v)])
        if cycle is None:
            graph.add_edge(u, v)
        else:
            assert cycle[0] == cycle[-1] == u
            assert all(graph.has_edge(a, b) for a, b in itertools.pairwise(cycle[1:]))
    assert nx.is_directed_acyclic_graph(graph)
