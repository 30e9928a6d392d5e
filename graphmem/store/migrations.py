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
