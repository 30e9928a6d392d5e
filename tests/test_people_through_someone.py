"""People the user names as someone else's relative ("chris's mum margaret", "erik, his
wife becca", "her son marcus jr"): whose they are comes from the possessive or from the
person a his/her points back to, and what they are to the user from the holder's
relationship (``graphmem.relationships.through``), read again at the end of the
conversation. A holder who is none of the user's people leaves them unplaced; the user's
own people keep their relationship. Pets said with their kind are kept as pets. Real
spaCy; the last test ingests into the embedded FalkorDB and reads ``Memory.people``."""

from __future__ import annotations

from ingestion.pipeline import ingest_file
from tests.conftest import write_chat
from tests.test_people_linked import people


def test_a_husbands_mother_named_after_the_assistant_asked_who_he_is():
    """ "Who's Chris?" "my husband." places Chris; "chris's mum margaret" is then the
    user's mother-in-law, not the user's mum."""
    assert people(
        ("user", "chris keeps saying we'll get blackout blinds and then doesnt lol"),
        ("assistant", "East-facing in February, no wonder they're up at 5. Who's Chris?"),
        ("user", "my husband. hes an architect so you'd think he'd care about windows more"),
        ("user", "chris's mum margaret does wednesdays with them already. shes amazing"),
    ) == {"Chris": "husband", "Margaret": "mother-in-law"}


def test_his_wife_after_the_son_named_just_before():
    assert people(
        ("user", "they live in Minneapolis with my son Erik."),
        ("user", "Erik called, they are coming this weekend! Erik, his wife Becca and the kids"),
    ) == {"Erik": "son", "Becca": "daughter-in-law"}


def test_her_brother_when_she_is_the_granddaughter_spoken_of():
    assert people(
        ("user", "my granddaughter Lily set up the ipad for me"),
        ("user", "She is a very patient girl. shes 12 and her brother Max is 8."),
    ) == {"Lily": "granddaughter", "Max": "grandson"}


def test_a_fiances_mother_is_no_mother_in_law_yet():
    """ "toms family ... his mum sue": the apostrophe left out, the name given back its
    capital by the assistant; before a wedding she is the fiancé's mother."""
    assert people(
        ("user", "OK SO. my boyfriend tom proposed!!! last night. he's my fiancé now"),
        ("assistant", "Congratulations! Will Sue and the family come over?"),
        ("user", "but toms family is in yorkshire and his mum sue has never been to india"),
    ) == {"Tom": "fiancé", "Sue": "fiancé's mother"}


def test_the_fiances_parents_listed_one_of_them_known_already():
    """ "toms parents, sue and graham": Sue is his mum, so Graham is his father. A name
    the assistant said first is still someone the user lists as a relative."""
    assert people(
        ("user", "OK SO. my boyfriend tom proposed!!! last night. he's my fiancé now"),
        ("assistant", "Congratulations! Will Sue and Graham come over?"),
        ("user", "but toms family is in yorkshire and his mum sue has never been to india"),
        ("user", "we want to take them to yorkshire to meet toms parents, sue and graham."),
    ) == {"Tom": "fiancé", "Sue": "fiancé's mother", "Graham": "fiancé's father"}


def test_her_husband_when_she_is_the_sister_typed_in_lower_case():
    assert people(
        ("user", "BIG NEWS. my sister luz is pregnant and its a girl!!"),
        ("user", "my mom screamed. luz and her husband rudy have been trying for 2 years"),
    ) == {"Luz": "sister", "Mom": "mom", "Rudy": "brother-in-law"}


def test_her_son_is_placed_once_she_becomes_the_girlfriend():
    """Tanya is no one to the user yet when her son is named; she becomes the
    girlfriend later, and her son is the girlfriend's son by the end."""
    assert people(
        ("user", "theres a lady at my church, Tanya, we been talking after service"),
        ("user", "coffee with Tanya went great. we talked for 2 hours and got dinner too"),
        ("user", "everything. her students, my mama, her son Marcus Jr is in the army"),
        ("user", "so Tanya and me, its official. she's my girlfriend lol"),
    ) == {"Tanya": "girlfriend", "Marcus Jr": "girlfriend's son", "Mama": "mama"}


def test_a_friends_husband_is_known_as_hers_and_a_strangers_mother_stays_unplaced():
    """A friend's husband is no relative of the user: he is kept as the friend's
    husband, as the user would say it. "his mum", where the his is only guessed from
    earlier turns, places no one."""
    assert people(
        ("user", "my friend Ana came round with Leo"),
        ("user", "Ana, her husband Becks and me went for a walk"),
        ("user", "Leo called. his mum Sue is ill"),
    ) == {"Ana": "friend", "Becks": "friend's husband", "Leo": None, "Sue": None}


def test_someone_elses_people_in_the_holders_words_or_name():
    """Whose they are, said in the turn: by the holder's relationship ("my coworker
    megan ... her boyfriend austin"), by "my son's", or by the holder's name when the
    holder has no relationship of the user's."""
    assert people(
        (
            "user",
            "megan, my coworker from the hagwon, is going home. her boyfriend austin is staying",
        ),
        ("user", "my son's friend leo came over after school"),
        ("user", "i met Harold at church last week, a retired railroad man"),
        ("user", "Harold's daughter Kim is a nurse"),
    ) == {
        "Megan": "coworker",
        "Austin": "coworker's boyfriend",
        "Leo": "son's friend",
        "Harold": None,
        "Kim": "harold's daughter",
    }


def test_a_pet_of_any_kind_said_with_its_name():
    """ "my bearded dragon chimi", "we have a dog, waffles": pets, kept with their kind."""
    assert people(
        ("user", "also my bearded dragon chimi is staring at me like why are you awake lol"),
        ("user", "ok also we have a dog, waffles, shes a cavoodle, and she steals food"),
    ) == {"Chimi": "bearded dragon", "Waffles": "dog"}


def test_relatives_through_someone_in_the_store(memory, user, tmp_path):
    """The whole path: a chat export ingested, ``Memory.people`` read back."""
    day = "2025-04-07"
    said = [
        ("user", "my son Erik called, they are coming up this weekend"),
        ("user", "Erik, his wife Becca and the kids. my granddaughter Lily is 12"),
        ("user", "She is a very patient girl and her brother Max is 8."),
    ]
    rows = [
        {"session_id": day, "date": f"{day}T10:00:00-05:00"},
        *[
            {"session_id": day, "turn": i, "speaker": speaker, "text": text}
            for i, (speaker, text) in enumerate(said)
        ],
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    table = {p.name: p.relationship for p in memory.people(user) if p.name != "me"}
    assert table == {
        "Erik": "son",
        "Becca": "daughter-in-law",
        "Lily": "granddaughter",
        "Max": "grandson",
    }
