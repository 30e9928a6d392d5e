"""Relative and explicit dates, resolved against when they were said."""

import pytest

from graphmem.timeutil import to_iso, to_ms
from ingestion.dates import find_dates, resolve_date

WEDNESDAY = to_ms("2024-03-20T10:15:00Z")


@pytest.mark.parametrize(
    ("phrase", "day"),
    [
        ("yesterday", "2024-03-19"),
        ("today", "2024-03-20"),
        ("this morning", "2024-03-20"),
        ("tomorrow", "2024-03-21"),
        ("the day before yesterday", "2024-03-18"),
        ("last Friday", "2024-03-15"),
        ("last Wednesday", "2024-03-13"),
        ("next Monday", "2024-03-25"),
        ("this Friday", "2024-03-22"),
        ("on Tuesday", "2024-03-19"),
        ("two weeks ago", "2024-03-06"),
        ("a couple of days ago", "2024-03-18"),
        ("in two weeks", "2024-04-03"),
        ("in 3 days", "2024-03-23"),
        ("last week", "2024-03-13"),
        ("last month", "2024-02-20"),
        ("last year", "2023-03-20"),
        ("next month", "2024-04-20"),
        ("March 3", "2024-03-03"),
        ("2024-05-01", "2024-05-01"),
        ("3rd of May 2023", "2023-05-03"),
        ("May 3, 2023", "2023-05-03"),
        ("in 2019", "2019-01-01"),
    ],
)
def test_phrase_resolves_to_day(phrase, day):
    assert to_iso(resolve_date(phrase, WEDNESDAY)) == f"{day}T00:00:00Z"


def test_bare_weekday_follows_the_tense():
    assert to_iso(resolve_date("I saw her on Tuesday", WEDNESDAY)) == "2024-03-19T00:00:00Z"
    assert (
        to_iso(resolve_date("see you Tuesday", WEDNESDAY, prefer="future"))
        == "2024-03-26T00:00:00Z"
    )


def test_month_arithmetic_clamps_to_month_end():
    assert (
        to_iso(resolve_date("last month", to_ms("2024-03-31T12:00:00Z"))) == "2024-02-29T00:00:00Z"
    )


@pytest.mark.parametrize("said", ["in 10000 years", "999999999 days ago", "in 99999999999 weeks"])
def test_a_time_no_calendar_holds_is_no_date(said):
    """Said in jest or typed wrong, it dates nothing, and reading it stops nothing."""
    assert find_dates(said, WEDNESDAY) == []


def test_no_date_and_impossible_date_give_none():
    assert resolve_date("I love hiking", WEDNESDAY) is None
    assert resolve_date("February 31", WEDNESDAY) is None


def test_find_dates_gives_offsets_in_text_order():
    text = "I moved to Berlin last week and fly to Rome in two weeks."
    found = [(m.phrase, text[m.start : m.end], to_iso(m.ms)) for m in find_dates(text, WEDNESDAY)]
    assert found == [
        ("last week", "last week", "2024-03-13T00:00:00Z"),
        ("in two weeks", "in two weeks", "2024-04-03T00:00:00Z"),
    ]


def test_a_year_long_past_is_when_the_card_became_true(memory, user, tmp_path):
    """A retiree's chat names years before 1973 ("since 1971", "born in 1948"): the
    cards are dated then, read back from the store as dated, and the chat lands whole
    (a date before 1970 is a negative epoch number, one before 1973 a small one that a
    reader guessing seconds from milliseconds would put in the 30th century)."""
    from graphmem.timeutil import to_iso
    from ingestion.pipeline import ingest_file
    from tests.conftest import write_chat

    chat = [
        {"session_id": "s1", "date": "2025-05-03T19:30:00-04:00"},
        {
            "session_id": "s1",
            "turn": 0,
            "speaker": "user",
            "text": "We have lived in this house since 1971. My dad was born in 1948.",
        },
        {
            "session_id": "s1",
            "turn": 1,
            "speaker": "assistant",
            "text": "That's a lot of history in one house!",
        },
    ]
    report = ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)

    assert report.speakers["user"].cards > 0
    days = {card.fact: to_iso(card.timestamp)[:10] for card in memory.cards(user)}
    assert days["My dad was born in 1948"] == "1948-01-01"
    assert days["We have lived in this house since 1971"] == "1971-01-01"
    assert "born in 1948" in memory.recall(user, "when was my dad born?", k=1)[0].card.fact
