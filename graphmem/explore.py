"""The memory explorer's graph: bounded views of one user's memory, as nodes and edges.

What ``graphmem serve``'s page at ``/ui`` draws (``graphmem.service.explore`` routes):

- ``overview``: the user, the people around them (by active cards) with the user's
  relationship and its history, and each person's first cards by rank (importance plus
  recency), with the supersession and conflict chains those cards belong to. A person
  with more cards says how many are hidden; ``person`` pages through them ("expand").
- ``history``: the most recent supersession and conflict decisions, with their reasons.
- ``abstractions``: the largest clusters with their summaries and first members.
- ``tasks``: the task graph, each task ``ready``, ``blocked``, ``in_progress``, ``done``
  or ``cancelled``, with the cards it cites.
- ``card``: one card's provenance (``Memory.provenance``: source turns, status and why,
  what it superseded or was superseded by, conflicts, abstractions), the evidence span's
  text, and its neighbourhood.
- ``recall_view``: recall hits placed in the graph, each path resolved to the nodes and
  edges it names, for highlighting.

Every view is bounded (a 10,000-card user opens on a few hundred nodes), every query
is a named file in ``cypher/`` filtered on the user. Element ids name the kind
(``card:<id>``, ``person:<key>``, ``abstraction:<id>``, ``task:<id>``, ``user``), and the
user's own person (``me``) is the ``user`` node. Captions follow
``browser/graphmem.grass``: a card by its fact, a person by name, an abstraction by
summary, a task by subject.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from pydantic import Field

from graphmem.algorithms import tasks as task_rules
from graphmem.cards import person_key
from graphmem.errors import NotFoundError
from graphmem.models import (
    MAX_OFFSET,
    SELF,
    CardProvenance,
    Model,
    Provenance,
    Status,
    check_range,
    check_user_id,
)
from graphmem.recall.engine import RecallHit
from graphmem.store.base import GraphStore, Row
from graphmem.tasks import Tasks
from graphmem.timeutil import now_ms

#: Recency half-life of the explorer's card rank (the same as recall's).
HALF_LIFE_MS = 180 * 86_400_000
#: The first view: this many people, each with this many cards (the user's own: more).
PEOPLE = 60
PER_PERSON = 6
OWN_CARDS = 12
#: Supersession / conflict chains are followed this many hops from the cards shown,
#: adding at most CHAIN_CARDS cards.
CHAIN_HOPS = 4
CHAIN_CARDS = 200
MAX_PAGE = 500

NodeKind = Literal["user", "person", "card", "abstraction", "task"]
EdgeKind = Literal[
    "KNOWS", "ABOUT", "SUPERSEDES", "CONFLICTS_WITH", "SUMMARIZES", "BLOCKED_BY", "CITES",
    "MAYBE_SAME",
]  # fmt: skip
TaskState = Literal["ready", "blocked", "in_progress", "done", "cancelled"]
USER = "user"


class GraphNode(Model):
    """A node as the explorer draws it."""

    id: str = Field(description="Element id: kind and graphmem id, e.g. 'card:3f79...'.")
    kind: NodeKind
    ref: str = Field(description="The id in graphmem: card/task/abstraction id, person name.")
    label: str = Field(description="Caption (as in browser/graphmem.grass).")
    status: str | None = Field(
        None, description="Card: active/superseded/forgotten. Task: ready/blocked/..."
    )
    time: int | None = Field(None, description="Card timestamp / task update (epoch ms).")
    importance: float | None = None
    category: str | None = None
    relationship: str | None = Field(None, description="Person: the user's relationship now.")
    history: list[str] = Field(default_factory=list, description="Person: former relationships.")
    needs_revision: bool = False
    total: int | None = Field(None, description="Person: cards; abstraction: members.")
    hidden: int = Field(0, description="Cards (members) not in this view: expand for more.")
    person: str | None = Field(None, description="Card: element id of the person it is about.")


class GraphEdge(Model):
    """An edge as the explorer draws it (in the stored direction)."""

    id: str
    kind: EdgeKind
    source: str
    target: str
    label: str | None = Field(None, description="KNOWS: relationship; decisions: reason.")
    decided_by: str | None = None
    decided_at: int | None = None


class Subgraph(Model):
    """Part of a user's memory graph; views merge into what the page already shows."""

    user_id: str
    nodes: list[GraphNode] = Field(default_factory=list)
    edges: list[GraphEdge] = Field(default_factory=list)
    counts: dict[str, int] = Field(
        default_factory=dict, description="Cards per status and people of the whole user."
    )


class CardView(Model):
    """Everything the details panel shows about one card: its provenance (as
    ``Memory.provenance`` tells it), the evidence span's text, and its neighbourhood."""

    provenance: CardProvenance
    evidence: str | None = Field(None, description="The evidence span of the first source.")
    forgotten_score: float | None = Field(None, description="P(forget) when it was forgotten.")
    graph: Subgraph


class PathStep(Model):
    text: str
    element: str | None = Field(None, description="The node or edge it names, if known.")


class HitPath(Model):
    text: str
    steps: list[PathStep]


class HitView(Model):
    """Where one recall hit sits in the graph: the elements to highlight, its paths."""

    card_id: str
    elements: list[str]
    paths: list[HitPath]


class RecallView(Model):
    """Recall hits as the recall API returns them, plus the graph to show them in."""

    hits: list[RecallHit]
    views: list[HitView]
    graph: Subgraph


def card_element(card_id: str) -> str:
    return f"card:{card_id}"


def person_element(key: str) -> str:
    return USER if key == SELF else f"person:{key}"


def edge_id(kind: str, source: str, target: str) -> str:
    return f"{kind}:{source}->{target}"


class Explorer:
    """Bounded graph views of one user's memory; reach it as ``Memory.explore``.

    Examples:
        >>> import tempfile
        >>> from graphmem import Memory
        >>> with Memory.open(tempfile.mkdtemp()) as mem:
        ...     _ = mem.remember({"user_id": "u1", "fact": "Alice is allergic to peanuts",
        ...                       "person": "Alice", "relationship": "sister"})
        ...     view = mem.explore.overview("u1")
        >>> sorted(n.id for n in view.nodes if n.kind != "card")
        ['person:alice', 'user']
        >>> [(e.kind, e.label) for e in view.edges if e.kind == "KNOWS"]
        [('KNOWS', 'sister')]
    """

    def __init__(
        self,
        store: GraphStore,
        tasks: Tasks,
        provenance: Callable[[str, str], CardProvenance],
    ) -> None:
        self._store = store
        self._tasks = tasks
        self._provenance = provenance

    # -- views ---------------------------------------------------------------------------
    def overview(
        self, user_id: str, *, people: int = PEOPLE, per_person: int = PER_PERSON
    ) -> Subgraph:
        """The first view: people, relationships, each person's first cards by rank."""
        check_user_id(user_id)
        check_range("people", people, 1, MAX_PAGE)
        check_range("per_person", per_person, 0, MAX_PAGE)
        rows = self._run(
            "explore_people",
            user_id,
            limit=people,
            per_person=max(per_person, OWN_CARDS),
            now=now_ms(),
            half_life=HALF_LIFE_MS,
        )
        graph = _Builder(user_id)
        graph.user()
        ids: list[str] = []
        for row in rows:
            quota = OWN_CARDS if row["key"] == SELF else per_person
            top = list(row["top"] or [])[:quota]
            ids += top
            graph.person(row, hidden=row["active"] - len(top))
            for other in row["maybe_same"] or []:
                graph.edge("MAYBE_SAME", person_element(row["key"]), person_element(other))
        self._add_cards(graph, user_id, ids, chains=True)
        return graph.done(self._counts(user_id))

    def person(
        self,
        user_id: str,
        name: str,
        *,
        offset: int = 0,
        limit: int = 50,
        status: str | None = Status.ACTIVE,
    ) -> Subgraph:
        """A page of one person's cards in rank order ("expand"); ``status=None``: all."""
        check_user_id(user_id)
        check_range("offset", offset, 0, MAX_OFFSET)
        check_range("limit", limit, 1, MAX_PAGE)
        key = person_key(name)
        statuses = None if status is None else [Status(status).value]
        ids = [
            r["id"]
            for r in self._run(
                "explore_person_cards",
                user_id,
                key=key,
                statuses=statuses,
                skip=offset,
                limit=limit,
                now=now_ms(),
                half_life=HALF_LIFE_MS,
            )
        ]
        graph = _Builder(user_id)
        known = self._people(user_id)
        if key not in known:
            raise NotFoundError(f"no person {name!r} for user {user_id!r}")
        graph.person(known[key])
        self._add_cards(graph, user_id, ids, chains=True, people=known)
        return graph.done()

    def history(self, user_id: str, *, limit: int = 200) -> Subgraph:
        """The latest supersession and conflict decisions, the cards and people they join."""
        check_user_id(user_id)
        check_range("limit", limit, 1, MAX_PAGE)
        graph = _Builder(user_id)
        ids: list[str] = []
        for row in self._run("explore_history", user_id, limit=limit):
            graph.decision(row)
            ids += [row["source"], row["target"]]
        self._add_cards(graph, user_id, ids, people=self._people(user_id))
        return graph.done(self._counts(user_id))

    def abstractions(self, user_id: str, *, limit: int = 40, members: int = 8) -> Subgraph:
        """The largest abstractions with their summaries and first members."""
        check_user_id(user_id)
        check_range("limit", limit, 1, MAX_PAGE)
        check_range("members", members, 1, MAX_PAGE)
        graph = _Builder(user_id)
        ids: list[str] = []
        for row in self._run("explore_abstractions", user_id, limit=limit, members=members):
            shown = list(row["shown"] or [])
            element = graph.abstraction(row, hidden=row["size"] - len(shown))
            for card_id in shown:
                graph.edge("SUMMARIZES", element, card_element(card_id))
            ids += shown
        self._add_cards(graph, user_id, ids, people=self._people(user_id))
        return graph.done(self._counts(user_id))

    def tasks(self, user_id: str, *, cited: int = 200) -> Subgraph:
        """The task graph: every task with its state, dependencies and cited cards."""
        check_user_id(user_id)
        projected = self._tasks.graph(user_id)
        ready = task_rules.ready(projected)
        held = task_rules.blocked(projected)
        graph = _Builder(user_id)
        ids: list[str] = []
        for task in self._tasks.list(user_id):
            state = _task_state(task.status.value, task.id in ready, task.id in held)
            element = graph.task(task, state)
            for blocker in task.blocked_by:
                graph.edge("BLOCKED_BY", element, f"task:{blocker}")
            for card_id in task.cites:
                graph.edge("CITES", element, card_element(card_id))
                ids.append(card_id)
        self._add_cards(graph, user_id, ids[:cited], people=self._people(user_id))
        return graph.done()

    def card(self, user_id: str, card_id: str) -> CardView:
        """One card's provenance, evidence, forgetting score and neighbourhood: its
        person, the supersession / conflict chain it is in, its abstractions."""
        story = self._provenance(user_id, card_id)
        card_id = story.card.id
        status = self._run("explore_forgotten_score", user_id, id=card_id)[0]
        graph = _Builder(user_id)
        graph.user()
        self._add_cards(graph, user_id, [card_id], chains=True, people=self._people(user_id))
        for abstraction in story.abstractions:
            element = graph.abstraction(abstraction.model_dump())
            graph.edge("SUMMARIZES", element, card_element(card_id))
        return CardView(
            provenance=story,
            evidence=_evidence(story.source),
            forgotten_score=status["forgotten_score"],
            graph=graph.done(),
        )

    def recall_view(self, user_id: str, hits: Sequence[RecallHit]) -> RecallView:
        """Place recall hits in the graph and resolve each path to the elements it names.

        Paths are recall's text ("sister -> Alice -> card"); a step naming a person (or
        alias), a relationship, an abstraction or a card by id prefix is tied to its
        element, anything else stays text. Each hit highlights its card, its person and
        the edges joining the steps.
        """
        check_user_id(user_id)
        people = self._people(user_id)
        graph = _Builder(user_id)
        graph.user()
        ids = [h.card.id for h in hits]
        self._add_cards(graph, user_id, ids, people=people)
        abstractions: dict[str, Row] = {}
        for row in self._run("explore_card_abstractions", user_id, ids=ids):
            element = graph.abstraction(row)
            graph.edge("SUMMARIZES", element, card_element(row["card"]))
            abstractions[row["id"]] = row
        resolver = _PathResolver(graph, people, ids, list(abstractions))
        views = [resolver.hit(hit) for hit in hits]
        return RecallView(hits=list(hits), views=views, graph=graph.done())

    # -- helpers -------------------------------------------------------------------------
    def _run(self, name: str, user_id: str, **params: Any) -> list[Row]:
        return self._store.run(name, {"user_id": user_id, **params})

    def _people(self, user_id: str) -> dict[str, Row]:
        return {r["key"]: r for r in self._run("people", user_id)}

    def _counts(self, user_id: str) -> dict[str, int]:
        counts = {f"cards:{r['status']}": r["cards"] for r in self._run("count_cards", user_id)}
        counts["cards"] = sum(counts.values())
        counts["people"] = sum(1 for r in self._run("known_people", user_id) if r["key"] != SELF)
        return counts

    def _add_cards(
        self,
        graph: _Builder,
        user_id: str,
        ids: Iterable[str],
        *,
        chains: bool = False,
        people: dict[str, Row] | None = None,
    ) -> None:
        """Card nodes with ABOUT edges to their people (added when missing), and with
        ``chains`` the supersession / conflict chains they are part of."""
        wanted = list(dict.fromkeys(i for i in ids if card_element(i) not in graph.nodes))
        rows = self._run("explore_cards", user_id, ids=wanted) if wanted else []
        if chains and wanted:
            seen, frontier, added = set(wanted), wanted, 0
            for _ in range(CHAIN_HOPS):
                links = self._run("explore_links", user_id, ids=frontier)
                frontier = []
                for link in links:
                    graph.decision(link)
                    for other in (link["source"], link["target"]):
                        if other not in seen and added < CHAIN_CARDS:
                            seen.add(other)
                            frontier.append(other)
                            added += 1
                if not frontier:
                    break
                rows += self._run("explore_cards", user_id, ids=frontier)
        for row in rows:
            key = row["person_key"]
            if key is not None and person_element(key) not in graph.nodes:
                if key == SELF:
                    graph.user()
                else:
                    graph.person(
                        (people or {}).get(key) or {"key": key, "name": row["person"]},
                    )
            graph.card(row)
        graph.drop_dangling()


class _Builder:
    """Nodes and edges by element id (first writer wins), ready for a ``Subgraph``."""

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self.nodes: dict[str, GraphNode] = {}
        self.edges: dict[str, GraphEdge] = {}

    def node(self, node: GraphNode) -> str:
        self.nodes.setdefault(node.id, node)
        return node.id

    def edge(self, kind: str, source: str, target: str, **fields: Any) -> str:
        element = edge_id(kind, source, target)
        if element not in self.edges:
            self.edges[element] = GraphEdge(
                id=element, kind=kind, source=source, target=target, **fields
            )
        return element

    def user(self) -> str:
        return self.node(GraphNode(id=USER, kind="user", ref=self.user_id, label=self.user_id))

    def person(self, row: Row, *, hidden: int = 0) -> str:
        if row["key"] == SELF:
            return self.user()
        self.user()
        element = self.node(
            GraphNode(
                id=person_element(row["key"]),
                kind="person",
                ref=row["name"] or row["key"],
                label=row["name"] or row["key"],
                relationship=row.get("relationship"),
                history=row.get("history") or [],
                total=row.get("cards"),
                hidden=max(0, hidden),
            )
        )
        self.edge("KNOWS", USER, element, label=row.get("relationship"))
        return element

    def card(self, row: Row) -> str:
        element = card_element(row["id"])
        person = person_element(row["person_key"]) if row["person_key"] is not None else None
        self.node(
            GraphNode(
                id=element,
                kind="card",
                ref=row["id"],
                label=row["fact"],
                status=row["status"],
                time=row["timestamp"],
                importance=row["importance"],
                category=row["category"],
                needs_revision=bool(row["needs_revision"]),
                person=person,
            )
        )
        if person is not None:
            self.edge("ABOUT", element, person)
        return element

    def abstraction(self, row: Row, *, hidden: int = 0) -> str:
        return self.node(
            GraphNode(
                id=f"abstraction:{row['id']}",
                kind="abstraction",
                ref=row["id"],
                label=row.get("summary") or row["id"],
                total=row.get("size"),
                hidden=max(0, hidden),
            )
        )

    def task(self, task: Any, state: TaskState) -> str:
        return self.node(
            GraphNode(
                id=f"task:{task.id}",
                kind="task",
                ref=task.id,
                label=task.subject,
                status=state,
                time=task.updated_at,
            )
        )

    def decision(self, row: Row) -> str:
        return self.edge(
            row["type"],
            card_element(row["source"]),
            card_element(row["target"]),
            label=row["reason"],
            decided_by=row["decided_by"],
            decided_at=row["decided_at"],
        )

    def drop_dangling(self) -> None:
        """Edges whose ends are not (yet) nodes: a chain cut at its bound, a missing task."""
        self.edges = {
            k: e for k, e in self.edges.items() if e.source in self.nodes and e.target in self.nodes
        }

    def done(self, counts: dict[str, int] | None = None) -> Subgraph:
        self.drop_dangling()
        return Subgraph(
            user_id=self.user_id,
            nodes=list(self.nodes.values()),
            edges=list(self.edges.values()),
            counts=counts or {},
        )


class _PathResolver:
    """Ties the steps of recall's path texts to graph elements (see ``recall_view``)."""

    def __init__(
        self, graph: _Builder, people: dict[str, Row], cards: list[str], abstractions: list[str]
    ) -> None:
        self.graph = graph
        self.cards = cards
        self.abstractions = abstractions
        self.names: dict[str, str] = {}
        self.relationships: dict[str, list[str]] = {}
        for key, row in people.items():
            element = person_element(key)
            for name in [row["name"], *(row.get("aliases") or [])]:
                if name:
                    self.names[person_key(name)] = element
            if row.get("relationship"):
                self.relationships.setdefault(row["relationship"], []).append(element)

    def hit(self, hit: RecallHit) -> HitView:
        card = card_element(hit.card.id)
        elements = [card]
        if card in self.graph.nodes and (person := self.graph.nodes[card].person):
            elements += [edge_id("ABOUT", card, person), person]
        paths = []
        for text in hit.paths:
            steps = [self._step(part.strip(), card) for part in text.split("->")]
            paths.append(HitPath(text=text, steps=steps))
            elements += self._joins(steps, card)
        present = set(self.graph.nodes) | set(self.graph.edges)
        unique = [e for e in dict.fromkeys(elements) if e in present]
        return HitView(card_id=hit.card.id, elements=unique, paths=paths)

    def _step(self, text: str, card: str) -> PathStep:
        words = text.split()
        if text == "card":
            return PathStep(text=text, element=card)
        if len(words) == 2 and words[0] in ("card", "abstraction"):
            pool = self.cards if words[0] == "card" else self.abstractions
            match = [i for i in pool if i.startswith(words[1])]
            if len(match) == 1:
                return PathStep(text=text, element=f"{words[0]}:{match[0]}")
        for candidate in _names_in(text):
            key = person_key(candidate)
            if key in self.names:
                return PathStep(text=text, element=self.names[key])
            if key in self.relationships:
                return PathStep(text=text, element=f"relationship:{key}")
            if key in (SELF, "i", "my", "user"):
                return PathStep(text=text, element=USER)
        return PathStep(text=text)

    def _joins(self, steps: list[PathStep], card: str) -> list[str]:
        """Elements of each step and the edges between consecutive ones."""
        found: list[str] = []
        chain = [s.element for s in steps if s.element]
        for i, element in enumerate(chain):
            if element.startswith("relationship:"):
                # "sister -> Alice": the KNOWS edge to the person that follows
                following = chain[i + 1] if i + 1 < len(chain) else None
                if following is not None:
                    found += [USER, edge_id("KNOWS", USER, following)]
                continue
            found.append(element)
            if i == 0:
                continue
            before = chain[i - 1]
            for kind, source, target in (
                ("ABOUT", element, before),
                ("ABOUT", before, element),
                ("SUMMARIZES", before, element),
                ("SUMMARIZES", element, before),
                ("KNOWS", before, element),
            ):
                if edge_id(kind, source, target) in self.graph.edges:
                    found.append(edge_id(kind, source, target))
        return found


def _names_in(step: str) -> list[str]:
    """What a path step may name: quoted words, the step without a leading keyword
    ("mentions Bob", "relationship 'sister'"), the step itself."""
    quoted = re.findall(r"['\"]([^'\"]+)['\"]", step)
    bare = re.sub(r"^(?:mentions|relationship|person|via|named)\s+", "", step).strip("'\" ")
    return [*quoted, bare, step]


def _task_state(status: str, ready: bool, held: bool) -> TaskState:
    if status == "completed":
        return "done"
    if status == "cancelled":
        return "cancelled"
    return "ready" if ready else "blocked" if held else "in_progress"


def _evidence(source: Provenance | None) -> str | None:
    if source is None or source.text is None or source.span is None:
        return None
    start, end = source.span
    return source.text[start:end]
