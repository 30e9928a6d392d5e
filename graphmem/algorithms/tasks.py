"""Task dependency rules as plain functions over a networkx ``DiGraph``; none opens a store.

The graph: one node per task id, with the task's fields as node attributes (at least
``status``; ``owner`` for the owner rule, ``cites`` for context). An edge ``u -> v``
means **u is blocked by v** (the stored ``(u)-[:BLOCKED_BY]->(v)``), so a task's blockers
are its successors, the tasks it blocks are its predecessors, and everything a task
depends on, transitively, is ``nx.descendants(graph, task)``.

Statuses: ``pending`` and ``in_progress`` are *open*; ``completed`` and ``cancelled`` are
*closed*. Only open tasks block: a cancelled blocker no longer holds anything up (the work
it stood for will not happen, so waiting on it would block its dependants forever).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import networkx as nx

PENDING, IN_PROGRESS, COMPLETED, CANCELLED = "pending", "in_progress", "completed", "cancelled"
OPEN = frozenset({PENDING, IN_PROGRESS})
CLOSED = frozenset({COMPLETED, CANCELLED})


def build_graph(rows: Iterable[Mapping[str, Any]]) -> nx.DiGraph:
    """A dependency graph from rows ``{"id", "blocked_by": [...], **attributes}``.

    Edges to ids that are not rows themselves are dropped (they are not this user's).

    Examples:
        >>> g = build_graph([{"id": "a", "status": "pending", "blocked_by": ["b"]},
        ...                  {"id": "b", "status": "pending", "blocked_by": []}])
        >>> sorted(g.edges), g.nodes["a"]["status"]
        ([('a', 'b')], 'pending')
    """
    rows = list(rows)
    graph = nx.DiGraph()
    for row in rows:
        graph.add_node(row["id"], **{k: v for k, v in row.items() if k not in ("id", "blocked_by")})
    for row in rows:
        graph.add_edges_from((row["id"], b) for b in row.get("blocked_by", ()) if b in graph)
    return graph


def is_open(graph: nx.DiGraph, task: str) -> bool:
    return graph.nodes[task].get("status", PENDING) in OPEN


def open_blockers(graph: nx.DiGraph, task: str) -> list[str]:
    """The blockers of ``task`` that still hold it up (open ones), sorted.

    Examples:
        >>> g = build_graph([{"id": "t", "status": "pending", "blocked_by": ["a", "b", "c"]},
        ...                  {"id": "a", "status": "completed"}, {"id": "b", "status": "cancelled"},
        ...                  {"id": "c", "status": "in_progress"}])
        >>> open_blockers(g, "t")
        ['c']
    """
    return sorted(b for b in graph.successors(task) if is_open(graph, b))


def ready(graph: nx.DiGraph) -> set[str]:
    """Pending tasks none of whose blockers is open: what can be started now."""
    return {
        t
        for t, status in graph.nodes(data="status")
        if status == PENDING and not open_blockers(graph, t)
    }


def blocked(graph: nx.DiGraph) -> dict[str, list[str]]:
    """Open tasks with at least one open blocker, each with those blockers."""
    found = {t: open_blockers(graph, t) for t in graph if is_open(graph, t)}
    return {t: blockers for t, blockers in found.items() if blockers}


def with_status(graph: nx.DiGraph, *statuses: str) -> set[str]:
    """Tasks whose status is one of ``statuses``."""
    return {t for t, status in graph.nodes(data="status") if status in statuses}


def unknown(graph: nx.DiGraph, ids: Iterable[str]) -> list[str]:
    """The ids that are not tasks of this graph, sorted."""
    return sorted({i for i in ids if i not in graph})


def cycle_after(
    graph: nx.DiGraph, add: Iterable[tuple[str, str]] = (), remove: Iterable[tuple[str, str]] = ()
) -> list[str] | None:
    """A cycle the edge changes would close, as a node path ``[a, b, ..., a]``, or None.

    Checked on a copy: ``graph`` is not changed. Each step of the path is "is blocked by".

    Examples:
        >>> g = nx.DiGraph([("a", "b"), ("b", "c")])
        >>> cycle_after(g, add=[("c", "a")])
        ['c', 'a', 'b', 'c']
        >>> cycle_after(g, add=[("c", "a")], remove=[("a", "b")]) is None
        True
    """
    trial = graph.copy()
    trial.remove_edges_from(list(remove))
    added = [(u, v) for u, v in add if not trial.has_edge(u, v)]
    trial.add_edges_from(added)
    for u, v in added:
        if u == v:
            return [u, u]
        if nx.has_path(trial, v, u):
            return [u, *nx.shortest_path(trial, v, u)]
    return None


def owner_conflict(graph: nx.DiGraph, task: str, owner: str | None) -> str | None:
    """Another in-progress task of ``owner`` (one at a time per owner), or None.

    Unowned tasks are not limited.

    Examples:
        >>> g = build_graph([{"id": "a", "status": "in_progress", "owner": "bot"},
        ...                  {"id": "b", "status": "pending", "owner": "bot"}])
        >>> owner_conflict(g, "b", "bot"), owner_conflict(g, "a", "bot")
        ('a', None)
    """
    if owner is None:
        return None
    others = sorted(
        t
        for t, data in graph.nodes(data=True)
        if t != task and data.get("status") == IN_PROGRESS and data.get("owner") == owner
    )
    return others[0] if others else None


def unblocked_by(graph: nx.DiGraph, task: str) -> set[str]:
    """Pending tasks that closing ``task`` would make ready (its only open blocker)."""
    return {
        d
        for d in graph.predecessors(task)
        if graph.nodes[d].get("status") == PENDING and open_blockers(graph, d) == [task]
    }


def dependencies(graph: nx.DiGraph, task: str) -> set[str]:
    """``task`` and every task it depends on, transitively."""
    return {task} | nx.descendants(graph, task)


def context_cards(graph: nx.DiGraph, task: str) -> list[str]:
    """Card ids cited by ``task`` and by every task it depends on, sorted, no repeats.

    Examples:
        >>> g = build_graph([{"id": "t", "blocked_by": ["d"], "cites": ["c1"]},
        ...                  {"id": "d", "blocked_by": [], "cites": ["c2", "c1"]},
        ...                  {"id": "x", "blocked_by": ["t"], "cites": ["c3"]}])
        >>> context_cards(g, "t")
        ['c1', 'c2']
    """
    return sorted(
        {card for t in dependencies(graph, task) for card in graph.nodes[t].get("cites") or ()}
    )
