"""The people table from chat as people type it: a relationship noun and a name linked by
the parse however the sentence puts them (a compound, an apposition on either side, a
copula, a name marker, "next door"), a name only with evidence of being one, and the
changes that follow from what happens (a new manager, a move, leaving a job). Real spaCy;
the last test ingests into the embedded FalkorDB and reads ``Memory.people``."""

from __future__ import annotations

from graphmem.models import TURN
from ingestion.extract import Extractor
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


def people(*turns: tuple[str, str], sessions: int = 1) -> dict[str, str | None]:
    """The people table an extractor keeps after (speaker, text) turns, one session each
    when ``sessions`` > 1, else one session for all."""
    extractor = Extractor("u1")
    rows = []
    for i, (speaker, text) in enumerate(turns):
        day = f"2025-03-{(i if sessions > 1 else 0) + 1:02d}"
        rows.append(
            {"session_id": day, "turn": i, "speaker": speaker, "text": text, "session_date": day}
        )
    extractor.conversation(rows)
    return {r.name: r.relationship for r in extractor.registry}


def test_a_name_beside_a_relationship_noun_with_no_my():
    """ "roommate vikram" (the noun compounded into the name), "a college friend jordan"
    (the name in apposition: a dictionary word, a name because the assistant writes it
    "Jordan"); moving out, said as done, ends living together except with whom the move
    says."""
    assert people(
        ("user", "my PG is trash anyway. roommate vikram just got into google so hes leaving"),
        ("user", "first week done. shifted to pune, 2bhk in baner with a college friend jordan"),
        ("assistant", "Congrats on the move! How is it sharing a flat with Jordan?"),
    ) == {"Vikram": "former roommate", "Jordan": "college friend"}


def test_a_manager_named_after_a_copula_or_in_apposition_and_the_next_one():
    """ "manager would be sandeep", "sandeep, my manager, announced", then "new manager is
    farah": the manager's role passes on, Sandeep keeps it in his history."""
    assert people(
        ("user", "team was nice. manager would be sandeep, he seemed solid"),
        ("user", "sandeep, my manager, announced on day 3 that hes leaving for a startup"),
        ("user", "new manager is farah from the payments team"),
    ) == {"Sandeep": "former manager", "Farah": "manager"}


def test_a_word_after_a_copula_is_no_name():
    """ "chill" is a dictionary word written in lower case: an adjective said of the
    manager, nobody's name; "sandeep" is in no dictionary."""
    assert people(("user", "maybe. my manager is chill tho. i need the money")) == {}
    assert people(("user", "my manager is sandeep, he seemed solid")) == {"Sandeep": "manager"}


def test_code_switched_words_beside_a_relationship_are_no_names():
    assert (
        people(
            ("user", "haan resign kar diya. manager thoda upset tha par theek hai"),
            ("user", "my ward manager is strict pero fair"),
        )
        == {}
    )


def test_a_title_and_a_name_after_the_noun_and_someone_placed_next_door():
    got = people(
        ("user", "to top it off the doctor Dr Patel rang with my blood results"),
        ("user", "oh and Devon next door, lovely lad, hes just started as a porter"),
    )
    assert got == {"Patel": "doctor", "Devon": "neighbour"}


def test_a_neighbour_is_a_former_one_once_the_user_has_the_keys_to_a_new_place():
    assert people(
        ("user", "oh and Devon next door, lovely lad, hes going to help me with boxes"),
        ("user", "well im IN. got the keys on monday, 3 Riverside Close, Otley"),
        sessions=2,
    ) == {"Devon": "former neighbour"}


def test_a_name_marker_after_the_noun_and_leaving_the_job():
    """Taglish: "new manager na kami, si tasha" (the marker "si" before the name) makes
    Tasha the manager and Brenda the former one; the user's last shift, said as done,
    makes the people of that job former ones."""
    before = people(
        ("user", "my manager brenda is retiring end of the month"),
        (
            "user",
            "update!! new manager na kami, si tasha. she's ok i guess, very strict with charting",
        ),
        ("user", "my coworker sydney got a job at grace hospital last month"),
    )
    assert before == {"Brenda": "former manager", "Tasha": "manager", "Sydney": "coworker"}
    after = people(
        ("user", "my manager brenda is retiring end of the month"),
        (
            "user",
            "update!! new manager na kami, si tasha. she's ok i guess, very strict with charting",
        ),
        ("user", "my coworker sydney got a job at grace hospital last month"),
        ("user", "i gave my notice to tasha today. last shift at HSC is jan 3"),
        sessions=4,
    )
    assert after == {
        "Brenda": "former manager",
        "Tasha": "former manager",
        "Sydney": "former colleague",  # ended in the canonical word
    }


def test_names_the_assistant_brought_up_and_words_that_open_a_sentence_are_no_people():
    """Singers the assistant recommended, echoed by the user, are not the user's people;
    nor is a holiday that opens a sentence with its capital."""
    assert (
        people(
            ("assistant", "Try these:\n1. Albert King: Born Under a Bad Sign.\n2. Al Green"),
            ("user", "Then a playlist with Albert King it is. She loves Al Green too"),
            ("user", "Good morning. Easter was wonderful. we made the lefse"),
        )
        == {}
    )


def test_a_doctor_named_by_title_or_by_specialty():
    """ "dr patel said" (typed in lower case, the assistant writing "Dr. Patel") is a
    doctor when nothing says more; "a neurologist, dr lavoie" says more; "a dr
    appointment" and "ok professor leonard", the lecturer the assistant brought up, name
    no one."""
    assert people(
        ("user", "went to the doctor for a physical and dr patel said my bp is 142/91"),
        ("assistant", "142/91 is stage 2 hypertension, so Dr. Patel wants you to act."),
        ("user", "yes actually, a neurologist, dr lavoie, on may 2. took 5 months to get in"),
        ("assistant", "For calc, try Professor Leonard on YouTube: full-length lectures."),
        ("user", "ok professor leonard. i have a dr appointment on friday too"),
    ) == {"Patel": "doctor", "Lavoie": "neurologist"}


def test_the_people_table_in_the_store(memory, user, tmp_path):
    """The whole path: a chat export ingested, ``Memory.people`` read back."""
    first, then = "2025-11-02", "2026-02-08"
    said = [
        (first, "user", "roommate vikram just got into google so hes leaving too"),
        (first, "user", "team was nice. manager would be sandeep, he seemed solid"),
        (then, "user", "shifted to pune, 2bhk with a college friend jordan"),
        (then, "assistant", "A new city and a flat with Jordan, big month!"),
        (then, "user", "sandeep, my manager, announced that hes leaving"),
        (then, "user", "new manager is farah from the payments team"),
        (then, "user", "my manager is chill tho"),
    ]
    rows = [
        {"session_id": first, "date": f"{first}T21:50:00+05:30"},
        *[
            {"session_id": day, "turn": i, "speaker": speaker, "text": text}
            for i, (day, speaker, text) in enumerate(said[:2])
        ],
        {"session_id": then, "date": f"{then}T22:10:00+05:30"},
        *[
            {"session_id": day, "turn": i, "speaker": speaker, "text": text}
            for i, (day, speaker, text) in enumerate(said[2:])
        ],
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    table = {p.name: p for p in memory.people(user) if p.name != "me"}
    assert {name: p.relationship for name, p in table.items()} == {
        "Vikram": "former roommate",
        "Sandeep": "former manager",
        "Jordan": "college friend",
        "Farah": "manager",
    }
    assert table["Sandeep"].relationship_history == ["manager"]


def test_place_names_and_a_word_opening_a_sentence_are_no_people():
    """A name with a place word in it is a place; "Surgery" opens its
    sentence with a capital and is no one (the conversation never writes it as a name)."""
    assert (
        people(
            ("user", "Not great, I mostly sat. Surgery is set for June 11."),
            ("user", "Laurel Falls sounds good. my knee can take that"),
            ("user", "GOT IT!! St boniface cardiac, days, start date january 12"),
        )
        == {}
    )


def test_a_pet_got_with_the_we_dropped_is_the_pet_named_after_it():
    """ "were getting a DOG" (chat drops the "we"): the name given after it is the dog's,
    not the mom's said in between."""
    got = people(
        (
            "user",
            "update: also were getting a DOG. like my mom finally said yes. pitbull mix from "
            "the county shelter, her name is chispa bc shes crazy",
        )
    )
    assert got == {"Chispa": "dog", "Mom": "mom"}


def test_a_card_about_the_old_manager_named_beside_the_new_one_is_his():
    """ "sandeep, my manager, announced he's leaving ... new manager is farah": the
    announcement is Sandeep's card, not the manager's now."""
    extractor = Extractor("u1")
    turns = [
        "team was nice. manager would be sandeep, he seemed solid",
        "kinda chaotic. sandeep, my manager, announced on day 3 that hes leaving for a "
        "startup. new manager is farah from the payments team",
    ]
    cards = extractor.conversation(
        [
            {
                "session_id": "s",
                "turn": i,
                "speaker": "user",
                "text": t,
                "session_date": "2026-02-08",
            }
            for i, t in enumerate(turns)
        ]
    )
    cut = [c for c in cards if TURN not in c.tags]  # the turn kept whole aside
    assert [c.person for c in cut if "announced" in c.fact] == ["Sandeep"]


def test_a_dictionary_word_headed_by_a_relationship_noun_is_their_name():
    """ "cousin ray", "neighbour regina": the dictionary knows "ray" and "regina", but the
    parse makes each the subject, with the relationship noun before it."""
    assert people(
        ("user", "cousin ray moved to atlanta last mo. keeps sayin i should move down"),
        ("user", "c25k. fine. neighbour regina moved to calgary, dev is sad"),
    ) == {"Ray": "cousin", "Regina": "former neighbour"}  # she moved to calgary


def test_a_pet_got_as_chat_says_it_is_named_after_it():
    """ "got a cat lol" (the parse makes the cat the subject of "lol"), named later in the
    turn; "adopted a second dog. pickles." (the name a sentence of its own)."""
    assert people(("user", "got a cat lol. gray, big, named him tank. new spot allows pets")) == {
        "Tank": "cat"
    }
    assert people(("user", "adopted a second dog. pickles. beagle mix. from the shelter")) == {
        "Pickles": "dog"
    }
    assert people(("user", "we got a dog. amazing. she sleeps all day")) == {}


def test_a_name_typed_in_english_among_cantonese_ends_where_the_chinese_starts():
    """ "boss david 成日 last minute call meeting": the boss is David; 成日 ("always") is
    no part of his name. "我阿妹 cherry": the younger sister, as Hong Kong types it."""
    assert people(
        (
            "user",
            "im an associate in IBD at a french bank, 三年了, boss david 成日 last minute call "
            "meeting",
        ),
        ("user", "仲有 我阿妹 cherry 上個月 engaged 咗, 六月擺酒"),
    ) == {"David": "boss", "Cherry": "妹妹"}


def test_a_name_opening_a_message_before_my_and_a_relationship_is_theirs():
    """ "jonno my butty from school": no comma, and the parse makes "jonno" a verb; the
    assistant writes him "Jonno", so he is a name, and Welsh "butty" a friend. "ahh my
    boss is mad" opens with a sound no one writes with a capital. "my mam" is the
    mother, called Mam until named."""
    assert people(
        ("user", "jonno my butty from school just got a job with network rail"),
        ("assistant", "Good on Jonno! Network Rail is a solid employer."),
        ("user", "ahh my boss is mad today. my mam would be proud of me tho"),
    ) == {"Jonno": "friend", "Mam": "mother"}


def test_who_moved_away_or_left_work_as_the_turn_says_right_after_their_name():
    """ "neighbour regina moved to calgary", "jenna is moving out end of month": they no
    longer live beside the user; "ethan is leaving for the roastery": a former
    colleague; "i quit the cafe": the manager there is a former one. "kyle moved to the
    night shift" moves no one away."""
    assert people(
        ("user", "my neighbour regina is lovely. my roommate jenna left dishes again"),
        ("user", "neighbour regina moved to calgary, dev is sad"),
        ("user", "jenna is moving out end of month, she's moving in w her bf in kits"),
        ("user", "my coworker ethan is funny. kyle (my manager) moved to the night shift"),
        ("user", "ethan is leaving for the roastery lol"),
    ) == {
        "Regina": "former neighbour",
        "Jenna": "former roommate",
        "Ethan": "former colleague",
        "Kyle": "manager",
    }
    assert people(
        ("user", "kyle (my manager) says my latte art is improving"),
        ("user", "i quit the cafe. told kyle yesterday after my shift, it was my last one"),
    ) == {"Kyle": "former manager"}


def test_a_roommate_who_moves_with_the_user_stays_their_roommate():
    """ "jules and i moved to astoria" (the parse heads the move on "jules"): Jules moved
    with the user; "i moved to leeds" alone leaves a roommate behind."""
    assert people(
        ("user", "my roommate jules is great"), ("user", "jules and i moved to astoria")
    ) == {"Jules": "roommate"}
    assert people(("user", "my roommate jules is great"), ("user", "i moved to leeds")) == {
        "Jules": "former roommate"
    }
