"""Temporal questions: "now" gets the current card, "used to" and "in 2024" the one valid then."""

from pathlib import Path

import pytest

from graphmem import Memory
from ingestion.pipeline import ingest_file


@pytest.fixture
def moved(memory: Memory, user: str) -> str:
    said = [
        ("I live in Dublin, near the Liffey", "2024-03-12"),
        ("I play the violin in an orchestra", "2024-05-01"),
        ("I moved to Galway in January", "2025-01-15"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    memory.consolidate(user, steps=["conflicts"])
    return user


def top(memory: Memory, user: str, question: str) -> str:
    return memory.recall(user, question, k=3)[0].card.fact


def test_now_answers_with_the_current_card(memory: Memory, moved: str):
    assert top(memory, moved, "Where do I live now?") == "I moved to Galway in January"


def test_the_past_answers_with_the_superseded_card(memory: Memory, moved: str):
    hit = memory.recall(moved, "Where did I use to live?", k=3)[0]
    assert hit.card.fact == "I live in Dublin, near the Liffey"
    assert hit.card.status == "superseded"
    assert hit.parts["temporal"] == 6.0  # the past (x3), and a card stating the location (x2)


def test_a_year_answers_with_the_card_valid_that_year(memory: Memory, moved: str):
    assert top(memory, moved, "Where did I live in 2024?") == "I live in Dublin, near the Liffey"
    assert top(memory, moved, "Where did I live in 2025?") == "I moved to Galway in January"


def test_without_a_cue_superseded_cards_stay_hidden(memory: Memory, moved: str):
    hits = memory.recall(moved, "Where did I live?", k=3)
    assert "I live in Dublin, near the Liffey" not in [h.card.fact for h in hits]
    assert all(h.card.status == "active" for h in hits)


def test_a_question_for_a_value_is_answered_by_the_card_stating_it(memory: Memory, user: str):
    """ "Work is intense" shares the word with "where do I work?"; the card that says where
    the user works is the answer."""
    said = [
        ("I work at Acme Analytics as a data analyst", "2025-01-06"),
        ("Work is intense, we're launching a new dashboard", "2025-02-11"),
        ("I started at Northwind last Monday", "2025-03-03"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    assert top(memory, user, "Where do I work?") == "I started at Northwind last Monday"
    hit = memory.recall(user, "Where do I work?", k=1)[0]
    assert "asks employer / job -> me -> card" in hit.paths


def test_an_address_or_a_move_asked_about_is_answered_by_where_i_live(memory: Memory, user: str):
    """ "did i move to orlando?" asks where the user lives: the card saying so answers it,
    not the cousin who is moving there."""
    said = [
        ("got my own apartment in doral, 10 min from work", "2024-05-05"),
        ("my cousin vanessa is moving to orlando for a job at disney", "2024-06-16"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    for question in ("did i move to orlando?", "whats my address now"):
        hit = memory.recall(user, question, k=1)[0]
        assert "doral" in hit.card.fact
        assert "asks location -> me -> card" in hit.paths


def test_a_pastime_given_up_is_not_what_i_do_now(memory: Memory, user: str):
    said = [
        ("I play tennis every Saturday morning", "2024-08-20"),
        ("I gave up tennis after my knee injury", "2025-02-01"),
        ("Now I swim three times a week instead", "2025-02-01"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    assert top(memory, user, "What sport do I do now?") == "Now I swim three times a week instead"
    assert top(memory, user, "Which sport did I use to play?") == (
        "I play tennis every Saturday morning"
    )


def test_the_city_asked_is_answered_by_the_card_stating_it_not_the_neighbourhood(
    memory: Memory, user: str
):
    """A home at two grains: the user stayed in a city and later moved into a
    neighbourhood of it; "which city?" is answered by the stay, "which area?" by the
    move, and a move elsewhere that did not happen changes neither."""
    said = [
        ("a recruiter reached out about a role in vancouver, senior designer", "2024-04-16"),
        ("i told the vancouver recruiter no thanks, staying in toronto", "2024-06-02"),
        ("moved into our place in leslieville yesterday, its above a bakery", "2024-08-25"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    for question in (
        "what city did i decide to stay in?",
        "nadia moved to vancouver, which city do i live in?",
    ):
        hit = memory.recall(user, question, k=1)[0]
        assert "toronto" in hit.card.fact
        assert "asks city / location -> me -> card" in hit.paths
    assert "leslieville" in memory.recall(user, "which area do i live in?", k=1)[0].card.fact


def test_a_move_to_another_place_since_the_stay_leaves_that_city_behind(memory: Memory, user: str):
    """The city a stay named holds until the user says they moved to another place."""
    said = [
        ("i told the vancouver recruiter no thanks, staying in toronto", "2024-06-02"),
        ("big news, we moved to vancouver after all, new job for theo", "2025-03-01"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    assert "moved to vancouver" in memory.recall(user, "which city do i live in?", k=1)[0].card.fact


def test_a_count_asked_now_is_the_newest_said_not_the_first(memory: Memory, user: str):
    """No claim states how many stores a startup is on: asked "now", the newest of the
    turns that answer about as well is the answer, not the first one said."""
    said = [
        ("we have 1200 kirana stores on the app but investors say too early", "2025-02-10"),
        ("haan hum abhi 1800 stores pe hain, meera wants 5000 by march", "2025-06-02"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    assert "1800" in top(memory, user, "how many stores are we on now?")
    assert "1200" in top(memory, user, "how many stores did we have in february?")


def test_a_relative_asked_as_chat_says_them_is_not_the_user(memory: Memory, user: str):
    """ "my hubby", "my sis", "my boet" and "我妹" ask about that person's slot, not the
    user's own: the user's workplace does not answer where the husband works."""
    said = [
        ("I work at Acme Analytics as a data analyst", "2025-01-06"),
        ("My husband Dave started at the fire station on Elm Street", "2025-02-11"),
        ("My sister Ana moved to Lisbon last month", "2025-03-03"),
    ]
    memory.remember_many([{"user_id": user, "fact": f, "timestamp": t} for f, t in said])
    assert "fire station" in top(memory, user, "where does my hubby work now?")
    assert "Lisbon" in top(memory, user, "where does my sis live now?")


def test_the_chinese_word_for_my_sister_asks_about_her():
    from graphmem.recall.temporal import read_intent

    assert read_intent("我妹搬去哪了", 0).about == ("sister",)
    assert read_intent("where did my boet move to", 0).about == ("brother",)


def test_the_turn_that_says_the_change_can_hold_the_old_value_too(memory: Memory, user: str):
    """ "which company was i at before zentrix?" over a real chat (a Bengaluru developer,
    Hinglish): the turn announcing Zentrix says what it replaced ("infovance mein 18
    tha"), and is damped only a little as the turn the question asks around."""
    chat = Path(__file__).parents[1] / "bench/data/chats/life-changes/dev/rohan-hsr.jsonl"
    ingest_file(memory, chat, user, format="conversation", progress=False)
    hit = memory.recall(user, "which company was i at before zentrix?", k=3)[0]
    assert "infovance" in hit.card.fact


def test_a_question_of_what_one_does_before_something_asks_no_past():
    """ "before standup" is of the day: the walk is today's routine, not a former one."""
    from graphmem.recall.temporal import read_intent

    assert read_intent("where do i walk every morning before standup", 0).kind is None
    assert read_intent("where did i work before globex", 0).kind == "past"
    assert read_intent("我现在是在上海上班吗 还是在哪", 0).asks == ("employer", "job")


def test_a_commute_asks_no_car_nor_workplace():
    from graphmem.recall.temporal import read_intent

    assert read_intent("how long is my drive to work now", 0).asks == ()
    assert read_intent("what do i drive now", 0).asks == ("car",)
    assert read_intent("saan na ko nagwowork ngayon?", 0).asks == ("employer", "job")


def test_which_place_someone_works_in_asks_their_work():
    from graphmem.recall.temporal import read_intent

    asked = read_intent("which hospital does aoife work in", 0, ["aoife"])
    assert (asked.asks, asked.about) == (("employer", "job"), ("aoife",))
