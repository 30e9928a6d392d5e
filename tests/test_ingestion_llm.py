"""LLM extraction with a real (fake-reply) langchain chat model, and its lossless fallback."""

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from graphmem.models import SELF, Category
from graphmem.timeutil import to_iso, to_ms
from ingestion.llm import LLMExtractor, LLMFacts, build_messages, extract_with_llm, parse_reply
from ingestion.loaders import Turn

TURNS = [
    Turn(
        session_id="s1",
        turn=0,
        speaker="user",
        timestamp=to_ms("2024-03-20T10:15:00Z"),
        text="Actually I'm vegetarian now, and my sister Alice moved to Lyon yesterday.",
    ),
    Turn(
        session_id="s1",
        turn=1,
        speaker="user",
        timestamp=to_ms("2024-03-20T10:16:00Z"),
        text="Pizza night at Bob's, finally.",
    ),
    Turn(
        session_id="s1",
        turn=2,
        speaker="user",
        timestamp=to_ms("2024-03-20T10:17:00Z"),
        text="thanks!",
    ),
]

REPLY = {
    "facts": [
        {
            "fact": "I am vegetarian",
            "backstory": "corrected an earlier diet",
            "person": "me",
            "relationship": None,
            "timestamp": None,
            "turn": 0,
            "evidence": "I'm vegetarian now",
            "category": "preference",
            "importance": 0.9,
        },
        {
            "fact": "Alice moved to Lyon",
            "backstory": "news about family",
            "person": "Alice",
            "relationship": "sister",
            "timestamp": "2024-03-19",
            "turn": 0,
            "evidence": "my sister Alice moved to Lyon yesterday",
            "category": "life",
            "importance": 0.6,
        },
        {"fact": "I like hiking", "person": "me", "turn": 0},
    ]
}


def test_valid_json_reply_becomes_cards():
    llm = FakeListChatModel(responses=["```json\n" + json.dumps(REPLY) + "\n```"])
    cards = extract_with_llm(TURNS, "u1", llm, known_facts=["I like hiking"], wait_s=0)
    assert [(c.fact, c.person, c.relationship, to_iso(c.timestamp), c.category) for c in cards] == [
        ("I am vegetarian", SELF, "self", "2024-03-20T10:15:00Z", Category.PREFERENCE),
        ("Alice moved to Lyon", "Alice", "sister", "2024-03-19T00:00:00Z", Category.LIFE),
        # a turn the model found nothing in is kept as said
        ("Pizza night at Bob's, finally.", SELF, "self", "2024-03-20T10:16:00Z", Category.OTHER),
    ]  # "I like hiking" is already in memory
    src = cards[1].source
    assert src.extractor == "llm/fake-list-chat-model"
    assert src.text[slice(*src.span)] == "my sister Alice moved to Lyon yesterday"
    assert cards[0].backstory == (
        "corrected an earlier diet; said by user in session s1 (2024-03-20), turn 0"
    )


def test_garbage_falls_back_to_spacy_and_keeps_turns_as_said():
    llm = FakeListChatModel(
        responses=["sorry, I cannot help", '{"facts": [{"turn": 9}]}', "not json"]
    )
    extractor = LLMExtractor(llm, "u1", wait_s=0)
    cards = extractor.conversation(TURNS)
    assert extractor.failures == 1
    assert [(c.fact, c.person, c.source.turn, c.source.extractor) for c in cards] == [
        ("Actually I'm vegetarian now", SELF, 0, "spacy/0.1"),
        ("My sister Alice moved to Lyon yesterday", "Alice", 0, "spacy/0.1"),
        # read in two parts, the turn is also kept whole, as said
        (
            "Actually I'm vegetarian now, and my sister Alice moved to Lyon yesterday.",
            SELF,
            0,
            "said/0.1",
        ),
        # spaCy finds no fact in a verbless line: the whole turn is kept, nothing lost
        ("Pizza night at Bob's, finally.", SELF, 1, "said/0.1"),
    ]
    assert cards[3].source.span == (0, 30)
    assert cards[1].timestamp == to_ms("2024-03-19")


def test_a_turn_too_long_to_read_is_kept_as_said_not_sent_to_the_model():
    pasted = " ".join(
        f"Line {n} of the log says the backup of disk {n} went fine." for n in range(400)
    )
    long_turn = Turn(session_id="s2", turn=0, speaker="user", timestamp=0, text=pasted)
    llm = FakeListChatModel(responses=[json.dumps({"facts": []})])
    extractor = LLMExtractor(llm, "u1", wait_s=0)
    cards = extractor.conversation([long_turn])
    assert llm.i == 0  # the model was never asked
    assert {c.source.extractor for c in cards} == {"said/0.1"}
    assert "".join(long_turn.text[slice(*c.source.span)] for c in cards).replace(" ", "") == (
        pasted.replace(" ", "")
    )


def test_reply_validation():
    assert parse_reply({"facts": []}, 1) == LLMFacts(facts=[])
    with pytest.raises(ValueError, match="refers to turn 3"):
        parse_reply(json.dumps({"facts": [{"fact": "x", "turn": 3}]}), 2)
    with pytest.raises(ValueError, match="no JSON object"):
        parse_reply("no facts here", 1)


def test_prompt_lists_memory_and_numbered_turns():
    system, human = build_messages(TURNS[:1], ["I live in Paris"])
    assert "corrections" in system[1].split("\n")[2]
    assert human[1] == (
        "Already in memory:\n- I live in Paris\n\nConversation:\n"
        "[0] (s1, 2024-03-20T10:15:00Z) user: Actually I'm vegetarian now, "
        "and my sister Alice moved to Lyon yesterday."
    )
