"""Conflict detection: rule extraction, candidates within a person, decisions with reasons."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage

from graphmem.algorithms.cardview import CardView
from graphmem.algorithms.conflicts import (
    CandidatePair,
    Claim,
    Conflict,
    Supersede,
    adjudicate_with_llm,
    attribute_of,
    candidate_pairs,
    card_claim,
    claim_of,
    detect_conflicts,
    is_single_valued,
    knn_within_person,
    resolve,
)
from graphmem.models import SAID, TURN, Card
from graphmem.timeutil import to_ms

JAN_2023 = to_ms("2023-01-10T09:00:00Z")
MAY_2024 = to_ms("2024-05-01T18:30:00Z")


def card(
    cid: str, fact: str, person: str = "Alice", when: int = JAN_2023, **extra: object
) -> CardView:
    return CardView(cid, fact, person, timestamp=when, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fact", "expected"),
    [
        ("Alice lives in Paris", ("location", "paris")),
        ("Alice moved to Berlin in 2024", ("location", "berlin")),
        ("I live in New York City now", ("location", "new york city")),
        ("Alice is based in London.", ("location", "london")),
        ("Alice doesn't live in Paris anymore", ("location", "not paris")),
        ("She used to live in Rome", ("location", "not rome")),
        ("Bob works for the New York Times since 2019", ("employer", "new york times")),
        ("Bob joined Microsoft last year", ("employer", "microsoft")),
        ("Bob is employed by Acme Corp", ("employer", "acme corp")),
        ("Bob no longer works at Google", ("employer", "not google")),
        ("Bob works as a nurse at St Mary's", ("job", "nurse")),
        ("accepted the sous chef job at harbor oyster bar", ("employer", "harbor oyster bar")),
        ("got a nursing position with st marys", ("employer", "st marys")),
        ("started as sous chef at Harbor Oyster Bar", ("employer", "harbor oyster bar")),
        ("big news!! signed with Harbor Oyster Bar, sous chef", ("employer", "harbor oyster bar")),
        ("Last shift at Bella is friday 😭", ("employer", "not bella")),
        ("my last day at northwind was friday", ("employer", "not northwind")),
        ("last week at the gym was rough", None),
        ("we signed with a realtor", None),
        ("Bob is a software engineer", ("job", "software engineer")),
        ("I'm a teacher", ("job", "teacher")),
        ("Alice's favorite food is sushi", ("favourite food", "sushi")),
        ("Her favourite colour is green.", ("favourite colour", "green")),
        ("Alice is allergic to peanuts", ("allergy", "peanuts")),
        ("Alice is not allergic to peanuts", ("allergy", "not peanuts")),
        ("Alice likes hiking", ("likes:hiking", "yes")),
        ("Alice doesn't like spicy food", ("likes:spicy food", "no")),
        ("Alice hates spicy food", ("likes:spicy food", "no")),
        ("Alice is married to Bob", ("partner", "bob")),
        ("Alice is dating Tom", ("partner", "tom")),
        ("Alice's birthday is on March 3, 1990", ("birthday", "march 3")),
        ("Alice was born on 3rd Mar 1990", ("birthday", "march 3")),
        ("Alice is no longer vegetarian", ("diet", "not vegetarian")),
        ("Alice follows a keto diet", ("diet", "keto")),
        # "am" typed fused, and a diet said after how one wants to eat ("better" is no food)
        ("trying to eat better. im vegetarian since college", ("diet", "vegetarian")),
        ("doctor said my iron is low so im pescatarian now", ("diet", "pescatarian")),
        ("Alice is 34 years old", ("age", "34")),
        ("Alice doesn't drink alcohol", ("activity:alcohol", "no")),
        ("Alice quit smoking", ("smokes", "no")),
        ("Alice doesn't eat meat", ("activity:meat", "no")),
        ("I've been renting in Leeds for years", ("location", "leeds")),
        ("She teaches maths", ("job", "maths")),
        ("Sold the Civic and bought a Tesla Model 3", ("car", "tesla model 3")),
        # pastimes by their verb, keyed as the -ing form
        ("Now I swim three times a week instead", ("activity:swimming", "yes")),
        ("I stopped swimming after the move", ("activity:swimming", "no")),
        ("My grandma bakes the best scones", ("activity:baking", "yes")),
        ("We go hiking in Wales every summer", ("activity:hiking", "yes")),
        # how often is left out, a plural is its singular
        ("I drink three coffees a day", ("activity:coffee", "yes")),
        ("I quit coffee in January", ("activity:coffee", "no")),
    ],
)
def test_attribute_of_reads_documented_patterns(fact: str, expected: tuple[str, str]) -> None:
    assert attribute_of(fact) == expected


@pytest.mark.parametrize(
    "fact",
    [
        "Alice's brother lives in Rome",  # about the brother, not Alice
        "Bob is a great friend",  # "is a" without a job word
        "I would like to visit Japan",  # a wish, not a preference
        "Alice looks like her mother",
        "The weather was nice",
        "I run a bakery",  # a business, not a pastime
        "I teach my son to swim",
        "I bought a mini fridge",  # not a car
        "We went hiking on the trail",  # an outing, not a pastime
    ],
)
def test_attribute_of_ignores_what_it_cannot_read(fact: str) -> None:
    assert attribute_of(fact) is None


@pytest.mark.parametrize(
    "fact",
    [
        "Half my mates have moved to melbourne",  # other people's move
        "My mate adelaide lives in mt Albert",
        "Also funny timing my boy marcus just got a job at amazon",
        "The therapist is a 25 year old who shows no mercy",  # not the user's age
        "If I moved to vancouver I'd make way more",  # only imagined
        "We might move to Leeds next year",
        "So also I joined the game dev club, its called longhorn game devs",  # not a job
        "her email is jo@example.com",  # a contact of someone else's
        "The area we live in is so quiet tho",  # a clause, not a place
        "boxes everywhere and pip hates the stairs",  # the cat's, by its verb
        "想租南山西丽那边 我入职以后的直属领导是周总",  # a time, not a workplace
        "我在家做饭",
        "kayla works at the royal womens",  # a name as the subject
        "and winter quarter started at seattle central, design class is SO fun",  # a term
    ],
)
def test_what_the_user_says_of_others_or_imagines_is_no_claim_of_theirs(fact: str) -> None:
    assert claim_of(fact) is None


@pytest.mark.parametrize(
    ("fact", "attribute", "value"),
    [
        ("My wife and I moved to Leeds", "location", "leeds"),
        ("Just started at Acme", "employer", "acme"),  # no subject written: the user
        ("ok so finally started at acme", "employer", "acme"),
        ("also trying to quit the durries again", "activity:durrie", "no"),
        ("Me and Luis moved to Columbus", "location", "columbus"),
        ("Officially moved into shawlands 2 weeks ago", "location", "shawlands"),
        ("moved!! got keys to a 1 bed in springfield yesterday", "location", "springfield"),
        ("We rent a wee flat in govanhill", "location", "govanhill"),
        # a contact is known by its shape, wherever in the message it is said
        ("Megan set up my new email yesterday, greg.h@gmail.com", "email", "greg.h@gmail.com"),
        (
            "got a new number since I was moving anyway. its 0412 558 903 now",
            "phone",
            "0412 558 903",
        ),
        ("i made the new email, its alexis.r@gmail.com now", "email", "alexis.r@gmail.com"),
        ("New number btw, 07700 900123, the old one got cut off", "phone", "07700 900123"),
        ("my cell is (415) 555-0199", "phone", "(415) 555-0199"),
        ("lisbon is off. we're doing edinburgh instead", "activity:lisbon", "no"),
        ("flights doubled so we're doing edinburgh instead", "activity:edinburgh", "yes"),
        # a job lost: no employer now ("like" there is no preference)
        ("So I got laid off, northwind cut like 30% of the design team", "employer", "none"),
        ("also got made redundant friday. hartwell is closing the site", "employer", "none"),
        ("one good thing, i havent vaped in 3 weeks", "smokes", "no"),
        ("租在南山西丽的留仙苑 两室一厅", "location", "南山西丽的留仙苑"),
        ("我入职云帆数据啦 11月4号入职的", "employer", "云帆数据"),
        ("告诉你个好消息 蓝鲸智能的offer我接了！！11月18号入职", "employer", "蓝鲸智能"),
        ("我现在在京联科技 做后端五年了", "employer", "京联科技"),
        ("offer拿到了！小象科技 高级UI设计师 3月9号入职", "employer", "小象科技"),
        ("在上海一家广告公司做文案 叫蓝鲸广告", "employer", "蓝鲸广告"),  # the name, not the kind
        ("崩溃 产假还没休完 公司说我们组整个被裁了", "employer", "none"),  # a job lost
        (
            "我辞职了！！下周一去上海一家做咖啡的品牌公司 做品牌策划",
            "employer",
            "上海一家做咖啡的品牌公司",
        ),
    ],
)
def test_the_users_own_changes_are_claims_however_chatted(
    fact: str, attribute: str, value: str
) -> None:
    found = claim_of(fact)
    assert found is not None
    assert (found.subject, found.attribute, found.value) == ("me", attribute, value)


@pytest.mark.parametrize(
    ("fact", "person", "value"),
    [
        ("Shes an er nurse, 12 hour shifts", "Grace", "er nurse"),
        ("Hes a mechanic, he has his own shop", "Diego", "mechanic"),
        ("Shes a midwife at the royal womens", "Kayla", "midwife"),
    ],
)
def test_a_job_typed_without_its_apostrophe_is_read(fact: str, person: str, value: str) -> None:
    found = claim_of(fact, person)
    assert found is not None
    assert (found.subject, found.attribute, found.value) == (person.lower(), "job", value)


def test_what_an_assistant_said_is_no_claim() -> None:
    """Its suggestions are memory, never a newer value superseding another."""
    assert claim_of("assistant said: I live in Berlin myself", "assistant") is None
    assert claim_of("Ana moved to Berlin", "Ana") is not None


def test_single_valued_table() -> None:
    assert [
        is_single_valued(a) for a in ("location", "favourite food", "likes:jazz", "allergy")
    ] == [True, True, True, False]


def test_newer_location_supersedes_older_with_a_reason() -> None:
    cards = [
        card("paris", "Alice lives in Paris", when=JAN_2023),
        card("berlin", "Alice moved to Berlin", when=MAY_2024),
    ]
    assert detect_conflicts(cards) == [
        Supersede(
            newer="berlin",
            older="paris",
            attribute="location",
            reason="newer value replaces older: location of Alice: 'paris' (2023-01-10) vs "
            "'berlin' (2024-05-01)",
        )
    ]


def test_works_on_card_models_too() -> None:
    cards = [
        Card(user_id="u", fact="I live in Paris", timestamp="2023-01-10T09:00:00Z"),
        Card(user_id="u", fact="I moved to Berlin", timestamp="2024-05-01T18:30:00Z"),
    ]
    [decision] = detect_conflicts(cards)
    assert (decision.newer, decision.older) == (cards[1].id, cards[0].id)


def test_different_people_never_conflict() -> None:
    cards = [
        card("a", "Alice lives in Paris", "Alice", JAN_2023),
        card("b", "Bob lives in Berlin", "Bob", MAY_2024),
    ]
    vectors = np.array([[1.0, 0.0], [1.0, 0.0]])  # identical embeddings, still no pair
    assert candidate_pairs(cards, knn_within_person(cards, vectors, k=5)) == []
    assert detect_conflicts(cards, vectors) == []


def test_same_value_is_a_duplicate_not_a_conflict() -> None:
    cards = [
        card("a", "Alice lives in Paris", when=JAN_2023),
        card("b", "Alice is based in Paris", when=MAY_2024),
    ]
    assert detect_conflicts(cards) == []


def test_same_time_contradiction_flags_both() -> None:
    cards = [
        card("x", "Alice works at Google", when=MAY_2024),
        card("y", "Alice works at Apple", when=MAY_2024 + 10 * 60_000),
    ]
    assert detect_conflicts(cards) == [
        Conflict(
            a="x",
            b="y",
            attribute="employer",
            needs_revision=("x", "y"),
            reason="contradiction at the same time (10 min apart): employer of Alice: 'google' "
            "(2024-05-01) vs 'apple' (2024-05-01)",
        )
    ]


def test_much_more_confident_older_card_stands() -> None:
    cards = [
        card("old", "Alice is married to Bob", when=JAN_2023, confidence=0.95),
        card("new", "Alice is married to Tom", when=MAY_2024, confidence=0.5),
    ]
    [decision] = detect_conflicts(cards)
    assert isinstance(decision, Conflict)
    assert (decision.a, decision.b, decision.needs_revision) == ("new", "old", ("new",))
    assert decision.reason.startswith("newer card is less confident (0.50 vs 0.95)")


def test_negated_preference_is_a_different_value() -> None:
    cards = [
        card("l", "Alice likes spicy food", when=JAN_2023),
        card("d", "Alice doesn't like spicy food", when=MAY_2024),
    ]
    assert [(d.kind, d.newer, d.older, d.attribute) for d in detect_conflicts(cards)] == [
        ("supersede", "d", "l", "likes:spicy food")
    ]


def test_allergies_accumulate_and_only_negation_conflicts() -> None:
    cards = [
        card("p", "Alice is allergic to peanuts", when=JAN_2023),
        card("s", "Alice is allergic to shellfish", when=MAY_2024),
    ]
    assert detect_conflicts(cards) == []
    cards.append(card("n", "Alice is not allergic to peanuts", when=MAY_2024 + 86_400_000))
    assert [(d.kind, d.newer, d.older) for d in detect_conflicts(cards)] == [
        ("supersede", "n", "p")
    ]


def test_chain_keeps_only_direct_successors() -> None:
    cards = [
        card("paris", "Alice lives in Paris", when=to_ms("2020-01-01")),
        card("berlin", "Alice moved to Berlin", when=to_ms("2022-01-01")),
        card("rome", "Alice moved to Rome", when=to_ms("2024-01-01")),
    ]
    assert [(d.newer, d.older) for d in detect_conflicts(cards)] == [
        ("berlin", "paris"),
        ("rome", "berlin"),
    ]


def test_inactive_cards_are_skipped() -> None:
    cards = [
        card("a", "Alice lives in Paris", when=JAN_2023, status="superseded"),
        card("b", "Alice lives in Berlin", when=MAY_2024),
    ]
    assert detect_conflicts(cards) == []


def test_knn_within_person_groups_by_person_case_insensitively() -> None:
    cards = [card("a1", "x", "Alice"), card("a2", "y", "alice"), card("b1", "z", "Bob")]
    vectors = np.array([[1.0, 0.0], [0.6, 0.8], [1.0, 0.0]], dtype=np.float32)
    assert knn_within_person(cards, vectors, k=3) == {
        "a1": [("a2", 0.6)],
        "a2": [("a1", 0.6)],
        "b1": [],
    }


def test_candidate_pairs_merge_neighbours_and_attribute_buckets() -> None:
    cards = [
        card("p", "Alice lives in Paris", when=JAN_2023),
        card("b", "Alice moved to Berlin", when=MAY_2024),
        card("h", "Alice likes hiking", when=MAY_2024),
    ]
    pairs = candidate_pairs(cards, {"h": [("p", 0.41)], "p": [("h", 0.4)]})
    assert pairs == [CandidatePair("b", "p", None), CandidatePair("h", "p", 0.41)]
    # the kNN pair reads two different attributes: no decision; the bucket pair decides
    assert [(d.newer, d.older) for d in resolve(pairs, cards)] == [("b", "p")]


def test_similarity_appears_in_the_reason_when_known() -> None:
    cards = [
        card("p", "Alice lives in Paris", when=JAN_2023),
        card("b", "Alice moved to Berlin", when=MAY_2024),
    ]
    [decision] = resolve([CandidatePair("b", "p", 0.62)], cards)
    assert decision.reason.endswith("; similarity 0.62")


def test_output_is_sorted_and_stable_under_input_order() -> None:
    cards = [
        card("p", "Alice lives in Paris", when=JAN_2023),
        card("b", "Alice moved to Berlin", when=MAY_2024),
        card("g", "Bob works at Google", "Bob", JAN_2023),
        card("a", "Bob joined Apple", "Bob", MAY_2024),
    ]
    forward = detect_conflicts(cards)
    assert forward == detect_conflicts(list(reversed(cards)))
    assert [(d.newer, d.older) for d in forward] == [("a", "g"), ("b", "p")]


# -- LLM adjudication with langchain-core's fake chat models ----------------------------

PAIR = (
    card("p", "Alice lives in Paris", when=JAN_2023),
    card("b", "Alice moved to Berlin", when=MAY_2024),
)


def test_llm_verdict_is_used_when_valid() -> None:
    model = GenericFakeChatModel(
        messages=iter([AIMessage('{"verdict": "update", "current": "B", "reason": "she moved"}')])
    )
    decision = adjudicate_with_llm(PAIR, model, similarity=0.7)
    assert decision == Supersede(
        "b",
        "p",
        "location",
        "update per LLM: she moved; similarity 0.70",
        decided_by="llm/generic-fake-chat-model",  # the decision names its author
    )


def test_llm_compatible_verdict_means_no_decision() -> None:
    model = FakeListChatModel(responses=['Sure! {"verdict": "compatible", "reason": "ok"}'])
    assert adjudicate_with_llm(PAIR, model) is None


def test_llm_garbage_falls_back_to_the_rule_and_says_so() -> None:
    model = FakeListChatModel(responses=["I think they are both fine, really."])
    decision = adjudicate_with_llm(PAIR, model, attempts=2)
    assert isinstance(decision, Supersede)
    assert (decision.newer, decision.older) == ("b", "p")
    assert decision.reason.endswith(
        "(LLM adjudication failed: ValueError: no JSON object in the reply; rule decision kept)"
    )
    assert decision.decided_by == "rules"


def test_llm_retries_then_succeeds() -> None:
    model = FakeListChatModel(
        responses=["garbage", '{"verdict": "contradiction", "reason": "cannot both be true"}']
    )
    decision = adjudicate_with_llm(PAIR, model, attempts=2)
    assert decision == Conflict(
        "b",
        "p",
        "location",
        ("b", "p"),
        "contradiction per LLM: cannot both be true",
        decided_by="llm/fake-list-chat-model",
    )


def test_detect_conflicts_asks_the_llm_only_about_unreadable_close_pairs() -> None:
    cards = [
        card("x", "Alice is crazy about Sardinia", when=JAN_2023),
        card("y", "Alice cannot bear Sardinia any more", when=MAY_2024),
        card("p", "Alice lives in Paris", when=JAN_2023),
        card("b", "Alice moved to Berlin", when=MAY_2024),
    ]
    vectors = np.array([[1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.8, 0.6]])
    model = FakeListChatModel(
        responses=['{"verdict": "update", "current": "B", "reason": "her opinion changed"}']
    )
    decisions = detect_conflicts(cards, vectors, chat_model=model)
    assert [(d.kind, d.newer, d.older, d.attribute) for d in decisions] == [
        ("supersede", "b", "p", "location"),
        ("supersede", "y", "x", "llm"),
    ]


def test_a_switched_therapist_is_a_new_holder_of_the_role() -> None:
    from graphmem.algorithms.conflicts import claim_of

    first = claim_of("I see a therapist, Dr. Howard, every Tuesday.")
    then = claim_of("I switched therapists, I see Dr. Patel now.")
    assert first is not None
    assert then is not None
    assert (first.key, first.value, then.key, then.value) == (
        "me|my therapist",
        "howard",
        "me|my therapist",
        "patel",
    )


def test_the_old_car_gives_way_to_the_new_one() -> None:
    cards = [
        card("civic", "I drive a 2012 Honda Civic", person="me", when=JAN_2023),
        card("tesla", "Sold the Civic and bought a Tesla Model 3", person="me", when=MAY_2024),
    ]
    [decision] = detect_conflicts(cards)
    assert (decision.kind, decision.newer, decision.older) == ("supersede", "tesla", "civic")


def test_a_turn_kept_whole_makes_no_claim_of_its_own():
    """Its claims are its parts': read from it again, the move would supersede the whole
    turn, and with it what else the turn said."""
    whole = CardView(
        id="t", fact="I live in Paris. My sister Alice loves sushi.", tags=(SAID, TURN)
    )
    part = CardView(id="p", fact="I live in Paris")
    assert card_claim(whole) is None
    assert card_claim(part) == Claim("me", "location", "paris")


def test_a_home_described_after_the_keys_or_the_move_is_where_the_user_lives():
    """The keys, then what the home is and where: "its a little 1.5 room villa in
    mangwon-dong", "a little semi in rhiwbina"; a flat moved out of is no home now."""
    assert attribute_of(
        "moved!!! got the keys on the 15th, its a little 1.5 room villa in mangwon-dong", True
    ) == ("location", "mangwon-dong")
    assert attribute_of(
        "got the keys to the new place yesterday, a little semi in rhiwbina, bethan and me", True
    ) == ("location", "rhiwbina")
    assert attribute_of("i live in a tiny officetel in gangnam so i should know", True) == (
        "location",
        "gangnam",
    )
    assert attribute_of("moved everything out of my flat in belgrave with the van", True) is None
    assert attribute_of("picked up a vauxhall vivaro, 2021 one, from a dealer", True) == (
        "car",
        "vauxhall vivaro",
    )


def test_a_home_called_mine_in_someone_elses_words_is_mine():
    said = "Emeka is saying we should look for a bigger place, my alief apartment is too small"
    assert claim_of(said, "Emeka") == Claim("me", "location", "alief")
    his = claim_of("Emeka says his alief apartment is too small", "Emeka")
    assert his is None or his.subject == "emeka"


def test_a_move_on_a_day_set_said_in_the_present_is_a_move():
    assert claim_of("also boxes everywhere, i move to muizenberg on saturday") == Claim(
        "me", "location", "muizenberg"
    )
    assert claim_of("when i move to denver ill get a dog") is None


def test_a_home_counted_right_after_the_move_is_where_the_user_lives():
    said = "we moved!!! 3 bedroom townhouse in missouri city, 10 mins to work now instead of 25"
    assert claim_of(said) == Claim("me", "location", "missouri city")
    assert claim_of("ALSO i signed a lease!! studio in palms, $1595/mo") == Claim(
        "me", "location", "palms"
    )
