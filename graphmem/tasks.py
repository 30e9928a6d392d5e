"""Tasks: a persistent dependency graph of an agent's multi-step work, per user.

Stored as ``(:Task {user_id, id, subject, description, status, owner, created_at,
updated_at, completed_at, version})`` nodes with ``(:Task)-[:BLOCKED_BY]->(:Task)`` edges
(the inverse, "blocks", is read off the same edges, never stored) and
``(:Task)-[:CITES]->(:Card)`` edges to the memory a task relies on.

Rules (checked in Python on the projected graph before anything is written, see
``graphmem.algorithms.tasks``): no dependency cycles (``CycleError`` naming the cycle),
no self-dependency (``ValidationError``), no unknown task or card ids (``NotFoundError``
naming them), at most one ``in_progress`` task per owner (``ConflictError`` naming the
other one; unowned tasks are not limited), and no completing a task while a blocker is
open unless ``force=True`` (``ConflictError`` listing the open blockers); the same holds
for starting one (``in_progress``): work that waits on another starts when it is done, or
by choice with ``force``. Completed and cancelled blockers both stop blocking.

Concurrency: every write is one query. Writes carry the task's ``version`` when the caller
gives ``expected_version`` (a stale one is a ``ConflictError``), and writes the rules
depend on (edges, status, owner) are guarded by a per-user task-graph version: when
another writer changed the graph in between, the rules are re-checked on a fresh
projection and the write retried (a few times, then ``ConflictError``).

Task ids are 8 random lowercase Crockford base-32 characters (40 bits, e.g.
``"k3x9m2qa"``): short enough to type, unique per user (checked; a store constraint
backs it). Callers may pick their own id (``task_id=``) instead.
"""

from __future__ import annotations

import builtins
import secrets
from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import EllipsisType
from typing import Annotated, Any

import networkx as nx
from pydantic import Field, field_validator

from graphmem.algorithms import tasks as rules
from graphmem.cards import resolve_card_id
from graphmem.errors import ConflictError, CycleError, NotFoundError, ValidationError
from graphmem.models import MAX_TEXT, InputModel, Model, UserId, check_user_id
from graphmem.store.base import GraphStore
from graphmem.timeutil import now_ms

ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base 32, lower case
ID_LENGTH = 8
#: Rule checks + write attempts when other writers keep changing the user's task graph.
MAX_ATTEMPTS = 5

TaskId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
CardId = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")]
Owner = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f\x7f]+$")]


def new_task_id() -> str:
    """A fresh random task id (40 bits)."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


class TaskStatus(StrEnum):
    PENDING = rules.PENDING
    IN_PROGRESS = rules.IN_PROGRESS
    COMPLETED = rules.COMPLETED
    CANCELLED = rules.CANCELLED


class Task(Model):
    """A task as stored, with both directions of its dependencies and its cited cards."""

    user_id: str
    id: str
    subject: str
    description: str = ""
    status: TaskStatus = TaskStatus.PENDING
    owner: str | None = None
    created_at: int | None = None
    updated_at: int | None = None
    completed_at: int | None = None
    version: int = 1
    blocked_by: list[str] = Field(default_factory=list, description="Tasks this one waits on.")
    blocks: list[str] = Field(default_factory=list, description="Tasks waiting on this one.")
    cites: list[str] = Field(default_factory=list, description="Card ids this task relies on.")

    @property
    def is_open(self) -> bool:
        return self.status.value in rules.OPEN


class BlockedTask(Model):
    """An open task and the open tasks holding it up."""

    task: Task
    blockers: list[Task]


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


class NewTask(InputModel):
    """What ``Tasks.create`` accepts."""

    user_id: UserId
    subject: str = Field(min_length=1, max_length=1000)
    description: str = Field("", max_length=MAX_TEXT)
    owner: Owner | None = None
    blocked_by: list[TaskId] = Field(default_factory=list, max_length=1000)
    cites: list[CardId] = Field(default_factory=list, max_length=1000)
    id: TaskId | None = None

    @field_validator("subject", mode="after")
    @classmethod
    def _subject(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("subject must not be blank")
        return value

    @field_validator("blocked_by", "cites", mode="after")
    @classmethod
    def _dedupe(cls, value: list[str]) -> list[str]:
        return _unique(value)


class TaskChange(InputModel):
    """What ``Tasks.update`` accepts; only the fields given change."""

    status: TaskStatus | None = None
    subject: str | None = Field(None, min_length=1, max_length=1000)
    description: str | None = Field(None, max_length=MAX_TEXT)
    owner: Owner | None = None
    add_blocked_by: list[TaskId] = Field(default_factory=list, max_length=1000)
    remove_blocked_by: list[TaskId] = Field(default_factory=list, max_length=1000)
    add_blocks: list[TaskId] = Field(default_factory=list, max_length=1000)
    cites: list[CardId] = Field(default_factory=list, max_length=1000)
    expected_version: int | None = Field(None, ge=1)

    @field_validator("subject", mode="after")
    @classmethod
    def _subject(cls, value: str | None) -> str | None:
        return None if value is None else NewTask._subject(value)

    @field_validator("add_blocked_by", "remove_blocked_by", "add_blocks", "cites", mode="after")
    @classmethod
    def _dedupe(cls, value: list[str]) -> list[str]:
        return _unique(value)


class Tasks:
    """The task graph service; reach it as ``Memory.tasks``. Every method is per user.

    Examples:
        >>> import tempfile
        >>> from graphmem import Memory
        >>> with Memory.open(tempfile.mkdtemp()) as mem:
        ...     design = mem.tasks.create("u1", "Design the API")
        ...     build = mem.tasks.create("u1", "Build it", blocked_by=[design.id])
        ...     before = [t.subject for t in mem.tasks.ready("u1")]
        ...     _ = mem.tasks.complete("u1", design.id)
        ...     before, [t.subject for t in mem.tasks.ready("u1")]
        (['Design the API'], ['Build it'])
    """

    def __init__(self, store: GraphStore) -> None:
        self.store = store

    # -- writing -----------------------------------------------------------------------
    def create(
        self,
        user_id: str,
        subject: str,
        description: str = "",
        *,
        blocked_by: Iterable[str] = (),
        owner: str | None = None,
        cites: Iterable[str] = (),
        task_id: str | None = None,
    ) -> Task:
        """Create a pending task, blocked by ``blocked_by`` and citing cards ``cites``."""
        new = NewTask(
            user_id=user_id,
            subject=subject,
            description=description,
            owner=owner,
            blocked_by=builtins.list(blocked_by),
            cites=builtins.list(cites),
            id=task_id,
        )
        new.cites = self._full_card_ids(new.user_id, new.cites)
        if new.id is not None and new.id in new.blocked_by:
            raise ValidationError(f"task {new.id} cannot be blocked by itself", field="blocked_by")
        graph, _ = self._project(new.user_id)
        if new.id is not None and new.id in graph:
            raise ConflictError(f"task {new.id} already exists for user {new.user_id}")
        _check_known(graph, new.user_id, new.blocked_by)
        self._check_cards(new.user_id, new.cites)
        tid = new.id
        while tid is None or tid in graph:
            tid = new_task_id()
        props = {
            "subject": new.subject,
            "description": new.description,
            "owner": new.owner,
            "status": TaskStatus.PENDING.value,
        }
        rows = self.store.run(
            "task_create",
            {
                "user_id": new.user_id,
                "id": tid,
                "props": props,
                "blocked_ids": new.blocked_by,
                "card_ids": new.cites,
                "now": now_ms(),
            },
            write=True,
        )
        if not rows:  # a blocker or card was deleted meanwhile: name it
            _check_known(self._project(new.user_id)[0], new.user_id, new.blocked_by)
            self._check_cards(new.user_id, new.cites)
            raise ConflictError(f"task {tid} was not created: its blockers changed meanwhile")
        return self.get(new.user_id, tid)

    def update(
        self,
        user_id: str,
        task_id: str,
        *,
        status: TaskStatus | str | None = None,
        add_blocked_by: Iterable[str] | None = None,
        remove_blocked_by: Iterable[str] | None = None,
        add_blocks: Iterable[str] | None = None,
        owner: str | EllipsisType | None = ...,
        subject: str | EllipsisType = ...,
        description: str | EllipsisType = ...,
        cites: Iterable[str] | None = None,
        expected_version: int | None = None,
        force: bool = False,
    ) -> Task:
        """Change a task: status, fields, dependencies (both directions), citations.

        ``owner=None`` clears the owner; leaving ``owner``/``subject``/``description`` out
        keeps them. Setting ``status="completed"`` follows the rules of ``complete``.
        """
        check_user_id(user_id)
        given: dict[str, Any] = {
            "status": status,
            "add_blocked_by": builtins.list(add_blocked_by or ()),
            "remove_blocked_by": builtins.list(remove_blocked_by or ()),
            "add_blocks": builtins.list(add_blocks or ()),
            "cites": builtins.list(cites or ()),
            "expected_version": expected_version,
        }
        given |= {
            name: value
            for name, value in (
                ("owner", owner),
                ("subject", subject),
                ("description", description),
            )
            if value is not ...
        }
        change = TaskChange(**given)
        change.cites = self._full_card_ids(user_id, change.cites)
        if task_id in change.add_blocked_by or task_id in change.add_blocks:
            raise ValidationError(
                f"task {task_id} cannot be blocked by itself",
                field="add_blocked_by" if task_id in change.add_blocked_by else "add_blocks",
            )
        both = set(change.add_blocked_by) & set(change.remove_blocked_by)
        if both:
            raise ValidationError(
                f"cannot both add and remove blocker(s) {_ids(both)}", field="remove_blocked_by"
            )
        for _ in range(MAX_ATTEMPTS):
            graph, graph_version = self._project(user_id)
            props, structural = _plan(graph, user_id, task_id, change, force=force, now=now_ms())
            if not (props or structural or change.cites):
                return self.get(user_id, task_id)  # nothing changes: no new version
            self._check_cards(user_id, change.cites)
            rows = self.store.run(
                "task_update",
                {
                    "user_id": user_id,
                    "id": task_id,
                    "expected_version": change.expected_version,
                    "graph_version": graph_version if structural else None,
                    "props": props,
                    "blocked_ids": change.add_blocked_by,
                    "unblock_ids": change.remove_blocked_by,
                    "blocks_ids": change.add_blocks,
                    "card_ids": change.cites,
                    "now": now_ms(),
                },
                write=True,
            )
            if rows:
                return self.get(user_id, task_id)
            # A guard failed: a stale version is the caller's to resolve; anything else
            # (graph changed, an id vanished) is re-checked on a fresh projection.
        raise ConflictError(
            f"the tasks of user {user_id} kept changing while updating task {task_id}: retry"
        )

    def complete(
        self,
        user_id: str,
        task_id: str,
        force: bool = False,
        *,
        expected_version: int | None = None,
    ) -> Task:
        """Mark a task completed; its dependants waiting only on it become ready.

        Refused (``ConflictError`` listing them) while a blocker is open, unless ``force``.
        """
        return self.update(
            user_id,
            task_id,
            status=TaskStatus.COMPLETED,
            force=force,
            expected_version=expected_version,
        )

    def cancel(self, user_id: str, task_id: str, *, expected_version: int | None = None) -> Task:
        """Mark a task cancelled: kept for the record, and no longer blocking anything."""
        return self.update(
            user_id, task_id, status=TaskStatus.CANCELLED, expected_version=expected_version
        )

    def delete(self, user_id: str, task_id: str, *, expected_version: int | None = None) -> None:
        """Delete a task and its edges (prefer ``cancel`` to keep the record)."""
        check_user_id(user_id)
        rows = self.store.run(
            "task_delete",
            {"user_id": user_id, "id": task_id, "expected_version": expected_version},
            write=True,
        )
        if not rows:
            current = self.get(user_id, task_id)  # NotFoundError when absent
            raise ConflictError(
                f"task {task_id} is at version {current.version}, not "
                f"{expected_version}: re-read and retry"
            )

    def cite(self, user_id: str, task_id: str, card_ids: Iterable[str]) -> Task:
        """Link a task to cards it relies on (``NotFoundError`` naming unknown cards)."""
        return self.update(user_id, task_id, cites=card_ids)

    # -- reading -----------------------------------------------------------------------
    def get(self, user_id: str, task_id: str) -> Task:
        """One task; ``NotFoundError`` if this user has no such task."""
        check_user_id(user_id)
        rows = self.store.run("task_get", {"user_id": user_id, "ids": [task_id]})
        if not rows:
            raise NotFoundError(f"no task {task_id!r} for user {user_id!r}")
        row = rows[0]
        return _task(
            row["task"], blocked_by=row["blocked_by"], blocks=row["blocks"], cites=row["cites"]
        )

    def list(self, user_id: str, status: TaskStatus | str | None = None) -> builtins.list[Task]:
        """A user's tasks, oldest first, optionally of one status."""
        graph = self.graph(user_id)
        wanted = rules.with_status(graph, _status(status).value) if status else set(graph)
        return _tasks(graph, user_id, wanted)

    def ready(self, user_id: str) -> builtins.list[Task]:
        """Pending tasks whose blockers are all completed or cancelled, oldest first."""
        graph = self.graph(user_id)
        return _tasks(graph, user_id, rules.ready(graph))

    def blocked(self, user_id: str) -> builtins.list[BlockedTask]:
        """Open tasks with at least one open blocker, each with those blockers."""
        graph = self.graph(user_id)
        held = rules.blocked(graph)
        return [
            BlockedTask(task=task, blockers=_tasks(graph, user_id, held[task.id]))
            for task in _tasks(graph, user_id, held)
        ]

    def done(self, user_id: str) -> builtins.list[Task]:
        """Completed tasks, oldest first (cancelled ones: ``list(status="cancelled")``)."""
        return self.list(user_id, TaskStatus.COMPLETED)

    def graph(self, user_id: str) -> nx.DiGraph:
        """The user's task graph for notebooks: nodes are task ids with the task's fields
        as attributes (``cites`` included); an edge ``u -> v`` means u is blocked by v."""
        return self._project(user_id)[0]

    def cited_cards(self, user_id: str, task_id: str) -> builtins.list[str]:
        """Card ids the task cites directly, sorted."""
        return self.get(user_id, task_id).cites

    def context_card_ids(self, user_id: str, task_id: str) -> builtins.list[str]:
        """Card ids cited by the task and by every task it depends on, transitively: the
        memory a recall "in the context of this task" is restricted to."""
        graph = self.graph(user_id)
        if task_id not in graph:
            raise NotFoundError(f"no task {task_id!r} for user {user_id!r}")
        return rules.context_cards(graph, task_id)

    # -- internals ---------------------------------------------------------------------
    def _project(self, user_id: str) -> tuple[nx.DiGraph, int]:
        """The user's task graph and its version, from one read."""
        check_user_id(user_id)
        rows = self.store.run("task_graph", {"user_id": user_id})
        graph = rules.build_graph(
            {**row["task"], "blocked_by": row["blocked_by"], "cites": sorted(row["cites"])}
            for row in rows
        )
        return graph, (rows[0]["graph_version"] if rows else 0)

    def _full_card_ids(self, user_id: str, card_ids: builtins.list[str]) -> builtins.list[str]:
        """Cited card ids in full (a unique prefix of 6+ characters is taken, like git)."""
        return _unique([resolve_card_id(self.store, user_id, c) for c in card_ids])

    def _check_cards(self, user_id: str, card_ids: builtins.list[str]) -> None:
        if not card_ids:
            return
        found = {
            row["id"]
            for row in self.store.run("existing_cards", {"user_id": user_id, "ids": card_ids})
        }
        missing = sorted(set(card_ids) - found)
        if missing:
            raise NotFoundError(f"no card {_ids(missing)} for user {user_id!r}")


def _plan(
    graph: nx.DiGraph, user_id: str, task_id: str, change: TaskChange, *, force: bool, now: int
) -> tuple[dict[str, Any], bool]:
    """Check a change against the rules; return the properties to set and whether the
    change is structural (edges, status or owner: what the rules read)."""
    if task_id not in graph:
        raise NotFoundError(f"no task {task_id!r} for user {user_id!r}")
    node = graph.nodes[task_id]
    if change.expected_version is not None and node.get("version") != change.expected_version:
        raise ConflictError(
            f"task {task_id} is at version {node.get('version')}, the change "
            f"was based on version {change.expected_version}: re-read and retry"
        )
    _check_known(
        graph, user_id, [*change.add_blocked_by, *change.remove_blocked_by, *change.add_blocks]
    )
    add = [(task_id, b) for b in change.add_blocked_by] + [(d, task_id) for d in change.add_blocks]
    remove = [(task_id, b) for b in change.remove_blocked_by]
    cycle = rules.cycle_after(graph, add=add, remove=remove)
    if cycle is not None:
        raise CycleError(
            f"that dependency would close a cycle: {' -> '.join(cycle)} (each blocked by the next)"
        )
    fields = change.model_fields_set
    props: dict[str, Any] = {
        name: getattr(change, name)
        for name in ("subject", "description", "owner")
        if name in fields and getattr(change, name) != node.get(name)
    }
    old_status = node.get("status", rules.PENDING)
    status = change.status.value if change.status is not None else old_status
    owner = props.get("owner", node.get("owner"))
    if status == rules.IN_PROGRESS and (status != old_status or "owner" in props):
        other = rules.owner_conflict(graph, task_id, owner)
        if other is not None:
            raise ConflictError(
                f"{owner} already has task {other} in progress "
                f"({graph.nodes[other].get('subject')!r}): one at a time"
            )
    if status != old_status:
        props["status"] = status
        props["completed_at"] = now if status == rules.COMPLETED else None
        if status in (rules.IN_PROGRESS, rules.COMPLETED) and not force:
            trial = graph.copy()
            trial.remove_edges_from(remove)
            trial.add_edges_from(add)
            still_open = rules.open_blockers(trial, task_id)
            if still_open:
                raise ConflictError(
                    f"task {task_id} is blocked by open task(s) "
                    f"{_ids(still_open)}: finish them first or force"
                )
    structural = bool(add or remove) or "status" in props or "owner" in props
    return props, structural


def _task(props: Mapping[str, Any], **edges: builtins.list[str]) -> Task:
    known = {k: v for k, v in props.items() if k in Task.model_fields and k not in edges}
    return Task(**known, **{name: sorted(ids) for name, ids in edges.items()})


def _tasks(graph: nx.DiGraph, user_id: str, ids: Iterable[str]) -> builtins.list[Task]:
    """Tasks of the graph as models, oldest first."""
    found = [
        _task(
            {**graph.nodes[t], "id": t, "user_id": user_id},
            blocked_by=builtins.list(graph.successors(t)),
            blocks=builtins.list(graph.predecessors(t)),
            cites=graph.nodes[t].get("cites") or [],
        )
        for t in ids
    ]
    return sorted(found, key=lambda task: (task.created_at or 0, task.id))


def _check_known(graph: nx.DiGraph, user_id: str, ids: Iterable[str]) -> None:
    missing = rules.unknown(graph, ids)
    if missing:
        raise NotFoundError(f"no task {_ids(missing)} for user {user_id!r}")


def _ids(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids))


def _status(value: TaskStatus | str) -> TaskStatus:
    try:
        return TaskStatus(value)
    except ValueError:
        raise ValidationError(
            f"status must be one of {', '.join(TaskStatus)}, not {value!r}", field="status"
        ) from None
