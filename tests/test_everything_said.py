"""Everything said is memory: both speakers, every clause, any language, the day it was said.

Each test ingests a short chat export written the way people type (lowercase, run-on
messages, a statement followed by a question, Chinese) into a real store and asks what a
person would ask later.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.models import SELF
from graphmem.recall.scoring import RELEVANT
from graphmem.timeutil import to_iso
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat

CHAT = [
    {"session_id": "may-1", "date": "2023-05-01T20:00:00Z"},
    {
        "session_id": "may-1",
        "speaker": "user",
        "text": "hello! i mainly love Chinese food and Japanese cuisine, especially barbecue "
        "and sushi. this weekend i'm planning to go hiking at mount tam",
    },
    {
        "session_id": "may-1",
        "speaker": "assistant",
        "text": "Sounds lovely! For the trail I'd suggest the Matt Davis loop. And since you "
        "asked about world history games last week: try Civilization VI.",
    },
    {"session_id": "may-4", "date": "2023-05-04T20:00:00Z"},
    {
        "session_id": "may-4",
        "speaker": "user",
        "text": "Last night I watched a great movie, 'Looking Up'. Have you seen it?",
    },
    {
        "session_id": "may-4",
        "speaker": "user",
        "text": "change of plans, i'm going to point reyes to see the elephant seals instead",
    },
    {"session_id": "may-4", "speaker": "assistant", "text": "Thanks!"},
]


@pytest.fixture
def chat(memory: Memory, user: str, tmp_path: Path):
    return ingest_file(memory, write_chat(tmp_path, CHAT), user, progress=False)


def top(memory: Memory, user: str, question: str, k: int = 1) -> list[str]:
    return [hit.card.fact for hit in memory.recall(user, question, k=k)]


def answer(memory: Memory, user: str, question: str) -> str:
    """The top fact for ``question``, lower-cased."""
    return top(memory, user, question)[0].lower()


def turns_cited(memory: Memory, user: str) -> set[tuple[str | None, int | None]]:
    """Every (session, turn) some card of the user's cites: what was kept of the chat."""
    return {(c.source.session_id, c.source.turn) for c in memory.cards(user) if c.source}


def test_every_turn_of_both_speakers_is_counted(chat):
    assert chat.speakers["user"].turns == 3
    assert chat.speakers["assistant"].turns == 2
    assert chat.speakers["assistant"].kept == 1  # the reply with the recommendations
    assert chat.speakers["assistant"].skipped == {"small talk": 1}  # "Thanks!"
    assert chat.languages["en"].turns == 5


def test_what_the_assistant_recommended_is_found(memory: Memory, user: str, chat):
    (fact,) = top(memory, user, "what game about world history did you recommend?")
    assert fact.startswith("assistant said:")
    assert "Civilization VI" in fact


def test_the_assistant_is_not_one_of_the_users_people(memory: Memory, user: str, chat):
    assert "assistant" not in {p.name for p in memory.people(user)}


def test_a_fact_keeps_every_conjunct(memory: Memory, user: str, chat):
    facts = {c.fact for c in memory.cards(user)}
    assert "I mainly love Chinese food and Japanese cuisine, especially barbecue and sushi" in facts


def test_a_statement_followed_by_a_question_is_kept(memory: Memory, user: str, chat):
    (fact,) = top(memory, user, "what movie did i watch?")
    assert "'Looking Up'" in fact


def test_a_day_named_in_the_question_narrows_to_that_day(memory: Memory, user: str, chat):
    (fact,) = top(memory, user, "On May 4th, where did I plan to go?")
    assert "point reyes" in fact
    (fact,) = top(memory, user, "On May 1st, where did I plan to go?")
    assert "mount tam" in fact
    first = top(memory, user, "what did I tell you in our first conversation?", k=2)
    assert any("mount tam" in f for f in first)


def test_a_day_named_in_another_language_narrows_to_that_day(memory: Memory, user: str, chat):
    """Months are each language's data: "el 4 de mayo", "le 1er mai", "no dia 4 de maio"
    name the day as "May 4th" does; "notre première conversation" the first."""
    assert "point reyes" in top(memory, user, "el 4 de mayo, ¿a dónde dije que iba?")[0]
    assert "mount tam" in top(memory, user, "le 1er mai, j'allais où ce week-end ?")[0]
    assert "point reyes" in top(memory, user, "no dia 4 de maio, pra onde eu ia?")[0]
    first = top(memory, user, "de quoi j'ai parlé lors de notre première conversation ?", k=2)
    assert any("mount tam" in f for f in first)


FIRST_CHAT = [
    {"session_id": "s1", "date": "2025-02-11T22:40:00+11:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "mate my lower back is cooked. spent hrs draggin 70mm hose round a factory fire",
    },
    {"session_id": "s1", "speaker": "assistant", "text": "Ouch. Any numbness or tingling?"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "nah. jess is running her first half marathon in march so shes out every night",
    },
    {"session_id": "s2", "date": "2025-03-20T19:00:00+11:00"},
    {"session_id": "s2", "speaker": "user", "text": "back's good now, back on the trucks"},
]


@pytest.mark.parametrize(
    "question",
    [
        "what was i whingin about in our first chat",
        "what did we chat about back in our very first convo?",
    ],
)
def test_our_first_chat_opens_with_what_it_was_about(
    memory: Memory, user: str, tmp_path: Path, question: str
):
    """ "Our first chat" names the first session and no word to match: "her first half
    marathon" said later that night is no answer, what the chat opened with is."""
    ingest_file(memory, write_chat(tmp_path, FIRST_CHAT), user, progress=False)
    assert "lower back" in top(memory, user, question)[0]


LONG_TURN = [
    {"session_id": "s1", "date": "2025-06-23T08:00:00+12:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "Update from the bush: we got a pup! A 10 week old huntaway cross from the SPCA "
        "in Mangere, black and tan, the kids named her Kumara because apparently she looks "
        "like one (she does a bit). She's already eaten one of Sarah's jandals and a Duplo "
        "giraffe and half the doormat. Also my old Xtra email finally got shut down so I've "
        "got a new one, it's big.mike.tane@gmail.com, the old one was miketane@xtra.co.nz, "
        "had it since 2003 RIP",
    },
]


def test_a_long_turns_answer_is_shown_from_the_piece_that_holds_it(
    memory: Memory, user: str, tmp_path: Path
):
    """A turn longer than a piece is kept whole in two; the hit shows the piece that
    holds what matched, not the first (which ends before the address)."""
    ingest_file(memory, write_chat(tmp_path, LONG_TURN), user, progress=False)
    assert "big.mike.tane@gmail.com" in top(memory, user, "what's my email now")[0]
    assert "miketane@xtra.co.nz" in top(memory, user, "what was my old email address")[0]


def test_a_day_with_nothing_said_falls_under_the_relevance_cut(memory: Memory, user: str, chat):
    hits = memory.recall(user, "what did we talk about on May 2nd?", k=5)
    assert all(hit.relevance < RELEVANT for hit in hits)


ZH = [
    {"session_id": "d1", "date": "2024-05-01T20:00:00+08:00"},
    {"session_id": "d1", "speaker": "user", "text": "你好呀"},
    {
        "session_id": "d1",
        "speaker": "user",
        "text": "还行吧。我妹妹小雨对花生过敏，周末她生日我想订个餐厅。我住在上海。",
    },
    {
        "session_id": "d1",
        "speaker": "assistant",
        "text": "可以试试静安区的「素食主义」餐厅，他们完全不用花生。"
        "另外推荐你看看《小王子》这本书。",
    },
    {"session_id": "d2", "date": "2024-05-04T21:00:00+08:00"},
    {"session_id": "d2", "speaker": "user", "text": "我搬到深圳了！新公司在南山区。"},
]


def test_a_chinese_chat_is_remembered_and_found_through_people(
    memory: Memory, user: str, tmp_path: Path
):
    report = ingest_file(memory, write_chat(tmp_path, ZH), user, progress=False)
    assert report.languages["zh"].turns == 4
    assert report.languages["zh"].kept == 3  # kept as said: no turn is lost
    assert report.languages["zh"].skipped == {"small talk": 1}  # 你好呀
    sister = {p.name: p.relationship for p in memory.people(user)}
    assert sister["小雨"] == "妹妹"  # in the user's words; "my sister" finds her too
    hits = memory.recall(user, "我妹妹对什么过敏？", k=3)
    assert "花生" in hits[0].card.fact
    assert hits[0].card.person == "小雨"
    assert any("《小王子》" in h.card.fact for h in memory.recall(user, "你推荐我看什么书？", k=3))
    card = memory.cards(user)[0]
    assert card.source is not None
    assert card.source.language == "zh"


def test_people_are_people_and_the_user_is_the_user():
    from ingestion.extract import Extractor
    from ingestion.loaders import Turn

    extractor = Extractor("john")
    lines = [
        "Hello! Well, actually I had Kung Pao Chicken and Spicy Pork Tripe for dinner.",
        "My name is John Zhang and I teach math.",
        "Kung Pao Chicken is my favourite dish.",
        "Actually, Lily said the noodles at Panda Garden are great.",
        "John Zhang here, I just got back from Chengdu with my wife Mei.",
    ]
    extractor.conversation(
        Turn(session_id="s1", turn=i, speaker="user", text=t, session_date=1714500000000)
        for i, t in enumerate(lines)
    )
    people = [(p.name, p.relationship) for p in extractor.registry.to_people("john")]
    assert people == [("me", "self"), ("Lily", None), ("Mei", "wife")]


def test_a_chinese_turn_keeps_its_sentences_about_one_person_together(
    memory: Memory, user: str, tmp_path: Path
):
    """Sentences in a row about the user are one card, so the fact shown says what the
    day asked about is the day of ("11月18號出發" alone names no trip); a sentence
    about the sister is a card of her own."""
    rows = [
        {"session_id": "k1", "date": "2024-10-02T21:00:00+08:00"},
        {
            "session_id": "k1",
            "speaker": "user",
            "text": "好，我去買筆記本。然後京都我們訂機票了！11月18號出發，玩五天。"
            "我妹妹小雨對花生過敏，她也要一起去。",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    shown = top(memory, user, "我們去京都是幾號出發？")[0]
    assert all(said in shown for said in ("京都", "11月18號")), shown
    about = {c.fact: c.person for c in memory.cards(user)}
    assert [who for fact, who in about.items() if "京都" in fact] == [SELF]
    assert [who for fact, who in about.items() if "花生" in fact] == ["小雨"]


def test_a_move_said_in_chinese_supersedes_the_old_home(memory: Memory, user: str, tmp_path: Path):
    ingest_file(memory, write_chat(tmp_path, ZH), user, progress=False)
    statuses = {c.fact: c.status for c in memory.cards(user, status=None)}
    old = next(f for f in statuses if "我住在上海" in f)
    assert statuses[old] == "superseded"
    assert "深圳" in memory.recall(user, "我现在住在哪里？", k=1)[0].card.fact
    assert "上海" in memory.recall(user, "我以前住在哪里？", k=1)[0].card.fact


TRADITIONAL = [
    {"session_id": "t1", "date": "2023-03-01T20:00:00+08:00"},
    {"session_id": "t1", "speaker": "user", "text": "我住在台中，在木蘊咖啡上班。"},
    {"session_id": "t2", "date": "2024-06-01T20:00:00+08:00"},
    {
        "session_id": "t2",
        "speaker": "user",
        "text": "我搬到竹北了！現在在拾光烘豆所工作。我男朋友阿凱也搬過來了😊",
    },
    {"session_id": "t2", "speaker": "assistant", "text": "恭喜！推薦你週末去關西老街走走。"},
]


def test_traditional_script_time_words_and_people(memory: Memory, user: str, tmp_path: Path):
    ingest_file(memory, write_chat(tmp_path, TRADITIONAL), user, progress=False)
    assert "竹北" in memory.recall(user, "我現在住在哪裡？", k=1)[0].card.fact
    assert "台中" in memory.recall(user, "2023年我住在哪裡？", k=1)[0].card.fact
    assert {p.name: p.relationship for p in memory.people(user)}["阿凱"] == "男朋友"
    assert "阿凱" in memory.recall(user, "我男朋友最近怎麼樣？", k=1)[0].card.fact
    tips = memory.recall(user, "你推薦我週末去哪裡玩？", k=3)
    assert any("關西老街" in hit.card.fact for hit in tips)


def test_chinese_is_found_by_meaning_in_the_routed_vector_space(memory: Memory, user: str):
    from graphmem.embedding import ROUTED_MODEL

    assert memory.embedder.model_name == ROUTED_MODEL
    memory.remember({"user_id": user, "fact": "我妹妹小雨对花生严重过敏"})
    memory.remember({"user_id": user, "fact": "我们下周去杭州旅游"})
    memory.remember({"user_id": user, "fact": "I moved to Lisbon last spring"})
    (hit,) = memory.recall(user, "她吃坚果会出问题吗？", k=1)  # no word in common
    assert hit.card.fact == "我妹妹小雨对花生严重过敏"
    assert "vector" in hit.found_by


def test_an_english_question_finds_what_was_said_in_chinese(memory: Memory, user: str):
    """Agents often put their lookups in English whatever the user speaks: the question
    meets the Chinese cards through the multilingual model's vector of it, on the first
    recall (the store's vector search) as after the vectors are read into the process."""
    for fact in ("我妹妹小雨对花生严重过敏", "我们下周去杭州旅游", "I moved to Lisbon last spring"):
        memory.remember({"user_id": user, "fact": fact})
    for _ in ("store", "in process"):
        (hit,) = memory.recall(user, "where are we going on holiday next week?", k=1)
        assert hit.card.fact == "我们下周去杭州旅游"
        (hit,) = memory.recall(user, "can my sister eat nuts?", k=1)
        assert hit.card.fact == "我妹妹小雨对花生严重过敏"
        assert memory.passages.wait(timeout=30)


SAM = [
    {"session_id": "jan", "date": "2025-01-12T19:00:00Z"},
    {
        "session_id": "jan",
        "speaker": "user",
        "text": "hey! im sam. i live in leeds with my cat biscuit and i work at a bakery "
        "on the high street, early shifts are killing me tbh",
    },
    {
        "session_id": "jan",
        "speaker": "assistant",
        "text": "Hi Sam! Early shifts are hard. If you want something calming to read, "
        "try 'The Wind in the Willows'.",
    },
    {"session_id": "mar", "date": "2025-03-30T20:00:00Z"},
    {
        "session_id": "mar",
        "speaker": "user",
        "text": "big news, i moved to Bristol last week and started at a bike shop, "
        "no more 4am alarms lol",
    },
    {"session_id": "mar", "speaker": "assistant", "text": "Congrats on the move, Sam!"},
]


def test_a_new_users_chat_stays_true_after_consolidation_and_a_quiet_year(
    memory: Memory, user: str, tmp_path: Path
):
    """Tried as a new user would: a plain chat, consolidate, then "now" and "a year
    later" questions. Kept: the move holds at every moment, the old home stays findable
    as the past, and what the assistant suggested survives a year of forgetting."""
    report = ingest_file(memory, write_chat(tmp_path, SAM), user, progress=False)
    assert report.speakers["assistant"].turns == 2  # the congratulations: small talk
    assert report.speakers["user"].kept + report.speakers["user"].read == 2

    def ask() -> tuple[str, str, str]:
        now = memory.recall(user, "where do I live now?", k=1)[0].card.fact
        before = memory.recall(user, "where did I live before?", k=1)[0].card.fact
        book = [h.card.fact for h in memory.recall(user, "what book did you suggest?", k=3)]
        return now, before, " | ".join(book)

    for moment in ("2025-04-01", "2026-04-01"):  # right after, and a quiet year later
        memory.consolidate(user, now=moment)
        now, before, books = ask()
        assert "Bristol" in now, moment
        assert "leeds" in before.lower(), moment
        assert "Wind in the Willows" in books, moment


SHORT_ANSWERS = [
    {"session_id": "oct-15", "date": "2025-10-15T18:00:00Z"},
    {
        "session_id": "oct-15",
        "speaker": "user",
        "text": "got my calc midterm back. 78. a c+ i think but the average was 64",
    },
    {
        "session_id": "oct-15",
        "speaker": "user",
        "text": "texas a&m. my best friend Jake is doing engineering there, we went to "
        "high school together",
    },
    {
        "session_id": "oct-15",
        "speaker": "user",
        "text": "my neighbour Barb is tough as nails, she fixed her own fence last week",
    },
]


def test_a_sentence_without_a_verb_stays_with_its_neighbour(memory: Memory, user: str, tmp_path):
    """Chat answers in fragments ("78.", "texas a&m."): kept in the fact that gives them
    meaning, a faithful span of the turn, never a card that names nothing."""
    ingest_file(memory, write_chat(tmp_path, SHORT_ANSWERS), user, progress=False)
    grade = top(memory, user, "what did i get on my calc midterm?", k=3)
    assert any("midterm back. 78" in fact for fact in grade), grade
    school = top(memory, user, "where does jake go to school?", k=3)
    assert any(fact.lower().startswith("texas a&m. my best friend jake") for fact in school)
    for card in memory.cards(user):
        assert card.source is not None
        assert card.source.span is not None
        said = card.source.text[slice(*card.source.span)]
        assert card.fact.lower() == said.lower(), (card.fact, card.source.text)


def test_a_message_opening_with_one_verb_keeps_it_with_what_follows(
    memory: Memory, user: str, tmp_path: Path
):
    """ "moved!!" alone names nothing: it heads the news that follows."""
    rows = [
        {"session_id": "a", "date": "2025-06-20T08:15:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "moved!! got keys to a 1 bed in springfield yesterday, 15 min from the office",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert [c.fact for c in memory.cards(user)] == [
        "Moved!! got keys to a 1 bed in springfield yesterday, 15 min from the office"
    ]


def test_shes_here_stays_with_who_arrived(memory: Memory, user: str, tmp_path: Path):
    """ "shes here" names nothing: who arrived, and when, is the clause after it."""
    rows = [
        {"session_id": "a", "date": "2025-02-13T08:15:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "shes here. eleni grace, born 3:12am on the 12th, 3.4kg. kayla was unreal",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    facts = [c.fact for c in memory.cards(user)]
    assert "Shes here. eleni grace, born 3:12am on the 12th, 3.4kg" in facts, facts
    assert "3:12am" in top(memory, user, "when was my daughter born?")[0]


def test_what_nobody_said_about_someone_known_falls_under_the_cut(
    memory: Memory, user: str, tmp_path: Path
):
    """Barb is known, her favourite flower never came up: the passages about Barb match
    who the question is about, not what it asks."""
    ingest_file(memory, write_chat(tmp_path, SHORT_ANSWERS), user, progress=False)
    hits = memory.recall(user, "what's barb's favorite flower?", k=5)
    assert hits
    assert all(hit.relevance < RELEVANT for hit in hits), [(h.card.fact, h.relevance) for h in hits]
    fence = memory.recall(user, "what did barb fix last week?", k=1)
    assert "fence" in fence[0].card.fact
    assert fence[0].relevance >= RELEVANT


def test_what_nobody_said_of_someone_elses_relative_falls_under_the_cut(
    memory: Memory, user: str, tmp_path: Path
):
    """Luis's wife never came up. "grace came up with the name" names the user's wife and
    says "name" beside "luis", and "my wife grace" says "wife": neither says anything of
    Luis's wife. What was said of Luis himself still counts."""
    rows = [
        {"session_id": "a", "date": "2025-05-14T20:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "hey im dave. my wife grace put this app on my phone",
        },
        {"session_id": "a", "speaker": "assistant", "text": "Nice to meet you, Dave!"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "work is annoying. my coworker luis keeps saying we should start a company",
        },
        {"session_id": "a", "speaker": "assistant", "text": "That's a big step to think about."},
        {"session_id": "b", "date": "2025-05-20T20:00:00Z"},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "big news. me and luis are doing it, we're starting our own company. "
            "grace came up with the name",
        },
        {"session_id": "b", "speaker": "assistant", "text": "Congratulations! That's huge."},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "luis already has his contractor license and i have my epa cert",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    hits = memory.recall(user, "what's luis's wife's name?", k=5)
    assert hits
    assert all(hit.relevance < RELEVANT for hit in hits), [(h.card.fact, h.relevance) for h in hits]
    (license_,) = memory.recall(user, "what license does luis have?", k=1)
    assert "contractor license" in license_.card.fact
    assert license_.relevance >= RELEVANT


def test_a_day_is_the_day_the_user_lived_it(memory: Memory, user: str, tmp_path: Path):
    """An evening chat in New York is May 14th for the person in it, though UTC says
    May 15th: "on May 14th" finds it, and its backstory names that day."""
    rows = [
        {"session_id": "a", "date": "2025-05-14T21:30:00-04:00"},
        {"session_id": "a", "speaker": "user", "text": "booked a riding lesson for ella"},
        {"session_id": "b", "date": "2025-05-15T09:00:00-04:00"},
        {"session_id": "b", "speaker": "user", "text": "booked a table at nobu for grace"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    hit = memory.recall(user, "on may 14th what did i book?", k=1)[0]
    assert "riding lesson" in hit.card.fact
    assert "2025-05-14" in hit.card.backstory


def test_how_many_shows_the_card_with_the_number(memory: Memory, user: str, tmp_path: Path):
    """The turn is found by what the question says (book club); the card shown is the
    one that answers it."""
    rows = [
        {"session_id": "a", "date": "2025-03-02T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "book club! we're reading demon copperhead, its my month to host next "
            "week. there are 7 of us, all teachers or ex teachers lol",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "7 of us" in top(memory, user, "how many people are in my book club?")[0]
    assert "copperhead" in top(memory, user, "what is my book club reading?")[0].lower()


def test_a_new_number_and_a_new_neighbourhood_answer_now_and_before(
    memory: Memory, user: str, tmp_path: Path
):
    """A phone number or an email is known by its shape wherever the message says it,
    and a move said as "moved into <place>" changes where the user lives: "now" gets the
    newer one, "old" the one it replaced, though the newer turn shares fewer words with
    the question."""
    rows = [
        {"session_id": "a", "date": "2024-03-02T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "my number 0409 331 276, had it since i was 19 lol. we rent a wee flat "
            "in govanhill",
        },
        {"session_id": "b", "date": "2024-08-20T19:00:00Z"},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "officially moved into shawlands 2 weeks ago. also got a new number since "
            "i was moving anyway. its 0412 558 903 now",
        },
        {"session_id": "b", "speaker": "user", "text": "the area we live in is so quiet tho"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    for moment in (None, "2024-08-21", "2025-08-21"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "0412 558 903" in top(memory, user, "whats my phone number now?")[0], moment
        assert "0409 331 276" in top(memory, user, "what was my old phone number?")[0], moment
        assert "shawlands" in top(memory, user, "what area do we live in now?")[0], moment
        # it states what is asked: relevant, though it shares no word with the question
        (home,) = memory.recall(user, "where do we live now?", k=1, min_relevance=RELEVANT)
        assert "shawlands" in home.card.fact, moment


def test_what_you_said_asked_in_indonesian_or_cantonese_is_your_reply(
    memory: Memory, user: str, tmp_path: Path
):
    """ "apa tips kamu", "你之前叫我用咩 app": asking what the assistant said is each
    language's data, so its reply ranks first, not the user's own words of the topic."""
    rows = [
        {"session_id": "a", "date": "2025-07-02T13:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "aku jago bikin kue lumpur, resep almarhumah nenek. tapi gimana biar kue "
            "lumpurnya tetap lembut kalo dikirim?",
        },
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "Tambahkan sedikit mashed potato ke adonan, dan kemas setelah benar-benar "
            "dingin supaya tidak berembun.",
        },
        {"session_id": "a", "speaker": "user", "text": "醫生話我 prediabetes，叫我記錄飲食"},
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "可以試下用 MyFitnessPal 記錄每餐食咗乜，一個禮拜後睇下規律。",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "mashed potato" in top(memory, user, "apa tips kamu biar kue lumpur tetap lembut")[0]
    assert "MyFitnessPal" in top(memory, user, "你之前叫我用咩 app 記錄飲食")[0]


def test_a_move_said_with_where_from_answers_where_i_used_to_live(
    memory: Memory, user: str, tmp_path: Path
):
    """ "movin outta pilsen, got keys to a 1br in bridgeport" says both homes: it answers
    "where do i live now" and, said with where from, "where did i use to live" too (in
    Chinese "从板桥搬到松山" the same), though no card ever said the old home alone."""
    rows = [
        {"session_id": "a", "date": "2025-10-03T23:00:00Z"},
        {"session_id": "a", "speaker": "user", "text": "on shift rn at the parking garage"},
        {"session_id": "b", "date": "2026-02-20T23:00:00Z"},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "3 wks at rush. day shift is wild, actually see sunlight lol. movin outta "
            "pilsen too, got keys to a 1br in bridgeport sat",
        },
        {"session_id": "b", "speaker": "user", "text": "need cheap food spots near work tho"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "bridgeport" in top(memory, user, "where do i live now")[0]
    assert "pilsen" in top(memory, user, "where i used to live")[0]
    rows = [
        {"session_id": "c", "date": "2026-03-20T23:00:00Z"},
        {
            "session_id": "c",
            "speaker": "user",
            "text": "新工作快一個月了 我的 manager 是英國人叫 Oliver 很 chill "
            "然後我決定從板橋搬到松山 離公司近一點",
        },
        {"session_id": "c", "speaker": "user", "text": "搬家花好多錢 有推薦的記帳 app 嗎"},
    ]
    (tmp_path / "zh").mkdir()
    ingest_file(memory, write_chat(tmp_path / "zh", rows), user + "-zh", progress=False)
    assert "板橋" in top(memory, user + "-zh", "我搬家前住哪裡")[0]


def test_what_you_suggested_is_your_answer_not_my_request(
    memory: Memory, user: str, tmp_path: Path
):
    """Asked "which app did you suggest?", the assistant's reply comes before the user's
    request, which shares more of the question's words; "what did I tell you" stays the
    user's."""
    rows = [
        {"session_id": "a", "date": "2025-02-03T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "can you suggest an app for the pomodoro stuff? i keep doomscrolling",
        },
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "Try Forest: you plant a tree that grows while you stay off your phone.",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "Forest" in top(memory, user, "which app did you suggest for the pomodoro stuff?")[0]
    said = top(memory, user, "what did i tell you i keep doing instead of the pomodoro?")[0]
    assert "doomscrolling" in said


def test_what_you_suggested_is_the_reply_to_what_i_asked(memory: Memory, user: str, tmp_path: Path):
    """The reply shares no word with the question ("where did you suggest i propose?");
    the request before it does: the reply is the answer."""
    rows = [
        {"session_id": "a", "date": "2025-05-03T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "4 years together, i wanna propose when i visit her. where should i propose?",
        },
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "How romantic! Shenzhen Bay Park at sunset, or the beach at Dameisha.",
        },
        {"session_id": "a", "speaker": "user", "text": "ok and the ring, any tips on the size?"},
        {"session_id": "a", "speaker": "assistant", "text": "Borrow one of hers to measure."},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "Shenzhen Bay" in top(memory, user, "where did you suggest i propose?")[0]


def test_how_many_prefers_the_turn_that_gives_a_number(memory: Memory, user: str, tmp_path):
    """The turns that share the question's words ("signed up for a pottery class") give
    no number; the one that answers it does."""
    said = [
        ("a", "user", "other news, I signed up for a pottery class"),
        ("a", "assistant", "Fun! Wheel or hand-building?"),
        ("a", "user", "wheel! its a 6 week intro"),
        ("b", "user", "ok pottery update, first class was tuesday"),
        ("b", "user", "there are about eight of us in the class, mostly other beginners"),
        ("b", "user", "my bowl came out super wonky lol"),
    ]
    rows = [
        {"session_id": "a", "date": "2025-03-02T19:00:00Z"},
        {"session_id": "b", "date": "2025-03-09T19:00:00Z"},
    ] + [{"session_id": s, "speaker": who, "text": text} for s, who, text in said]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "eight" in top(memory, user, "how many people are in my pottery class?")[0]


def test_a_name_asked_shows_the_card_of_the_turn_that_gives_it(
    memory: Memory, user: str, tmp_path: Path
):
    """The turn is found by what the question says (a dog adopted); the card shown is
    the one that names it."""
    rows = [
        {"session_id": "a", "date": "2025-01-12T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "And... Carol surprised me. We adopted a beagle from the county shelter. "
            "Her name is Penny, she's 4. She howls at the mail truck every day",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "Penny" in top(memory, user, "what's our dog's name?")[0]


def test_after_consolidate_a_turn_still_shows_the_card_that_answers(memory: Memory, user: str):
    """Consolidation summarises cards together; a card of the same turn summarised with
    the answer ("He was happy") does not take the answer's place at the top."""
    chat = Path(__file__).parents[1] / "bench/data/chats/companion-en/u10_tom.jsonl"
    ingest_file(memory, chat, user, progress=False)
    question = "what's my ldl cholesterol now?"
    assert "68" in top(memory, user, question)[0]
    memory.consolidate(user)
    assert "68" in top(memory, user, question)[0]


def test_what_you_recommended_is_your_reply_not_my_reaction(
    memory: Memory, user: str, tmp_path: Path
):
    """The user's reaction ("gina loved that book") shares the question's word; the
    reply naming the book is what was asked."""
    rows = [
        {"session_id": "a", "date": "2026-03-02T21:10:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "hey so im marco btw. the missus (gina) says i should ask u for help w my "
            "cv, been a line cook at trattoria bella in the north end for 6 yrs",
        },
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "Hi Marco! Happy to help. For a line cook CV, lead with the volume you "
            "handle. You might also read 'Kitchen Confidential' by Anthony Bourdain for "
            "some perspective.",
        },
        {
            "session_id": "a",
            "speaker": "user",
            "text": "lol gina loved that book. also mum would kill me if i left boston",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "Kitchen Confidential" in top(memory, user, "what book did you recommend?")[0]


MARCO = [  # a chat written as a new user types it: a job change, a move, a book, Chinese
    {"session_id": "s1", "date": "2026-03-02T21:10:00-05:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "hey so im marco btw. the missus (gina) says i should ask u for help w my cv, "
        "been a line cook at trattoria bella in the north end for 6 yrs",
    },
    {
        "session_id": "s1",
        "speaker": "assistant",
        "text": "Hi Marco! Happy to help. For a line cook CV, lead with the volume you handle. "
        "You might also read 'Kitchen Confidential' by Anthony Bourdain for some perspective.",
    },
    {"session_id": "s2", "date": "2026-04-14T19:30:00-04:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "big news!! signed with harbor oyster bar in the seaport, sous chef, start may 4. "
        "last shift at bella is friday 😭",
    },
    {
        "session_id": "s2",
        "speaker": "assistant",
        "text": "Congratulations on the sous chef job at Harbor Oyster Bar!",
    },
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "weird but good. oh and we got the keys to a 2 bed in quincy, moving in the 20th",
    },
    {"session_id": "s3", "date": "2026-05-20T22:00:00-04:00"},
    {"session_id": "s3", "speaker": "user", "text": "妈妈今天来看新家了 她说quincy太远了 哈哈"},
]


def test_a_new_users_job_home_and_wife_hold_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """Every turn of both speakers and both languages is kept; the job changed as chat
    says it ("signed with ...", "last shift at bella") answers "now", the old one
    "before", at ingest, after consolidate and a quiet year later."""
    report = ingest_file(memory, write_chat(tmp_path, MARCO), user, progress=False)
    assert [p.name for p in memory.people(user) if p.relationship == "wife"] == ["Gina"]
    said = turns_cited(memory, user)
    assert len(said) == len([r for r in MARCO if "speaker" in r]), report
    for moment in (None, "2026-05-21", "2027-05-21"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "harbor oyster bar" in answer(memory, user, "where do i work now?"), moment
        assert "trattoria bella" in answer(memory, user, "where did i work before?"), moment
        assert "quincy" in answer(memory, user, "where do we live now?"), moment
        assert "quincy太远了" in answer(memory, user, "我妈说什么了？"), moment


MAYA = [  # a new user: made redundant, then weeks into a new job, said the way chat says it
    {"session_id": "m1", "date": "2026-03-02T21:10:00+00:00"},
    {
        "session_id": "m1",
        "speaker": "user",
        "text": "ugh long day. my manager priya is great tho, she let me leave early. also ive "
        "been seeing this guy tomasz, hes a nurse at st james lol",
    },
    {
        "session_id": "m1",
        "speaker": "assistant",
        "text": "Glad Priya had your back! And Tomasz sounds lovely. How did you two meet?",
    },
    {"session_id": "m2", "date": "2026-04-11T09:30:00+00:00"},
    {
        "session_id": "m2",
        "speaker": "user",
        "text": "welp. got made redundant yesterday, me and 4 others. brightline is "
        "'restructuring'. at least the package is ok",
    },
    {
        "session_id": "m2",
        "speaker": "assistant",
        "text": "I'm so sorry. That's a shock even when the package is decent. Do you want help "
        "updating your CV?",
    },
    {"session_id": "m3", "date": "2026-05-20T18:00:00+00:00"},
    {
        "session_id": "m3",
        "speaker": "user",
        "text": "week 2 at Harbourline done!! new boss is some guy named okeke, very calm. and "
        "the landlord is this old guy fergus who never answers texts",
    },
]


def test_a_new_users_lost_job_and_new_one_hold_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """Made redundant, then "week 2 at Harbourline": Harbourline is where the user works
    now, Brightline before, Priya the former manager and Okeke the boss; a guy named in
    passing is the landlord, and "seeing this guy tomasz" a boyfriend. Every turn of both
    speakers is kept, at ingest, after a consolidate and a quiet year on."""
    report = ingest_file(memory, write_chat(tmp_path, MAYA), user, progress=False)
    assert (report.speakers["user"].read, report.speakers["assistant"].kept) == (3, 2)
    assert len(turns_cited(memory, user)) == len([r for r in MAYA if "speaker" in r])
    assert {p.name: p.relationship for p in memory.people(user) if p.name != SELF} == {
        "Priya": "former manager",
        "Tomasz": "boyfriend",
        "Okeke": "boss",
        "Fergus": "landlord",
    }
    for moment in (None, "2026-05-21", "2027-05-21"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "harbourline" in answer(memory, user, "where do i work now?"), moment
        before = answer(memory, user, "where did i work before harbourline?")
        assert "brightline" in before, moment
        assert "priya" in answer(memory, user, "who was my manager before okeke?"), moment


@pytest.mark.xfail(
    strict=False,
    reason="an assistant reply is kept as one card: 'Kitchen Confidential', one sentence of "
    "a reply about a CV, is about as far from the question as a congratulation said later "
    "(cosine 0.164 against 0.134 when this test runs alone, the other way round in the "
    "whole suite: the int8 model's vectors move with the batch a text is embedded in)",
)
def test_the_book_you_suggested_in_a_long_reply(memory: Memory, user: str, tmp_path: Path):
    ingest_file(memory, write_chat(tmp_path, MARCO), user, progress=False)
    assert "Kitchen Confidential" in top(memory, user, "what book did you recommend?")[0]


def test_asked_if_it_still_holds_the_newest_word_on_it_answers(
    memory: Memory, user: str, tmp_path: Path
):
    """ "am i still anemic?" is as close to the day it began as to the day it ended
    (the older says less besides): the newer of the close hits answers."""
    rows = [
        {"session_id": "a1", "date": "2025-02-03T19:00:00Z"},
        {
            "session_id": "a1",
            "speaker": "user",
            "text": "so the doctor says im anemic 😬 at 29",
        },
        {"session_id": "a2", "date": "2025-09-12T19:00:00Z"},
        {
            "session_id": "a2",
            "speaker": "user",
            "text": "also my iron levels came back normal!!! "
            "not anemic anymore según la doctora 🙌",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "not anemic anymore" in top(memory, user, "am i still anemic?")[0].lower()


XIAOLIN = [  # a new user writing Chinese: a job taken as an offer with its start, a move
    {"session_id": "d1", "date": "2026-03-03T22:10:00+08:00"},
    {
        "session_id": "d1",
        "speaker": "user",
        "text": "在吗 我是小林 在杭州一家游戏公司做策划 叫星火互娱 最近加班加到怀疑人生",
    },
    {
        "session_id": "d1",
        "speaker": "assistant",
        "text": "在的！加班多真的很消耗人。你可以试试番茄工作法，25分钟专注+5分钟休息。"
        "另外推荐一本书《深度工作》，讲怎么在碎片化的环境里保持专注。",
    },
    {
        "session_id": "d1",
        "speaker": "user",
        "text": "好 我去看看 我女朋友阿敏也说我该换个节奏 她在西湖区当小学老师",
    },
    {"session_id": "d2", "date": "2026-04-18T21:30:00+08:00"},
    {
        "session_id": "d2",
        "speaker": "user",
        "text": "跟你说个大事！我拿到了网易的offer 下个月12号入职 终于可以离开星火了哈哈",
    },
    {
        "session_id": "d2",
        "speaker": "assistant",
        "text": "恭喜恭喜！网易是个很好的平台。入职前可以好好休息几天。",
    },
    {
        "session_id": "d2",
        "speaker": "user",
        "text": "还有 我们在滨江租了个两室一厅 离网易很近 下周就搬过去 "
        "以前住的城西那个老小区终于拜拜了",
    },
    {"session_id": "d3", "date": "2026-05-30T23:00:00+08:00"},
    {
        "session_id": "d3",
        "speaker": "user",
        "text": "阿敏答应了！！我们订婚了 在西湖边求的婚 她哭得稀里哗啦",
    },
    {"session_id": "d3", "speaker": "assistant", "text": "太好了，恭喜你们！西湖边求婚太浪漫了。"},
]


def test_a_chinese_users_new_job_said_as_an_offer_taken(memory: Memory, user: str, tmp_path: Path):
    """ "我拿到了网易的offer 下个月12号入职" is the new employer (the start date says the
    offer was taken): "now" is NetEase, "before" the games studio; "我们在滨江租了个两室一厅"
    is where they live, asked in English too; the book the assistant suggested is its
    reply; at ingest, after consolidate and a quiet year later. Every turn is kept."""
    report = ingest_file(memory, write_chat(tmp_path, XIAOLIN), user, progress=False)
    assert report.languages["zh"].kept == len([r for r in XIAOLIN if "speaker" in r])
    for moment in (None, "2026-06-01", "2027-06-01"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "网易的offer" in top(memory, user, "我现在在哪家公司上班？")[0], moment
        assert "星火互娱" in top(memory, user, "我以前在哪家公司？")[0], moment
        assert "《深度工作》" in top(memory, user, "你推荐过什么书？")[0], moment
        assert "滨江" in top(memory, user, "where do we live now?")[0], moment


def test_a_turn_read_in_parts_shows_whole(memory: Memory, user: str, tmp_path: Path):
    """A turn the rules cut into several cards is also kept whole: the hit for it shows
    the turn, because the part that matched the question often names nothing ("also we
    named the boat", "moving up there in august") while the turn holds the answer."""
    rows = [
        {"session_id": "s1", "date": "2025-06-02T20:00:00Z"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "i never thought of it like that. ok also we named the boat. barb named it. "
            '"barb\'s folly" lol. i painted it on the side',
        },
        {"session_id": "s1", "speaker": "assistant", "text": "Barb's Folly is perfect!"},
        {"session_id": "s2", "date": "2026-03-14T18:00:00Z"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "I GOT INTO NAU WITH A SCHOLARSHIP 😭😭 lumberjacks scholarship, $5k a year. "
            "and ASU too. im picking NAU, flagstaff here i come. moving up there in august",
        },
    ]
    report = ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert report.speakers["user"].turns == 2
    assert "barb's folly" in top(memory, user, "what did we name the boat?")[0].lower()
    assert "flagstaff" in top(memory, user, "where am i moving in the fall?")[0].lower()
    # the parts are still cards of their own, each citing the turn
    parts = [c for c in memory.cards(user) if c.source and c.source.session_id == "s2"]
    assert len(parts) > 2
    assert {c.source.text for c in parts} == {rows[4]["text"]}
    [whole] = [c for c in parts if "turn" in c.tags]
    assert whole.fact == rows[4]["text"]


TOMAS = [  # a new user's chat: a job started, a move, an engagement said as coming
    {"session_id": "a", "date": "2026-04-02T21:10:00+02:00"},
    {
        "session_id": "a",
        "speaker": "user",
        "text": "hola! so im tomás, i do bike deliveries for glovo in barcelona, mostly "
        "eixample. my legs r dead lol",
    },
    {
        "session_id": "a",
        "speaker": "user",
        "text": "ok gracias. also my gf laia says i should quit and do something with my "
        "hands, she works at a ceramics studio in gràcia, thats where we live too",
    },
    {"session_id": "b", "date": "2026-05-04T19:30:00+02:00"},
    {
        "session_id": "b",
        "speaker": "user",
        "text": "news!! i start at forn sant pau next monday, its a bakery in poble sec, 5am "
        "shifts 😅 no more glovo",
    },
    {"session_id": "c", "date": "2026-06-20T22:00:00+02:00"},
    {
        "session_id": "c",
        "speaker": "user",
        "text": "ok big weekend. we moved!! new flat in poblenou, carrer de pujades, 10 min "
        "from the beach. and... laia said yes 💍 we're getting married next spring",
    },
    {
        "session_id": "c",
        "speaker": "assistant",
        "text": "Two huge pieces of news, congratulations! I hear Poblenou is lovely.",
    },
]


def test_a_job_started_a_new_flat_and_a_wedding_to_come(memory: Memory, user: str, tmp_path: Path):
    """Found trying graphmem as a new user: 'i start at X next monday' is the new job,
    'new flat in X' the new home (her studio is hers), and 'we're getting married next
    spring' makes a fiancée, not a wife, nor a partner called 'next spring'."""
    ingest_file(memory, write_chat(tmp_path, TOMAS), user, progress=False)
    for moment in (None, "2026-06-21", "2027-06-21"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "forn sant pau" in top(memory, user, "where do i work now?")[0], moment
        assert "poblenou" in top(memory, user, "where do we live now?")[0], moment
        laia = next(p for p in memory.people(user) if p.name == "Laia")
        assert (laia.relationship, laia.relationship_history) == ("fiancée", ["girlfriend"])


def test_forgetting_a_part_forgets_the_turn_that_holds_its_words(
    memory: Memory, user: str, tmp_path: Path
):
    """The turn kept whole holds every part's words: forgotten with a part (restored with
    it), erased with it, so recall never shows what the user asked to forget."""
    rows = [
        {"session_id": "s1", "date": "2025-06-02T20:00:00Z"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "I live in Paris. My sister Alice loves sushi and I love hiking.",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    cards = memory.cards(user)
    [whole] = [c for c in cards if "turn" in c.tags]
    paris = next(c for c in cards if c.fact == "I live in Paris")

    memory.forget(user, paris.id)
    assert memory.get(user, whole.id).status == "forgotten"
    assert all("Paris" not in h.card.fact for h in memory.recall(user, "where do i live?"))
    assert "sushi" in top(memory, user, "what does my sister like?")[0]  # its own part

    memory.restore(user, paris.id)
    assert memory.get(user, whole.id).status == "active"

    memory.forget(user, paris.id, hard=True)
    assert whole.id not in {c.id for c in memory.cards(user, status=None)}
    sushi = next(c for c in memory.cards(user) if "sushi" in c.fact)
    assert "Paris" not in sushi.source.text
    assert "sushi" in sushi.source.text


SUQING = [  # a new user's Chinese chat, asked in Chinese and by an agent in English
    {"session_id": "d1", "date": "2026-02-08T22:15:00+08:00"},
    {
        "session_id": "d1",
        "speaker": "user",
        "text": "hi 我叫苏晴 在上海一家广告公司做文案 叫蓝鲸广告 最近天天改稿改到凌晨 真的好累",
    },
    {
        "session_id": "d1",
        "speaker": "assistant",
        "text": "辛苦了苏晴！改稿到凌晨确实很耗人。可以试试把改稿时间集中在下午，晚上十点以后不回"
        "工作消息。另外推荐你听一个播客《随机波动》，通勤的时候放松一下。",
    },
    {
        "session_id": "d1",
        "speaker": "user",
        "text": "好 我试试 我男朋友大伟也老说我太拼了 他在浦东做程序员 我们住在静安寺附近",
    },
    {"session_id": "d2", "date": "2026-04-19T21:40:00+08:00"},
    {
        "session_id": "d2",
        "speaker": "user",
        "text": "跟你说 我和大伟分手了 上周的事 他要去深圳发展 我不想走 就这样了 还挺难受的",
    },
    {
        "session_id": "d2",
        "speaker": "user",
        "text": "嗯 闺蜜小鹿这周陪我 另外我领养了一只橘猫 叫芒果 两岁 之前在流浪猫救助站",
    },
    {"session_id": "d3", "date": "2026-07-05T20:05:00+08:00"},
    {
        "session_id": "d3",
        "speaker": "user",
        "text": "好消息！！我跳槽了 拿了字节的offer 做品牌策划 下周一入职 终于不用在蓝鲸改稿了哈哈",
    },
    {
        "session_id": "d3",
        "speaker": "user",
        "text": "还有 我搬家了 搬到徐汇了 离新公司近 一个人住一室户 芒果很喜欢新家的阳台",
    },
    {"session_id": "d4", "date": "2026-10-11T23:30:00+08:00"},
    {
        "session_id": "d4",
        "speaker": "user",
        "text": "最近在跟一个男生约会 叫Leo 是小鹿的同事 做摄影的 人很温柔",
    },
]


def test_a_chinese_chat_answers_in_chinese_and_in_english(
    memory: Memory, user: str, tmp_path: Path
):
    """ "拿了字节的offer 下周一入职" is the new employer; "我和大伟分手了" makes the
    boyfriend an ex and "跟一个男生约会 叫Leo" the one she is seeing ("我现在的男朋友" is
    hers, not someone's called 现在); an agent asking in English finds the same cards as
    the user asking in Chinese, at ingest, consolidated and a year on."""
    ingest_file(memory, write_chat(tmp_path, SUQING), user, progress=False)
    people = {p.name: (p.relationship, p.relationship_history) for p in memory.people(user)}
    assert people["大伟"] == ("前男友", ["男朋友"])
    assert people["Leo"] == ("对象", [])
    for moment in (None, "2026-07-06", "2027-07-06"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        for question in ("我现在在哪家公司上班？", "where do I work now?"):
            assert "字节的offer" in top(memory, user, question)[0], (question, moment)
        for question in ("我以前在哪家公司？", "where did I work before?"):
            assert "蓝鲸广告" in top(memory, user, question)[0], (question, moment)
        for question in ("我现在住哪？", "where do I live now?"):
            assert "搬到徐汇了" in top(memory, user, question)[0], (question, moment)
        assert "《随机波动》" in top(memory, user, "what podcast did you recommend?")[0], moment
        assert "叫芒果" in top(memory, user, "what's my cat's name?")[0], moment
        for question in ("我现在的男朋友是谁？", "who am I dating now?"):
            assert "叫Leo" in top(memory, user, question)[0], (question, moment)


def test_who_someone_is_answers_with_the_turn_that_said_so(
    memory: Memory, user: str, tmp_path: Path
):
    """ "who's my girlfriend now?" names Jess through the people table: the turn that
    introduced her as what she is answers, not the breakup said in more of the words;
    "who was i dating before jess?", the turn that made Riley an ex."""
    rows = [
        {"session_id": "s1", "date": "2024-09-15T23:02:00-07:00"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "my gf riley would never move, we just renewed the lease on our place",
        },
        {"session_id": "s2", "date": "2024-10-27T16:40:00-07:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "riley and i broke up. my girlfriend of 3 years, gone. i'm staying on a couch",
        },
        {"session_id": "s3", "date": "2025-02-16T14:50:00-08:00"},
        {
            "session_id": "s3",
            "speaker": "user",
            "text": "ok so. ive been seeing someone 🙈 her name is jess, we met at the climbing "
            "gym in january. shes a vet tech",
        },
        {"session_id": "s3", "speaker": "user", "text": "we've been on 4 dates. she's great"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert {p.name: p.relationship for p in memory.people(user)}["Jess"] == "girlfriend"
    assert "her name is jess" in top(memory, user, "who's my girlfriend now?")[0]
    assert "riley and i broke up" in top(memory, user, "who was i dating before jess?")[0]


def test_who_held_a_role_before_someone_is_never_that_someone(
    memory: Memory, user: str, tmp_path: Path
):
    """ "who was my manager before tasha?" once the user has left the ward: Tasha is a
    former manager too, and the last one, but the question is asked around her. The
    answer is Brenda, the manager Tasha took over from."""
    rows = [
        {"session_id": "s1", "date": "2025-10-06T09:00:00-05:00"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "also my manager brenda is retiring end of the month 😢 she's been so good "
            "to us nurses",
        },
        {"session_id": "s2", "date": "2025-11-14T20:00:00-06:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "update!! new manager na kami, si tasha. my new manager is tasha, very "
            "strict with charting",
        },
        {"session_id": "s3", "date": "2025-12-16T19:30:00-06:00"},
        {
            "session_id": "s3",
            "speaker": "user",
            "text": "St boniface cardiac, days, start date january 12. i gave my notice to "
            "tasha today. last shift at HSC is jan 3",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    held = {p.name: p.relationship for p in memory.people(user)}
    assert held["Tasha"] == "former manager"
    assert held["Brenda"] == "former manager"
    assert "brenda" in answer(memory, user, "who was my manager before tasha?")


def test_what_someone_is_to_the_user_now_is_the_turn_that_made_them_so(
    memory: Memory, user: str, tmp_path: Path
):
    """ "what's theo to me now?": Theo, named long before as nothing in particular, is
    a fiancé since the turn that said so, and that turn answers, not the ones that share
    more of the question's words; in Chinese too, where the turn says it of 她 (another
    user: one fiancée at a time)."""
    rows = [
        {"session_id": "s1", "date": "2024-03-05T18:22:00-05:00"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "numb mostly. theo brought me pho and let me cry on the couch lol",
        },
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "the worst part is theo and i were gonna do japan in may for our 2 year "
            "anniversary",
        },
        {"session_id": "s2", "date": "2024-06-02T09:00:00-04:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "ALEXIS IS ENGAGED 💍💍💍 theo proposed in sintra at the pena palace. i said "
            "yes obviously",
        },
        {"session_id": "s3", "date": "2024-08-25T11:10:00-04:00"},
        {
            "session_id": "s3",
            "speaker": "user",
            "text": "moving day done! my fiancé already has his record player set up and "
            "nothing else lol (still not used to saying fiancé 🥹)",
        },
    ]
    chinese = [
        {"session_id": "s4", "date": "2025-04-12T09:00:00+08:00"},
        {
            "session_id": "s4",
            "speaker": "user",
            "text": "我女朋友佳佳在深圳工作 她是做UI设计的 我们异地两年了",
        },
        {"session_id": "s5", "date": "2025-07-14T21:00:00+08:00"},
        {"session_id": "s5", "speaker": "user", "text": "对了 佳佳说婚礼想明年春天办 在她老家长沙"},
        {
            "session_id": "s5",
            "speaker": "user",
            "text": "她答应了!!!!!! 7月12号 深圳湾 日落的时候 她哭了 我也哭了 现在她是我未婚妻了",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    (tmp_path / "zh").mkdir()
    ingest_file(memory, write_chat(tmp_path / "zh", chinese), f"{user}-zh", progress=False)
    assert {p.name: p.relationship for p in memory.people(user)}["Theo"] == "fiancé"
    said = top(memory, user, "what's theo to me now?")[0]
    assert "ENGAGED" in said or "my fiancé" in said
    assert {p.name: p.relationship for p in memory.people(f"{user}-zh")}["佳佳"] == "未婚妻"
    assert "未婚妻" in top(memory, f"{user}-zh", "佳佳现在是我什么人")[0]


def test_my_boss_is_whoever_manages_the_user_now_whatever_their_title(
    memory: Memory, user: str, tmp_path: Path
):
    """ "who's my boss now?": the regional manager met after a move, not the boss of
    the old branch, though she is the one called a boss in so many words."""
    rows = [
        {"session_id": "s1", "date": "2024-03-03T21:15:00+01:00"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "im a relationship manager at the ikeja branch, my boss mrs okafor keeps "
            "hinting there's a promotion coming",
        },
        {"session_id": "s2", "date": "2024-08-18T19:30:00+01:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "busy!! wuse 2 branch is big. my regional manager is mr danjuma now, he's "
            "very strict but fair. very different from mrs okafor",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "mr danjuma now" in top(memory, user, "who's my boss now?")[0]


def test_a_surname_asked_shows_the_turn_that_gives_one(memory: Memory, user: str, tmp_path: Path):
    """ "what's my sister's surname now?" is answered by the turn that says the name she
    took, not by the one that shares the question's words ("my sister rachel is getting
    married"); before the wedding, by the one that gives her old surname."""
    rows = [
        {"session_id": "s1", "date": "2024-10-06T20:00:00+01:00"},
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "anyway other news my sister rachel is getting married in april!! to tunde, "
            "theyve been together 6 yrs. so theres a hen do to plan too",
        },
        {
            "session_id": "s1",
            "speaker": "user",
            "text": "she's keeping it small, registry office in leeds then a meal. she's already "
            "practising her new signture, no more rachel marsh lol",
        },
        {"session_id": "s2", "date": "2025-05-04T20:00:00+01:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "the wedding was last saturday!! my sister looked amazing. so rachel is "
            "officially mrs adeyemi now",
        },
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "my sister and tunde are off to lisbon for the honeymoon next week",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "mrs adeyemi" in top(memory, user, "whats my sister's surname now she's married?")[0]
    assert "rachel marsh" in top(memory, user, "what was rachel's last name before the wedding?")[0]


def test_a_turn_naming_someone_is_about_them_whoever_it_is_read_as(
    memory: Memory, user: str, tmp_path: Path
):
    """ "小雨对芒果过敏" sits in a long turn about lunch: the user's turns that name the
    sister the question asks about count as hers: the graph reaches them, in Chinese
    and asked in English."""
    rows = [
        {"session_id": "s1", "date": "2025-03-02T12:00:00+08:00"},
        {"session_id": "s1", "speaker": "user", "text": "我妹妹小雨下个月来上海玩 我们要去迪士尼"},
        {
            "session_id": "s1",
            "speaker": "assistant",
            "text": "太好了！小雨第一次来上海吗？可以提前买迪士尼的早享卡。",
        },
        {"session_id": "s2", "date": "2025-04-12T21:00:00+08:00"},
        {
            "session_id": "s2",
            "speaker": "user",
            "text": "我们中午去吃了一家泰国菜，叫暹罗小馆，在安福路那边，结果差点出事。芒果糯米饭端"
            "上来我才想起来小雨对芒果过敏，还好她没吃。",
        },
        {"session_id": "s2", "speaker": "user", "text": "小雨也说姐你冲啊哈哈 我准备换工作了"},
        {"session_id": "s2", "speaker": "user", "text": "今天加班到十点 好累 明天还要早起"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    for question in ("我妹妹对什么过敏？", "what is my younger sister allergic to?"):
        hits = memory.recall(user, question, k=3)
        [mango] = [h for h in hits if "小雨对芒果过敏" in h.card.fact]
        assert "graph" in mango.found_by, question


PRIYA = [
    {"session_id": "a", "date": "2025-03-02T20:10:00-05:00"},
    {
        "session_id": "a",
        "speaker": "user",
        "text": "trying to eat better. im vegetarian since college but i live on frozen pizza lol",
    },
    {"session_id": "b", "date": "2025-05-04T11:30:00-04:00"},
    {
        "session_id": "b",
        "speaker": "user",
        "text": "update!! i quit brightsmile, starting at the cleveland clinic payroll team on the "
        "19th. more money + remote fridays",
    },
    {
        "session_id": "b",
        "speaker": "assistant",
        "text": "Congratulations! For your first week, I'd suggest reading 'The First 90 Days' by "
        "Michael Watkins.",
    },
    {
        "session_id": "b",
        "speaker": "user",
        "text": "ok ill grab it. also i started eating fish again, doctor said my iron is low so "
        "im pescatarian now i guess",
    },
]


def test_a_diet_changed_in_chat_answers_now_and_a_title_capitalises_nothing(
    memory: Memory, user: str, tmp_path: Path
):
    """Another new user's chat (tried while working on #30): "im pescatarian now" is the
    diet now, over "im vegetarian since college"; and the "The" of a book the assistant
    named in quotes does not make every "the" of the user's lower-case turns a name."""
    ingest_file(memory, write_chat(tmp_path, PRIYA), user, progress=False)
    for question in ("what's my diet now?", "am i still vegetarian?"):
        assert "im pescatarian now" in top(memory, user, question)[0], question
    [job] = [c.fact for c in memory.cards(user) if "brightsmile" in c.fact]
    assert "starting at the cleveland clinic payroll team on the 19th" in job


OWEN = [
    {"session_id": "s1", "date": "2025-01-12T19:00:00+00:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "evening! im owen, 29, i work in logistics at a warehouse in bristol (hartwell "
        "freight). my manager gary is ok i guess",
    },
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "planning a trip to lisbon in april with my gf hana. also i vape way too much, "
        "like a pod a day",
    },
    {"session_id": "s2", "date": "2025-02-20T21:30:00+00:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "oh and new number btw, 07700 900123, the old one got cut off",
    },
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "and lisbon is off, flights doubled. we're doing edinburgh instead, the train is "
        "cheap",
    },
    {"session_id": "s3", "date": "2025-04-02T18:00:00+00:00"},
    {
        "session_id": "s3",
        "speaker": "user",
        "text": "also got made redundant friday. hartwell is closing the bristol site. great "
        "month lol",
    },
    {
        "session_id": "s3",
        "speaker": "user",
        "text": "one good thing, i havent vaped in 3 weeks. going cold turkey",
    },
]


def test_a_job_lost_and_a_habit_stopped_answer_now(memory: Memory, user: str, tmp_path: Path):
    """A new user's chat: made redundant, the user works nowhere now; "havent vaped in 3
    weeks" (typed without its apostrophe) answers "do i still vape?"; a number written
    as the UK writes it is the phone number. At ingest, consolidated, and a year on."""
    ingest_file(memory, write_chat(tmp_path, OWEN), user, progress=False)
    for moment in (None, "2025-04-10", "2026-04-10"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "made redundant" in top(memory, user, "where do i work now?")[0], moment
        assert "hartwell freight" in top(memory, user, "where did i work before?")[0], moment
        assert "havent vaped" in top(memory, user, "do i still vape?")[0], moment
        assert "07700 900123" in top(memory, user, "what's my phone number?")[0], moment


LIN_YUE = [
    {"session_id": "s1", "date": "2025-02-08T22:10:00+08:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "对 年货节 然后我跟男朋友小周住在西湖区 租的一室户 房租3800",
    },
    {"session_id": "s2", "date": "2025-04-19T20:30:00+08:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "跟你说 我辞职了！！下周一去上海一家做咖啡的品牌公司 做品牌策划 工资涨了三千",
    },
    {"session_id": "s2", "speaker": "user", "text": "然后跟小周分手了 异地他不愿意 算了 哭了两天"},
    {"session_id": "s4", "date": "2025-09-02T23:00:00+08:00"},
    {
        "session_id": "s4",
        "speaker": "user",
        "text": "最近认识了一个男生 叫阿哲 是做建筑设计的 我们在一起了😊",
    },
]


def test_a_chinese_partner_met_and_named_in_one_message_is_the_partner_now(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's Chinese chat: the boyfriend left, then "认识了一个男生 叫阿哲 ... 我们在
    一起了" makes 阿哲 the partner, who answers "我男朋友是谁？"; a company gone to, not
    named, is where she works now, in Chinese or English."""
    ingest_file(memory, write_chat(tmp_path, LIN_YUE), user, progress=False)
    people = {p.name: p.relationship for p in memory.people(user)}
    assert (people["小周"], people["阿哲"]) == ("前男友", "对象")
    assert "叫阿哲" in top(memory, user, "我男朋友是谁？")[0]
    for question in ("我现在在哪上班？", "where do i work now?"):
        assert "品牌公司" in top(memory, user, question)[0], question


NEHA = [
    {"session_id": "s1", "date": "2025-03-01T21:00:00+05:30"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "hi! main neha, 27, pune mein rehti hoon, kothrud mein PG hai. infosys mein QA "
        "engineer hoon 3 saal se",
    },
    {
        "session_id": "s1",
        "speaker": "assistant",
        "text": "Hi Neha! Nice to meet you. How's work at Infosys going?",
    },
    {"session_id": "s2", "date": "2025-06-15T20:00:00+05:30"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "big news!! thoughtworks se offer aaya aur maine accept kar liya. 1 july "
        "joining. mumbai office",
    },
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "toh mumbai shift ho rahi hoon, andheri west mein 1bhk dekh liya hai",
    },
    {"session_id": "s3", "date": "2025-08-10T19:00:00+05:30"},
    {
        "session_id": "s3",
        "speaker": "user",
        "text": "settled ho gayi andheri mein! flat acha hai. karan ne propose kiya last "
        "sunday, we're engaged 💍",
    },
]


def test_a_hinglish_chat_changes_where_the_user_lives_and_works(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's Hinglish chat (the rules of ``lang.hi``): the job and the home of
    now and of before, asked in English; a move still in progress changes nothing."""
    ingest_file(memory, write_chat(tmp_path, NEHA), user, progress=False)
    assert "thoughtworks se offer" in top(memory, user, "where do i work now?")[0]
    assert "infosys mein" in top(memory, user, "where did i work before?")[0]
    assert "settled ho gayi andheri" in top(memory, user, "where do i live now?")[0]
    assert "pune mein rehti hoon" in top(memory, user, "where did i live before?")[0]


TAGLISH = [
    {"session_id": "s1", "date": "2025-01-10T21:00:00+08:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "hi po! ang ingay dito, nakatira pa ako sa tondo with lola, tapos may "
        "videoke yung kapitbahay gabi-gabi",
    },
    {"session_id": "s2", "date": "2025-04-05T19:00:00+08:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "update!! lumipat na kami ng bf ko sa marikina nung sabado, 2 bedroom, may "
        "balcony pa 😭 tapos ang tahimik",
    },
]


def test_a_taglish_move_answers_where_the_user_lives_now_and_before(
    memory: Memory, user: str, tmp_path: Path
):
    """A Taglish chat written for this test (the rules of ``lang.tl``): the move to
    Marikina is where the user lives now, Tondo where she lived before."""
    ingest_file(memory, write_chat(tmp_path, TAGLISH), user, progress=False)
    assert "marikina" in top(memory, user, "where do i live now?")[0]
    assert "tondo" in top(memory, user, "where did i live before?")[0]
    # asked in Tagalog ("dati": before, "ngayon": now), and a home said as "our house in"
    assert "tondo" in top(memory, user, "saan ako nakatira dati?")[0]
    assert "marikina" in top(memory, user, "saan ako nakatira ngayon?")[0]


LENA = [
    {"session_id": "s1", "date": "2025-01-10T20:00:00Z"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "hi! im lena, i live in a tiny flat in hackney with my cat pip and i work at a "
        "bookshop on mare street",
    },
    {
        "session_id": "s1",
        "speaker": "assistant",
        "text": "Nice to meet you Lena! How long have you been in Hackney?",
    },
    {"session_id": "s2", "date": "2025-06-02T20:00:00Z"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "so much news lol, pip knocked over my plants again, new job at the city "
        "library starting monday, the commute is longer but whatever",
    },
    {"session_id": "s2", "speaker": "assistant", "text": "Congratulations on the new job!"},
    {"session_id": "s3", "date": "2025-09-14T20:00:00Z"},
    {
        "session_id": "s3",
        "speaker": "user",
        "text": "ok we did it, got the keys on friday, a 2 bed terrace in walthamstow, boxes "
        "everywhere and pip hates the stairs",
    },
]


def test_a_new_job_said_in_passing_holds_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """A chat written as a new user would (tried while reviewing this stop): the new job
    said among other news answers "now", the bookshop "before", at every moment."""
    ingest_file(memory, write_chat(tmp_path, LENA), user, progress=False)
    for moment in (None, "2025-09-20", "2026-09-20"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "city library" in top(memory, user, "where do i work now?")[0], moment
        assert "bookshop" in top(memory, user, "where did i work before?")[0], moment
        assert "hackney" in top(memory, user, "where did i live before?")[0], moment


def test_a_move_said_beside_the_cats_complaint_answers_where_i_live_now(
    memory: Memory, user: str, tmp_path: Path
):
    """ "pip hates the stairs" is the cat's complaint, not the user's dislike (a third
    person's verb): the turn makes no claim by rule, so its move is read by meaning."""
    ingest_file(memory, write_chat(tmp_path, LENA), user, progress=False)
    assert "walthamstow" in top(memory, user, "where do i live now?")[0]


MARISA = [
    {"session_id": "jan", "date": "2025-01-26T20:40:00-05:00"},
    {
        "session_id": "jan",
        "speaker": "user",
        "text": "ok so im marisa, 29, receptionist at a vet clinic in tampa and im studying for "
        "my vet tech licensing exam, the VTNE, in april. any study tips?? 😩",
    },
    {
        "session_id": "jan",
        "speaker": "assistant",
        "text": "Spaced repetition works well for the VTNE. Also try a grounding exercise "
        "called box breathing when you feel overwhelmed: in for 4, hold 4, out 4, hold 4.",
    },
    {"session_id": "jan", "speaker": "user", "text": "also 3 months no smoking 💪"},
    {
        "session_id": "jan",
        "speaker": "user",
        "text": "my husband luis says i work too much lol. he's a line cook at a taco place "
        "in ybor so we barely see each other on weekends",
    },
    {"session_id": "jan", "speaker": "user", "text": "luis is making arepas tonight lol"},
    {"session_id": "may", "date": "2025-05-12T19:00:00-05:00"},
    {
        "session_id": "may",
        "speaker": "user",
        "text": "PASSED!!! and bayside animal hospital called today and offered me the vet tech "
        "job 🎉 start june 2",
    },
    {"session_id": "may", "speaker": "user", "text": "i crochet like an old lady to relax lol"},
    {
        "session_id": "may",
        "speaker": "user",
        "text": "my mum and dad are driving down from ocala for the weekend to celebrate",
    },
    {"session_id": "may", "speaker": "user", "text": "we're going to the beach in clearwater"},
]


def test_a_day_asked_a_job_offered_and_a_habit_stopped(memory: Memory, user: str, tmp_path):
    """A new user's chat: "on january 26" finds that day's turn though a newer job has
    replaced the one it names; an employer said before the verb ("bayside animal
    hospital called today and offered me the vet tech job") is where she works now;
    "3 months no smoking" is no smoker; what the assistant suggested is its reply, not
    a pastime of hers; "my parents" are her mum and dad; and her husband's name is
    answered by the turn that says who he is. At ingest, consolidated, and a year on."""
    ingest_file(memory, write_chat(tmp_path, MARISA), user, progress=False)

    def ask(question: str) -> str:
        return top(memory, user, question)[0]

    for moment in (None, "2025-05-20", "2026-05-20"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "VTNE" in ask("on january 26 what exam was i studying for?"), moment
        assert "bayside" in ask("where do i work now?"), moment
        assert "vet clinic in tampa" in ask("where did i work before?"), moment
        assert "no smoking" in ask("do i still smoke?"), moment
        assert "box breathing" in ask("what grounding exercise did you tell me?"), moment
        assert "ocala" in ask("where do my parents live?"), moment
        assert "my husband luis" in ask("what's my husband's name?"), moment


PARTNER_AT_WORK = [
    {"session_id": "s1", "date": "2025-02-02T20:00:00+11:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "yeah. my partner Kayla says the same. shes a midwife at the royal womens so "
        "she's the sensible one. also trying to quit the durries again",
    },
    {"session_id": "s2", "date": "2025-03-09T20:00:00+11:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "our brunswick place is a 1 bed above a shop and with the baby its not gonna "
        "work. kayla's mum keeps saying move to sydney near her which lol no",
    },
]


def test_a_question_naming_someone_in_lower_case_asks_their_slot(
    memory: Memory, user: str, tmp_path: Path
):
    """ "where does kayla work?" asks Kayla's work, as "where does Kayla work?" does: her
    name typed in lower case is still whom the question is about."""
    ingest_file(memory, write_chat(tmp_path, PARTNER_AT_WORK), user, progress=False)
    assert "midwife at the royal womens" in top(memory, user, "where does kayla work")[0]
    assert "brunswick" in top(memory, user, "where do i live")[0]


TWO_STEPS_TO_A_NEW_JOB = [
    {"session_id": "s1", "date": "2025-11-02T20:00:00+05:30"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "need some career gyaan. im arjun, backend dev at flipkart bangalore, 5 yrs "
        "now. got an offer from PaySetu in pune, 40% hike, senior SDE",
    },
    {"session_id": "s2", "date": "2026-02-08T20:00:00+05:30"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "first week at paysetu done. shifted to pune, 2bhk in baner with a college "
        "friend jordan",
    },
]


def test_the_job_before_is_the_one_left_not_the_offer_since_taken_up(
    memory: Memory, user: str, tmp_path: Path
):
    """An offer, then the first week there: the offer's card is replaced by a later word
    of the same employer, so only Flipkart is where the user worked before, at ingest,
    after consolidate and a quiet year later."""
    ingest_file(memory, write_chat(tmp_path, TWO_STEPS_TO_A_NEW_JOB), user, progress=False)
    for moment in (None, "2026-02-20", "2027-02-20"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "flipkart" in top(memory, user, "where did i work before")[0], moment
        assert "paysetu" in top(memory, user, "where do i work now")[0], moment
        assert "pune" in top(memory, user, "where do i live now")[0], moment


def test_a_correction_answers_before_what_it_corrects(memory: Memory, user: str, tmp_path: Path):
    """ "sorry, correction: the dentist is on the 14th, not the 12th": asked later,
    the message that corrects comes first, though the first one says as much; at
    ingest, after a consolidate and a year on."""
    rows = [
        {"session_id": "d1", "date": "2025-03-01T09:00:00+00:00"},
        {
            "session_id": "d1",
            "turn": 0,
            "speaker": "user",
            "text": "booked the dentist for the 12th of march, the cleaning one",
        },
        {"session_id": "d1", "turn": 1, "speaker": "assistant", "text": "Noted, the 12th!"},
        {"session_id": "d2", "date": "2025-03-03T09:00:00+00:00"},
        {
            "session_id": "d2",
            "turn": 0,
            "speaker": "user",
            "text": "sorry, correction: the dentist is on the 14th, not the 12th",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    for moment in (None, "2025-03-10", "2026-03-10"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "14th" in top(memory, user, "when is my dentist appointment?")[0], moment


def test_a_new_job_a_suburb_and_someone_met_in_passing(memory: Memory, user: str, tmp_path: Path):
    """A chat typed as people type it: the boss at the old job, a man met at the gym, then
    a flat in a suburb spaCy calls a person and a job begun. At ingest, after a
    consolidate and a year on: the new job answers "now", the boss is a former one, the
    man met is a person, the suburb is no one."""
    rows = [
        {"session_id": "s1", "date": "2025-02-03T20:10:00+11:00"},
        {
            "session_id": "s1",
            "turn": 0,
            "speaker": "user",
            "text": "ugh craig (my boss at salt media) made us redo the whole pitch AGAIN. "
            "also met this guy named kevin at the climbing gym, hes hilarious",
        },
        {
            "session_id": "s1",
            "turn": 1,
            "speaker": "assistant",
            "text": "Long day! Kevin sounds fun.",
        },
        {"session_id": "s2", "date": "2025-05-10T09:00:00+10:00"},
        {
            "session_id": "s2",
            "turn": 0,
            "speaker": "user",
            "text": "big update: we got a flat in marrickville!! its a bit of a trek from "
            "Marrickville to the city but whatever. and i started at bondi bottle co on the 1st",
        },
        {"session_id": "s2", "turn": 1, "speaker": "assistant", "text": "Congrats on both!"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    for moment in (None, "2025-05-20", "2026-05-20"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "bondi bottle co" in top(memory, user, "where do i work rn")[0], moment
        people = {p.name: p.relationship for p in memory.people(user) if p.name != SELF}
        assert people == {"Craig": "former manager", "Kevin": None}, moment


def test_a_chinese_and_english_chat_of_a_coworker_leaving_a_new_boss_and_a_new_guy(
    memory: Memory, user: str, tmp_path: Path
):
    """Typed as a new user would: a coworker named by the office who quits, a dog named
    in brackets, a sister by her given name, a new boss by title then full name, then in
    English a breakup and someone new. Every turn of both speakers is kept; at ingest,
    after a consolidate and a year on, the people are who they are and "now" finds him."""
    rows = [
        {"session_id": "s1", "date": "2025-03-02T21:10:00+08:00"},
        {
            "session_id": "s1",
            "turn": 0,
            "speaker": "user",
            "text": "今天累死了 我们办公室小周说下个月不干了 要去深圳 "
            "阿黄(我家狗)又把拖鞋咬烂了 哈哈",
        },
        {
            "session_id": "s1",
            "turn": 1,
            "speaker": "assistant",
            "text": "辛苦啦！阿黄真是调皮😄 给它买个耐咬的玩具吧，比如KONG。",
        },
        {
            "session_id": "s1",
            "turn": 2,
            "speaker": "user",
            "text": "嗯嗯 我妹晓琳说她周末过来 顺便帮我看看新房子",
        },
        {"session_id": "s2", "date": "2025-04-20T20:00:00+08:00"},
        {
            "session_id": "s2",
            "turn": 0,
            "speaker": "user",
            "text": "小周也跳槽了 今天最后一天 新来的领导是赵总，赵建国 挺严的",
        },
        {"session_id": "s2", "turn": 1, "speaker": "assistant", "text": "新领导严格一点也好。"},
        {
            "session_id": "s2",
            "turn": 2,
            "speaker": "user",
            "text": "so connor and i broke up lol. been seeing this guy, his names mateo, "
            "met him at the gym",
        },
    ]
    report = ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert report.speakers["user"].turns == 4
    assert report.speakers["assistant"].turns == 2
    assert not any(t.skipped for t in report.speakers.values())  # nothing said is dropped
    for moment in (None, "2025-04-30", "2026-04-30"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        people = {p.name: p.relationship for p in memory.people(user) if p.name != SELF}
        assert people == {
            "小周": "前同事",
            "阿黄": "狗",
            "晓琳": "妹妹",
            "赵总": "领导",
            "Connor": "ex",
            "Mateo": "boyfriend",
        }, moment
        assert "mateo" in top(memory, user, "who am i seeing now")[0], moment
        assert "KONG" in " ".join(top(memory, user, "你推荐给阿黄的玩具是什么", k=3)), moment


BARMAN = [
    {"session_id": "jan", "date": "2026-01-10T23:30:00Z"},
    {
        "session_id": "jan",
        "speaker": "user",
        "text": "just in from a mental shift at doyle's, declan the manager had me on the bar "
        "on me own for two hours. me and aoife have till end of march to get out of the gaff",
    },
    {
        "session_id": "jan",
        "speaker": "assistant",
        "text": "Rough night! Are you and Aoife looking?",
    },
    {"session_id": "feb", "date": "2026-02-20T22:00:00Z"},
    {
        "session_id": "feb",
        "speaker": "user",
        "text": "also me and aoife are finished. she wants to move back to galway",
    },
    {
        "session_id": "feb",
        "speaker": "user",
        "text": "good news for once. got offered head barman at kavanagh's in stoneybatter and "
        "i said yes!! start first of april",
    },
    {"session_id": "feb", "speaker": "assistant", "text": "Congrats on Kavanagh's!"},
    {"session_id": "may", "date": "2026-05-02T21:00:00Z"},
    {
        "session_id": "may",
        "speaker": "user",
        "text": "mossy, me best mate, is headin to sydney in june, says i should come. nah",
    },
    {
        "session_id": "may",
        "speaker": "assistant",
        "text": "Sounds like Mossy is off on an adventure.",
    },
    {
        "session_id": "may",
        "speaker": "user",
        "text": "攞咗將軍澳新屋鎖匙啦 🔑 終於唔使再喺觀塘同人夾屋住！",
    },
]


def test_a_barmans_new_job_breakup_and_best_mate_hold_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """A chat typed as people type it, Irish English and a Cantonese line: every turn of
    both speakers is kept, and the new job (an offer said yes to), the old one (only ever a
    shift), the ex, the best mate and the homes answer "now" and "before" at ingest, after
    a consolidate and a quiet year later."""
    report = ingest_file(memory, write_chat(tmp_path, BARMAN), user, progress=False)
    assert report.speakers["user"].turns == 5
    assert report.speakers["assistant"].turns == 3
    said = turns_cited(memory, user)
    assert len(said) == len([r for r in BARMAN if "speaker" in r])
    for moment in (None, "2026-05-03", "2027-05-03"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        people = {p.name: p.relationship for p in memory.people(user)}
        assert people["Aoife"] == "ex", moment
        assert people["Mossy"] == "best friend", moment
        assert "kavanagh's" in top(memory, user, "where am i workin now")[0].lower(), moment
        assert "doyle's" in top(memory, user, "where did i work before")[0].lower(), moment
        assert "將軍澳" in top(memory, user, "我而家住邊度")[0], moment
        assert "觀塘" in top(memory, user, "我搬屋之前住邊度")[0], moment


def test_a_sentence_without_a_verb_the_tagger_knows_is_still_kept(
    memory: Memory, user: str, tmp_path: Path
):
    """Pidgin's "na" and "dey" are no verbs to the English tagger: the second sentence of
    "crestview is good so far. my boss na mrs okonkwo, head of tax, ..." is a card of its
    own all the same, and it answers who the boss is now."""
    rows = [
        {"session_id": "a", "date": "2025-01-19T20:00:00Z"},
        {
            "session_id": "a",
            "turn": 0,
            "speaker": "user",
            "text": "the thing be say mr adebayo (the partner, my boss) no dey rate anybody",
        },
        {"session_id": "b", "date": "2025-04-13T20:00:00Z"},
        {
            "session_id": "b",
            "turn": 0,
            "speaker": "user",
            "text": "crestview is good so far. my boss na mrs okonkwo, head of tax, very sharp "
            "woman, no dey shout like adebayo",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, format="conversation", progress=False)
    facts = [c.fact for c in memory.cards(user)]
    assert any(f.startswith("my boss na mrs okonkwo, head of tax") for f in facts)
    assert "okonkwo" in memory.recall(user, "who's my boss now?", k=3)[0].card.fact


def test_a_name_asked_by_a_relationship_word_is_the_card_that_told_who_they_are(
    memory: Memory, user: str, tmp_path: Path
):
    """ "what's the dog called?" is answered where the dog was named ("Bonnie, our
    westie"), not where someone "call[s] it" something."""
    rows = [
        {"session_id": "a", "date": "2025-04-06T20:00:00Z"},
        {
            "session_id": "a",
            "turn": 0,
            "speaker": "user",
            "text": "Tam's no great though. My old pal Tam Reid, he's in Gartnavel wi his "
            "chest, COPD they call it. Went up to see him Sunday.",
        },
        {"session_id": "b", "date": "2025-05-25T20:00:00Z"},
        {
            "session_id": "b",
            "turn": 0,
            "speaker": "user",
            "text": "The money saved will be a shock. Bonnie, our westie, will be happy, the "
            "wife says she'll get her walks back.",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, format="conversation", progress=False)
    assert "Bonnie" in memory.recall(user, "what's the dog called?", k=3)[0].card.fact


def test_a_lagos_accountants_chat_holds_after_a_consolidate_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """Typed as a new user would, in Nigerian English: a boss in brackets, a new boss in
    Pidgin, a westie, a count that grew. After a default consolidate, asked over a year
    later (the test runs long after 2025), each question still has its answer first, and
    the people table says who is who now."""
    said = [
        ("jan", "user", "long week o. mr adebayo (the partner, my boss) no dey rate anybody"),
        ("jan", "assistant", "That sounds frustrating. I'd suggest the book 'The First 90 Days'."),
        ("jan", "user", "Bonnie, our westie, is snoring on my feet lol. we have 1200 clients"),
        ("apr", "user", "crestview is good so far. my boss na mrs okonkwo, head of tax"),
        ("apr", "assistant", "A sharp boss who doesn't shout is a good change, Chinedu."),
        ("apr", "user", "abeg we are on 1800 clients now, e don do"),
    ]
    days = {"jan": "2025-01-19T20:00:00Z", "apr": "2025-04-13T20:00:00Z"}
    rows: list[dict[str, object]] = []
    for session, day in days.items():
        rows.append({"session_id": session, "date": day})
        turns = [(speaker, text) for s, speaker, text in said if s == session]
        rows += [
            {"session_id": session, "turn": i, "speaker": speaker, "text": text}
            for i, (speaker, text) in enumerate(turns)
        ]
    ingest_file(memory, write_chat(tmp_path, rows), user, format="conversation", progress=False)
    memory.consolidate(user)

    def top(question: str) -> str:
        return memory.recall(user, question, k=3)[0].card.fact

    assert "okonkwo" in top("who's my boss now?")
    assert "Bonnie" in top("what's the dog called?")
    assert "1800" in top("how many clients are we on now?")
    assert "First 90 Days" in top("what book did you suggest?")
    held = {p.name: p.relationship for p in memory.people(user) if p.name != SELF}
    assert held == {"Adebayo": "former manager", "Bonnie": "dog", "Okonkwo": "boss"}


def test_a_run_on_message_keeps_what_follows_the_words_a_card_took(
    memory: Memory, user: str, tmp_path: Path
):
    """Chat without full stops makes one sentence of a whole message, ended by "???"
    that asks nothing: a card of its first words no longer covers the rest, which is
    kept (a faithful span of the turn) and answers where the user lives now."""
    rows = [
        {"session_id": "a", "date": "2025-03-15T22:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "its a dead sunday at the rusty anchor which is the dive bar i work at in "
            "bushwick lol",
        },
        {"session_id": "b", "date": "2025-07-20T11:00:00Z"},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "hi bestie its ur favorite bartender 💅 big updates i MOVED jules and i got "
            "a 2br in astoria got the keys on the 1st its near ditmars and the N train and its "
            "so much nicer than bushwick ngl we have a balcony???",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    kept = [c for c in memory.cards(user) if c.source is not None and "astoria" in c.fact]
    assert kept, [c.fact for c in memory.cards(user)]
    for card in kept:
        assert card.source is not None
        assert card.source.span is not None
        said = card.source.text[slice(*card.source.span)]
        assert card.fact.lower().rstrip("?") == said.lower().rstrip("?")
    assert "astoria" in top(memory, user, "what neighborhood do i live in rn")[0].lower()


def test_what_you_suggested_asked_verb_first_in_hinglish_or_in_cantonese_is_your_reply(
    memory: Memory, user: str, tmp_path: Path
):
    """ "kaunsi batayi thi tune" (which did you tell), "你之前推介嗰本書": the assistant's
    reply answers, not the user's own words of the topic."""
    rows = [
        {"session_id": "a", "date": "2025-01-22T21:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "ok random request, koi book batao jo residency ke baare mein ho, funny wali",
        },
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "Try 'The House of God' by Samuel Shem, a darkly funny classic about intern "
            "year.",
        },
        {"session_id": "a", "speaker": "user", "text": "有冇咩好書 about money, 我儲咗啲錢"},
        {
            "session_id": "a",
            "speaker": "assistant",
            "text": "I'd recommend 'The Psychology of Money' by Morgan Housel.",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    asked = top(memory, user, "residency wali funny book kaunsi batayi thi tune")[0]
    assert "House of God" in asked
    assert "Psychology of Money" in top(memory, user, "你之前推介嗰本理財書叫咩")[0]


def test_where_the_user_is_from_is_a_slot_no_move_changes(
    memory: Memory, user: str, tmp_path: Path
):
    """ "born and bred in braunstone me", "我就是乐山人": where the user comes from answers
    "where am i from originally" and "我老家哪里的" though later turns say where they
    live now and name other places."""
    rows = [
        {"session_id": "a", "date": "2025-07-06T19:00:00Z"},
        {
            "session_id": "a",
            "speaker": "user",
            "text": "bradgate park is mint, used to go there as a kid with my nan. born and bred "
            "in braunstone me, we went every bank holiday",
        },
        {"session_id": "b", "date": "2025-08-10T19:00:00Z"},
        {
            "session_id": "b",
            "speaker": "user",
            "text": "me and shannon got the keys to the house in wigston on saturday!! moved "
            "everything out of my flat in belgrave",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "braunstone" in top(memory, user, "where am i from originally")[0].lower()
    # the flat moved out of is where they were, not where they are
    assert "wigston" in top(memory, user, "where do i live now")[0].lower()
    chinese = [
        {"session_id": "c", "date": "2025-06-10T20:00:00Z"},
        {
            "session_id": "c",
            "speaker": "user",
            "text": "那就先放我爸妈那儿吧 他们在乐山 我就是乐山人 我妈可喜欢馒头了",
        },
        {"session_id": "d", "date": "2025-10-08T20:00:00Z"},
        {"session_id": "d", "speaker": "user", "text": "国庆去了一趟成都 吃了四顿火锅 胖了三斤"},
    ]
    other = f"{user}-zh"
    (tmp_path / "zh").mkdir()
    ingest_file(memory, write_chat(tmp_path / "zh", chinese), other, progress=False)
    assert "乐山人" in top(memory, other, "我老家哪里的")[0]


def test_a_named_day_asked_about_something_is_answered_by_the_turn_that_says_it(
    memory: Memory, user: str
):
    """A farmer's chat (a dev set): "on march 30th what did i say my a1c was" is answered
    by that day's turn with the a1c, not the day's first turn; "what did we talk about
    on march 30th" still reads the day from its start."""
    chat = Path(__file__).parent.parent / "bench/data/chats/life-changes/dev5/farmer_iowa.jsonl"
    ingest_file(memory, chat, user, progress=False)
    assert "7.1" in top(memory, user, "on march 30th what did i say my a1c was")[0]
    assert "grief group" in top(memory, user, "what did we talk about on march 30th")[0]


ROSA = [
    {"session_id": "a", "date": "2025-03-02T21:00:00Z"},
    {
        "session_id": "a",
        "speaker": "user",
        "text": "hi! first time using this lol. im rosa, sous chef at a little tapas place "
        "called olivo. im from valencia but been in leeds 6 years. my head chef marta is "
        "tough but fair",
    },
    {
        "session_id": "a",
        "speaker": "assistant",
        "text": "Nice to meet you, Rosa! Olivo sounds lovely. What would you like help with?",
    },
    {"session_id": "b", "date": "2025-06-15T21:00:00Z"},
    {
        "session_id": "b",
        "speaker": "user",
        "text": "ok so danny asked me to be his girlfriend last night 🥹 we met at the "
        "climbing wall in march",
    },
    {
        "session_id": "b",
        "speaker": "assistant",
        "text": "That's lovely news! For a first proper date, try Tharavadu for Keralan food.",
    },
    {"session_id": "c", "date": "2025-09-20T21:00:00Z"},
    {
        "session_id": "c",
        "speaker": "user",
        "text": "i took the head chef job at brasa in chapel allerton!! first shift friday. "
        "marta was lovely about it, she gave me her old knife roll",
    },
    {
        "session_id": "c",
        "speaker": "assistant",
        "text": "Congratulations, head chef Rosa! Brasa is lucky to have you.",
    },
    {"session_id": "d", "date": "2025-12-20T21:00:00Z"},
    {
        "session_id": "d",
        "speaker": "user",
        "text": "going home to valencia for christmas, danny is coming to meet my parents 😬",
    },
]


def test_a_cooks_year_asked_now_and_a_year_on(memory: Memory, user: str, tmp_path: Path):
    """Tried as a new user would, in plain chat: where she is from, the boyfriend who
    asked her, the job she took and the restaurant the assistant suggested, at ingest,
    after a default consolidate and a quiet year later. Every turn is kept."""
    report = ingest_file(memory, write_chat(tmp_path, ROSA), user, progress=False)
    assert report.speakers["user"].turns == 4
    assert report.speakers["assistant"].turns == report.speakers["assistant"].kept == 3
    people = {p.name: p.relationship for p in memory.people(user)}
    assert people["Danny"] == "boyfriend"
    for moment in (None, "2026-01-10", "2027-01-10"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "valencia" in top(memory, user, "where am i from originally")[0], moment
        assert "danny" in top(memory, user, "whats my boyfriends name")[0], moment
        assert "brasa" in top(memory, user, "where do i work now")[0], moment
        asked = top(memory, user, "what restaurant did you suggest for a date")[0]
        assert "Tharavadu" in asked, moment


@pytest.mark.xfail(
    strict=False,
    reason="'a little tapas place called olivo' is read as no employer, so 'before brasa' "
    "finds the turn that says Brasa; and 'took the head chef job at brasa ... first shift "
    "friday' is not read as a new job, so Marta stays the head chef, not a former one",
)
def test_a_cooks_old_kitchen_and_old_head_chef(memory: Memory, user: str, tmp_path: Path):
    ingest_file(memory, write_chat(tmp_path, ROSA), user, progress=False)
    assert "olivo" in top(memory, user, "where did i work before brasa")[0]
    assert {p.name: p.relationship for p in memory.people(user)}["Marta"] == "former head chef"


PUP = [
    {"session_id": "jun", "date": "2025-06-21T10:00:00+09:00"},
    {
        "session_id": "jun",
        "speaker": "user",
        "text": "OKAY so i did a thing. adopted a pup from the shelter 🐶 jindo mix, 5 months,"
        " called him dubu",
    },
    {
        "session_id": "jun",
        "speaker": "assistant",
        "text": "Congrats! Reward calm behaviour and keep walks long. For a great read, try"
        " 'The Other End of the Leash' by Patricia McConnell.",
    },
    {
        "session_id": "jun",
        "speaker": "user",
        "text": "jiyeon from work offered to dog sit when i fly home for it",
    },
    {
        "session_id": "jun",
        "speaker": "assistant",
        "text": "What a good friend! Leave her a little care sheet for the dog: feeding times,"
        " walk routine, and the vet's number.",
    },
]


def test_the_dog_book_you_told_me_about_is_the_reply_that_names_one(
    memory: Memory, user: str, tmp_path: Path
):
    """Asked which book the assistant suggested, a reply that names or suggests nothing
    ("leave her a little care sheet for the dog") shares "dog" with the question but
    comes after the one that names a book; the dog's name is in the turn that says she is
    the user's dog, not in the one that uses "dog" as a word ("offered to dog sit")."""
    ingest_file(memory, write_chat(tmp_path, PUP), user, progress=False)
    assert (
        "Other End of the Leash" in top(memory, user, "what was that dog book you told me about")[0]
    )
    assert "dubu" in top(memory, user, "whats my dog called again")[0]


def test_a_fault_of_the_rules_on_one_turn_loses_nothing(monkeypatch, caplog):
    """Should the rules fail on a turn (a bug), that turn is kept as said and logged, and
    the rest of the chat is read as usual: one odd message never costs the whole chat."""
    from ingestion.extract import Extractor

    extractor = Extractor("u1")
    read = extractor._turn_cards

    def failing(turn, doc, code):
        if "leith" in turn.text:
            raise IndexError("a bug in a rule")
        return read(turn, doc, code)

    monkeypatch.setattr(extractor, "_turn_cards", failing)
    turns = [
        {
            "session_id": "s",
            "turn": 0,
            "speaker": "user",
            "text": "we got a flat in leith!!",
            "session_date": "2025-03-04",
        },
        {
            "session_id": "s",
            "turn": 1,
            "speaker": "user",
            "text": "my sister anna is visiting",
            "session_date": "2025-03-04",
        },
    ]
    cards = extractor.conversation(turns)
    assert any("leith" in c.fact for c in cards)
    assert extractor.registry.get("Anna") is not None
    assert "kept as said" in caplog.text
    assert extractor.speakers["user"].kept == 1
    assert extractor.speakers["user"].failed == 1  # and the report says so
    from graphmem.cli.ingest import _tally

    assert _tally(extractor.speakers["user"]) == (
        "2 turns: 1 read, 1 kept as said (1 the rules failed on: see the log), 0 skipped; "
        f"{extractor.speakers['user'].cards} cards"
    )


RUTH = [
    {"session_id": "mar", "date": "2026-03-07T10:00:00-05:00"},
    {
        "session_id": "mar",
        "speaker": "user",
        "text": "Good morning. We have lived in this house on Elm Street since 1971 and I "
        "finally want to do something with the back garden. I taught third grade for 34 years.",
    },
    {
        "session_id": "mar",
        "speaker": "assistant",
        "text": "What a project! For a first read, try 'The Well-Tempered Garden' by "
        "Christopher Lloyd, it is wonderful on planning a mixed border.",
    },
    {
        "session_id": "mar",
        "speaker": "user",
        "text": "My granddaughter Emma says I should just do raised beds for the garden.",
    },
    {
        "session_id": "mar",
        "speaker": "assistant",
        "text": "Emma has a point! Raised beds are easy on the back and the knees.",
    },
    {"session_id": "apr", "date": "2026-04-18T15:00:00-04:00"},
    {
        "session_id": "apr",
        "speaker": "user",
        "text": "Back home in Dayton for my sister's birthday 🎂 the old street looks so small now",
    },
    {"session_id": "apr", "speaker": "assistant", "text": "How lovely. Happy birthday to her!"},
]


def test_a_retired_teachers_chat_holds_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's plain chat, as a retired teacher writes it: a house lived in since
    1971 lands dated then, "back home in dayton" is where she is from, and the book the
    assistant suggested is its reply with the title, not the later one that only shares
    "garden"; at ingest, after consolidate and a quiet year later, every turn kept."""
    report = ingest_file(memory, write_chat(tmp_path, RUTH), user, progress=False)
    assert report.speakers["user"].turns == 3
    assert report.speakers["assistant"].turns == 3
    said = turns_cited(memory, user)
    assert len(said) == 6
    house = [c for c in memory.cards(user) if "since 1971" in c.fact and "Elm" in c.fact]
    assert any(to_iso(c.timestamp).startswith("1971-01-01") for c in house)
    for moment in (None, "2026-05-01", "2027-05-01"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "dayton" in answer(memory, user, "where am i from?"), moment
        assert "well-tempered garden" in answer(
            memory, user, "what book did you suggest for the garden?"
        ), moment
        assert "elm street" in answer(memory, user, "how long have we lived in our house?"), moment


def _lease(clauses: int) -> str:
    """A tenancy agreement as a user pastes it into a chat: longer than a card's fact."""
    rooms = ["kitchen", "bathroom", "hallway", "bedroom", "balcony", "cellar", "stairwell"]
    duties = ["clean", "repair", "inspect", "repaint", "air", "report damage in"]
    lines = [
        f"{n}. The tenant shall {duties[n % len(duties)]} the {rooms[n % len(rooms)]} "
        f"every {n % 11 + 2} weeks and note it in logbook page {n * 7}."
        for n in range(1, clauses + 1)
    ]
    lines[clauses // 2] = (
        f"{clauses // 2 + 1}. The deposit of 2,400 euros is returned within 30 days of the "
        "end of the lease, less the cost of any repair."
    )
    return "here is the lease they sent me, can you keep it:\n\n" + "\n".join(lines)


def test_a_pasted_text_longer_than_a_fact_is_kept_and_found(
    memory: Memory, user: str, tmp_path: Path
):
    """A turn longer than a card's fact (a pasted lease) is kept as said in pieces, each
    citing its place in the turn; the chat around it is read as usual, and nothing of it
    is refused (before, the whole chat was refused for that one turn)."""
    lease = _lease(300)
    assert len(lease) > 20_000
    rows = [
        {"session_id": "s1", "date": "2025-02-10T19:00:00Z"},
        {"session_id": "s1", "speaker": "user", "text": lease},
        {"session_id": "s1", "speaker": "assistant", "text": "Got it, the lease is saved."},
        {"session_id": "s1", "speaker": "user", "text": "signed it! moving in on march 1"},
    ]
    path = write_chat(tmp_path, rows)
    report = ingest_file(memory, path, user, progress=False)
    assert report.speakers["user"].turns == 2
    assert report.speakers["user"].kept == 1  # the lease, in pieces
    assert report.speakers["user"].read == 1

    (hit,) = memory.recall(user, "when do I get my deposit back?", k=1)
    assert "within 30 days" in hit.card.fact
    source = hit.card.source
    assert source is not None
    assert source.span is not None
    assert source.text == lease
    assert " ".join(lease[source.span[0] : source.span[1]].split()) == hit.card.fact

    again = ingest_file(memory, path, user, progress=False)
    assert again.created == 0


LEITH = [
    {"session_id": "sep", "date": "2025-09-02T19:00:00Z"},
    {
        "session_id": "sep",
        "speaker": "user",
        "text": "moved into the new flat in leith!! mr okafor the landlord seems sound, and herr "
        "braun downstairs has a dachshund called kaiser lol",
    },
    {"session_id": "sep", "speaker": "assistant", "text": "Congrats on the move to Leith!"},
    {"session_id": "sep", "speaker": "user", "text": _lease(300)},
    {"session_id": "sep", "speaker": "assistant", "text": "Saved. The deposit is in clause 151."},
]


def test_a_new_flat_its_landlord_and_its_lease_hold_now_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """Tried as a new user would: a move told in plain chat, the landlord named by his
    title and role, a neighbour by his title, the lease pasted whole. At ingest, after a
    consolidate and a quiet year later: every turn is cited, the landlord is a landlord
    (the move that named him does not make him a former one), the neighbour is a person
    known as Herr Braun, and the lease answers what it says."""
    report = ingest_file(memory, write_chat(tmp_path, LEITH), user, progress=False)
    assert report.speakers["user"].kept == 1  # the lease, too long to read, kept in pieces
    assert len(turns_cited(memory, user)) == 4
    for moment in (None, "2025-09-03", "2026-09-03"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        people = {p.name: p for p in memory.people(user)}
        assert people["Okafor"].relationship == "landlord", moment
        assert "Herr Braun" in people["Braun"].aliases, moment
        assert "leith" in answer(memory, user, "where do i live now?"), moment
        assert "okafor" in answer(memory, user, "who is my landlord?"), moment
        assert "within 30 days" in answer(memory, user, "when do I get my deposit back?"), moment


PUP_AND_EMAIL = [  # a new user: a coworker's boyfriend in passing, an email late in a long turn
    {"session_id": "s1", "date": "2026-02-10T20:00:00+00:00"},
    {
        "session_id": "s1",
        "speaker": "user",
        "text": "mate my back is cooked after the gym. megan, my coworker from the depot, is "
        "moving to leeds next month. her boyfriend austin is staying here tho",
    },
    {
        "session_id": "s1",
        "speaker": "assistant",
        "text": "Ouch! For the back, try cat-cow and child's pose morning and night.",
    },
    {"session_id": "s2", "date": "2026-05-02T09:00:00+00:00"},
    {
        "session_id": "s2",
        "speaker": "user",
        "text": "Update from the weekend: we got a pup! A 10 week old collie cross from the "
        "shelter in Salford, black and white, the kids named her Pickle because apparently "
        "she looks like one (she does a bit). She has already eaten one of my slippers, a "
        "tennis ball and half the doormat, and the cat is furious about all of it. Also my "
        "old email finally got shut down so I've got a new one, it's sam.k.rivers@gmail.com, "
        "the old one was samk@xtra.co.nz, had it since 2003 RIP",
    },
]


def test_a_new_users_long_turn_and_a_coworkers_boyfriend_hold_at_ingest_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """A coworker's boyfriend said in passing is kept as hers; the new email said at the
    end of a turn longer than a piece is shown from the piece that holds it; "our first
    convo" opens with the back. At ingest, after a consolidate and a quiet year on."""
    ingest_file(memory, write_chat(tmp_path, PUP_AND_EMAIL), user, progress=False)
    assert len(turns_cited(memory, user)) == len([r for r in PUP_AND_EMAIL if "speaker" in r])
    people = {p.name: p.relationship for p in memory.people(user) if p.name != SELF}
    assert (people.get("Megan"), people.get("Austin")) == ("coworker", "coworker's boyfriend")
    for moment in (None, "2026-05-03", "2027-05-03"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert "sam.k.rivers@gmail.com" in answer(memory, user, "what's my email now?"), moment
        assert "samk@xtra.co.nz" in answer(memory, user, "what was my old email?"), moment
        first = answer(memory, user, "what did we chat about back in our first convo?")
        assert "back is cooked" in first, moment
        assert "cat-cow" in answer(memory, user, "what stretches did you suggest?"), moment
