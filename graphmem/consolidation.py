"""Consolidation in the store: project a user's cards, run the algorithms, write back.

``consolidate`` runs up to three steps for one user:

- **conflicts**: contradicting cards about the same person (``detect_conflicts``
  rules, optionally a chat model). The newer card supersedes the older one, which is
  kept with ``status = superseded`` and ``valid_to`` set; same-time contradictions get
  ``CONFLICTS_WITH`` and ``needs_revision``. Every edge says why (``reason``,
  ``decided_at``, ``decided_by``: ``"rules"`` or ``"llm/<model>"``).
- **abstraction**: a kNN similarity graph, seeded Louvain, the medoid and an extractive
  (or LLM) summary per cluster, written as ``(:Abstraction)-[:SUMMARIZES]->(:Card)``.
  Re-runs map onto the stored abstractions (``match_clusters``) instead of duplicating
  them; when few cards are new since the last run, they only join the nearest stored
  cluster (``incremental_assign``) and nothing is re-clustered.
- **forgetting**: ``select_forgettable`` over the forgetting curve, soft forget
  (``status = forgotten`` with reason, score and time; ``Memory.restore`` undoes it).

Steps run as conflicts, forgetting, abstraction, so abstractions summarise what is kept.
A dry run computes everything and writes nothing. Reading vectors back is the costly
part of a run, so an incremental run reads only the vectors of the new cards. All
writes are UNWIND batches guarded by card versions.
"""

from __future__ import annotations

import base64
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import Field

from graphmem.algorithms import (
    CardView,
    Conflict,
    Supersede,
    apply_feedback,
    clusters,
    detect_conflicts,
    incremental_assign,
    match_clusters,
    select_forgettable,
    similarity_graph,
    summarize_extractive,
    summarize_with_llm,
)
from graphmem.algorithms.cardview import normalise_rows
from graphmem.algorithms.clustering import cluster_centroids, common_subject, rank_by_centrality
from graphmem.algorithms.conflicts import card_claim
from graphmem.algorithms.tasks import OPEN
from graphmem.cards import card_from_row
from graphmem.errors import ConflictError, NotFoundError, ValidationError
from graphmem.history import CALLER
from graphmem.models import SELF, TURN, Card, Model
from graphmem.store.base import GraphStore
from graphmem.timeutil import now_ms

STEPS = ("conflicts", "abstraction", "forgetting")
#: Run order: abstractions are built from what survives conflicts and forgetting.
_ORDER = ("conflicts", "forgetting", "abstraction")
#: Called as ``progress(step, phase)`` with phase "start" or "done".
StepProgress = Callable[[str, str], None]

#: Similarity graph: each card's ``K`` nearest neighbours with cosine >= ``THRESHOLD``.
GRAPH_K = 10
GRAPH_THRESHOLD = 0.5
MIN_CLUSTER = 3
#: A new card joins a stored abstraction when its cosine to the centroid is at least this.
ASSIGN_THRESHOLD = 0.6
#: Incremental when at most this share of the active cards is new since the last run.
INCREMENTAL_SHARE = 0.2
RANKED_KEPT = 8
_WRITE_BATCH = 1000
_READ_BATCH = 5000


# -- the report --------------------------------------------------------------------------


class ConflictDecision(Model):
    """One conflict decision; the edge goes ``from_card -> to_card``.

    ``supersede``: from the newer card to the older one (SUPERSEDES); ``conflict``:
    CONFLICTS_WITH between the two, ``needs_revision`` lists the flagged cards.
    """

    kind: Literal["supersede", "conflict"]
    from_card: str
    to_card: str
    facts: tuple[str, str]
    attribute: str
    reason: str
    decided_by: str
    needs_revision: list[str] = Field(default_factory=list)
    applied: bool = False


class AbstractionChange(Model):
    """What happened to one abstraction: created, updated, unchanged or retired."""

    id: str
    action: Literal["created", "updated", "unchanged", "retired"]
    size: int
    representative: str | None = None
    summary: str | None = None
    summary_source: str | None = None
    reason: str = ""
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)


class ForgottenCard(Model):
    """A card the forgetting step let go (or would, in a dry run)."""

    card_id: str
    fact: str
    score: float = Field(description="P(forget) at decision time.")
    reason: str
    applied: bool = False


class ConsolidationReport(Model):
    """What one consolidation run found and did, with the time each step took."""

    user_id: str
    dry_run: bool
    mode: Literal["full", "incremental"]
    steps: list[str]
    now: int
    seed: int
    cards: int = Field(0, description="Active cards when the run started.")
    new_cards: int = Field(0, description="Active cards new or changed since the last run.")
    conflicts: list[ConflictDecision] = Field(default_factory=list)
    clusters: int = 0
    abstractions: list[AbstractionChange] = Field(default_factory=list)
    forgotten: list[ForgottenCard] = Field(default_factory=list)
    skipped: list[str] = Field(
        default_factory=list, description="Decisions not applied: the card changed meanwhile."
    )
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds per step.")

    @property
    def conflicts_found(self) -> int:
        return len(self.conflicts)

    @property
    def conflicts_resolved(self) -> int:
        """Conflicts settled automatically (supersede); the rest are flagged for revision."""
        return sum(1 for c in self.conflicts if c.kind == "supersede")

    def count(self, action: str) -> int:
        """Abstractions with this action ("created", "updated", "unchanged", "retired")."""
        return sum(1 for a in self.abstractions if a.action == action)

    def summary(self) -> dict[str, Any]:
        """The headline figures, for tables and logs."""
        return {
            "cards": self.cards,
            "new_cards": self.new_cards,
            "mode": self.mode,
            "conflicts_found": self.conflicts_found,
            "conflicts_resolved": self.conflicts_resolved,
            "flagged": self.conflicts_found - self.conflicts_resolved,
            "clusters": self.clusters,
            "abstractions_created": self.count("created"),
            "abstractions_updated": self.count("updated"),
            "abstractions_retired": self.count("retired"),
            "forgotten": len(self.forgotten),
            "dry_run": self.dry_run,
        }


# -- projection --------------------------------------------------------------------------


@dataclass
class Projection:
    """A user's active cards (``CardView``), their versions, and the vectors read so far."""

    cards: list[CardView]
    versions: dict[str, int]
    fresh: set[str]
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    inactive: set[str] = field(default_factory=set)  # superseded during this run

    @property
    def active(self) -> list[CardView]:
        return [c for c in self.cards if c.id not in self.inactive]

    def matrix(self, ids: Sequence[str]) -> np.ndarray:
        """Row ``i`` is the vector of ``ids[i]`` (all must have been read)."""
        if not ids:
            return np.zeros((0, 1), dtype=np.float32)
        return np.stack([self.vectors[i] for i in ids])


def project(store: GraphStore, user_id: str, since: int | None) -> Projection:
    """The user's active cards; ``fresh`` = changed at or after ``since`` (all if None)."""
    rows = sorted(store.run("project_cards", {"user_id": user_id}), key=lambda r: r["id"])
    cards = [CardView.from_row(r) for r in rows]
    versions = {r["id"]: int(r["version"] or 0) for r in rows}
    fresh = {r["id"] for r in rows if since is None or (r["changed_at"] or 0) >= since}
    return Projection(cards, versions, fresh)


def read_vectors(
    store: GraphStore, user_id: str, projection: Projection, ids: Sequence[str]
) -> None:
    """Read the stored vectors of ``ids`` into the projection (batched)."""
    todo = [i for i in ids if i not in projection.vectors]
    for start in range(0, len(todo), _READ_BATCH):
        for row in store.run(
            "project_embeddings", {"user_id": user_id, "ids": todo[start : start + _READ_BATCH]}
        ):
            if row["embedding"] is not None:
                projection.vectors[row["id"]] = np.asarray(row["embedding"], dtype=np.float32)


# -- the run -----------------------------------------------------------------------------


@dataclass
class _Run:
    store: GraphStore
    user_id: str
    report: ConsolidationReport
    projection: Projection
    llm: Any
    progress: StepProgress | None
    capacity: int | None
    threshold: float
    by_id: dict[str, CardView] = field(default_factory=dict)

    @property
    def dry_run(self) -> bool:
        return self.report.dry_run

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        if self.progress is not None:
            self.progress(name, "start")
        started = time.perf_counter()
        yield
        self.report.timings[name] = round(time.perf_counter() - started, 3)
        if self.progress is not None:
            self.progress(name, "done")

    def write(self, query: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Run a write query over ``rows`` in UNWIND batches; the rows it returns."""
        done: list[dict[str, Any]] = []
        for start in range(0, len(rows), _WRITE_BATCH):
            done += self.store.run(
                query,
                {
                    "user_id": self.user_id,
                    "now": self.report.now,
                    "rows": rows[start : start + _WRITE_BATCH],
                },
                write=True,
            )
        return done


def consolidate(
    store: GraphStore,
    user_id: str,
    steps: Sequence[str] = STEPS,
    *,
    dry_run: bool = False,
    llm: Any = None,
    progress: StepProgress | None = None,
    now: int | None = None,
    capacity: int | None = None,
    threshold: float = 0.8,
    seed: int = 0,
    recluster: bool | None = None,
) -> ConsolidationReport:
    """Consolidate one user's memory (see the module docstring); returns the report.

    ``now`` is the time the run reasons at (forgetting, decision times); default: now.
    ``recluster`` True forces a full clustering, False keeps an incremental run even
    with many new cards; None decides by the share of new cards.
    """
    unknown = [s for s in steps if s not in STEPS]
    if unknown or not steps:
        raise ValidationError(
            f"unknown steps {unknown}; choose from {', '.join(STEPS)}", field="steps"
        )
    if not 0.0 < threshold <= 1.0:
        raise ValidationError("threshold must be in (0, 1]", field="threshold")
    if capacity is not None and capacity < 0:
        raise ValidationError("capacity must be >= 0", field="capacity")
    started = time.perf_counter()
    ordered = [s for s in _ORDER if s in steps]
    state = store.run("project_state", {"user_id": user_id})
    since = state[0]["consolidated_at"] if state else None
    clustered = (state[0]["clustered_cards"] if state else None) or 0

    t0 = time.perf_counter()
    projection = project(store, user_id, since)
    n, fresh = len(projection.cards), len(projection.fresh)
    # Incremental while few cards are new and the store grew little since the last full
    # clustering; otherwise cluster from scratch (cards that joined nothing get a new chance).
    incremental = since is not None and (
        recluster is False
        or (
            recluster is None
            and fresh <= INCREMENTAL_SHARE * n
            and n <= (1 + INCREMENTAL_SHARE) * clustered
        )
    )
    report = ConsolidationReport(
        user_id=user_id,
        dry_run=dry_run,
        mode="incremental" if incremental else "full",
        steps=ordered,
        now=now if now is not None else now_ms(),
        seed=seed,
        cards=n,
        new_cards=fresh,
    )
    if "conflicts" in ordered or "abstraction" in ordered:
        wanted = sorted(projection.fresh) if incremental else [c.id for c in projection.cards]
        read_vectors(store, user_id, projection, wanted)
    report.timings["project"] = round(time.perf_counter() - t0, 3)

    run = _Run(
        store,
        user_id,
        report,
        projection,
        llm,
        progress,
        capacity,
        threshold,
        by_id={c.id: c for c in projection.cards},
    )
    if "conflicts" in ordered:
        with run.step("conflicts"):
            _conflicts(run, incremental)
    if "forgetting" in ordered:
        with run.step("forgetting"):
            _forgetting(run)
    if "abstraction" in ordered:
        with run.step("abstraction"):
            _abstraction(run, incremental, seed)
    if not dry_run and (n or since is not None):  # no User node for a user with no memory
        full_clustering = not incremental and "abstraction" in ordered
        store.run(
            "consolidate_mark",
            {"user_id": user_id, "at": now_ms(), "clustered_cards": n if full_clustering else None},
            write=True,
        )
    report.timings["total"] = round(time.perf_counter() - started, 3)
    return report


# -- conflicts ---------------------------------------------------------------------------


def _conflicts(run: _Run, incremental: bool) -> None:
    """Detect, skip what is already recorded, write SUPERSEDES / CONFLICTS_WITH."""
    proj = run.projection
    if incremental:
        # Vector neighbours among the new cards; shared-attribute windows over the cards
        # that share a (person, attribute) with a new card.
        cards = _same_attribute_as(proj.active, proj.fresh)
        decisions = detect_conflicts(cards, chat_model=None)
        with_vectors = [c for c in cards if c.id in proj.fresh and c.id in proj.vectors]
        if with_vectors:
            decisions += detect_conflicts(
                with_vectors, proj.matrix([c.id for c in with_vectors]), chat_model=run.llm
            )
        decisions = [d for d in _unique(decisions) if _touches(d) & proj.fresh]
    else:
        cards = [c for c in proj.active if c.id in proj.vectors]
        matrix = proj.matrix([c.id for c in cards]) if cards else None
        decisions = detect_conflicts(cards, matrix, chat_model=run.llm)
    recorded = {
        frozenset((r["a"], r["b"]))
        for r in run.store.run("project_conflict_pairs", {"user_id": run.user_id})
    }
    decisions = [d for d in decisions if frozenset(_touches(d)) not in recorded]
    decisions = _one_successor(decisions, run.by_id)

    supersede_rows, conflict_rows = [], []
    for d in decisions:
        by = d.decided_by
        if isinstance(d, Supersede):
            item = ConflictDecision(
                kind="supersede",
                from_card=d.newer,
                to_card=d.older,
                facts=(run.by_id[d.newer].fact, run.by_id[d.older].fact),
                attribute=d.attribute,
                reason=d.reason,
                decided_by=by,
            )
            supersede_rows.append(
                {
                    "newer": d.newer,
                    "older": d.older,
                    "older_version": proj.versions[d.older],
                    "attribute": d.attribute,
                    "reason": d.reason,
                    "decided_by": by,
                }
            )
            proj.inactive.add(d.older)
        else:
            item = ConflictDecision(
                kind="conflict",
                from_card=d.a,
                to_card=d.b,
                facts=(run.by_id[d.a].fact, run.by_id[d.b].fact),
                attribute=d.attribute,
                reason=d.reason,
                decided_by=by,
                needs_revision=list(d.needs_revision),
            )
            conflict_rows.append(
                {
                    "a": d.a,
                    "b": d.b,
                    "attribute": d.attribute,
                    "reason": d.reason,
                    "decided_by": by,
                    "needs_revision": list(d.needs_revision),
                }
            )
        run.report.conflicts.append(item)
    if run.dry_run:
        return
    applied = {r["id"] for r in run.write("consolidate_supersede", supersede_rows)}
    applied_pairs = set()
    for r in run.write("consolidate_conflicts", _flag_once(conflict_rows)):
        applied_pairs.add(r["a"])
        proj.versions[r["a"]], proj.versions[r["b"]] = r["a_version"], r["b_version"]
    for item in run.report.conflicts:
        if item.kind == "supersede":
            item.applied = item.to_card in applied
            if not item.applied:
                run.report.skipped.append(f"supersede {item.to_card}: changed meanwhile")
                proj.inactive.discard(item.to_card)
        else:
            item.applied = item.from_card in applied_pairs


def _flag_once(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each card flagged ``needs_revision`` by its first conflict only: the store computes
    a batch's flags before writing any, and would bump (and archive) a card once per row."""
    flagged: set[str] = set()
    out = []
    for row in rows:
        mine = [i for i in row["needs_revision"] if i not in flagged]
        flagged.update(mine)
        out.append({**row, "needs_revision": mine})
    return out


def _same_attribute_as(cards: list[CardView], fresh: set[str]) -> list[CardView]:
    """The cards that make a claim on a key some fresh card claims (fresh cards included)."""
    keys = {}
    for card in cards:
        found = card_claim(card)
        keys[card.id] = found.key if found else None
    wanted = {keys[c.id] for c in cards if c.id in fresh and keys[c.id] is not None}
    return [c for c in cards if c.id in fresh or keys[c.id] in wanted]


def _touches(decision: Supersede | Conflict) -> set[str]:
    if isinstance(decision, Supersede):
        return {decision.newer, decision.older}
    return {decision.a, decision.b}


def _unique(decisions: list[Supersede | Conflict]) -> list[Supersede | Conflict]:
    return list({d.key: d for d in decisions}.values())


def _one_successor(
    decisions: list[Supersede | Conflict], by_id: dict[str, CardView]
) -> list[Supersede | Conflict]:
    """One SUPERSEDES into each older card: the earliest newer one (a chain stays a chain)."""
    best: dict[str, Supersede] = {}
    rest: list[Supersede | Conflict] = []
    for d in decisions:
        if isinstance(d, Supersede):
            current = best.get(d.older)
            if current is None or (
                (by_id[d.newer].timestamp, d.newer)
                < (by_id[current.newer].timestamp, current.newer)
            ):
                best[d.older] = d
        else:
            rest.append(d)
    return sorted([*best.values(), *rest], key=lambda d: d.key)


# -- abstraction -------------------------------------------------------------------------


@dataclass
class _Stored:
    id: str
    members: frozenset[str]
    forgotten: frozenset[str]  # members forgetting let go: they stay members
    centroid: np.ndarray | None
    ranked: list[str]
    summary: str | None
    representative: str | None


def _encode(vector: np.ndarray) -> str:
    """Centroids are stored as base64 little-endian float32: a string reads back ~100x
    faster than a list of floats through the FalkorDB client."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def _decode(value: Any) -> np.ndarray | None:
    if not value:
        return None
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value), dtype="<f4").astype(np.float32)
    return np.asarray(value, dtype=np.float32)  # a list, as older runs may have stored


def _stored_abstractions(run: _Run) -> dict[str, _Stored]:
    found = {}
    for row in run.store.run("project_abstractions", {"user_id": run.user_id}):
        found[row["id"]] = _Stored(
            row["id"],
            frozenset(m for m in row["members"] if m),
            frozenset(m for m in row.get("forgotten") or () if m),
            _decode(row["centroid"]),
            list(row["ranked"] or []),
            row["summary"],
            row["representative"],
        )
    return found


def _abstraction(run: _Run, incremental: bool, seed: int) -> None:
    proj = run.projection
    stored = _stored_abstractions(run)
    active = {c.id for c in proj.active}
    themed = {c.id for c in proj.active if TURN not in c.tags}  # a turn kept whole is no theme
    current = {aid: a.members & active for aid, a in stored.items()}
    plans: dict[str, tuple[frozenset[str], str]] = {}  # id -> (members, reason)
    retired: dict[str, str] = {}
    if incremental:
        centroids = {
            aid: a.centroid for aid, a in stored.items() if a.centroid is not None and current[aid]
        }
        assigned = set().union(*current.values()) if current else set()
        new = sorted(
            i for i in proj.fresh if i in themed and i in proj.vectors and i not in assigned
        )
        joins = (
            incremental_assign(new, proj.matrix(new), centroids, threshold=ASSIGN_THRESHOLD)
            if new
            else {}
        )
        grown: dict[str, set[str]] = {}
        for cid, aid in joins.items():
            if aid is not None:
                grown.setdefault(aid, set()).add(cid)
        for aid, a in stored.items():
            members = current[aid] | grown.get(aid, set())
            if len(members) < 2:
                retired[aid] = f"retired: {len(members)} active member(s) left"
            else:
                plans[aid] = (
                    frozenset(members),
                    f"incremental: +{len(grown.get(aid, ()))} new, "
                    f"-{len(a.members - current[aid])} no longer active",
                )
        run.report.clusters = len(plans)
    else:
        ids = [i for i in sorted(themed) if i in proj.vectors]
        graph = similarity_graph(ids, proj.matrix(ids), k=GRAPH_K, threshold=GRAPH_THRESHOLD)
        found = clusters(graph, seed=seed, min_size=MIN_CLUSTER)
        run.report.clusters = len(found)
        match = match_clusters(found, {aid: m for aid, m in current.items() if m})
        for aid, members in {**match.updated, **match.created}.items():
            plans[aid] = (members, match.reasons[aid])
        for aid in stored:
            if aid not in plans:
                retired[aid] = match.reasons.get(aid, "retired: no active members left")
    rows = []
    for aid, (members, reason) in sorted(plans.items()):
        change, row = _plan_abstraction(run, stored.get(aid), aid, members, reason)
        run.report.abstractions.append(change)
        if row is not None:
            rows.append(row)
    for aid, reason in sorted(retired.items()):
        old = stored[aid]
        run.report.abstractions.append(
            AbstractionChange(
                id=aid,
                action="retired",
                size=len(current[aid]),
                summary=old.summary,
                representative=old.representative,
                reason=reason,
                removed=sorted(old.members),
            )
        )
    if not run.dry_run:
        run.write("abstraction_upsert", rows)
        if retired:
            run.store.run(
                "abstraction_retire", {"user_id": run.user_id, "ids": sorted(retired)}, write=True
            )


def _plan_abstraction(
    run: _Run, old: _Stored | None, aid: str, members: frozenset[str], reason: str
) -> tuple[AbstractionChange, dict[str, Any] | None]:
    """The report entry and (when something changed) the write row of one abstraction."""
    proj = run.projection
    if old is not None and members == old.members:
        return AbstractionChange(
            id=aid,
            action="unchanged",
            size=len(members),
            representative=old.representative,
            summary=old.summary,
            reason=reason,
        ), None
    if old is not None and old.centroid is None:  # not written by us: read its members
        read_vectors(run.store, run.user_id, proj, sorted(members))
    have = sorted(m for m in members if m in proj.vectors)
    if old is None or old.centroid is None or len(have) == len(members):
        # Every vector at hand (full run): rank all members by centrality.
        ranked = rank_by_centrality(have, proj.matrix(have))
        centroid = cluster_centroids({aid: have}, have, proj.matrix(have))[aid]
    else:
        # Incremental: keep the stored order, new members after it by cosine to the centroid.
        base = old.centroid
        kept = [m for m in old.ranked if m in members]
        others = sorted(members - set(kept) - set(have))
        newcomers = sorted(
            (m for m in have if m not in kept), key=lambda m: (-float(proj.vectors[m] @ base), m)
        )
        ranked = kept + newcomers + others
        weight = len(members) - len(newcomers)
        total = base * weight + sum((proj.vectors[m] for m in newcomers), np.zeros_like(base))
        centroid = normalise_rows(total[None, :])[0]
    facts = [run.by_id[m].fact for m in ranked]
    subject = common_subject(run.by_id[m].person for m in ranked)
    subject = None if subject == SELF else subject
    if run.llm is not None:
        made = summarize_with_llm(facts, run.llm, subject=subject)
        text, source = made.text, made.source
        reason = f"{reason}; {made.reason}"
    else:
        text, source = summarize_extractive(facts, subject=subject), "extractive"
    before = old.members if old else frozenset()
    change = AbstractionChange(
        id=aid,
        action="created" if old is None else "updated",
        size=len(members),
        representative=ranked[0],
        summary=text,
        summary_source=source,
        reason=reason,
        added=sorted(members - before),
        removed=sorted(before - members - (old.forgotten if old else frozenset())),
    )
    row = {
        "id": aid,
        "summary": text,
        "representative": ranked[0],
        "size": len(members),
        "centroid": _encode(centroid),
        "ranked": ranked[:RANKED_KEPT],
        "subject": subject,
        "summary_source": source,
        "reason": reason,
        "added": change.added,
        "removed": change.removed,
    }
    return change, row


# -- forgetting --------------------------------------------------------------------------


def _forgetting(run: _Run) -> None:
    """Soft-forget what has faded among what may go (``select_forgettable``): superseded
    cards, cards an abstraction summarises, trivial ones; never a protected card."""
    proj = run.projection
    params = {"user_id": run.user_id}
    rows = run.store.run("project_superseded", params)
    superseded = [CardView.from_row(r) for r in rows]
    versions = {**proj.versions, **{r["id"]: int(r["version"] or 0) for r in rows}}
    facts = {c.id: c.fact for c in [*proj.active, *superseded]}
    stored = _stored_abstractions(run)
    summarised = {m for a in stored.values() for m in a.members}
    central = {m for a in stored.values() for m in (*a.ranked, a.representative) if m}
    cited = {r["id"] for r in run.store.run("cited_cards", {**params, "open": sorted(OPEN)})}
    decisions = select_forgettable(
        [*proj.active, *superseded],
        run.report.now,
        threshold=run.threshold,
        capacity=run.capacity,
        days=sorted(int(r["day"]) for r in run.store.run("activity_days", params)),
        summarised=summarised,
        central=central,
        cited=cited,
    )
    rows = []
    for d in decisions:
        proj.inactive.add(d.card_id)
        run.report.forgotten.append(
            ForgottenCard(
                card_id=d.card_id,
                fact=facts[d.card_id],
                score=round(d.probability, 4),
                reason=d.reason,
            )
        )
        rows.append(
            {
                "id": d.card_id,
                "version": versions[d.card_id],
                "reason": d.reason,
                "score": round(d.probability, 4),
                "decided_by": "rules",
            }
        )
    if run.dry_run:
        return
    applied = {r["id"] for r in run.write("consolidate_forget", rows)}
    for item in run.report.forgotten:
        item.applied = item.card_id in applied
        if not item.applied:
            proj.inactive.discard(item.card_id)
            run.report.skipped.append(f"forget {item.card_id}: changed meanwhile")


# -- looking at the result ---------------------------------------------------------------


def decisions(store: GraphStore, user_id: str) -> list[dict[str, Any]]:
    """The recorded SUPERSEDES / CONFLICTS_WITH edges of a user, with reason and author."""
    return store.run("project_decisions", {"user_id": user_id})


def abstractions(store: GraphStore, user_id: str) -> list[dict[str, Any]]:
    """A user's abstractions: id, summary, representative, size and member ids."""
    return [
        {
            **{k: row[k] for k in ("id", "summary", "representative", "size")},
            "members": sorted(row["members"]),
        }
        for row in store.run("project_abstractions", {"user_id": user_id})
    ]


def footprint(store: GraphStore, user_id: str) -> dict[str, int]:
    """Counts of what is stored under a user: ``"Card:active"`` nodes, ``edges``, card
    ``versions`` (sum): equal footprints before and after mean nothing was written."""
    found = {"edges": 0, "versions": 0}
    for row in store.run("project_footprint", {"user_id": user_id}):
        key = f"{row['label']}:{row['status']}" if row["status"] else row["label"]
        found[key] = found.get(key, 0) + row["nodes"]
        found["edges"] += row["edges"]
        found["versions"] += row["versions"]
    return found


# -- feedback ----------------------------------------------------------------------------


def feedback(
    store: GraphStore, user_id: str, card_id: str, signal: str | int, *, attempts: int = 3
) -> Card:
    """Fold a thumbs up/down or 1-5 rating into a card's reward and confidence.

    Negative feedback sets ``needs_revision``; positive feedback never clears it. The
    write is guarded by the card's version and retried on a lost race.
    """
    token = uuid.uuid4().hex  # tells our own landed write from someone else's
    for _ in range(max(1, attempts)):
        rows = store.run("get_cards", {"user_id": user_id, "ids": [card_id]})
        if not rows:
            raise NotFoundError(f"no card {card_id!r} for user {user_id!r}")
        if rows[0]["card"].get("feedback_token") == token:
            return card_from_row(rows[0])  # it landed; only the reply was lost
        card = card_from_row(rows[0])
        update = apply_feedback(card.reward, card.confidence, signal)
        props: dict[str, Any] = {
            "reward": update.reward,
            "confidence": update.confidence,
            "last_feedback": update.reason,
            "feedback_token": token,
        }
        if update.needs_revision:
            props["needs_revision"] = True
        done = store.run(
            "set_card_status",
            {
                "user_id": user_id,
                "id": card_id,
                "expected_version": card.version,
                "props": props,
                "now": now_ms(),
                "change": "feedback",
                "decided_by": CALLER,
                "note": update.reason,
            },
            write=True,
        )
        if done:
            return card_from_row(store.run("get_cards", {"user_id": user_id, "ids": [card_id]})[0])
    raise ConflictError(f"card {card_id} kept changing during feedback: retry")


__all__ = [
    "STEPS",
    "AbstractionChange",
    "ConflictDecision",
    "ConsolidationReport",
    "ForgottenCard",
    "Projection",
    "StepProgress",
    "abstractions",
    "consolidate",
    "decisions",
    "feedback",
    "footprint",
    "project",
    "read_vectors",
]


def resummarize(store: GraphStore, user_id: str, abstraction_ids: Sequence[str]) -> list[str]:
    """Rebuild the summaries of abstractions a card just left outside consolidation (a
    hard forget), extractively from the cards they still summarise, so no summary keeps
    quoting an erased card; an abstraction left empty is retired. Returns the ids rebuilt.
    """
    if not abstraction_ids:
        return []
    rows, empty = [], []
    for found in store.run(
        "abstraction_members", {"user_id": user_id, "ids": sorted(set(abstraction_ids))}
    ):
        facts = {m["id"]: m["fact"] for m in found["members"] if m.get("id")}
        if not facts:
            empty.append(found["id"])
            continue
        ranked = [i for i in found["ranked"] or [] if i in facts]
        ranked += sorted(set(facts) - set(ranked))
        subject = found["subject"]
        rows.append(
            {
                "id": found["id"],
                "summary": summarize_extractive(
                    [facts[i] for i in ranked], subject=None if subject == SELF else subject
                ),
                "representative": ranked[0],
                "size": len(facts),
                "ranked": ranked[:RANKED_KEPT],
                "reason": "summary rebuilt without a card that was erased",
            }
        )
    if rows:
        store.run(
            "abstraction_resummarize",
            {"user_id": user_id, "rows": rows, "now": now_ms()},
            write=True,
        )
    if empty:
        store.run("abstraction_retire", {"user_id": user_id, "ids": empty}, write=True)
    return [r["id"] for r in rows]
