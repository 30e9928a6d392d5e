"""Background per-user jobs: a user put while their job runs is run again after it."""

from __future__ import annotations

import logging
import threading

from graphmem.recall.jobs import UserJobs


def test_a_user_put_while_their_job_runs_runs_again():
    """The running job may have read the user before the change that put them again
    (a save under way while vectors were filled in): it must run once more."""
    started, release = threading.Event(), threading.Event()
    runs: list[str] = []

    def work(user_id: str) -> None:
        runs.append(user_id)
        if len(runs) == 1:
            started.set()
            release.wait(5)

    jobs = UserJobs(work, name="test-jobs", log=logging.getLogger(__name__), failed="%s")
    jobs.put("ana")
    assert started.wait(5)
    jobs.put("ana")  # while the first run is under way
    jobs.put("ana")  # twice: still once more, not twice
    release.set()
    assert jobs.wait(5)
    assert runs == ["ana", "ana"]
    jobs.put("ana")
    assert jobs.wait(5)
    assert runs == ["ana", "ana", "ana"]
    jobs.close(1)


def test_a_user_queued_and_put_again_runs_once():
    gate = threading.Event()
    runs: list[str] = []

    def work(user_id: str) -> None:
        gate.wait(5)
        runs.append(user_id)

    jobs = UserJobs(work, name="test-jobs", log=logging.getLogger(__name__), failed="%s")
    jobs.put("ana")  # runs, waiting at the gate
    jobs.put("bo")
    jobs.put("bo")  # queued already: nothing more
    gate.set()
    assert jobs.wait(5)
    assert sorted(runs) == ["ana", "bo"]
    jobs.close(1)
