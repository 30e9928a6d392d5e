"""People said around a role as chat types them: a new holder named as the next sentence
opens ("first week with the new head. mrs whitfield seems lovely") takes the role over,
and the one before becomes former; a name after someone who is not new is not them.
Real spaCy, no mocks."""

from __future__ import annotations

from ingestion.extract import Extractor


def read(*texts: str) -> Extractor:
    """The user's turns, one session, read by one extractor."""
    extractor = Extractor("u1")
    extractor.conversation(
        [
            {
                "session_id": "2025-03-04",
                "turn": i,
                "speaker": "user",
                "text": text,
                "session_date": "2025-03-04",
            }
            for i, text in enumerate(texts)
        ]
    )
    return extractor


def people(extractor: Extractor) -> dict[str, tuple[str | None, list[str]]]:
    return {r.name: (r.relationship, r.relationship_history) for r in extractor.registry}


def test_a_new_head_named_as_the_next_sentence_opens_takes_over_from_the_old_one():
    extractor = read(
        "our head mr pryce is retiring at easter so everythings a bit chaotic",
        "first week with the new head. mrs whitfield seems lovely, very different",
    )
    assert people(extractor) == {
        "Pryce": ("former manager", ["headteacher"]),
        "Whitfield": ("headteacher", []),
    }


def test_a_new_manager_named_after_the_full_stop_is_the_manager():
    extractor = read("first week with my new manager. farah seems nice tbh")
    assert people(extractor) == {"Farah": ("manager", [])}


def test_a_name_after_someone_said_by_the_word_who_is_not_new_is_not_them():
    """ "rang my mum. sarah said hi": Sarah is no mum (only a *new* one is introduced)."""
    extractor = read("rang my mum. sarah said hi")
    assert "Sarah" not in people(extractor)


def test_a_given_name_set_off_after_a_titled_surname_is_part_of_the_name():
    extractor = read("first week with the new head. mrs whitfield, gemma, seems lovely actually")
    assert people(extractor) == {"Gemma Whitfield": ("headteacher", [])}


def test_names_listed_after_a_titled_surname_stay_apart():
    """ "my new manager. mr pryce, sarah, and tom were there": a list, not Sarah Pryce."""
    extractor = read("met my new manager. mr pryce, sarah, and tom were all there")
    assert "Sarah Pryce" not in people(extractor)


def test_who_left_a_post_someone_new_is_named_to_in_the_same_turn_held_it():
    """Never called a manager, Botha retired as Mokoena became the depot manager: he was
    the manager before her. Katrin, only leaving yet, is the former one by December."""
    retired = read(
        "Also at the depot there's changes. Mr Botha retired last week after 30 years, now "
        "the new depot manager is Mrs Mokoena. She's strict but fair I think."
    )
    assert people(retired) == {
        "Mokoena": ("manager", []),
        "Botha": ("former manager", []),
    }
    leaving = read(
        "Katrin is leaving 😩 she's moving to Munich for family reasons. Our new manager "
        "from December is Henrik from the Hamburg office, don't know him yet."
    )
    assert people(leaving)["Katrin"] == ("former manager", [])
    assert people(leaving)["Henrik"] == ("manager", [])


def test_someone_who_left_for_elsewhere_as_a_new_manager_came_held_no_post():
    extractor = read("my sister left for uni last week, and our new manager is Priya")
    assert people(extractor) == {"Priya": ("manager", [])}


def test_a_name_the_small_model_takes_for_an_organisation_is_still_the_new_manager():
    """spaCy's small model labels "Ferdinand" ORG; after "new manager is" only a name goes."""
    extractor = read(
        "Two months in Kalvi. My manager Sandhya left last week to some startup, new "
        "manager is Ferdinand, he is from Kerala, very strict on deadlines"
    )
    assert people(extractor) == {
        "Sandhya": ("former manager", ["manager"]),
        "Ferdinand": ("manager", []),
    }


def test_who_took_over_from_the_one_holder_of_a_post_the_turn_names_holds_it():
    """The boss Dai had his last day; his son Rhys took over the firm: Rhys is the boss,
    Dai the former one. Someone who replaced a thing takes over no one."""
    extractor = read(
        "evening. absolutely cream crackered mun. the boss dai says its the busiest january "
        "hes had in 30 years",
        "big news in work. dai actually did it, had his last day friday, we all went down "
        "the pub. his son rhys has took over the firm, hes alright",
    )
    assert people(extractor) == {"Dai": ("former manager", ["boss"]), "Rhys": ("boss", [])}
    capitalised = read(
        "the boss Dai says its busy",
        "Dai had his last day Friday. his son Rhys has took over the firm, hes alright",
    )
    assert people(capitalised)["Rhys"] == ("boss", [])
    kept = read("my manager mike is great", "mike says my sister replaced the tv")
    assert people(kept)["Mike"] == ("manager", [])


def test_a_name_then_the_role_is_who_holds_it():
    """ "mr okafor the landlord", "sarah the vet": the role after "the" is theirs; "tom
    the other day" and "bob the builder" name no role."""
    extractor = read(
        "sarah the vet said hes fine, and we watched bob the builder with him",
        "gave the keys to tom the other day",
    )
    assert people(extractor) == {"Sarah": ("vet", [])}


def test_a_move_keeps_the_landlord_and_neighbour_it_names():
    """The user moves and names the new landlord in the same turn: he is the landlord
    now, not a former one; the flatmate named before the move is the former one."""
    extractor = read(
        "my flatmate jules is great",
        "moved into the new flat in leith!! mr okafor the landlord seems sound, and herr "
        "braun downstairs has a dachshund called kaiser lol",
    )
    held = people(extractor)
    assert held["Okafor"] == ("landlord", [])
    assert held["Jules"][0] == "former roommate"  # a flatmate, as the store words it
    assert "Herr Braun" in extractor.registry.get("Braun").aliases
