"""Per-user work on one background thread: the vector index's promotions, the vectors
and saves of recall's passages, none of which a recall or a write should wait for."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable


class UserJobs:
    """Runs ``work(user_id)`` on one background thread (started by the first ``put``)
    for the users put to it, in order, each queued at most once at a time; a user put
    while their job runs is run again after it (the job may have read what changed since
    it started). A failure is
    logged (``failed``, a %-format taking the user id, at ``level`` on ``log``) and the
    next job runs; ``closed`` tells long work to stop between steps."""

    def __init__(
        self,
        work: Callable[[str], object],
        *,
        name: str,
        log: logging.Logger,
        failed: str,
        level: int = logging.WARNING,
    ) -> None:
        self._work, self._name = work, name
        self._log, self._failed, self._level = log, failed, level
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._queued: set[str] = set()  # queued or running
        self._running: set[str] = set()
        self._again: set[str] = set()  # put while running: run once more
        self._jobs: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.closed = threading.Event()

    def put(self, user_id: str) -> None:
        """Queue ``user_id`` unless it is queued already or the jobs are closed."""
        with self._lock:
            if self.closed.is_set():
                return
            if user_id in self._running:
                self._again.add(user_id)
                return
            if user_id in self._queued:
                return
            self._queued.add(user_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True, name=self._name)
                self._thread.start()
        self._jobs.put(user_id)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no job is queued or running; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._queued, timeout)

    def close(self, timeout: float) -> None:
        """Stop: the running job is told (``closed``), the queued ones are dropped."""
        self.closed.set()
        self._jobs.put(None)
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    def _loop(self) -> None:
        while (user_id := self._jobs.get()) is not None and not self.closed.is_set():
            with self._lock:
                self._running.add(user_id)
            again = False
            try:
                self._work(user_id)
            except Exception:  # the store went away or failed: a later put retries
                self._log.log(self._level, self._failed, user_id, exc_info=True)
            finally:
                with self._idle:
                    self._running.discard(user_id)
                    again = user_id in self._again and not self.closed.is_set()
                    self._again.discard(user_id)
                    if not again:
                        self._queued.discard(user_id)
                        self._idle.notify_all()
            if again:
                self._jobs.put(user_id)
        with self._idle:
            self._queued.clear()
            self._running.clear()
            self._again.clear()
            self._idle.notify_all()
