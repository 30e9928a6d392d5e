"""Conversations on a real store: turns are the Source nodes cards cite, search finds
them, compaction folds each turn exactly once."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from graphmem import Card, Memory, Provenance, ValidationError
from graphmem.sessions import Role, turn_id

USER_LINES = [
    "My sister Alice is allergic to peanuts, so no satay at her birthday.",
    "I moved to Lisbon last spring and I work at a small robotics startup.",
    "Bob, my manager, prefers morning meetings before ten.",
    "I am training for a half marathon in October.",
    "My daughter Emma just started violin lessons on Tuesdays.",
    "I prefer window seats when I fly, and I never check a bag.",
    "We are planning a trip to Kyoto with Alice in the spring.",
    "I keep forgetting to renew my passport, it expires in June.",
    "Our team is switching the backend from Flask to FastAPI.",
    "I drink green tea in the morning and no coffee after noon.",
]
ASSISTANT_LINES = [
    "Noted, I will keep that in mind.",
    "That sounds exciting, tell me more when you can.",
    "Got it. Anything else I should remember?",
    "Thanks for letting me know.",
]


def conversation(turns: int) -> list[dict[str, object]]:
    """A plain-words chat: the user says things worth remembering, the assistant acks."""
    user = itertools.cycle(USER_LINES)
    assistant = itertools.cycle(ASSISTANT_LINES)
    out = []
    for i in range(turns):
        if i % 2 == 0:
            text = f"{next(user)} (note {i // 2})"
            out.append({"role": "user", "text": text, "timestamp": 1_700_000_000_000 + i * 60_000})
        else:
            out.append(
                {"role": "assistant", "text": next(assistant), "timestamp": 1_700_000_000_000 + i}
            )
    return out


def test_turns_come_back_in_order_exactly_as_said(memory: Memory, user: str) -> None:
    said = ["Hello", 'Line1\nLine2\tTabbed "quoted" back\\slash ', "", "Hello 世界 🌍"]
    for text in said:
        memory.sessions.append(user, "chat", "user", text)
    turns = memory.sessions.turns(user, "chat")
    assert [(t.turn, t.text) for t in turns] == list(enumerate(said))
    assert [t.text for t in memory.sessions.turns(user, "chat", limit=2)] == said[2:]
    assert memory.sessions.turns(user, "nothing-here") == []


def test_a_turn_is_the_source_node_a_card_cites(memory: Memory, user: str) -> None:
    """One provenance model: the card ingestion would write for turn 1 cites the turn."""
    memory.sessions.append(user, "s1", "assistant", "How was the weekend?")
    turn = memory.sessions.append(user, "s1", Role.USER, "My sister Alice loves hiking.")
    assert turn.id == turn_id("s1", 1) == Provenance(session_id="s1", turn=1).source_id
    card = memory.remember(
        Card(
            user_id=user,
            fact="Alice loves hiking",
            person="Alice",
            relationship="sister",
            source=Provenance(session_id="s1", turn=1, speaker="user", text=turn.text),
        )
    )
    assert card.source is not None
    assert card.source.source_id == turn.id
    assert memory.sessions.get_turn(user, turn.id).text == "My sister Alice loves hiking."
    [info] = memory.sessions.list(user)
    assert (info.session_id, info.turns) == ("s1", 2)  # no second Source node appeared


def test_metadata_roles_and_speakers(memory: Memory, user: str) -> None:
    nested = {"source": "test", "tags": ["a", "b"], "nested": {"deep": {"n": 42}}, "ok": True}
    turn = memory.sessions.append(
        user, "s", "assistant", "Hi", ts="2024-05-01T10:00:00Z", metadata=nested
    )
    assert (turn.role, turn.speaker, turn.metadata) == ("assistant", "assistant", nested)
    named = memory.sessions.append(user, "s", "user", "Hey", speaker="Caroline")
    assert (named.role, named.speaker) == ("user", "Caroline")
    [first, second] = memory.sessions.turns(user, "s")
    assert first.metadata == nested
    assert first.timestamp == 1714557600000
    assert second.metadata == {}


def test_bad_turns_write_nothing(memory: Memory, user: str) -> None:
    with pytest.raises(ValidationError) as error:
        memory.sessions.append_many(
            user, "s", [{"role": "user", "text": "fine"}, {"role": "robot", "text": "x"}]
        )
    assert error.value.field == "turns[1].role"
    with pytest.raises(ValidationError):
        memory.sessions.append(user, "s", "user", "NUL \x00 inside")
    assert memory.sessions.turns(user, "s") == []


def test_deleting_turns_keeps_order_counts_and_cited_provenance(memory: Memory, user: str) -> None:
    turns = memory.sessions.append_many(
        user, "s", [{"role": "user", "text": t} for t in ["A", "B", "C", "D"]]
    )
    cited = memory.remember(
        Card(
            user_id=user,
            fact="C was said",
            source=Provenance(session_id="s", turn=2, speaker="user", text="C"),
        )
    )
    assert memory.sessions.delete_turn(user, turns[1].id) is True
    assert memory.sessions.delete_turn(user, turns[1].id) is False
    assert memory.sessions.delete_turn(user, turns[2].id) is True
    assert [t.text for t in memory.sessions.turns(user, "s")] == ["A", "D"]
    assert memory.sessions.info(user, "s").turns == 2  # type: ignore[union-attr]
    # The card still says where it came from; the deleted turn's text is gone.
    source = memory.get(user, cited.id).source
    assert source is not None
    assert (source.session_id, source.turn, source.text) == ("s", 2, None)
    # Turn indexes never come back: a new turn cannot take the id the card cites.
    assert memory.sessions.append(user, "s", "user", "E").turn == 4


def test_clear_one_session_only(memory: Memory, user: str) -> None:
    memory.sessions.append(user, "a", "user", "alpha")
    memory.sessions.append(user, "b", "user", "beta")
    assert memory.sessions.clear(user, "a") == 1
    assert memory.sessions.clear(user, "a") == 0
    assert memory.sessions.clear(user, "never-was") == 0
    assert memory.sessions.turns(user, "a") == []
    assert [s.session_id for s in memory.sessions.list(user)] == ["b"]
    assert memory.sessions.append(user, "a", "user", "again").text == "again"


def test_search_ranks_by_meaning_within_the_user(memory: Memory, user: str) -> None:
    memory.sessions.append(user, "a", "user", "I love programming in Python")
    memory.sessions.append(user, "a", "user", "The weather is sunny today")
    memory.sessions.append(user, "b", "user", "Python is great for data science")
    memory.sessions.append("someone-else", "a", "user", "Python programming all day")
    hits = memory.sessions.search(user, "Python programming", k=10)
    assert [h.turn.text for h in hits][:2] == [
        "I love programming in Python",
        "Python is great for data science",
    ]
    assert all(h.turn.user_id == user for h in hits)
    assert [h.turn.session_id for h in memory.sessions.search(user, "Python", session_id="b")] == [
        "b"
    ]
    assert memory.sessions.search(user, "Python", min_score=0.99) == []
    assert memory.sessions.search("nobody-at-all", "anything") == []


def test_a_200_turn_session_compacts_each_turn_exactly_once(memory: Memory, user: str) -> None:
    memory.sessions.append_many(user, "long", conversation(200))
    done = memory.sessions.compact(user, "long", 1000)
    assert done.changed
    assert done.tokens <= 1000
    window = memory.sessions.window(user, "long")
    assert window.tokens <= 1000
    # Every turn is in exactly one place: folded into the summary or in the buffer.
    assert sorted(done.folded + done.buffer) == list(range(200))
    assert not set(done.folded) & set(done.buffer)
    assert [t.turn for t in window.turns] == done.buffer
    turns = memory.sessions.turns(user, "long")
    # One row per turn (a turn in two summaries would come back twice), folded or not.
    assert [t.turn for t in turns] == list(range(200))
    assert [t.turn for t in turns if t.compacted] == done.folded
    assert done.folded == list(range(done.through + 1))  # type: ignore[operator]
    # The summary is about what was said; cards cite the turns they came from.
    assert window.summary
    assert window.summary.startswith("[summary of session long")
    assert done.cards
    for card in memory.get_many(user, done.cards):
        assert card.source is not None
        assert card.source.session_id == "long"
        assert card.source.turn in done.folded
    # Compacting again changes nothing: no card, no summary, no turn.
    cards = memory.count(user)
    again = memory.sessions.compact(user, "long", 1000)
    assert not again.changed
    assert again.cards == []
    assert memory.sessions.window(user, "long") == window
    assert memory.count(user) == cards
    assert memory.sessions.turns(user, "long") == turns
    # New turns fold later, after the cursor, never twice.
    memory.sessions.append_many(user, "long", conversation(60))
    later = memory.sessions.compact(user, "long", 1000)
    assert later.folded
    assert min(later.folded) == done.through + 1
    assert memory.sessions.window(user, "long").tokens <= 1000


def test_compaction_with_a_chat_model_and_its_fallback(memory: Memory, user: str) -> None:
    memory.sessions.append_many(user, "s", conversation(40))
    summary = "The user's sister Alice is allergic to peanuts; the user lives in Lisbon."
    # The model answers everything with the summary: extraction cannot parse it and
    # falls back to spaCy (cards still cite their turns); the summary is the model's.
    model = GenericFakeChatModel(messages=itertools.cycle([AIMessage(content=summary)]))
    done = memory.sessions.compact(user, "s", 200, llm=model)
    assert (done.summary, done.extractor) == (summary, "llm/generic-fake-chat-model")
    assert done.cards
    assert all(c.source and c.source.turn in done.folded for c in memory.get_many(user, done.cards))
    # A reply over budget is not used: the extractive summary is.
    memory.sessions.append_many(user, "s", conversation(40))
    verbose = GenericFakeChatModel(messages=itertools.cycle([AIMessage(content="word " * 400)]))
    fallback = memory.sessions.compact(user, "s", 200, llm=verbose)
    assert fallback.extractor == "extractive/1"
    assert fallback.tokens <= 200


def test_compact_refuses_a_budget_it_cannot_keep(memory: Memory, user: str) -> None:
    with pytest.raises(ValidationError) as error:
        memory.sessions.compact(user, "s", 5)
    assert error.value.field == "budget_tokens"
