"""A bounded load run against ``graphmem serve``: no errors, no lost writes."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.stress
BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


@pytest.fixture(autouse=True)
def only_when_asked(request: pytest.FixtureRequest) -> None:
    if "stress" not in (request.config.option.markexpr or ""):
        pytest.skip("stress run: use `make stress` (pytest -m stress tests/stress)")


def bench_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def test_eight_clients_for_ten_seconds_lose_nothing_and_a_quota_refuses_whole_batches():
    """Eight clients over four users, and two more writing batches of 3 cards for a user
    at a 10-card quota: three batches fit, every later one is refused whole (a partial
    batch would leave 10 cards), and no other user's client sees an error."""
    load = bench_load()
    home = Path(tempfile.mkdtemp(prefix="gm-load-", dir="/tmp"))
    keys = load.load_keys(4, quota=True)
    try:
        with load.serve(home / "data", keys, card_quotas={load.QUOTA_USER: 10}) as base:
            report = load.run_load(base, keys, clients=8, duration=10.0, seed=1, quota_clients=2)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(report.as_dict())
    assert report.error_samples == []
    assert (report.errors, report.lost_writes) == (0, 0)
    assert report.acknowledged_cards > 0
    assert report.acknowledged_updates > 0
    assert set(report.latency_ms) == {"remember", "update", "feedback", "recall"}
    quota = report.quota
    assert quota["problems"] == []
    assert (quota["batches_written"], quota["cards_stored"]) == (3, 9)
    assert quota["batches_refused"] > 0
