"""Bring a store written by an older graphmem up to date; run by every ``ensure_schema``.

Each step is idempotent and cheap when there is nothing to do (one lookup on User
nodes), so opening a current store costs nothing extra.
"""

from __future__ import annotations

from graphmem.store.base import GraphStore


def tag_cards_with_tenant(store: GraphStore) -> int:
    """Give cards stored before full-text tenant tokens their token; the cards tagged."""
    tagged = 0
    for row in store.run("users_without_tenant"):
        done = store.run("set_card_tenants", {"user_id": row["user_id"]}, write=True)
        tagged += done[0]["cards"] if done else 0
    return tagged


def key_cards_by_identity(store: GraphStore, *, batch: int = 1000) -> int:
    """Give cards stored before ids came from the identity (``graphmem.models.identity``)
    their identity, and fold the repeats that scheme let through (the same fact remembered
    twice was two cards) into the first statement; the repeats folded.

    Ids stay as they are (people and tasks refer to them); a repeated remember finds the
    old card by its identity. A folded repeat is kept, superseded by the first statement
    with the reason recorded, and its sources join the first statement's provenance.
    """
    from graphmem.models import identity_of
    from graphmem.timeutil import now_ms

    folded = 0
    for user in store.run("users_without_identities"):
        user_id = user["user_id"]
        rows = [
            {
                "id": card["id"],
                "identity": identity_of(
                    user_id, card["fact"] or "", card["person"] or "me", card["relationship"]
                ),
            }
            for card in store.run("cards_without_identity", {"user_id": user_id})
        ]
        for start in range(0, len(rows), batch):
            store.run(
                "set_card_identities",
                {"user_id": user_id, "rows": rows[start : start + batch]},
                write=True,
            )
        repeats = [
            {"keep": group["ids"][0], "repeat": repeat}
            for group in store.run("repeated_identities", {"user_id": user_id})
            for repeat in group["ids"][1:]
        ]
        for start in range(0, len(repeats), batch):
            done = store.run(
                "fold_repeat_cards",
                {"user_id": user_id, "rows": repeats[start : start + batch], "now": now_ms()},
                write=True,
            )
            folded += len(done)
        store.run("mark_identities_done", {"user_id": user_id}, write=True)
    return folded
