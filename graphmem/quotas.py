"""Per-user quotas: cards stored, bytes stored, writes per minute.

Every write of user content asks ``Quotas.guard`` first (cards: ``Memory``'s write path;
turns: ``Sessions``; traces and tool calls: ``Reasoning``), so a write over a limit raises
``QuotaExceededError`` before anything is written: never half a batch.

- **cards**: Card nodes of the user, any status (forgotten and superseded cards are
  still stored; a hard forget frees room).
- **bytes**: UTF-8 bytes of the text the user stored: cards' fact and backstory, session
  turns, reasoning traces, steps and tool calls. Each node carries its ``size``, written
  with it.
- **writes_per_minute**: write calls (a batch counts once), a generic cell rate
  algorithm (``gcra``) over one timestamp on the User node, so every process sharing the
  store shares the limit; ``retry_after`` says when the next write fits.

Limits come from settings (``GRAPHMEM_QUOTA_CARDS``, ``GRAPHMEM_QUOTA_BYTES``,
``GRAPHMEM_QUOTA_WRITES_PER_MINUTE``) and can be set per user (``set_limits``, stored on the
User node; 0 means unlimited for that user). With no limit set, a write costs one small
read. Within a process, a user's check and write run under a per-user lock, so concurrent
writers cannot both take the last free card; separate processes writing for the same
user at the same instant can overshoot by at most one batch.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from graphmem.errors import ConflictError, QuotaExceededError, ValidationError
from graphmem.models import Model, check_user_id
from graphmem.store.base import GraphStore
from graphmem.timeutil import now_ms

MINUTE_MS = 60_000
#: Compare-and-set attempts on the rate timestamp when other writers move it meanwhile.
MAX_ATTEMPTS = 8
LIMITS = ("cards", "bytes", "writes_per_minute")

Limit = Annotated[int, Field(ge=0, le=2**62)]


class QuotaLimits(Model):
    """Limits of one user; None: no limit."""

    cards: Limit | None = None
    bytes: Limit | None = None
    writes_per_minute: Limit | None = None

    @property
    def any(self) -> bool:
        return any(getattr(self, name) for name in LIMITS)


class QuotaUsage(Model):
    """A user's limits and what they use of them."""

    user_id: str
    limits: QuotaLimits
    cards: int
    bytes: int
    #: writes the rate limit would still take right now
    writes_available: int | None = None


@dataclass(frozen=True)
class Rate:
    """The outcome of one ``gcra`` step."""

    allowed: bool
    tat: int
    retry_after_ms: int = 0


def gcra(tat: int | None, now: int, per_minute: int) -> Rate:
    """Generic cell rate algorithm: ``per_minute`` writes a minute, bursts of up to
    ``per_minute`` allowed. ``tat`` (theoretical arrival time, epoch ms) is the state.

    Examples:
        >>> r = gcra(None, 0, 2)
        >>> r.allowed, r.tat
        (True, 30000)
        >>> gcra(r.tat, 0, 2)
        Rate(allowed=True, tat=60000, retry_after_ms=0)
        >>> gcra(60000, 0, 2)
        Rate(allowed=False, tat=60000, retry_after_ms=30000)
        >>> gcra(60000, 30000, 2).allowed
        True
    """
    interval = MINUTE_MS / per_minute
    tolerance = MINUTE_MS - interval
    start = max(tat or now, now)
    if start - now > tolerance:
        return Rate(False, start, round(start - now - tolerance))
    return Rate(True, round(start + interval))


class Quotas:
    """Limits and usage per user (``Memory.quotas``)."""

    def __init__(self, store: GraphStore, defaults: QuotaLimits | None = None) -> None:
        self._store = store
        self.defaults = defaults or QuotaLimits()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def limits(self, user_id: str) -> QuotaLimits:
        """The limits in force for ``user_id``: their own, else the defaults."""
        return self._state(user_id)[0]

    def set_limits(self, user_id: str, **limits: int | None) -> QuotaLimits:
        """Set some of a user's own limits (0: unlimited, None: back to the default)."""
        check_user_id(user_id)
        unknown = set(limits) - set(LIMITS)
        if unknown:
            raise ValidationError(f"unknown limit {sorted(unknown)[0]!r}", field="limits")
        parsed = QuotaLimits.parse(limits, where="limits")
        self._store.run(
            "quota_set",
            {
                "user_id": user_id,
                "props": {f"quota_{name}": getattr(parsed, name) for name in limits},
            },
            write=True,
        )
        return self.limits(user_id)

    def usage(self, user_id: str) -> QuotaUsage:
        """Limits and usage of ``user_id``."""
        limits, tat = self._state(user_id)
        [row] = self._store.run("quota_usage", {"user_id": user_id})
        available = None
        if limits.writes_per_minute:
            now = now_ms()
            interval = MINUTE_MS / limits.writes_per_minute
            spent = max(0.0, ((tat or now) - now) / interval)
            available = max(0, limits.writes_per_minute - int(-(-spent // 1)))
        return QuotaUsage(
            user_id=user_id,
            limits=limits,
            cards=row["cards"],
            bytes=row["bytes"],
            writes_available=available,
        )

    @contextmanager
    def guard(self, user_id: str, *, added_cards: int = 0, added_bytes: int = 0) -> Iterator[None]:
        """Check a write against the user's limits, then let it run (``with`` body).

        Raises ``QuotaExceededError`` before the body runs when the write would go over.
        """
        limits, tat = self._state(user_id)
        if not limits.any:
            yield
            return
        lock = self._lock(user_id)
        with lock:
            if limits.cards or limits.bytes:
                self._check_room(user_id, limits, added_cards, added_bytes)
            if limits.writes_per_minute:
                self._take_rate(user_id, limits.writes_per_minute, tat)
            yield

    def admit(self, user_id: str, *, added_cards: int = 0, added_bytes: int = 0) -> None:
        """``guard`` for a write that follows at once (no lock held over it)."""
        with self.guard(user_id, added_cards=added_cards, added_bytes=added_bytes):
            pass

    # -- internals --------------------------------------------------------------------
    def _state(self, user_id: str) -> tuple[QuotaLimits, int | None]:
        check_user_id(user_id)
        rows = self._store.run("quota_limits", {"user_id": user_id})
        own = rows[0] if rows else {}
        values = {}
        for name in LIMITS:
            value = own.get(name)
            values[name] = getattr(self.defaults, name) if value is None else (value or None)
        return QuotaLimits(**values), own.get("tat")

    def _lock(self, user_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(user_id, threading.Lock())

    def _check_room(
        self, user_id: str, limits: QuotaLimits, added_cards: int, added_bytes: int
    ) -> None:
        [row] = self._store.run("quota_usage", {"user_id": user_id})
        for name, used, added in (
            ("cards", row["cards"], added_cards),
            ("bytes", row["bytes"], added_bytes),
        ):
            allowed = getattr(limits, name)
            if allowed and added and used + added > allowed:
                raise QuotaExceededError(
                    f"user {user_id!r} is over the {name} quota: {used} stored + {added} "
                    f"new > {allowed} allowed; nothing was written",
                    limit=name,
                    allowed=allowed,
                    used=used,
                    requested=added,
                )

    def _take_rate(self, user_id: str, per_minute: int, tat: int | None) -> None:
        for _ in range(MAX_ATTEMPTS):
            now = now_ms()
            rate = gcra(tat, now, per_minute)
            if not rate.allowed:
                seconds = rate.retry_after_ms / 1000
                raise QuotaExceededError(
                    f"user {user_id!r} is over {per_minute} writes a minute; "
                    f"retry in {seconds:.1f} s; nothing was written",
                    limit="writes_per_minute",
                    allowed=per_minute,
                    used=per_minute,
                    requested=1,
                    retry_after=seconds,
                )
            moved = self._store.run(
                "quota_take_rate",
                {"user_id": user_id, "expected": -1 if tat is None else tat, "tat": rate.tat},
                write=True,
            )
            if moved:
                return
            tat = self._state(user_id)[1]
        raise ConflictError(f"the write rate of user {user_id!r} kept changing; retry")
