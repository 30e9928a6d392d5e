"""People the user names in passing, the way chat names them: a name given to someone
spoken of by relationship a moment before ("my mom has it ... her name is min-ji"), the
name a question about them gets back ("how old is your son?" "hiro, he's 15"), a name
after "named"/"called" bound by the parse ("the teacher is named joan"), and a partner
who breaks up with the user. Real spaCy; the Memory test uses the embedded FalkorDB."""

from __future__ import annotations

import pytest

from graphmem.algorithms.conflicts import Claim, card_claim
from ingestion import relatives
from ingestion.extract import Extractor, load_nlp
from ingestion.people import PersonRegistry
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


def talk(*turns: tuple[str, str]) -> Extractor:
    """One session of (speaker, text) turns, read by one extractor."""
    extractor = Extractor("u1")
    extractor.conversation(
        [
            {
                "session_id": "2025-03-04",
                "turn": i,
                "speaker": speaker,
                "text": text,
                "session_date": "2025-03-04",
            }
            for i, (speaker, text) in enumerate(turns)
        ]
    )
    return extractor


def people(registry: PersonRegistry) -> dict[str, str | None]:
    return {r.name: r.relationship for r in registry}


def test_her_name_said_the_turn_after_names_the_mom_of_the_turn_before():
    """ "my mom" was known only by the word; "her name is min-ji" names her: one person,
    Min-ji, the mother (no "Mom" left beside her)."""
    extractor = talk(
        ("user", "i know braiding sweetgrass, my mom has it on her shelf actually"),
        ("assistant", "Borrow it from your mom! Does she read a lot of nature writing?"),
        (
            "user",
            "kind of? shes more into kdramas lol. her name is min-ji, she lives in sacramento",
        ),
    )
    assert people(extractor.registry) == {"Min-ji": "mom"}


def test_a_pet_named_in_the_same_turn_is_kept_as_a_pet():
    extractor = talk(
        (
            "user",
            "drying on my radiator next to my cat who thinks its a heated bed. her name is biscuit",
        ),
    )
    assert people(extractor.registry) == {"Biscuit": "cat"}
    assert "Biscuit" in extractor.pets


def test_named_and_called_go_to_whom_the_parse_says_they_name():
    extractor = talk(
        ("user", "the teacher is this older guy named hal who has been throwing for 40 years"),
        ("user", "first cycling lesson was on sunday!! the instructor was called bola"),
        ("user", "my grandma's name was ximena so everyone thinks that"),
    )
    assert people(extractor.registry) == {
        "Hal": "teacher",
        "Bola": "cycling instructor",
        "Ximena": "grandma",
    }


def test_someone_met_and_named_in_passing_is_a_person_and_a_role_held_for_the_user_says_who():
    """A guy, a fella or a dispatcher anyone may work with says nothing of who they are
    to the user; a preceptor sat with the user, or "my coworker", does."""
    extractor = talk(
        ("user", "met this guy named kevin at the climbing gym, hes hilarious"),
        ("user", "sat me with a preceptor called tom whos been there 20 yrs"),
        ("user", "ward 7 are getting a new manager, some fella called marcus from stepping hill"),
        ("user", "theyll have me shadowing a senior dispatcher named lorraine all week"),
        ("user", "my coworker named jess brought donuts"),
        ("user", "a guy called the police on the party next door lol"),
        ("user", "also reading a book called atomic habits"),
    )
    assert people(extractor.registry) == {
        "Kevin": None,
        "Tom": "preceptor",
        "Marcus": None,
        "Lorraine": None,
        "Jess": "coworker",
    }


def test_a_name_given_in_answer_to_a_question_about_someone():
    """The assistant asks about the user's son, daughter or twins; the name that comes
    back is theirs. A group gives each of its names the group's relationship."""
    extractor = talk(
        ("assistant", "And your son, the one who set this up, how old is he?"),
        ("user", "hiro, he's 15. grade 10."),
        ("user", "the hard part is my daughter eats breakfast at 7"),
        ("assistant", "Ha, waffle torture. How old is she?"),
        ("user", "mai is 6, first grade."),
        ("user", "ok the twins are FINALLY asleep."),
        ("assistant", "Congratulations! How old are the twins?"),
        ("user", "two and a half. ollie and rosie. theyre amazing and also feral lol."),
    )
    assert people(extractor.registry) == {
        "Hiro": "son",
        "Mai": "daughter",
        "Ollie": "child",
        "Rosie": "child",
    }


def test_one_word_answers_are_no_names():
    extractor = talk(
        ("user", "my brother is visiting"),
        ("assistant", "How are you feeling about it?"),
        ("user", "nervous. any tips?"),
        ("assistant", "What does he like?"),
        ("user", "books!! he reads like 15 a week"),
        ("assistant", "How was the visit?"),
        ("user", "good! he's staying 2 weeks"),
    )
    assert set(people(extractor.registry)) <= {"Brother"}


def test_someone_elses_people_before_a_relationship_are_no_name():
    extractor = talk(
        ("user", "everything. her students, my mama, her son marcus jr is in the army")
    )
    assert "Students" not in people(extractor.registry)


def test_words_for_parents_and_roles_typed_in_chat():
    extractor = talk(
        ("user", "my amma lakshmi makes the best rasam, can you give me a recipe?"),
        ("user", "also news from school. gordon, our department head, is retiring in june"),
    )
    assert people(extractor.registry) == {"Lakshmi": "mother", "Gordon": "department head"}


def test_a_girlfriend_who_breaks_up_with_the_user_is_an_ex(memory, user, tmp_path):
    rows = [
        {"session_id": "a", "date": "2025-03-01T20:00:00Z"},
        {
            "session_id": "a",
            "turn": 0,
            "speaker": "user",
            "text": "ok also my girlfriend mara wants to facetime later",
        },
        {"session_id": "b", "date": "2025-04-01T20:00:00Z"},
        {
            "session_id": "b",
            "turn": 0,
            "speaker": "user",
            "text": "mara broke up with me. like 2 hours ago",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    (mara,) = [p for p in memory.people(user) if p.name == "Mara"]
    assert (mara.relationship, mara.relationship_history) == ("ex-girlfriend", ["girlfriend"])


def test_shes_my_word_is_said_of_the_name_before_it():
    """ "she's my girlfriend" of the name the turn gave before the pronoun; an ended
    relationship ("my former roommate") ends the one known; a pet word keeps a pet."""
    extractor = talk(
        (
            "user",
            "i am. her mom and me split when she was 10, my ex rochelle, but we both pushed school",
        ),
        ("user", "ok so tanya and me, its official. she's my girlfriend lol. at 52."),
        ("user", "yeah my roommate camille works at a bar and slams doors"),
        (
            "user",
            "camille moved out on saturday. it's so quiet. she's officially my former roommate lol",
        ),
        ("user", "Well thank you dear, Pepper needs to go out. Shes my schnauzer, shes 11"),
    )
    assert people(extractor.registry) == {
        "Rochelle": "ex",
        "Tanya": "girlfriend",
        "Camille": "former roommate",
        "Pepper": "schnauzer",
    }
    assert "Pepper" in extractor.pets


def test_a_she_that_may_be_someone_named_by_a_word_is_not_read_back_to_a_name():
    """Between "Jo" and "she" comes "my sister": the pronoun may be hers, so the rule
    that reads "she's my <word>" back to a name says nothing."""
    doc = load_nlp()("Jo came over with my sister. she's my neighbour now")
    assert relatives.said_of_pronoun(doc) == []
    doc = load_nlp()("Jo came over at noon. she's my neighbour now")
    assert [(s.name, s.relationship) for s in relatives.said_of_pronoun(doc)] == [
        ("Jo", "neighbour")
    ]


def test_a_name_the_tagger_takes_for_a_verb_after_my_brother():
    extractor = talk(
        ("user", "and SHE is marrying my little brother sho next saturday!! december 6"),
        ("user", "ugh my boss hate me"),
    )
    assert people(extractor.registry) == {"Sho": "brother"}


def test_names_with_an_apostrophe_answer_a_question_about_pets():
    extractor = talk(
        ("user", "ok. the rabbits are at my feet being very gentle right now"),
        ("assistant", "Aw, they sense something. What are their names?"),
        ("user", "pita and za'atar. pita is a white lop and za'atar is a brown dwarf"),
        ("assistant", "Pita and Za'atar are lovely names."),
        ("assistant", "Give Pita and Za'atar a carrot from me!"),
    )
    assert people(extractor.registry) == {"Pita": "rabbit", "Za'atar": "rabbit"}


def test_code_switched_turns_name_people_through_the_same_readers():
    """Hinglish turns, read as English or kept as said (no claim rules read them), name
    the user's people by the same readers: a relationship in brackets among its first
    words ("riya (choti behen)"), "mera manager <name>" where the parse hangs the noun on
    the name (with the surname typed after it), and the new manager's arrival makes the
    old one former. (Tagalog turns are read by their own module, ``graphmem.lang.tl``.)"""
    extractor = talk(
        ("user", "honestly i dont mind. riya (choti behen) bolti hai bhaiya tum boring ho"),
        ("user", "zentrix mein kaam mast chal raha hai, mera manager arjun bahut supportive hai"),
        (
            "user",
            "baad mein. ek change hua ofifce mein, arjun ne resign kar diya, wo ek US company "
            "mein gaya. ab mera manager sneha iyer hai, pehle platform team lead thi",
        ),
    )
    assert people(extractor.registry) == {
        "Riya": "sister",
        "Arjun": "former manager",
        "Sneha Iyer": "manager",
    }


def test_a_relationship_word_opening_a_sentence_names_the_name_after_it():
    extractor = talk(
        ("user", "nah im good. coworker phoenix has been covering for me"),
        ("user", "haan resign kar diya. manager thoda upset tha par theek hai"),
    )
    assert people(extractor.registry) == {"Phoenix": "coworker"}


def test_relationships_are_compared_without_age_words_and_with_former_ones_alike():
    from graphmem.recall.mentions import canonical_relationship as same

    assert same("older sister") == same("sister") == "sister"
    assert same("former boss") == same("ex-manager") == "former manager"
    assert same("former neighbor") == same("former neighbour")


def test_cards_said_before_a_name_are_about_the_person_named_later(memory, user, tmp_path):
    """ "my mom has it on her shelf" is said before "her name is min-ji": the people
    table holds Min-ji alone, and the card about "my mom" is about her."""
    rows = [
        {"session_id": "a", "date": "2025-03-04T20:00:00Z"},
        {
            "session_id": "a",
            "turn": 0,
            "speaker": "user",
            "text": "i know braiding sweetgrass, my mom has it on her shelf actually",
        },
        {
            "session_id": "a",
            "turn": 1,
            "speaker": "assistant",
            "text": "Borrow it from your mom! Does she read a lot of nature writing?",
        },
        {
            "session_id": "a",
            "turn": 2,
            "speaker": "user",
            "text": "kind of? her name is min-ji, she runs a nail salon in sacramento",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    people_now = {p.name: p.relationship for p in memory.people(user) if p.name != "me"}
    assert people_now == {"Min-ji": "mom"}
    shelf = [c for c in memory.cards(user) if "shelf" in c.fact]
    assert shelf
    assert {c.person for c in shelf} == {"Min-ji"}


def test_someone_there_is_then_named_is_a_partner_when_the_user_is_dating_them():
    extractor = talk(
        (
            "user",
            "ok so update. theres this guy. his name is julián, he's a physical therapist, "
            "we met at the dog park. we've been dating for like 6 weeks now",
        ),
        ("user", "theres this guy at work. his name is rob, we met at a conference"),
    )
    assert people(extractor.registry).get("Julián") == "boyfriend"
    assert people(extractor.registry).get("Rob") is None


def test_a_relative_who_marries_brings_an_in_law():
    """The partner of a relative who married is the user's in-law, as the noun that
    introduced them says (a fella: a son-in-law); without one, the relative's partner.
    "Got married yesterday" names no partner called Yesterday."""
    extractor = talk(
        (
            "user",
            "so big news. our daughter amy got married yesterday!! to a fella named kevin, "
            "nice guy, hes an electrician",
        ),
        ("assistant", "Congratulations to Amy and Kevin! How was the day?"),
        ("user", "anyway my sister rachel is getting married in april!! to tunde"),
    )
    assert people(extractor.registry) == {
        "Amy": "daughter",
        "Kevin": "son-in-law",
        "Rachel": "sister",
        "Tunde": "sister's partner",
    }


def test_a_baby_the_user_announces_is_their_son_or_daughter():
    extractor = talk(
        ("user", "its 2:30am and im awake because LEO TRAN was born jan 14!! he does not sleep"),
        ("user", "shes here. eleni grace, born 3:12am on the 12th, 3.4kg. i cried like a baby"),
        ("user", "my sister's baby ella was born today, she is tiny"),
    )
    assert people(extractor.registry) == {"Leo Tran": "son", "Eleni Grace": "daughter"}


def test_the_relationship_with_the_name_set_off_by_commas():
    extractor = talk(
        ("user", "my style is soft gouache. the editor, elise, said she picked me for my series"),
        ("user", "the doctor, however, said no"),
    )
    assert people(extractor.registry) == {"Elise": "editor"}


def test_a_coworker_who_quit_is_a_former_one():
    extractor = talk(
        ("user", "my coworker renee stayed with me in the parking lot after"),
        ("user", "my coworker dom is great"),
        ("user", "my friend sal came over last night"),
        ("user", "hi. bittersweet news. renee quit. her last shift was last night"),
        ("user", "if dom quit i would cry. sal quit his band lol"),
    )
    assert people(extractor.registry) == {
        "Renee": "former colleague",
        "Dom": "coworker",
        "Sal": "friend",
    }


def test_someone_known_by_a_title_of_address_is_a_person():
    """Chat names people by the title the user addresses them with, in whatever language
    is mixed in: "pak hendra", "herr braun", "chef arora". They are people, known by the
    bare name with the titled one as an alias; an animal they have is not them, a
    sentence ending on a title starts no name, and "doctor hoke" (Hindi: being a
    doctor) names no one."""
    extractor = talk(
        ("user", "besok meeting sama pak hendra, bos aku, soal cuti melahirkan"),
        ("user", "herr braun downstairs has a dachshund called kaiser who hates me"),
        ("user", "new exec chef is some chef arora from delhi. he starts monday"),
        ("user", "and a hotel in dubai wants a sous chef. agar main jaun toh?"),
        ("user", "4-5 cigarettes ek night shift mein, i know i know doctor hoke"),
    )
    held = {r.name: r for r in extractor.registry}
    assert set(held) == {"Hendra", "Braun", "Arora"}
    assert "Pak Hendra" in held["Hendra"].aliases
    assert "Herr Braun" in held["Braun"].aliases
    assert held["Braun"].relationship == "neighbour"  # downstairs; the dachshund is his, not him


def test_someone_known_by_a_kinship_title_or_a_title_after_the_name_is_a_person():
    """Many call people by a kinship word before the name ("aunt keisha", "kuya jun")
    or a title after it ("shibu babu", "jiyeon unnie", "iyer sir"): the person is known
    by the bare name, with the name as the user says it as an alias. A kinship title
    says who the person likely is until a relationship is said. "Ana da Silva" is a
    surname, "granny squares" a crochet pattern, "chhod di" (Hindi: left it) no one."""
    extractor = talk(
        ("user", "went to aunt keisha's house after school, she made mac and cheese"),
        ("user", "kuya jun picked me up from the clinic, he's been driving grab since march"),
        ("user", "shibu babu wants the rent by the 5th. jiyeon unnie quit her job at naver"),
        ("user", "iyer sir is retiring in march, the whole office is sad"),
        ("user", "met Ana da Silva at the conference. learning granny squares on youtube"),
        ("user", "maine finally smoking chhod di, 3 weeks now"),
    )
    held = {r.name: r for r in extractor.registry}
    assert held["Keisha"].relationship == "aunt"
    assert "Aunt Keisha" in held["Keisha"].aliases
    assert "Kuya Jun" in held["Jun"].aliases
    aliases = {a for r in held.values() for a in r.aliases}
    assert {"Shibu babu", "Jiyeon unnie", "Iyer sir"} <= aliases
    assert not {"Squares", "Chhod"} & set(held)
    assert not any(a.startswith("Ana da") for a in aliases)


def test_a_titled_name_said_as_a_new_surname_is_no_one_new():
    extractor = talk(
        (
            "user",
            "the wedding was last saturday!! so my sister rachel is officially mrs adeyemi now",
        ),
    )
    assert people(extractor.registry) == {"Rachel": "sister"}


def test_a_place_the_conversation_puts_after_in_is_no_one():
    """The assistant capitalises "Bandra" after "in", so the user's lower-case "bandra"
    reads as a name to the parser: a name no relationship was read for that the chat
    places at least as often as the parser calls it a person is a place, and what was
    said of it stays the user's."""
    extractor = talk(
        ("user", "we shifted, got keys to our flat in bandra west last week"),
        ("assistant", "A new home! Give Bruno a few days to settle in Bandra, dogs need time."),
        ("user", "but bruno ko bandra ki stairs pasand nahi, 3rd floor no lift"),
    )
    assert "Bandra" not in people(extractor.registry)


def test_someone_introduced_as_a_guy_called_x_takes_the_role_they_are_said_to_be():
    """ "new sup is some dude named delgado": the dude is the supervisor; "some guy named
    rick, ops manager", "my new manager on ICU is called rachel okafor" alike. What a man
    or a guy is said to be is the user's role for them, unless it is someone else's
    ("her boss is a guy called steve")."""
    for said, held in [
        (
            "sup rick quit outta nowhere, new sup is some dude named delgado starts mon",
            {"Rick": "former manager", "Delgado": "supervisor"},
        ),
        ("its a diffrent world. my new manager on ICU is called rachel okafor", None),
        ("some guy named rick, ops manager. honestly im kinda nervous", {"Rick": "manager"}),
        ("lol and her boss is a guy called steve who never answers", {"Steve": None}),
        ("ward 7 are getting a new manager, some fella called marcus", {"Marcus": None}),
    ]:
        assert people(talk(("user", said)).registry) == (held or {"Rachel Okafor": "manager"})


def test_the_titles_of_chat_in_malay_pidgin_and_a_doctors_nickname():
    """ "doc tillman" is a doctor, once the chat writes the name as one ("the doc says",
    "le doc m'a dit" name no one); "puan rozita", "encik hisham", "alhaji balogun" are
    people known by a title of address, and a titled name right before "my boss" is the
    boss, commas or not."""
    extractor = talk(
        ("user", "oh and doc tillman called about my bloodwork. the doc says rest"),
        ("assistant", "Doc Tillman has good reason to be pleased with you."),
        ("user", "le doc m'a dit que ma tension était trop haute. le doc insiste"),
        ("user", "3 bedroom flat, landlord na alhaji balogun, serious man"),
    )
    held = {r.name: r for r in extractor.registry}
    assert set(held) == {"Tillman", "Balogun"}
    assert held["Tillman"].relationship == "doctor"
    assert "Alhaji Balogun" in held["Balogun"].aliases
    for said, name in [
        ("new boss at tng is puan rozita, she interviewed me", "Rozita"),
        ("tomorrow i need to go office tell encik hisham my boss face to face", "Hisham"),
    ]:
        assert people(talk(("user", said)).registry) == {name: "boss"}


def test_someone_taken_on_as_my_new_advisor_takes_over_the_role():
    """ "i got assigned dr okonkwo as my new advisor": Okonkwo is the advisor (not just a
    doctor by title), and Reinholt, who held it, is a former advisor."""
    extractor = talk(
        ("user", "my advisor dr reinholt wants the draft by friday"),
        (
            "user",
            "so dr reinholt is officially gone to michigan and i got assigned dr okonkwo as "
            "my new advisor!! shes actually so nice",
        ),
        ("user", "we hired maria as our nanny, she starts monday"),
    )
    assert people(extractor.registry) == {
        "Reinholt": "former advisor",
        "Okonkwo": "advisor",
        "Maria": "nanny",
    }


@pytest.mark.parametrize(
    ("news", "nadine_now"),
    [
        ("got laid off this morning, me and 6 others", "former manager"),
        ("i was made redundant last week", "former manager"),
        ("welp they let me go today", "former manager"),
        ("i lost my job today 😭", "former manager"),
        ("week 3 at moth & oak as shift lead 😎 its so busy", "former manager"),
        ("second week at Stripe done", "former manager"),
        # later, someone else's, or no job at all: nothing ends
        ("im getting laid off next month probably", "manager"),
        ("my sister got laid off", "manager"),
        ("i got fired up about it lol", "manager"),
        ("its my sisters first month at Google", "manager"),
        ("day 2 at the gym lol", "manager"),
    ],
)
def test_losing_the_job_or_weeks_into_a_new_one_leaves_the_old_manager(news: str, nadine_now: str):
    extractor = talk(("user", "my manager nadine is lovely tbh"), ("user", news))
    assert people(extractor.registry) == {"Nadine": nadine_now}


def test_someone_named_right_after_this_guy_is_a_person_and_what_they_are_said_to_be():
    """ "this guy mateo", "this old guy ray who ...": a name straight after a man-or-woman
    noun, no "named" between. Dating said as going on makes a partner; "<role> is this
    guy" the role. "mateo made me gf flashcards" is gluten-free flashcards made for the
    user, not a girlfriend called Flashcards ("me" is who they were made for)."""
    extractor = talk(
        ("user", "ok dont judge me 🙈 ive been seeing this guy mateo, hes in my stats class"),
        ("user", "mateo made me gf flashcards lmao"),
        ("user", "landlord is this old guy ray who calls everyone 'kiddo' lol"),
        ("user", "its such a guy thing lol"),
    )
    assert people(extractor.registry) == {"Mateo": "boyfriend", "Ray": "landlord"}


def test_a_pet_or_a_baby_named_after_chat_mangled_the_parse():
    """The pet got is named a sentence on ("we got a cat lol ... named him mingus"; "we
    adopted a dog 🐶 kelpie cross ..., shes 2, name is nugget"), as is the baby girl born
    ("baby girl born friday ... we named her june"), however the tagger reads the emoji
    and the dropped words between."""
    extractor = talk(
        (
            "user",
            "and we got a cat lol. this orange stray kept sittin on our porch, named him mingus",
        ),
        ("user", "we adopted a dog 🐶 kelpie cross from the RSPCA, shes 2, name is nugget. weapon"),
        ("user", "she here 😭😭 baby girl born friday april 18 at touro. we named her june"),
        ("user", "we got a new car lol, my name is still dave on the loan tho"),
    )
    assert people(extractor.registry) == {"Mingus": "cat", "Nugget": "dog", "June": "daughter"}


def test_who_someone_is_to_the_user_said_in_brackets_in_any_words():
    """ "gaz (my station officer)", "memphis (our drummer)", "chotu (mera helper)": the
    words after "my" close the bracket and say what they are, whatever the role."""
    extractor = talk(
        ("user", "gaz (my station officer) reckons i should just harden up haha"),
        ("user", "memphis (our drummer) says he gonna make me a sober playlist lol"),
        ("user", "chotu (mera helper) bhi keh raha tha saddar mein log kam aate hain"),
        ("user", "bob (my fault really) got lost on the way"),
    )
    assert people(extractor.registry) == {
        "Gaz": "station officer",
        "Memphis": "drummer",
        "Chotu": "helper",
    }


def test_my_in_french_portuguese_and_german_owns_the_relative_after_it():
    extractor = talk(
        ("user", "mon frère lucas est venu hier soir"),
        ("user", "meu irmão tiago fez o discurso no casamento"),
        ("user", "meine schwester anna kommt am samstag"),
    )
    assert people(extractor.registry) == {"Lucas": "brother", "Tiago": "brother", "Anna": "sister"}


def test_a_relative_married_to_her_fella_brings_her_husband():
    extractor = talk(
        (
            "user",
            "our niece Becky got married on Saturday at Manchester Town Hall to her fella "
            "Tariq lovely do",
        ),
    )
    assert people(extractor.registry) == {"Becky": "niece", "Tariq": "niece's husband"}


def test_a_proposal_said_yes_to_makes_a_fiancee():
    """Chat drops the "i": "asked jess to marry me ... she said yes" is the user's news."""
    extractor = talk(
        ("user", "jess reckons ill be a cranky bastard for a fortnight lol"),
        (
            "user",
            "mate. i did it. asked jess to marry me on sat at the top of mt dandenong. "
            "she said yes 💍 shes me fiancee now haha",
        ),
    )
    assert people(extractor.registry) == {"Jess": "fiancée"}


def test_kids_counted_then_named_with_their_ages_are_the_users_children():
    extractor = talk(
        (
            "user",
            "I'm a stay at home dad with two kids, Ruby's 7 and in Year 3 and Finn's 4 and "
            "at home with me most days. Ruby's school is pushing the healthy lunchbox thing",
        ),
        ("user", "Ruby's going to change school, she's a bit gutted about it"),
    )
    assert people(extractor.registry) == {"Ruby": "daughter", "Finn": "child"}


def test_a_baby_born_to_someone_placed_by_name_is_placed_through_them():
    extractor = talk(
        ("user", "my daughter Claire is due any day now"),
        (
            "user",
            "oh I've got so much to tell you Claire had the baby on Sunday the 16th a little "
            "girl Isla seven pound two ounces",
        ),
    )
    assert people(extractor.registry) == {"Claire": "daughter", "Isla": "granddaughter"}


def test_a_verb_after_a_kin_word_in_another_language_is_no_name():
    """Romanised Urdu "begum kehti hai" (my wife says), French "ma blonde maintenant" (my
    girlfriend now): the word after the kin word is what she does or when."""
    extractor = talk(
        ("user", "tariq road pe ek dukaan dekhi hai. begum kehti hai shift kar lo."),
        ("user", "aussi, c'est officiel avec Sofia, elle est ma blonde maintenant 🥰"),
    )
    assert "Kehti" not in people(extractor.registry)
    assert "Maintenant" not in people(extractor.registry)


def test_a_baby_named_for_a_month_is_named_though_the_assistant_writes_it_as_a_date():
    """The assistant's "Welcome to the world, June" capitalises what the user typed; the
    tagger then reads a month. After "we named her", only a name goes."""
    extractor = talk(
        (
            "user",
            "she here 😭😭 baby girl born friday april 18 at touro, 6 lbs 11 oz. we named her "
            "june, after dees grandma",
        ),
        ("assistant", "Congratulations!! Welcome to the world, June. What a beautiful name."),
    )
    assert people(extractor.registry) == {"June": "daughter"}


def test_the_users_pair_said_with_me_is_the_user():
    """Chat's "me and rhonda got a house": the user's home, with Rhonda, once she is
    known by name; the user's parents said by the words kin call each other ("umma and
    appa live in torrance") are not the user."""
    turns = [
        "so uh. i met somebody lol. her names rhonda, she waits tables at the golden light",
        "well got the keys friday!! me and rhonda got a house in canyon",
        "umma and appa live in torrance like 25 min away",
    ]
    cards = Extractor("u1").conversation(
        [
            {
                "session_id": "s1",
                "turn": i,
                "speaker": "user",
                "text": text,
                "session_date": "2025-03-04",
            }
            for i, text in enumerate(turns)
        ]
    )
    claims = [claim for card in cards if (claim := card_claim(card))]
    assert [c.value for c in claims if c.key == "me|location"] == ["canyon"]
    assert [c.subject for c in claims if c.value.startswith("torrance")] in (["umma"], ["appa"])


def test_a_first_week_at_a_new_place_of_work_unnamed_leaves_the_old_manager():
    extractor = talk(
        ("user", "my manager georgia will be sad, she trained me when i first came"),
        ("user", "first week done at the new unit and omo, these patients are SICK"),
    )
    assert people(extractor.registry) == {"Georgia": "former manager"}
    gym = talk(("user", "my manager georgia will be sad"), ("user", "first day at the new gym lol"))
    assert people(gym.registry) == {"Georgia": "manager"}


def test_an_afrikaans_kin_word_in_south_african_chat():
    extractor = talk(("user", "my sussie ellie just got a job at discovery in sandton"))
    assert people(extractor.registry) == {"Ellie": "sister"}


def test_a_name_placed_by_the_short_sentence_after_it():
    extractor = talk(("user", "ciarán's flying to melbourne in march btw. my brother. 2 year visa"))
    assert people(extractor.registry) == {"Ciarán": "brother"}


def test_someone_met_then_named_alone_is_who_she_is():
    """ "met a girl. aoife. she ...": Aoife is a person from that turn on, so what "she"
    is said to be is hers, though her name was typed in lower case."""
    said = (
        "ALSO. met a girl. aoife. she came in with her mates for a birthday on friday and we "
        "got chatting at the end, shes a nurse in the mater, from galway originally."
    )
    cards = Extractor("u1").conversation(
        [
            {
                "session_id": "s1",
                "turn": 0,
                "speaker": "user",
                "text": said,
                "session_date": "2025-01-27",
            }
        ]
    )
    nurse = next(card for card in cards if card.fact.startswith("Shes a nurse"))
    assert nurse.person == "Aoife"
    assert card_claim(nurse) == Claim("aoife", "job", "nurse")


def test_kin_called_by_the_word_in_other_languages():
    """ "my tía had surgery", "see my Oma": relatives called by the word itself."""
    said = talk(
        ("user", "colombia got cancelled, my tía had surgery and the family said come later"),
        ("user", "so I'm going to Kraków to see my Oma instead. Honestly better, she's 88."),
    )
    assert people(said.registry) == {"Tía": "aunt", "Oma": "grandmother"}


def test_someone_named_right_before_saying_something_is_a_person():
    """An Atlanta teen's chat: "dre said he gon pick me up" names someone she knows, though
    she never says who he is to her; "my mom said" and "the weather said" add no one new."""
    extractor = talk(
        ("user", "ok bet 👍 dre said he gon pick me up after so thats wassup 🥰"),
        ("assistant", "Love that! Have fun tonight."),
        ("user", "my mom said no and the weather said rain lol"),
    )
    assert people(extractor.registry) == {"Dre": None, "Mom": "mom"}


def test_people_placed_by_where_the_user_knows_them_from_or_titled_by_their_role():
    """Chat places people instead of saying who they are: "tash from the old team",
    "marjorie from church", "herr braun downstairs", and opens a sentence with a titled
    name and its role ("also mrs odhiambo our matron ..."). A word of a dictionary
    opening the sentence ("Home from work") and "everybody from church" name no one."""
    extractor = talk(
        ("user", "tash from the old team already landed a gig at qantas"),
        ("assistant", "Good for Tash! Qantas is a great place to land."),
        ("user", "Marjorie from church does the water aerobics at the Y"),
        ("user", "also mrs odhiambo our matron put me on nights for the WHOLE of august"),
        ("user", "Home from work, exhausted. can you help me text everybody from church"),
        (
            "user",
            "wade talked to a young man from church named travis hollis who worked on a ranch",
        ),
        ("user", "pastor jim asked me to teach the ladies bible class"),
        ("assistant", "How lovely that Pastor Jim asked you!"),
        (
            "user",
            "i reckon the north stock tank is about dry, we might have to haul water if it "
            "dont rain by next week. ruben our hired hand has been with us 6 years",
        ),
        ("assistant", "Six years is a long time and Ruben sounds like more than just a hand."),
    )
    held = people(extractor.registry)
    assert held["Tash"] == "former coworker"
    assert held["Marjorie"] == "friend"
    assert held["Odhiambo"] == "matron"
    assert held["Travis Hollis"] is None  # named as he is introduced; no role said
    assert held["Jim"] == "pastor"
    assert held["Ruben"] == "hired hand"
    assert not {"Home", "Everybody", "Easter"} & set(held)


def test_what_someone_caught_is_not_their_kind_and_a_holiday_is_nobody():
    """ "bo caught a red fish off the pier": Bo is a boy who fished, not a fish; "easter is
    next sunday" names a day, not a person."""
    extractor = talk(
        ("user", "bo is in 6th grade now"),
        ("user", "we are back from port a. bo caught a red fish off the pier lol"),
        ("user", "easter is next sunday and im fixin to cook the big dinner"),
        ("assistant", "Happy Easter to you all, and well done Bo!"),
    )
    held = people(extractor.registry)
    assert held.get("Bo") is None
    assert "Bo" in held
    assert "Easter" not in held


def test_the_users_name_said_without_is_and_the_name_people_call_them_by():
    """ "my name Tan Wei Ming but ppl all call me Ah Ming": both are the user, neither is a
    person the user talks about."""
    extractor = talk(
        ("user", "hi ah. my name Tan Wei Ming but ppl all call me Ah Ming, i sell char kway teow"),
        ("assistant", "Hi Ah Ming, nice to meet you!"),
    )
    assert people(extractor.registry) == {}


def test_a_friend_said_in_hinglish():
    """ "mera dost aakash": the user's friend, as "my friend aakash" is."""
    extractor = talk(("user", "accha sun, mera dost aakash is moving to goa, opening his own cafe"))
    assert people(extractor.registry) == {"Aakash": "friend"}


def test_someone_placed_by_work_who_leaves_is_a_former_coworker():
    """ "priya from work is leaving for google": the leaving is said after where the user
    knows her from, and ends it as it would right after her name."""
    extractor = talk(
        ("user", "long week. priya from work is leaving for google lol"),
        ("assistant", "Priya at Google sounds exciting!"),
    )
    assert people(extractor.registry) == {"Priya": "former colleague"}
