"""How cards travel to and from the store: rows for the write queries, Cards from reads."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from graphmem.errors import NotFoundError, ValidationError
from graphmem.models import SELF, Card, Provenance, stored_times
from graphmem.recall.vector import wire_vector
from graphmem.store.base import GraphStore
from graphmem.timeutil import allow_future, ms_to_datetime

# Card fields stored as node properties (the rest: id/user_id are keys, source is a node).
_NODE_FIELDS = tuple(
    f for f in Card.model_fields if f not in {"id", "user_id", "source", "version"}
)
_SOURCE_FIELDS = ("session_id", "document", "turn", "speaker", "text", "session_date", "language")


#: The shortest prefix taken for a card id (git takes 4; card ids are 32 hex digits).
MIN_PREFIX = 6
_CARD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
#: Candidates an ambiguous prefix lists.
_SHOW_CANDIDATES = 5


def resolve_card_id(store: GraphStore, user_id: str, card_id: str) -> str:
    """The id of the one card of ``user_id`` whose id is ``card_id`` or starts with it.

    A prefix needs at least ``MIN_PREFIX`` characters. No such card: ``NotFoundError``;
    several: ``ValidationError`` listing them, so the caller can type a longer prefix.
    """
    if not _CARD_ID.fullmatch(card_id):  # no card has such an id; never send it to the store
        raise NotFoundError(f"no card {card_id!r} for user {user_id!r}")
    rows = store.run(
        "card_ids_by_prefix",
        {"user_id": user_id, "prefix": card_id, "limit": _SHOW_CANDIDATES + 1},
    )
    if any(row["id"] == card_id for row in rows):
        return card_id
    if len(card_id) < MIN_PREFIX or not rows:
        raise NotFoundError(f"no card {card_id!r} for user {user_id!r}")
    if len(rows) == 1:
        return str(rows[0]["id"])
    shown = "; ".join(
        f"{row['id']} ({row['status']}): {_short(row['fact'])}" for row in rows[:_SHOW_CANDIDATES]
    )
    more = " and more" if len(rows) > _SHOW_CANDIDATES else ""
    raise ValidationError(
        f"card id prefix {card_id!r} is ambiguous: it matches {shown}{more}; type more characters",
        field="card_id",
    )


def _short(text: str | None, width: int = 40) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def person_key(name: str) -> str:
    """People are matched case-insensitively within a user."""
    return " ".join(name.lower().split())


def card_size(card: Card) -> int:
    """Bytes of text a card stores (fact and backstory), as quotas count them."""
    return len(card.fact.encode()) + len(card.backstory.encode())


def card_props(card: Card, *, keep_nulls: bool = False) -> dict[str, Any]:
    data = card.model_dump(mode="json", include=set(_NODE_FIELDS))
    data["source_id"] = card.source.source_id if card.source else None
    data["size"] = card_size(card)
    return data if keep_nulls else {k: v for k, v in data.items() if v is not None}


def write_row(card: Card, embedding: np.ndarray) -> dict[str, Any]:
    """One row of ``upsert_cards``: the card, its person and its provenance."""
    return {
        "id": card.id,
        "props": card_props(card),
        "embedding": wire_vector(embedding),
        "person_key": person_key(card.person),
        "person": card.person,
        "relationship": card.relationship if card.person != SELF else "self",
        "timestamp": card.timestamp,
        **source_row(card),
    }


def source_row(card: Card) -> dict[str, Any]:
    """Where a card was stated: its source turn or passage, the evidence edge's fields and
    the session or document the source is in (``upsert_cards``, ``card_seen_again``)."""
    source = card.source
    source_id = source.source_id if source else None
    container_label = container_id = None
    container: dict[str, Any] | None = None
    if source is not None and source_id is not None:
        if source.session_id:
            container_label, container_id = "Session", source.session_id
            container = {"date": source.session_date} if source.session_date else {}
        elif source.document:
            container_label, container_id = "Document", source.document
            container = {"name": source.document}
    return {
        "source_id": source_id,
        "source": (
            {k: v for k in _SOURCE_FIELDS if (v := getattr(source, k)) is not None}
            if source and source_id
            else None
        ),
        "span_start": source.span[0] if source and source.span else None,
        "span_end": source.span[1] if source and source.span else None,
        "extractor": source.extractor if source else None,
        "container_label": container_label,
        "container_id": container_id,
        "container": container,
        "decided_by": creator(card),
    }


def creator(card: Card) -> str:
    """Who decided a card should exist (its first version's ``decided_by``): the extractor
    that took it from a source, or ``"caller"`` (whoever called ``remember``)."""
    if card.source is not None and card.source.extractor != "manual":
        return card.source.extractor
    return "caller"


def card_from_row(row: dict[str, Any]) -> Card:
    """A Card from a ``get_cards`` row (node props + evidence edge + source + container)."""
    props = row["card"]
    data = {k: props.get(k) for k in Card.model_fields if k in props and k != "source"}
    data = {k: v for k, v in data.items() if v is not None}
    if row.get("source"):
        data["source"] = source_data(row["source"], row.get("evidence"))
    with allow_future():  # what is stored was accepted when written
        return Card.parse(stored_times(data))


def provenance_of(source: dict[str, Any], evidence: dict[str, Any] | None) -> Provenance:
    """A card's ``Provenance`` from a Source node and the FROM edge to it."""
    data = source_data(source, evidence)
    if isinstance(data.get("session_date"), int):  # stored epoch ms, never seconds
        data["session_date"] = ms_to_datetime(data["session_date"])
    return Provenance.parse(data)


def source_data(source: dict[str, Any], evidence: dict[str, Any] | None) -> dict[str, Any]:
    """A ``Provenance`` mapping from a Source node and the card's FROM edge to it."""
    evidence = evidence or {}
    span = None
    if evidence.get("span_start") is not None and evidence.get("span_end") is not None:
        span = (evidence["span_start"], evidence["span_end"])
        text = source.get("text")
        if not 0 <= span[0] <= span[1] or (isinstance(text, str) and span[1] > len(text)):
            # Written before the edges refused it (two turns under one number, issue
            # 31): a stored card never makes a read fail; its evidence is the whole text.
            span = None
    return {
        **{k: source.get(k) for k in _SOURCE_FIELDS if source.get(k) is not None},
        "span": span,
        "extractor": evidence.get("extractor") or "manual",
    }
