"""People named the way chat types them: a lower-case name the tagger has never seen
("my cousin segun just japa'd", read by spaCy as an auxiliary), and relationship nouns
written with spaces or hyphens ("my sister in law", "rob's my ex son-in-law"). Real
spaCy; the Memory test uses the embedded FalkorDB."""

from __future__ import annotations

from ingestion import relatives
from ingestion.extract import load_nlp
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat
from tests.test_people_named_in_passing import people, talk


def test_a_name_no_dictionary_knows_right_after_the_relationship_is_a_name():
    """spaCy tags "segun" an auxiliary: the word no dictionary knows, where only a name
    goes, is the cousin's name. A verb the dictionary knows ("screamed", "texted") is
    what the mum or the sister did."""
    extractor = talk(
        ("user", "ok. my cousin segun just japa'd to manchester btw, left last week"),
        ("user", "my mum screamed down the phone"),
        ("user", "my sister texted me at 2am"),
    )
    assert people(extractor.registry) == {"Segun": "cousin", "Mum": "mum"}


def test_in_laws_typed_with_spaces_are_one_word():
    """ "sister in law" is a sister-in-law, not a sister: typed with spaces or hyphens,
    the relationship is the whole noun."""
    extractor = talk(
        ("user", "my friend leah wants to go birding with me this weekend"),
        ("user", "the wedding was perfect!!! leah is officially my sister in law now lol"),
        ("user", "my sister-in-law jen had a baby girl"),
    )
    assert people(extractor.registry) == {"Leah": "sister-in-law", "Jen": "sister-in-law"}
    assert extractor.registry.get("Leah").relationship_history == ["friend"]


def test_a_hyphenated_relationship_is_one_token_and_the_text_stays_as_typed():
    doc = load_nlp()("my son-in-law agrees, and so does my sister in law")
    assert "son-in-law" in [t.text for t in doc]
    assert doc.text == "my son-in-law agrees, and so does my sister in law"


def test_a_son_in_law_named_in_chat_is_kept_in_memory(memory, user, tmp_path):
    rows = [
        {"session_id": "a", "date": "2025-07-11T20:00:00Z"},
        {
            "session_id": "a",
            "turn": 0,
            "speaker": "user",
            "text": "my son in law luis is a firefighter down in tucson",
        },
        {"session_id": "a", "turn": 1, "speaker": "assistant", "text": "That's a tough job!"},
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, format="conversation", progress=False)
    held = {p.name: p.relationship for p in memory.people(user)}
    assert held.get("Luis") == "son-in-law"


def test_a_child_is_a_son_or_a_daughter_once_a_clause_says_his_or_her():
    """The kids are named without saying which is which; "her room", "his phone" in a
    clause that names no one else tell: Ruby is a daughter, Kai a son. A clause with two
    people ("ruby asked mel about her job") tells nothing of either."""
    extractor = talk(
        ("user", "i need to sort the school holiday schedule for the kids"),
        ("assistant", "Of course. How old are the kids?"),
        ("user", "kai is 14 and ruby is 10."),
        ("user", "ruby already picked her room. kai just wants wifi lol"),
        ("user", "ruby was fine, kai was on his phone the whole time obviously"),
    )
    assert people(extractor.registry) == {"Kai": "son", "Ruby": "daughter"}
    assert extractor.registry.get("Kai").relationship_history == []


def test_whose_his_or_her_is_read_from_the_clause():
    nlp = load_nlp()
    said = [
        (t.text, g)
        for text in (
            "rosie will bring her fire truck lol",
            "ruby was fine, kai was on his phone",
            "ruby asked mel about her job",
            "she said he lost his keys",
        )
        for t, g in relatives.owned_by_subject(nlp(text))
    ]
    assert said == [("rosie", "f"), ("kai", "m")]


def test_after_a_run_of_emoji_a_new_sentence_starts():
    """ "ALEXIS IS ENGAGED 💍💍💍 theo proposed": the parser read "theo" as a noun of the
    shout before; after the emoji, a subject and its verb open a sentence of their own,
    and Theo is the one who proposed: the user's fiancé. An emoji said as a word ("a new
    lodger 🐱 a cat") does not cut what follows."""
    extractor = talk(
        ("user", "ALEXIS IS ENGAGED 💍💍💍 theo proposed in sintra at the pena palace. i said yes"),
        ("user", "and i have a new lodger 🐱 a cat!! shes 6 and called Pudding, very bossy"),
    )
    assert people(extractor.registry) == {"Theo": "fiancé", "Pudding": "cat"}
    doc = load_nlp()("ALEXIS IS ENGAGED 💍💍💍 theo proposed in sintra")
    assert [s.text for s in doc.sents] == ["ALEXIS IS ENGAGED 💍💍💍", "theo proposed in sintra"]


def test_a_prof_is_the_users_professor_whatever_title_they_have():
    extractor = talk(("user", "my prof dr hollis kind of mumbles so i didnt get the integral test"))
    assert people(extractor.registry) == {"Hollis": "professor"}


def test_a_new_head_nurse_leaves_the_old_one_a_former_head_nurse():
    """Who heads the ward or the school is one person at a time: the new head nurse, said
    in Taglish ("yung bagong head nurse namin, si sir arnel"), takes over from Tess."""
    extractor = talk(
        ("user", "tsaka si ma'am tess namin (head nurse) ang strict pero super bait naman"),
        ("user", "tapos yung bagong head nurse namin, si sir arnel, galing sa ibang hospital"),
    )
    assert people(extractor.registry) == {"Tess": "former head nurse", "Arnel": "head nurse"}


def test_married_for_years_is_a_marriage_whatever_the_tense():
    """ "will be married 41 years in September" is an anniversary, not a plan: Carol is
    the user's spouse. "will be married next year" is still a plan."""
    assert people(talk(("user", "Carol and I will be married 41 years in September")).registry) == {
        "Carol": "spouse"
    }
    assert people(talk(("user", "Carol and I will be married next year")).registry) == {}


def test_a_baby_named_with_a_slip_of_the_keyboard():
    extractor = talk(
        (
            "user",
            "we have a baby girl!!! born may 28, 3.4kg. we naed her tiwatope, we call her tiwa",
        )
    )
    assert people(extractor.registry) == {"Tiwatope": "daughter"}


def test_parents_said_as_a_pair_of_names_in_hinglish():
    """ "mummy papa bhi ... phone karte hain": the tagger reads "papa" as a verb; after
    another word people call a parent by, it is the other parent."""
    extractor = talk(("user", "mummy papa bhi indore se roz phone karte hain, rishta dekho"))
    assert people(extractor.registry) == {"Mummy": "mother", "Papa": "papa"}


def test_relatives_in_the_words_of_a_language_mixed_into_english():
    """The relationship words of the languages users mix into English (``Language
    .relationships``, Spanish here) are read as English ones are, in English."""
    extractor = talk(
        ("user", "mi hija sofia starts school monday"),
        ("user", "my suegra carmen is visiting for two weeks"),
    )
    assert people(extractor.registry) == {"Sofia": "daughter", "Carmen": "mother-in-law"}


def test_a_turn_typed_in_lower_case_stays_lower_case_once_i_is_capitalised():
    """The parser gets "I have a cat named luna" (the conversation's capitals back); the
    writer typed it all in lower case, so "luna" may still be a name."""
    extractor = talk(("user", "i have a cat named luna, she's 3"))
    assert people(extractor.registry) == {"Luna": "cat"}


def test_chat_shorthand_for_siblings():
    extractor = talk(
        ("user", "my sis ana is in town this weekend"),
        ("user", "and my lil bro tim got a job at the port"),
        ("user", "bro i got a job too"),
    )
    assert people(extractor.registry) == {"Ana": "sister", "Tim": "brother"}


def test_an_ex_typed_with_a_hyphen_is_no_current_partner():
    """ "my ex-husband paul" was read as the husband (the tokenizer splits "ex-husband");
    a word typed open or hyphenated is the one word ("step mom": the stepmom)."""
    extractor = talk(
        ("user", "my ex-husband paul called about the kids"),
        ("user", "my ex bf jake texted me lol"),
        ("user", "my step mom linda is visiting"),
    )
    assert people(extractor.registry) == {
        "Paul": "ex-husband",
        "Jake": "ex-boyfriend",
        "Linda": "stepmom",
    }


def test_a_relative_of_a_relative_named_by_the_word_alone():
    """ "my husband's sister amy": the husband need not have been named for Amy to be
    the user's sister-in-law (``graphmem.relationships.through``)."""
    extractor = talk(
        ("user", "my husband's sister amy is staying with us"),
        ("user", "and my boyfriend's mom linda sent cookies"),
    )
    assert people(extractor.registry) == {
        "Amy": "sister-in-law",
        "Linda": "boyfriend's mother",
    }


def test_someone_the_user_is_dating_named_beside_the_noun():
    extractor = talk(
        ("user", "ok so i'm dating a guy named alex, we met on hinge"),
        ("user", "my sister is dating a guy named rob lol"),
        ("user", "i met a guy named theo at the gym, he's a trainer"),
    )
    # the sister's date and a man met at the gym are people met in passing, no partners
    assert people(extractor.registry) == {"Alex": "boyfriend", "Rob": None, "Theo": None}
    extractor = talk(("user", "i started seeing this girl, sam. it's early days"))
    assert people(extractor.registry) == {"Sam": "girlfriend"}


def test_hinglish_says_who_someone_is_with_the_verb_last():
    """ "ab ananya meri wife hai" (now Ananya is my wife): the name, the owner, the noun,
    then the copula; the fiancée is the wife now."""
    extractor = talk(
        ("user", "update: roka ho gaya!! ananya and me are engaged officially"),
        ("user", "shaadi ho gayi bhai!! ab ananya meri wife hai officially 😄"),
        ("user", "wo meri wife hai"),
    )
    assert people(extractor.registry) == {"Ananya": "wife"}
    assert extractor.registry.get("Ananya").relationship_history == ["fiancé"]


def test_a_pet_or_a_baby_named_after_the_pronoun():
    extractor = talk(
        ("user", "we adopted a kitten, we named her mochi"),
        ("user", "our baby boy arrived! his name is noah"),
        ("user", "my sister had a baby boy, his name is leo"),
    )
    assert people(extractor.registry) == {"Mochi": "cat", "Noah": "son"}


def test_taglish_names_with_the_role_between_commas():
    """ "si mark, asawa ko, nagluto": Mark is the spouse, and "asawa ko" no second person
    called by the word (it was "Asawa", the spouse, beside a Mark with none)."""
    extractor = talk(("user", "si mark, asawa ko, nagluto ng adobo kagabi"))
    assert people(extractor.registry) == {"Mark": "spouse"}


def test_the_users_own_people_listed_after_a_group_noun():
    """ "my kids ella and sam": each of the names has the group's relationship; a list of
    things after it ("my kids love pizza and pasta") names no one."""
    extractor = talk(
        ("user", "my kids ella and sam are finally asleep"),
        ("user", "my kids love pizza and pasta"),
    )
    assert people(extractor.registry) == {"Ella": "child", "Sam": "child"}


def test_a_mate_is_a_friend():
    """ "my mate adelaide": the user's word is kept, and a question about a friend
    finds her."""
    from graphmem.recall.mentions import Known, find_mentions

    extractor = talk(("user", "my mate adelaide lives in mt albert"))
    assert people(extractor.registry) == {"Adelaide": "mate"}
    found = find_mentions("what does my friend do?", [Known("adelaide", "Adelaide", "mate")])
    assert [m.name for m in found] == ["Adelaide"]


def test_a_name_after_a_titles_period_is_learnt_as_a_name():
    """The assistant writes "Dr. Nguyen": the period of the title ends no sentence, so
    "nguyen" typed in lower case is given its capital, and "dr nguyen yesterday, my
    cardiologist" makes him the cardiologist, not a doctor by his title."""
    extractor = talk(
        ("assistant", "Once a month sounds like a fair compromise with Dr. Nguyen."),
        ("user", "had a checkup with dr nguyen yesterday, my cardiologist. my ldl is 68 now"),
    )
    assert people(extractor.registry) == {"Nguyen": "cardiologist"}


def test_a_breakup_typed_in_lower_case_ends_the_known_partner():
    """The assistant named Jake at the start of its sentence (no capital learnt there);
    the registry knows him: "i broke up with jake" and "me and jake broke up" end him."""
    for said in ("update: i broke up with jake last week", "me and jake broke up"):
        extractor = talk(
            ("user", "my bf jake is great"),
            ("assistant", "Jake sounds lovely!"),
            ("user", said),
        )
        assert people(extractor.registry) == {"Jake": "ex-boyfriend"}


def test_a_couple_named_back_together_or_engaged_is_the_users_partner_again():
    """ "jade and i are back together" makes the ex a girlfriend again (the word the user
    had before the break); "sam n i r official now" makes Sam a partner; "linda and i got
    engaged" makes the girlfriend a fiancée. "like a married couple" describes, it makes
    no wife."""
    extractor = talk(
        ("user", "my gf jade is coming over"),
        ("user", "jade and i broke up last night"),
        ("user", "ok so jade and i are back together!! we fight like a married couple lol"),
    )
    assert people(extractor.registry) == {"Jade": "girlfriend"}
    assert people(talk(("user", "sam n i r official now")).registry) == {"Sam": "partner"}
    extractor = talk(
        ("user", "my girlfriend linda loves hiking"),
        ("user", "linda and i got engaged on saturday!!"),
    )
    assert people(extractor.registry) == {"Linda": "fiancée"}


def test_a_child_named_by_birth_order_is_a_son_once_he_is_said():
    """ "our first is daniel, he's 5": an ordinal owned by the user is their child, and
    the "he" of the next clause, with no one else named before it, makes him a son. "my
    first car" is a car; "mike said she'd come" says nothing of Mike."""
    extractor = talk(
        ("assistant", "How is Daniel doing at school?"),
        ("user", "our first is daniel, he's 5, in primary 1. wife is funke btw"),
        ("user", "my youngest, leo, turned 3 and he loves trucks"),
        ("user", "my first car was a civic lol"),
    )
    assert people(extractor.registry) == {"Daniel": "son", "Funke": "wife", "Leo": "son"}
    said = [
        (t.text, g)
        for text in ("daniel is confused but he keeps asking", "Mike said she'd come")
        for t, g in relatives.named_by_pronoun(load_nlp()(text))
    ]
    assert said == [("daniel", "m")]


def test_a_first_day_at_a_new_place_leaves_the_old_jobs_people_former():
    """The user starts at a new employer: the manager and the coworker named before are
    former ones. A first day back, someone else's first day, or a first day at a place no
    name says ("at the gym") is no new job."""
    for said in (
        "first day back at Ridgeline tomorrow ugh",
        "ella's first day at Brookside School went fine",
        "my first day at the gym was brutal",
    ):
        extractor = talk(("user", "my manager denise is great"), ("user", said))
        assert people(extractor.registry) == {"Denise": "manager"}
    extractor = talk(
        ("user", "my manager denise says im good under pressure"),
        ("user", "austin (coworker, not the city lol) was freaking out"),
        ("assistant", "Good luck at Keystone!"),
        ("user", "first day tomorrow at keystone and i cant sleep lol"),
    )
    assert people(extractor.registry) == {
        "Denise": "former manager",
        "Austin": "former colleague",
    }


def test_a_coworker_moving_to_another_city_is_a_former_one():
    """A coworker or a manager who moves away to a place named no longer works beside
    the user; one moving to a bigger flat or to the night shift still does."""
    extractor = talk(
        ("user", "my coworker jinky is moving to calgary next month, i will miss her"),
        ("user", "my coworker ana is moving to a bigger flat"),
        ("user", "my manager tess moved to the night shift"),
    )
    assert people(extractor.registry) == {
        "Jinky": "former colleague",
        "Ana": "coworker",
        "Tess": "manager",
    }


def test_a_teacher_teaches_what_the_sessions_lessons_are_of():
    """ "i started violin lessons" ... "my teacher is irina": the violin teacher, though
    the turn that names her says no lesson; another session's teacher is a teacher."""
    extractor = talk(
        ("user", "confession. i started violin lessons 3 weeks ago. at 45"),
        ("assistant", "That's wonderful! What made you start?"),
        ("user", "always wanted to. my teacher is irina, she's russian and very strict"),
    )
    assert people(extractor.registry) == {"Irina": "violin teacher"}


def test_a_surname_no_dictionary_knows_is_part_of_the_name():
    """ "my manager is sneha iyer": one person, Sneha Iyer (not Sneha, and an Iyer who
    became a former manager when she arrived); a dictionary word after a name ("rachel
    smith") or a place ("kunal canada") is not taken for a surname."""
    extractor = talk(
        ("user", "my manager is sneha iyer"),
        ("user", "my sister rachel smith called"),
        ("user", "my friend kunal canada gaya"),
    )
    assert people(extractor.registry) == {
        "Sneha Iyer": "manager",
        "Rachel": "sister",
        "Kunal": "friend",
    }


def test_someone_doing_the_users_own_work_is_a_coworker():
    """The user said what they do ("a dispatcher job", "an offer as a hygienist");
    someone named doing it too is a coworker. Someone doing a job the user's sister has
    is not."""
    extractor = talk(
        ("user", "need help prepping for an interview, its for a dispatcher job at keystone"),
        ("user", "rick said theyll have me shadowing a senior dispatcher named lorraine"),
        ("user", "i already got an offer as a hygienist at brickell smiles"),
        ("user", "i love it, the other hygienist is a guy named santiago, super chill"),
        ("user", "my sister got a nurse job. the other nurse is a woman named dee"),
    )
    known = people(extractor.registry)
    assert {n: known[n] for n in ("Lorraine", "Santiago")} == {
        "Lorraine": "coworker",
        "Santiago": "coworker",
    }
    assert known.get("Dee") is None


def test_a_neighbour_moving_away_said_in_chinese_is_a_former_one():
    """ "楼下的王姐也要搬家了": the neighbour moves away (``Language.moves_away``); her
    telling the user to move is not her move."""
    extractor = talk(("user", "对了，我们楼下的王姐也要搬家了，她跟她女儿去海南了"))
    assert people(extractor.registry) == {"王姐": "前邻居"}
    extractor = talk(("user", "楼下的王姐说我搬家太累了"))
    assert people(extractor.registry) == {"王姐": "邻居"}


def test_a_flatmate_moving_out_is_a_former_one_wherever_he_goes():
    """ "he's gonna move out": the flatmate leaves, though no place is said; the user's
    own move out with him is not his leaving."""
    extractor = talk(
        ("assistant", "Congrats to Tom!"),
        ("user", "my flatmate tom just got engaged lol so he's gonna move out eventually"),
    )
    assert people(extractor.registry) == {"Tom": "former roommate"}
    extractor = talk(("user", "my flatmate Tom and I are moving out"))
    assert people(extractor.registry) == {"Tom": "flatmate"}


def test_a_friend_of_mine_named_after_the_owner():
    """ "buddy of mine big lou": owned by the "of mine" after the noun, and named after
    it (with evidence of a name: the assistant wrote "Big Lou")."""
    extractor = talk(
        ("assistant", "Tell Big Lou I said hi!"),
        ("user", "hotlogic. buddy of mine big lou has one of those"),
        ("user", "a coworker of mine, priyanka, says hi"),
        ("user", "a friend of mine said so"),
    )
    assert people(extractor.registry) == {"Big Lou": "buddy", "Priyanka": "coworker"}


def test_giving_notice_or_quitting_leaves_the_jobs_people_former():
    """ "gave notice yesterday", "i quit Taco Bell": the user left their job, so the boss
    and the coworker are former ones. Notice still to give, a habit quit ("i quit
    smoking") or someone else's notice leaves them be."""
    for said in (
        "im giving rick notice next week",
        "i quit smoking lol, day 3",
        "she gave notice yesterday",
    ):
        extractor = talk(("user", "my boss rick is cutting our hours"), ("user", said))
        assert people(extractor.registry) == {"Rick": "boss"}
    for said in ("gave notice yesterday. he was mad but whatever", "i quit Taco Bell lol"):
        extractor = talk(
            ("user", "my boss rick is cutting our hours. my coworker luis is fed up too"),
            ("user", said),
        )
        assert people(extractor.registry) == {
            "Rick": "former manager",
            "Luis": "former colleague",
        }


def test_a_pet_named_at_a_sentence_start_and_described_as_one():
    """ "my dog is giving me the look. diesel, hes a pit mix": after a pet of the user's,
    a name opening a sentence and described as a kind of pet is that pet (in Spanish
    mixed in too: "adopté una perrita!! coco, a little chihuahua mix"); after someone
    else's dog, it is none of the user's."""
    extractor = talk(
        ("assistant", "Walking Diesel after meals helps!"),
        ("user", "ok my dog is giving me the look. diesel, hes a pit mix, rides with me"),
        ("user", "y adopté una perrita!! coco, a little chihuahua mix, 2 yrs old"),
    )
    assert people(extractor.registry) == {"Diesel": "dog", "Coco": "dog"}
    extractor = talk(("user", "her dog is cute. Rex, a husky mix, loves snow"))
    assert people(extractor.registry).get("Rex") is None


def test_the_one_asked_about_named_as_what_they_are():
    """The assistant asked about the user's roommate; "tyler is a music major" names
    him. An answer that speaks of the one asked about by the word ("sam is a mess, but
    mum is fine") names someone else."""
    extractor = talk(
        ("user", "ive heard of 3blue1brown from my roommate actually"),
        ("assistant", "Nice, so your roommate has good taste. Do you two study together?"),
        ("user", "lol no. tyler is a music major and plays guitar at 1am"),
    )
    assert people(extractor.registry) == {"Tyler": "roommate"}
    extractor = talk(
        ("user", "my mum is visiting"),
        ("assistant", "How is your mum?"),
        ("user", "ugh. Sam is a mess at work, but mum is fine"),
    )
    assert people(extractor.registry).get("Sam") is None


def test_someone_who_works_for_the_user_by_trade():
    """ "my dispatcher carla", "my realtor jen": relationship words of a trade
    (``graphmem.relationships.WORDS``); the user's own trade said the same way still
    makes a coworker of someone doing it ("a dispatcher job" ... "a senior dispatcher
    named lorraine"), and the job started at keystone leaves Carla, who dispatched for
    the user where they worked before, a former dispatcher (``cues.WORK_ROLES``)."""
    extractor = talk(
        ("user", "fine. my dispatcher carla gave me a good load this week"),
        ("user", "my realtor jen found us a place"),
        ("user", "i start a dispatcher job at keystone. a senior dispatcher named lorraine"),
    )
    assert people(extractor.registry) == {
        "Carla": "former dispatcher",
        "Jen": "realtor",
        "Lorraine": "coworker",
    }


def test_manglish_kin_and_pet_words_name_people_and_malay_words_name_no_one():
    """Malay mixed into English chat: "my abang amir" is a brother, a cat adopted as
    "kucing" and named in the next sentence is a cat, and Malay words after a noun
    ("housemate baru", "doctor cakap") are no one's name."""
    extractor = talk(
        ("user", "my abang amir just got posted to penang, he's a teacher"),
        ("user", "guess what we adopt kucing! tompok, white and black, 2 years old"),
        ("assistant", "Tompok is such a cute name!"),
        ("user", "also doctor cakap i need more rest. and my housemate dapat housemate baru"),
        ("assistant", "Hi Tompok! Rest well."),
    )
    table = people(extractor.registry)
    assert table["Amir"] == "brother"
    assert table["Tompok"] == "cat"
    assert not set(table) & {"Cakap", "Baru", "Dapat"}
    assert not extractor.registry.is_user("Tompok")  # greeted by the assistant, still the cat


def test_a_partner_separated_from_a_pet_said_as_ours_and_a_maiden_name_back():
    """ "me and ryan have been separated": Ryan, typed in lower case, is an ex; "walking
    with Biscuit, she is our beagle": the pronoun points back to the pet in its own
    sentence; the user going back to their maiden name is still the user."""
    extractor = talk(
        ("user", "its about the divorce, me and ryan have been separated since march"),
        ("user", "I walk with Biscuit every morning, she is our beagle, 6 years old"),
        ("user", "my name is Sarah Doyle but I'm going back to my maiden name, Sarah Quinn"),
    )
    table = people(extractor.registry)
    assert table["Ryan"] == "ex"
    assert table["Biscuit"] == "dog"
    assert "Sarah Quinn" not in table
    assert extractor.registry.is_user("Sarah Quinn")


def test_a_grandchild_told_by_birth_a_pet_shown_off_and_a_cafe_called_like_a_name():
    """ "our daughter Jenny had a baby girl, Lily Rose": the user's granddaughter;
    "meet reggie!! ... from the greyhound trust": the dog shown off; "a cafe called tea
    rex": a place, no Rex."""
    extractor = talk(
        ("user", "Our daughter Jenny had a baby girl on May 16th, Lily Rose, 7 pounds 4 ounces."),
        (
            "user",
            "meet reggie!! 4 year old ex-racer from the greyhound trust, scared of the hoover",
        ),
        ("assistant", "Reggie sounds lovely! Greyhounds make wonderful pets."),
        ("user", "also i got a job at the boba cafe on colfax called tea rex, weekends only"),
        ("assistant", "Congrats on the job at Tea Rex!"),
        ("user", "tea rex has popcorn chicken now lol"),
    )
    table = people(extractor.registry)
    assert table["Jenny"] == "daughter"
    assert table["Lily Rose"] == "granddaughter"
    assert table["Reggie"] == "dog"
    assert not set(table) & {"Rex", "Tea Rex"}


def test_a_caretaker_named_like_the_dog_is_a_person_of_his_own():
    """ "the new caretaker ... is also called reg": a role at the user's work, named; the
    dog Reggie stays the dog."""
    extractor = talk(
        ("user", "meet reggie!! 3 year old rescue greyhound, scared of the hoover"),
        ("assistant", "Reggie sounds lovely!"),
        ("user", "funny thing, the new caretaker at school is also called reg, met him on monday"),
    )
    table = people(extractor.registry)
    assert table["Reggie"] == "dog"
    assert table["Reg"] == "caretaker"


def test_an_animal_known_by_what_is_said_of_it_and_a_name_that_ends_before_a_word():
    """Nobody introduced them as pets: "Mochi wont stop barking", "Charlie hurt his
    paw", "Noodle (our cat btw)" say so beside the name; "Jess said" is a person's doing,
    and "tmrw" is no one's name. A name the parser runs on into a word of the chat ("Wei
    dah", Malay "already") is Wei."""
    extractor = talk(
        ("user", "cant sleep, Mochi wont stop barking at the bins"),
        ("user", "Charlie hurt his paw again. Jess said she'd drive us to the vets tmrw"),
        ("user", "and Noodle (our cat btw) is sulking lol"),
        ("user", "My sister Wei dah 3 months pregnant!! our family is growing"),
    )
    table = people(extractor.registry)
    assert table["Mochi"] == "dog"
    assert table["Charlie"] == "pet"
    assert table["Noodle"] == "cat"
    assert table["Jess"] is None  # a person, said with no relationship
    assert table["Wei"] == "sister"
    assert "Wei dah" not in table
    assert "Tmrw" not in table


def test_me_for_my_and_a_couple_finished_as_irish_chat_says_them():
    """ "mossy, me best mate": "me" is "my" before a relationship word, as Irish and
    British chat write it; "me and aoife are finished" is a breakup, as "done" is (not
    "me and the lads finished the job")."""
    extractor = talk(
        ("user", "me and aoife have till end of march to get out of the gaff"),
        ("assistant", "That's stressful. Are you and Aoife looking together?"),
        ("user", "also me and aoife are finished. she wants to move back to galway"),
        ("user", "he already is. mossy, me best mate, is headin to sydney in june"),
        ("assistant", "Sounds like Mossy is in for some craic."),
        ("user", "me and the lads finished the job early"),
    )
    table = people(extractor.registry)
    assert table["Mossy"] == "best friend"
    assert table["Aoife"] == "ex"


def test_a_lagos_accountants_boss_in_brackets_and_in_pidgin():
    """ "mr adebayo (the partner, my boss)" is the boss, not a partner of the user's;
    "emeka (her fiance)" is the sister's; "my boss na mrs okonkwo" (Pidgin's "is") after a
    new job makes Adebayo the former one; "mummy dey call me" is mummy, not someone
    called Dey."""
    extractor = talk(
        ("user", "the thing be say mr adebayo (the partner, my boss) no dey rate anybody"),
        ("user", "my sister adaeze is doing her wedding in april, emeka (her fiance) people came"),
        ("user", "crestview is good so far. my boss na mrs okonkwo, head of tax"),
        ("user", "mummy is stressing about the colours. mummy dey call me every day now"),
    )
    assert people(extractor.registry) == {
        "Adebayo": "former manager",
        "Adaeze": "sister",
        "Okonkwo": "boss",
        "Mummy": "mother",
    }


def test_the_name_the_assistant_greets_the_user_by_is_the_users():
    """ "Jim McAllister, 71, retired welder" opens the chat, and the assistant answers
    "Good evening, Jim" and later "I'm so sorry, Jim.": Jim is the user, no one else."""
    extractor = talk(
        ("user", "Jim McAllister, 71, retired welder, forty year I was in the yards at Govan"),
        ("assistant", "Good evening, Jim, and welcome. What would you like to talk about?"),
        ("user", "Bonnie, our westie, will be happy, the wife says she'll get her walks back"),
        ("assistant", "I'm so sorry, Jim. That is a lot in one week."),
    )
    assert people(extractor.registry) == {"Bonnie": "dog"}
    assert extractor.registry.is_user("Jim McAllister")


def test_korean_and_tagalog_kin_said_bare_and_pets_in_brackets():
    """Korean kin words said as names ("omma calls me", "appa said", "halmeoni is in the
    hospital"), a pet by its breed in brackets ("dubu (our maltese)"); Taglish: "kaming
    principal, si sir ramos", "si mingming (cat namin)", and "si mama medyo tampo pa"
    (Mama, sulking a little: no one called Medyo Tampo, no "Pa")."""
    extractor = talk(
        ("user", "omma calls me every single day and appa said cs is safe"),
        ("user", "halmeoni is in the hospital in daegu. omma shows me dubu (our maltese) lol"),
    )
    assert people(extractor.registry) == {
        "Omma": "mother",
        "Appa": "father",
        "Halmeoni": "grandmother",
        "Dubu": "dog",
    }
    extractor = talk(
        ("user", "update!! may bago na kaming principal, si sir ramos. sobrang strikto"),
        ("user", "si mingming (cat namin) ayaw umalis sa bag ko"),
        ("user", "mid september daw. si mama medyo tampo pa."),
    )
    assert people(extractor.registry) == {"Ramos": "principal", "Mingming": "cat", "Mama": "mama"}


def test_a_possessor_typed_without_its_apostrophe_makes_the_relative_theirs():
    """ "toms mum sandra": Tom's mother, and Tom is the husband, so she is the user's
    mother-in-law, not the user's mum."""
    extractor = talk(
        ("user", "hiii ok so im 37 wks and tom (hubby) keeps asking if the hospital bag is packed"),
        (
            "user",
            "GOT THE KEYS 🔑🏡🎉 3 bed weatherboard in reservoir. toms mum sandra is "
            "minding archie while we move stuff",
        ),
    )
    assert people(extractor.registry) == {"Tom": "husband", "Sandra": "mother-in-law"}


def test_a_kin_word_opening_a_sentence_is_named_in_brackets():
    extractor = talk(
        (
            "user",
            "insurance is coverin the airsense so ill prolly do that. mama (darlene) is "
            "worried sick, she thinks im dyin lol",
        ),
    )
    assert people(extractor.registry) == {"Darlene": "mama"}


def test_a_relationship_of_two_words_is_not_one_word_and_a_name():
    """ "my head chef": a head chef, not a head(teacher) named Chef; "my boet", "my ouma"
    are South African English for a brother and a grandmother."""
    extractor = talk(
        (
            "user",
            "butterflied leg it is, pieter (my boet) has a weber too. marco my head chef "
            "says only amateurs marinate lamb lol",
        ),
        ("user", "my sous chef is a guy called george, like the town haha"),
        ("user", "waterblommetjies yes, my ouma used to make that in paarl"),
    )
    assert people(extractor.registry) == {
        "Pieter": "brother",
        "Marco": "head chef",
        "George": "sous chef",
        "Ouma": "grandmother",
    }


def test_asked_to_be_someones_girlfriend_makes_him_the_boyfriend():
    """What the user was asked to be says what the asker is; a wish asks nothing."""
    extractor = talk(
        (
            "user",
            "went home to nyeri for a wedding and aki i met someone 🙈 brian. hes an "
            "engineer at kenya power",
        ),
        (
            "user",
            "and brian asked me officially to be his girlfriend lol like we're in form 2. "
            "i said yes obviously 🥰",
        ),
        ("user", "if dom asked me to be his girlfriend i would die"),
    )
    assert people(extractor.registry) == {"Brian": "boyfriend"}


def test_a_question_typed_without_the_apostrophe_still_names_the_person():
    """ "whats my boyfriends name", "what did dans mum say": the possessive as chat types
    it."""
    from graphmem.recall.mentions import Known, find_mentions

    people_known = [Known("brian", "Brian", "boyfriend"), Known("dan", "Dan", "friend")]
    assert [m.name for m in find_mentions("whats my boyfriends name", people_known)] == ["Brian"]
    assert [m.name for m in find_mentions("what did dans mum say", people_known)] == ["Dan"]


def test_words_said_where_a_name_would_be_are_no_one():
    """ "ex" before a company is where one worked ("ex crestline", not a former partner);
    thanks in another language closing a message ("clear my head, obrigado") and a
    holiday after a kinship word ("我哥国庆也回绵阳了": home for National Day) name no one."""
    assert (
        people(talk(("user", "my name is Tolu, ex crestline, 7 years in retail banking")).registry)
        == {}
    )
    assert (
        people(talk(("user", "ok going to futsal tonight to clear my head, obrigado")).registry)
        == {}
    )
    assert "国庆" not in people(
        talk(("user", "嗯 我哥国庆也回绵阳了 他说深圳那边项目又延期")).registry
    )
    assert people(talk(("user", "my ex jake texted me again")).registry) == {"Jake": "ex"}


def test_scots_kin_and_pets_are_the_users():
    """ "ma maw" is the user's mother, "a wee dug ... called skye" the user's dog."""
    assert people(talk(("user", "ma maw says hi")).registry) == {"Maw": "mother"}
    assert people(talk(("user", "we got a wee dug, a collie cross called skye")).registry) == {
        "Skye": "dog"
    }


def test_the_users_own_name_said_once_is_the_user_in_memory(memory, user, tmp_path):
    """ "mera naam Rohan Mehta" (Hinglish "my name is"), then the assistant's "I'm so
    sorry, Rohan": every card of the turn that named him is about the user, and no person
    Rohan Mehta is left beside him; "my name on it is Tomasz Wiśniewski" names the user
    too, accents and all."""
    rows = [
        {"session_id": "mar", "date": "2025-03-02T20:00:00+05:30"},
        {
            "session_id": "mar",
            "speaker": "user",
            "text": "mera naam Rohan Mehta, help me write a short bio for instagram",
        },
        {"session_id": "mar", "speaker": "assistant", "text": "Here you go: 'Rohan Mehta | Chef'"},
        {"session_id": "mar", "speaker": "user", "text": "bruno nahi raha yaar. 13 saal"},
        {
            "session_id": "mar",
            "speaker": "assistant",
            "text": "I'm so sorry, Rohan. 13 years is a whole chapter of life.",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    assert "Rohan Mehta" not in {p.name for p in memory.people(user)}
    bio = [c for c in memory.cards(user) if "instagram" in c.fact]
    assert bio
    assert all(c.person == "me" for c in bio)
    extractor = talk(("user", "cv done, my name on it is Tomasz Wiśniewski, should i write tomek"))
    assert extractor.registry.user_names == ["Tomasz Wiśniewski"]


def test_my_oga_is_the_users_boss():
    """Nigerian English: "my oga Mr Okafor" is the user's boss, as "my gaffer" is; "oga"
    with no one's before it is a title ("passengers call me 'oga emeka'"), no boss."""
    said = "abeg i need help. my oga Mr Okafor just announced hes retiring end of this month"
    assert people(talk(("user", said)).registry) == {"Okafor": "boss"}
    called = "the app has me as emeka okafor but passengers dey call me 'oga emeka' 😂"
    assert people(talk(("user", called)).registry) == {}
