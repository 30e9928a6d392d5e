"""A share of bench/scenarios.py: life events asked about right after ingest, after
consolidate and after a quiet simulated year (the full suite and its figures: run the bench).
"""

from __future__ import annotations

import importlib.util
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("scenarios", ROOT / "bench" / "scenarios.py")
assert _spec is not None
assert _spec.loader is not None
scenarios = importlib.util.module_from_spec(_spec)
sys.modules["scenarios"] = scenarios  # dataclasses look their module up there
_spec.loader.exec_module(scenarios)

SHARE = (
    "sam-montreal",
    "karen-to-luis",
    "dan-breakup",
    "porto-cats",
    "call-me-bobby",
    "maya-five-months",
    "therapist-switch",
    "orgs-not-people",
    "civic-to-tesla",
    "landlord-sold-flat",
    "jordan-cardiff",
)


@pytest.fixture(scope="module")
def outcomes(memory, tmp_path_factory):
    chosen = [s for s in scenarios.SCENARIOS if s.name in SHARE]
    assert sorted(s.name for s in chosen) == sorted(SHARE)
    assert not any(s.held_back for s in chosen)
    workdir = tmp_path_factory.mktemp("scenarios")
    run_id = uuid.uuid4().hex[:8]
    return [o for s in chosen for o in scenarios.run_scenario(memory, s, workdir, run_id)]


@pytest.mark.parametrize("moment", scenarios.MOMENTS)
def test_every_question_finds_what_is_true_at_every_moment(outcomes, moment):
    failures = [
        (o.scenario, question.ask, top)
        for o in outcomes
        if o.moment == moment
        for question, top, ok in o.answers
        if not ok
    ]
    assert failures == []


def test_the_people_table_shows_each_relationship_and_its_history(outcomes):
    assert [(o.scenario, o.people_notes) for o in outcomes if o.people_notes] == []


def test_a_quiet_year_forgets_nothing_that_is_still_true(outcomes):
    year = [o for o in outcomes if o.moment == "year-later"]
    assert [(o.scenario, fact) for o in year for fact, kinds in o.forgotten if kinds] == []


def test_the_suite_has_the_life_events_it_promises():
    kinds = {s.kind for s in scenarios.SCENARIOS}
    assert len(scenarios.SCENARIOS) >= 40
    for event in ("move", "job", "manager", "relationship", "death", "diet", "pet", "places"):
        assert any(event in kind for kind in kinds), event
