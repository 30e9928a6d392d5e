"""A card's history: every version it had, what changed between them, its state at a time.

Every change to a card (create, update, feedback, supersede, forget, restore, revert,
flag, erase) makes a new version. The current version is the card itself; besides its
fields it records how it came to be: ``change`` (the operation), ``decided_by`` (the
caller, an extractor, ``rules`` or ``llm/<model>``), ``change_note`` (why) and
``updated_at`` (when). Before a query changes a card it archives the state it replaces
as a ``(:CardVersion)-[:VERSION_OF]->(:Card)`` node holding that state's properties
(all but the vector, which is the embedding of the text and re-derived on revert). So the
record of a change is written by the same query as the change, in the same transaction,
and creating a card costs no extra node. ``tests/test_history.py`` checks that every
query writing a card's content or status does this.

Read back, a history is the archived states plus the card, ordered by version:

- what changed at version ``n`` = the fields that differ between states ``n-1`` and ``n``;
- the state at time ``t`` (when graphmem knew it) = the version with the latest
  ``updated_at`` at or before ``t``;
- a hard forget keeps only who/when/how of every version (``erased_at`` set) and ends the
  history with an ``erase`` version.

Examples:
    >>> paris = {"id": "c1", "version": 1, "updated_at": 10, "fact": "I live in Paris"}
    >>> lyon = {"id": "c1", "version": 2, "change": "update", "updated_at": 20,
    ...         "fact": "I live in Lyon"}
    >>> [(v.version, v.change, [(c.field, c.old, c.new) for c in v.changes])
    ...  for v in versions([paris], lyon)]  # doctest: +NORMALIZE_WHITESPACE
    [(1, 'create', [('fact', None, 'I live in Paris')]),
     (2, 'update', [('fact', 'I live in Paris', 'I live in Lyon')])]
    >>> state_at([paris, lyon], 15)["fact"], state_at([paris, lyon], 5)
    ('I live in Paris', None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import Field

from graphmem.cards import card_from_row, person_key
from graphmem.embedding import Embedder
from graphmem.errors import ConflictError, NotFoundError, ValidationError
from graphmem.models import SELF, Card, Model, Status, check_user_id
from graphmem.recall.vector import wire_vector
from graphmem.store.base import GraphStore
from graphmem.timeutil import now_ms

#: Properties that say how a version came to be, or count use: never reverted, and not
#: "what changed".
_RECORD = frozenset(
    {
        "user_id",
        "id",
        "version",
        "created_at",
        "updated_at",
        "change",
        "decided_by",
        "change_note",
        "erased_at",
        "access_count",
        "last_accessed",
        "last_seen",
        "seen_count",
        "feedback_token",
        "embedding",
        "tenant",
        "revision",
        "strategy_uses",
        "strategy_successes",
    }
)
#: Derived from other fields: restored with them, not listed as a change of their own.
_DERIVED = frozenset(
    {"content_hash", "identity", "source_id", "size", "claim", "claim_value", "likely_claim"}
)

#: What a decision made by someone calling graphmem (a user or an agent) is recorded as.
CALLER = "caller"


class FieldChange(Model):
    """One field of a card, before and after a change (``None``: not set)."""

    field: str
    old: Any = None
    new: Any = None


class CardVersion(Model):
    """One version of a card: the change that made it, and the card as it then was."""

    card_id: str
    version: int
    change: str = Field(
        description="create, update, feedback, supersede, forget, restore, revert, flag, "
        "erase (or unrecorded, for a card written before history was kept)"
    )
    at: int | None = Field(None, description="When the change was made (epoch ms).")
    decided_by: str | None = Field(None, description="caller, an extractor, rules or llm/<model>.")
    note: str | None = Field(None, description="Why, when the change says (reason, target).")
    changes: list[FieldChange] = Field(default_factory=list)
    state: dict[str, Any] | None = Field(
        None, description="The card's stored fields at this version; None once erased."
    )
    current: bool = False
    erased: bool = False


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[FieldChange]:
    """The fields that differ between two states of a card, by name."""
    keys = (set(before) | set(after)) - _RECORD - _DERIVED
    return [
        FieldChange(field=key, old=before.get(key), new=after.get(key))
        for key in sorted(keys)
        if before.get(key) != after.get(key)
    ]


def versions(
    archived: Iterable[Mapping[str, Any]], current: Mapping[str, Any] | None
) -> list[CardVersion]:
    """A card's versions, oldest first, from its archived states and its current one."""
    states = sorted(archived, key=lambda s: s.get("version") or 0)
    if current is not None:
        states.append(current)
    found: list[CardVersion] = []
    previous: Mapping[str, Any] | None = None
    for index, state in enumerate(states):
        erased = state.get("erased_at") is not None
        number = int(state.get("version") or 1)
        change = state.get("change") or ("create" if number == 1 else "unrecorded")
        if erased or previous is None:
            changes = [] if erased else diff({}, state)
        else:
            changes = diff(previous, state)
        found.append(
            CardVersion(
                card_id=str(state["id"]),
                version=number,
                change=change,
                at=state.get("updated_at"),
                decided_by=state.get("decided_by"),
                note=state.get("change_note"),
                changes=changes,
                state=None if erased else dict(state),
                current=current is not None and index == len(states) - 1,
                erased=erased,
            )
        )
        previous = None if erased else state
    return found


def state_at(states: Sequence[Mapping[str, Any]], at: int) -> Mapping[str, Any] | None:
    """The state that was current at ``at`` (transaction time), or None before the first."""
    known = [s for s in states if (s.get("updated_at") or 0) <= at]
    if not known:
        return None
    return max(known, key=lambda s: (s.get("updated_at") or 0, s.get("version") or 0))


def believed(state: Mapping[str, Any], as_of: int) -> bool:
    """Did memory, in this state of a card, hold it true at ``as_of`` (valid time)?

    Forgotten cards are not held; superseded ones are, for the time they were valid
    ("I lived in Paris until 2023").

    Examples:
        >>> believed({"status": "superseded", "valid_from": 10, "valid_to": 20}, 15)
        True
        >>> believed({"status": "superseded", "valid_from": 10, "valid_to": 20}, 20)
        False
        >>> believed({"status": "forgotten", "valid_from": 10}, 15)
        False
    """
    if state.get("status") == Status.FORGOTTEN.value:
        return False
    start = state.get("valid_from")
    if start is None:
        start = state.get("timestamp") or 0
    end = state.get("valid_to")
    return start <= as_of and (end is None or as_of < end)


# -- in the store --------------------------------------------------------------------------


def card_history(store: GraphStore, user_id: str, card_id: str) -> list[CardVersion]:
    """Every version of a card, oldest first; ``NotFoundError`` if it never existed."""
    check_user_id(user_id)
    rows = store.run("card_history", {"user_id": user_id, "id": card_id})
    row = rows[0] if rows else {"archived": [], "current": None}
    found = versions(row["archived"] or [], row["current"])
    if not found:
        raise NotFoundError(f"no card {card_id!r} for user {user_id!r}")
    return found


def states_at(
    store: GraphStore, user_id: str, card_ids: Sequence[str], known_at: int
) -> dict[str, dict[str, Any]]:
    """The archived state each card had at ``known_at`` (for cards changed since);
    cards created after it are absent."""
    if not card_ids:
        return {}
    rows = store.run(
        "card_states_at", {"user_id": user_id, "ids": list(card_ids), "known_at": known_at}
    )
    return {row["id"]: row["card"] for row in rows}


def held_at(
    store: GraphStore,
    user_id: str,
    rows: Sequence[Mapping[str, Any]],
    *,
    as_of: int,
    known_at: int,
) -> list[dict[str, Any]]:
    """Rows of ``get_cards`` as memory held them at ``known_at`` (``as_known``), keeping
    those it then held true at ``as_of``."""
    return [row for row in as_known(store, user_id, rows, known_at) if believed(row["card"], as_of)]


def as_known(
    store: GraphStore, user_id: str, rows: Sequence[Mapping[str, Any]], known_at: int
) -> list[dict[str, Any]]:
    """Rows holding a ``card`` (its stored properties) as they stood at ``known_at``: a
    card changed since is read back as it was, one created since is left out. The rest
    of a row (provenance, edges) is the card's own and stays."""
    changed = [r["card"]["id"] for r in rows if (r["card"].get("updated_at") or 0) > known_at]
    past = states_at(store, user_id, changed, known_at)
    known = []
    for row in rows:
        card = row["card"]
        if (card.get("created_at") or 0) > known_at:
            continue
        if card["id"] in past:
            card = past[card["id"]]
        elif (card.get("updated_at") or 0) > known_at:
            continue  # changed since, with no state recorded for then
        known.append({**row, "card": dict(card)})
    return known


def revert(
    store: GraphStore,
    embedder: Embedder,
    user_id: str,
    card_id: str,
    to_version: int,
    *,
    expected_version: int | None = None,
) -> None:
    """Make a card's state what it was at ``to_version``, as a new version (``revert``).

    Text, fields and status come back from the archived state, the vector is embedded
    again from that text; a card no longer superseded loses the edge that superseded it.
    ``expected_version`` guards the write like any update (by default the version read
    here, so a change made meanwhile is never overwritten).
    """
    found = card_history(store, user_id, card_id)
    current = found[-1]
    if current.erased or current.state is None:
        raise NotFoundError(f"card {card_id!r} of user {user_id!r} was erased")
    if expected_version is not None and expected_version != current.version:
        raise ConflictError(
            f"card {card_id} is at version {current.version}, the revert was based on "
            f"version {expected_version}: re-read and retry"
        )
    target = next((v for v in found if v.version == to_version), None)
    if target is None:
        known = ", ".join(str(v.version) for v in found)
        raise NotFoundError(f"card {card_id} has no version {to_version} (versions: {known})")
    if target.state is None:
        raise ConflictError(f"version {to_version} of card {card_id} was erased")
    if target.version == current.version:
        raise ValidationError(
            f"card {card_id} is at version {to_version} already", field="to_version"
        )
    card = _card(target.state)
    keys = (set(target.state) | set(current.state)) - _RECORD
    props = {key: target.state.get(key) for key in sorted(keys)}
    done = store.run(
        "update_cards",
        {
            "user_id": user_id,
            "now": now_ms(),
            "rows": [
                {
                    "id": card_id,
                    "expected_version": current.version,
                    "props": props,
                    "embedding": wire_vector(embedder.embed([card.embedding_text])[0]),
                    "person_key": person_key(card.person),
                    "person": card.person,
                    "relationship": card.relationship if card.person != SELF else "self",
                    "timestamp": card.timestamp,
                    "change": "revert",
                    "decided_by": CALLER,
                    "note": f"to version {to_version}",
                }
            ],
        },
        write=True,
    )
    if not done:
        raise ConflictError(f"card {card_id} changed during the revert: re-read and retry")
    store.run(
        "revert_unsupersede",
        {"user_id": user_id, "card_id": card_id, "now": now_ms(), "decided_by": CALLER},
        write=True,
    )


def _card(state: Mapping[str, Any]) -> Card:
    return card_from_row({"card": dict(state)})


__all__ = [
    "CALLER",
    "CardVersion",
    "FieldChange",
    "as_known",
    "believed",
    "card_history",
    "diff",
    "held_at",
    "revert",
    "state_at",
    "states_at",
    "versions",
]
