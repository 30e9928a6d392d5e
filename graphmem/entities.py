"""Entities: the people, organisations, places, events and things a user's memory is
about, their relations, and the cards about them.

A person is the ``Person`` node cards are ``ABOUT`` (the one ``people()`` lists); any
other kind is an ``Entity`` node ``{type, name, key}``. Both carry the ``Entity`` label
and a UUID ``id`` once the entity API has seen them (people written by cards get theirs
on first use), so one id space covers all kinds. A name is unique per kind: two PERSON
"Alice" are one entity, an OBJECT and a LOCATION called "Mercury" are two.

Relations are ``(:Entity)-[:RELATED_TO {id, type, properties}]->(:Entity)`` with the
type as a property (WORKS_AT, KNOWS, LOCATED_AT, ...): any type without building Cypher
from user text. A fact (subject, predicate, object) is a card that carries its triple:
about the subject when the subject is a person (or an unknown name, taken as one), and
``MENTIONS`` the subject or object when they are other known entities.
"""

from __future__ import annotations

import builtins
import json
import re
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, Field

from graphmem.algorithms.entities import normalise, rank
from graphmem.cards import person_key
from graphmem.errors import ConflictError, NotFoundError, ValidationError
from graphmem.models import SELF, Card, Model, check_user_id
from graphmem.timeutil import now_ms

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.store.base import GraphStore

PERSON = "PERSON"
#: Kinds the agent-memory spec names (POLE+O); any other upper-case identifier is taken.
KINDS = ("PERSON", "ORGANIZATION", "LOCATION", "EVENT", "OBJECT")
_KIND = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
_RELATION = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
MAX_DEPTH = 3
#: Entities ranked by the cosine of the query to their text, at most (the rest: words).
MAX_EMBEDDED = 5000


class Entity(Model):
    """An entity as stored, with how many cards are about it or mention it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)

    id: str
    user_id: str
    name: str
    type: str
    description: str | None = None
    aliases: list[str] = Field(default_factory=list)
    relationship: str | None = Field(None, description="A person's relationship to the user.")
    created_at: int | None = None
    cards: int = 0


class Relation(Model):
    id: str
    source_id: str
    target_id: str
    type: str
    properties: dict[str, Any] = Field(default_factory=dict)
    created_at: int | None = None


class EntityHit(Model):
    entity: Entity
    score: float


def entity_kind(value: str) -> str:
    """An entity type in its stored form (upper case), or ``ValidationError``.

    >>> entity_kind("person"), entity_kind("Organization")
    ('PERSON', 'ORGANIZATION')
    """
    kind = str(value).strip().upper() if isinstance(value, str) else ""
    if not _KIND.match(kind):
        raise ValidationError(
            f"entity type must be one of {', '.join(KINDS)} or another upper-case word",
            field="type",
        )
    return kind


def _name(value: Any, field: str = "name") -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{field} must be non-empty text", field=field)
    if len(value) > 256 or "\x00" in value:
        raise ValidationError(f"{field} must be at most 256 characters, no NUL", field=field)
    return value.strip()


def _entity(user_id: str, row: Mapping[str, Any]) -> Entity:
    return Entity(
        id=row["id"],
        user_id=user_id,
        name=row["name"],
        type=row["type"] or PERSON,
        description=row.get("description"),
        aliases=row.get("aliases") or [],
        relationship=row.get("relationship"),
        created_at=row.get("created_at"),
        cards=row.get("cards") or 0,
    )


class Entities:
    """A user's entities and their relations (``Memory.entities``)."""

    def __init__(self, memory: Memory, store: GraphStore) -> None:
        self._memory = memory
        self._store = store
        self._embedder = memory.embedder

    # -- entities ---------------------------------------------------------------------
    def add(
        self, user_id: str, name: str, type: str = PERSON, *, description: str | None = None
    ) -> Entity:
        """Create an entity, or update the description of the one with that name and
        type. A person is the same node cards about them are ``ABOUT``."""
        check_user_id(user_id)
        name, kind = _name(name), entity_kind(type)
        if description is not None and (len(description) > 20_000 or "\x00" in description):
            raise ValidationError("description must be at most 20000 characters, no NUL")
        params = {
            "user_id": user_id,
            "id": str(uuid.uuid4()),
            "name": name,
            "type": kind,
            "key": person_key(name) if kind == PERSON else f"{kind}:{person_key(name)}",
            "description": description,
            "now": now_ms(),
        }
        query = "entity_add_person" if kind == PERSON else "entity_add"
        with self._memory.quotas.guard(user_id, added_bytes=len((description or "").encode())):
            [row] = self._store.run(query, params, write=True)
        return _entity(user_id, row)

    def get(self, user_id: str, entity_id: str) -> Entity:
        """One entity by id (an id merged into another resolves to the survivor)."""
        check_user_id(user_id)
        rows = self._store.run("entity_get", {"user_id": user_id, "id": str(entity_id)})
        if not rows:
            raise NotFoundError(f"no entity {entity_id!r} for user {user_id!r}")
        return _entity(user_id, rows[0])

    def by_name(self, user_id: str, name: str, *, type: str | None = None) -> Entity | None:
        """The entity called ``name`` (case-insensitive; a person's alias too), of
        ``type`` if given; a person first when several kinds share the name."""
        check_user_id(user_id)
        kind = entity_kind(type) if type is not None else None
        key = normalise(_name(name))
        found = [
            e
            for e in self.list(user_id, type=kind)
            if normalise(e.name) == key or key in (normalise(a) for a in e.aliases)
        ]
        found.sort(key=lambda e: (e.type != PERSON, normalise(e.name) != key, e.created_at or 0))
        return found[0] if found else None

    def list(self, user_id: str, *, type: str | None = None, limit: int = 10_000) -> list[Entity]:
        """A user's entities (people first, then other kinds), oldest first."""
        check_user_id(user_id)
        kind = entity_kind(type) if type is not None else None
        rows = self._store.run("entity_list", {"user_id": user_id, "type": kind})
        if any(r["id"] is None for r in rows):  # people written by cards get their ids
            self._store.run("entity_assign_ids", {"user_id": user_id}, write=True)
            rows = self._store.run("entity_list", {"user_id": user_id, "type": kind})
        entities = [_entity(user_id, r) for r in rows]
        entities.sort(key=lambda e: (e.type != PERSON, e.created_at or 0, e.name))
        return entities[:limit]

    def search(
        self, user_id: str, query: str, *, k: int = 10, type: str | None = None
    ) -> builtins.list[EntityHit]:
        """Entities matching ``query`` by name, words and meaning, best first."""
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must be non-empty text", field="query")
        if not 1 <= k <= 1000:
            raise ValidationError("k must be between 1 and 1000", field="k")
        entities = self.list(user_id, type=type)
        if not entities:
            return []
        texts = [f"{e.name}: {e.description}" if e.description else e.name for e in entities]
        cosines = [0.0] * len(entities)
        if len(entities) <= MAX_EMBEDDED:
            vectors = self._embedder.embed([query, *texts])
            cosines = [float(v) for v in vectors[1:] @ vectors[0]]
        by_id = {e.id: e for e in entities}
        ranked = rank(query, [(e.id, e.name, e.description) for e in entities], cosines, k)
        return [EntityHit(entity=by_id[i], score=score) for i, score in ranked]

    # -- relations --------------------------------------------------------------------
    def relate(
        self,
        user_id: str,
        source_id: str,
        target_id: str,
        type: str,
        *,
        properties: Mapping[str, Any] | None = None,
    ) -> Relation:
        """A typed relation between two entities (idempotent per source, target, type)."""
        check_user_id(user_id)
        if not isinstance(type, str) or not _RELATION.match(type):
            raise ValidationError(
                "relationship type must be a word of letters, digits and _", field="type"
            )
        try:
            props = json.dumps(dict(properties or {}), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValidationError(
                f"properties must be JSON data: {exc}", field="properties"
            ) from None
        rows = self._store.run(
            "entity_relate",
            {
                "user_id": user_id,
                "source_id": str(source_id),
                "target_id": str(target_id),
                "type": type,
                "id": str(uuid.uuid4()),
                "properties": props,
                "now": now_ms(),
            },
            write=True,
        )
        if not rows:
            raise NotFoundError(f"no entity {source_id!r} or {target_id!r} for user {user_id!r}")
        row = rows[0]
        return Relation(
            id=row["id"],
            source_id=row["source_id"],
            target_id=row["target_id"],
            type=row["type"],
            properties=json.loads(row["properties"] or "{}"),
            created_at=row["created_at"],
        )

    def related(
        self, user_id: str, entity_id: str, *, type: str | None = None, depth: int = 1
    ) -> builtins.list[Entity]:
        """Entities linked to ``entity_id`` by relations (either direction) up to
        ``depth`` hops (1-3), through relations of ``type`` only if given."""
        check_user_id(user_id)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise ValidationError(f"depth must be between 1 and {MAX_DEPTH}", field="depth")
        entity = self.get(user_id, entity_id)
        rows = self._store.run(
            "entity_related",
            {"user_id": user_id, "id": entity.id, "type": type, "depth": depth},
        )
        return [_entity(user_id, r) for r in rows]

    def merge(
        self, user_id: str, source_id: str, target_id: str, *, name: str | None = None
    ) -> Entity:
        """Fold the duplicate ``source_id`` into ``target_id``: its relations, the cards
        about or mentioning it and its names (as aliases) move over, then it goes; its
        id keeps resolving to the target. ``name`` renames the survivor."""
        check_user_id(user_id)
        source, target = self.get(user_id, source_id), self.get(user_id, target_id)
        if source.id == target.id:
            return target
        if source.type == PERSON and target.type != PERSON:
            raise ConflictError(
                f"cannot merge person {source.name!r} into {target.type} {target.name!r}: "
                "cards about a person stay about a person"
            )
        rows = self._store.run(
            "entity_merge",
            {
                "user_id": user_id,
                "source_id": source.id,
                "target_id": target.id,
                "name": _name(name) if name is not None else None,
                "key": person_key(name) if name is not None else "",
                "now": now_ms(),
            },
            write=True,
        )
        if not rows:
            raise ConflictError("the entities changed during the merge; retry")
        return self.get(user_id, target.id)

    # -- cards ------------------------------------------------------------------------
    def add_fact(
        self,
        user_id: str,
        subject: str,
        predicate: str,
        object: str,
        *,
        backstory: str = "",
        timestamp: Any = None,
    ) -> Card:
        """Store a (subject, predicate, object) fact as a card carrying its triple.

        The card is about the subject when the subject is a person or a name memory
        does not know (taken as a person); about the user when the subject is another
        kind of entity. Known non-person entities among subject and object are linked
        by ``MENTIONS``."""
        check_user_id(user_id)
        triple = (_name(subject, "subject"), _name(predicate, "predicate"), _name(object, "object"))
        known = {part: self.by_name(user_id, part) for part in {triple[0], triple[2]}}
        about = known[triple[0]]
        person = triple[0] if about is None or about.type == PERSON else SELF
        words = triple[1].replace("_", " ").lower()
        card = self._memory.remember(
            Card(
                user_id=user_id,
                fact=f"{triple[0]} {words} {triple[2]}",
                person=person,
                backstory=backstory,
                tags=["fact", f"predicate:{triple[1].lower()}"[:64]],
                triple=triple,
                **({"timestamp": timestamp} if timestamp is not None else {}),
            )
        )
        mentioned = [e.id for e in known.values() if e is not None and e.type != PERSON]
        if mentioned:
            self._store.run(
                "entity_mention",
                {"user_id": user_id, "card_id": card.id, "ids": mentioned},
                write=True,
            )
        return card

    def cards(self, user_id: str, entity_id: str) -> builtins.list[Card]:
        """Cards about the entity (a person) or mentioning it, newest first."""
        entity = self.get(user_id, entity_id)
        rows = self._store.run("entity_cards", {"user_id": user_id, "id": entity.id})
        return self._memory.get_many(user_id, [r["id"] for r in rows])
