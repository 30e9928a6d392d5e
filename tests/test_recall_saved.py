"""A new client starts from the passages an earlier one saved beside the store.

Recall's passages (graphmem/recall/passages.py) are saved in the embedded store's home;
a second ``Memory`` on the same store (a restarted service, a CLI call) reads the saved
file and then only the cards stamped since, instead of every card of the user. The file
counts only while the store's counters and the tokenisation agree.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem import Memory
from graphmem.recall import packed, passages
from graphmem.recall.engine import recall
from graphmem.recall.state import UserState

CARDS = 40


@pytest.fixture
def store_home(memory: Memory) -> Memory:
    """``memory`` when it has a home to save passages in; saves after every read."""
    if memory.home is None:
        pytest.skip("passages are saved beside an embedded store (Neo4j: docs/design.md)")
    return memory


@pytest.fixture(autouse=True)
def save_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves after every read; a client that wrote prepares its users only as it closes."""
    monkeypatch.setattr(passages, "SAVE_AFTER", 1)
    monkeypatch.setattr(passages, "PREPARE_AFTER", 3600.0)


def written(memory: Memory, user: str) -> None:
    memory.remember_many(
        [
            {"user_id": user, "fact": f"I planted rose bush number {i} in the garden"}
            for i in range(CARDS)
        ]
        + [{"user_id": user, "fact": "My sister Ana is allergic to peanuts", "person": "Ana"}]
    )


def rewrite(path: Path, **changes: Any) -> None:
    """Change values of a saved file's header (as another version or store would have
    written them); the arrays are copied out of the mapping first."""
    loaded = packed.load(path)
    assert loaded is not None
    header, arrays = loaded
    packed.dump(path, header | changes, {name: a.copy() for name, a in arrays.items()})


def counters(memory: Memory, user: str) -> tuple[int, int]:
    """The user's revision and deletions, as recall reads them before its passages."""
    state = UserState.read(memory._store, user)
    return state.revision, state.deletions


def saved_by(memory: Memory, user: str) -> None:
    """Recall once (which reads the user's cards) and wait for the save."""
    memory.recall(user, "garden", k=3)
    assert memory.passages.wait(timeout=30)


def test_a_new_client_starts_from_the_saved_passages(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    before = [h.card.id for h in store_home.recall(user, "who is allergic to peanuts?", k=5)]
    with Memory.open(store_home.home) as fresh:
        after = [h.card.id for h in fresh.recall(user, "who is allergic to peanuts?", k=5)]
        assert fresh.passages.restored == 1
        assert fresh.passages.cards_read == 0
    assert after == before


def test_a_restored_user_keeps_the_model_each_vector_came_from(store_home: Memory, user: str):
    """The saved file says which model embedded each card: a new client restoring it
    compares an English question with the Chinese cards through the multilingual model."""
    store_home.remember_many(
        [
            {"user_id": user, "fact": "我们下周去杭州旅游"},
            {"user_id": user, "fact": "I moved to Lisbon last spring"},
        ]
    )
    saved_by(store_home, user)
    with Memory.open(store_home.home) as fresh:
        (hit,) = fresh.recall(user, "where are we going on holiday next week?", k=1)
        assert hit.card.fact == "我们下周去杭州旅游"
        assert (fresh.passages.restored, fresh.passages.cards_read) == (1, 0)


def test_cards_written_after_the_save_are_read_on_top(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    store_home.remember({"user_id": user, "fact": "I adopted a grey kitten called Miso"})
    with Memory.open(store_home.home) as fresh:
        [hit] = fresh.recall(user, "what is my kitten called?", k=1)
        assert hit.card.fact == "I adopted a grey kitten called Miso"
        assert (fresh.passages.restored, fresh.passages.cards_read) == (1, 1)


def test_a_hard_forget_erases_the_saved_text(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    [ana] = store_home.recall(user, "peanuts allergy", k=1)
    path = store_home.passages._file(user)
    assert b"peanuts" in path.read_bytes()
    store_home.forget(user, ana.card.id, hard=True)
    assert not path.exists()
    with Memory.open(store_home.home) as fresh:
        hits = fresh.recall(user, "peanuts allergy", k=5)
        assert ana.card.id not in [h.card.id for h in hits]
        assert fresh.passages.restored == 0
        assert fresh.passages.wait(timeout=30)
    assert b"peanuts" not in path.read_bytes()


def test_a_file_saved_before_another_clients_hard_forget_is_not_used(store_home: Memory, user: str):
    written(store_home, user)
    with Memory.open(store_home.home) as other:
        saved_by(other, user)
        path = other.passages._file(user)
        saved = path.read_bytes()
        [ana] = other.recall(user, "peanuts allergy", k=1)
        other.forget(user, ana.card.id, hard=True)
    path.write_bytes(saved)  # as if the forget had come from a client elsewhere
    with Memory.open(store_home.home) as fresh:
        hits = fresh.recall(user, "peanuts allergy", k=5)
        assert ana.card.id not in [h.card.id for h in hits]
        assert fresh.passages.restored == 0
        assert fresh.passages.cards_read == CARDS


def test_a_save_after_another_clients_hard_delete_writes_nothing(store_home: Memory, user: str):
    """A client that read the user before another client erased them saves nothing after:
    the erased words do not come back to disk."""
    written(store_home, user)
    store_home.recall(user, "garden", k=3)  # read here
    with Memory.open(store_home.home) as other:
        other.forget_user(user)
    store_home.passages._saves.put(user)  # the save this client had queued
    assert store_home.passages.wait(timeout=30)
    assert not store_home.passages._file(user).exists()


def test_a_file_of_another_tokenisation_is_rebuilt(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    path = store_home.passages._file(user)
    assert packed.load(path)[0]["terms"] == passages.terms_version()  # type: ignore[index]
    rewrite(path, terms="an older tokeniser")
    with Memory.open(store_home.home) as fresh:
        fresh.recall(user, "garden", k=3)
        assert (fresh.passages.restored, fresh.passages.cards_read) == (0, CARDS + 1)


def test_erasing_the_user_erases_the_file(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    path = store_home.passages._file(user)
    assert path.exists()
    store_home.forget_user(user, purge=False)
    assert not path.exists()


def test_a_user_written_by_a_client_that_closed_is_recalled_without_reading_every_card(
    store_home: Memory, user: str
):
    """An ingest that writes a user and exits (``graphmem ingest``) prepares their passages
    as it closes: the first recall of the user anywhere reads no card, and searches the
    vectors in process."""
    with Memory.open(store_home.home) as ingest:
        written(ingest, user)
        assert user not in ingest.passages.held()  # a bulk write takes no place in the budget
    with Memory.open(store_home.home) as fresh:
        [hit] = fresh.recall(user, "what is my sister allergic to?", k=1)
        assert hit.card.fact == "My sister Ana is allergic to peanuts"
        assert (fresh.passages.restored, fresh.passages.cards_read) == (1, 0)
        assert fresh.passages._users[user].vectors_ready


def test_a_user_whose_writes_pause_is_prepared_while_the_writer_runs(
    store_home: Memory, user: str, monkeypatch: pytest.MonkeyPatch
):
    """A service keeps running: the user's passages are prepared once no write to them
    came for ``PREPARE_AFTER`` seconds, and caught up again after the next write."""
    monkeypatch.setattr(passages, "PREPARE_AFTER", 0.1)
    written(store_home, user)
    path = store_home.passages._file(user)
    wait_for(path.exists)
    store_home.remember({"user_id": user, "fact": "I adopted a grey kitten called Miso"})
    wait_for(lambda: packed.load(path)[0]["revision"] == counters(store_home, user)[0])
    with Memory.open(store_home.home) as fresh:
        [hit] = fresh.recall(user, "what is my kitten called?", k=1)
        assert "Miso" in hit.card.fact
        assert (fresh.passages.restored, fresh.passages.cards_read) == (1, 0)


def test_a_user_erased_before_their_writes_pause_leaves_no_file(store_home: Memory, user: str):
    with Memory.open(store_home.home) as ingest:
        written(ingest, user)
        ingest.forget_user(user)
    assert not store_home.passages._file(user).exists()


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not prepared in time"
        time.sleep(0.05)


def test_an_unreadable_file_is_rebuilt(store_home: Memory, user: str):
    written(store_home, user)
    saved_by(store_home, user)
    store_home.passages._file(user).write_bytes(b"\x00 not a snapshot")
    with Memory.open(store_home.home) as fresh:
        assert fresh.recall(user, "peanuts", k=1)[0].card.person == "Ana"
        assert fresh.passages.cards_read == CARDS + 1


def saved_and_mapped(state: dict[str, Any], path: Path) -> dict[str, Any]:
    """``state`` (plain values and arrays) written to ``path`` and mapped back."""
    arrays = {k: v for k, v in state.items() if isinstance(v, np.ndarray)}
    packed.dump(path, {k: v for k, v in state.items() if k not in arrays}, arrays)
    loaded = packed.load(path)
    assert loaded is not None
    return loaded[0] | loaded[1]


def test_a_restored_lexical_index_scores_and_changes_as_the_original(tmp_path: Path):
    from graphmem.recall.lexical import BM25, terms

    texts = [  # words beyond ASCII too: saved sorted by their bytes
        "Alice is allergic to peanuts",
        "Bob loves peanut butter",
        "Carol paints",
        "Zoë runs the café: 我妹妹对花生过敏",
    ]
    original = BM25()
    for doc, text in enumerate(texts):
        original.put(doc, terms(text))
    restored = BM25.from_state(saved_and_mapped(original.state(), tmp_path / "bm25"))
    query = terms("who is allergic to peanuts? Carol?")
    assert np.array_equal(restored.scores(query, 4), original.scores(query, 4))
    for index in (original, restored):  # a document replaced, one removed, one added
        index.put(1, terms("Bob paints peanuts"))
        index.remove(2)
        index.put(4, terms("Dan is allergic to cats"))
    fresh = BM25()
    for doc, text in [
        (0, texts[0]),
        (1, "Bob paints peanuts"),
        (3, texts[3]),
        (4, "Dan is allergic to cats"),
    ]:
        fresh.put(doc, terms(text))
    for index in (original, restored):
        assert len(index) == 4
        assert np.array_equal(index.scores(query, 5), fresh.scores(query, 5))


def test_a_user_is_read_in_pages(memory: Memory, user: str, monkeypatch: pytest.MonkeyPatch):
    """Loading reads ``PAGE`` cards a query (10,000 in use; 7 here: six pages)."""
    written(memory, user)
    monkeypatch.setattr(passages, "PAGE", 7)
    index = passages.PassageIndex(memory._store)
    hits = recall(
        memory._store, memory.embedder, user, "who is allergic to peanuts?", k=3, passages=index
    )
    assert hits[0].card.person == "Ana"
    assert index.cards_read == CARDS + 1
    assert index.held() == {user: CARDS + 1}


def test_pages_keep_to_the_user_among_other_users_cards(
    memory: Memory, user: str, monkeypatch: pytest.MonkeyPatch
):
    """A page is the user's next cards in id order: another user's cards, whose ids fall
    between, take no place in it (the query finds the user's cards first, then pages)."""
    other = f"{user}-other"
    written(memory, other)
    written(memory, user)
    monkeypatch.setattr(passages, "PAGE", 7)
    index = passages.PassageIndex(memory._store)
    recall(memory._store, memory.embedder, user, "garden", k=3, passages=index)
    assert index.cards_read == CARDS + 1
    assert index.held() == {user: CARDS + 1}


def test_a_user_evicted_over_the_budget_comes_back_from_the_file(
    memory: Memory, user: str, tmp_path
):
    other = f"{user}-other"
    written(memory, user)
    written(memory, other)
    index = passages.PassageIndex(memory._store, budget_bytes=1, directory=tmp_path)
    ask = "who is allergic to peanuts?"
    first = recall(memory._store, memory.embedder, user, ask, k=3, passages=index)
    assert index.wait(timeout=30)
    recall(memory._store, memory.embedder, other, ask, k=3, passages=index)
    assert index.held() == {other: CARDS + 1}  # the first user went, over the budget
    again = recall(memory._store, memory.embedder, user, ask, k=3, passages=index)
    assert [h.card.id for h in again] == [h.card.id for h in first]
    assert (index.restored, index.cards_read) == (1, 2 * (CARDS + 1))
    index.close()


def test_saves_queued_when_the_process_closes_are_written(
    memory: Memory, user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A script that reads users and closes at once leaves their files for the next
    process: close finishes the saves still queued (here the second waits behind the
    first, on a slow disk) instead of dropping them."""
    other = f"{user}-other"
    for who in (user, other):
        written(memory, who)
    disk = threading.Event()
    dump = passages.dump

    def slow_dump(*args: Any) -> None:
        disk.wait(timeout=10)
        dump(*args)

    monkeypatch.setattr(passages, "dump", slow_dump)
    index = passages.PassageIndex(memory._store, directory=tmp_path)
    for who in (user, other):
        index.current(who, *counters(memory, who))
    closing = threading.Thread(target=index.close, kwargs={"timeout": 30})
    closing.start()
    closing.join(timeout=0.3)
    disk.set()
    closing.join()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        index._file(who).name for who in (user, other)
    )


def test_a_user_let_go_before_their_vectors_are_read_is_saved_with_them(
    memory: Memory, user: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A user read afresh gets their vectors in the background; when the budget lets
    them go before that is done, the vectors still reach their file, so that the next
    restore ranks in process instead of asking the store and reading them again."""
    other = f"{user}-other"
    for who in (user, other):
        written(memory, who)
    store = memory._store
    reading, run = threading.Event(), store.run

    def slow_vectors(name: str, params: Any = None, **kwargs: Any) -> Any:
        if name == "recall_vectors":
            reading.wait(timeout=10)
        return run(name, params, **kwargs)

    monkeypatch.setattr(store, "run", slow_vectors)
    index = passages.PassageIndex(store, budget_bytes=1, directory=tmp_path)
    index.current(user, *counters(memory, user))  # its vectors wait on the store
    index.current(other, *counters(memory, other))  # and the budget lets it go
    assert user not in index.held()
    reading.set()
    assert index.wait(timeout=30)
    again = passages.PassageIndex(store, directory=tmp_path)
    assert again.current(user, *counters(memory, user)).vectors_ready
    assert (again.restored, again.cards_read) == (1, 0)


def test_users_recalled_in_turn_stay_within_the_budget(memory: Memory, user: str, tmp_path):
    """More users than the budget holds, recalled in turn: after every recall the bytes
    counted (each user's mapped file and what its recalls decoded) are within the budget,
    and restored users rank as they did when read from the store."""
    users = [f"{user}-{i}" for i in range(4)]
    for who in users:
        written(memory, who)
    index = passages.PassageIndex(memory._store, directory=tmp_path)
    ask = "who is allergic to peanuts?"
    first = {}
    for who in users:  # read from the store, and saved
        first[who] = [
            h.card.id for h in recall(memory._store, memory.embedder, who, ask, k=3, passages=index)
        ]
        assert index.wait(timeout=30)
    one = max(index._file(who).stat().st_size for who in users)
    budget = int(2.5 * one)  # two users restored, not three
    small = passages.PassageIndex(memory._store, budget_bytes=budget, directory=tmp_path)
    for who in users * 3:
        hits = recall(memory._store, memory.embedder, who, ask, k=3, passages=small)
        assert [h.card.id for h in hits] == first[who]
        assert small.held_bytes() <= budget
        assert 1 <= len(small.held()) <= 2
    assert small.cards_read == 0
    assert small.restored >= len(users) * 3 - 2
    small.close()
    index.close()


def said(user: str, turn: int, text: str, fact: str, person: str | None = None) -> dict:
    """A card from turn ``turn`` of one session (cards of one turn share its passage)."""
    card = {
        "user_id": user,
        "fact": fact,
        "source": {"session_id": "s1", "turn": turn, "speaker": "user", "text": text},
    }
    return card if person is None else {**card, "person": person}


QUESTIONS = [
    "who is allergic to peanuts?",
    "what is my kitten called?",
    "where did we go camping?",
    "garden roses",
    "what does Ana like?",
]


def ranked(memory: Memory, user: str, index: passages.PassageIndex) -> list[list[tuple]]:
    """Each question's hits (card id, score) through ``index``."""
    return [
        [
            (h.card.id, h.score)
            for h in recall(memory._store, memory.embedder, user, q, k=5, passages=index)
        ]
        for q in QUESTIONS
    ]


def same_ranking(left: list[list[tuple]], right: list[list[tuple]]) -> bool:
    """The same cards in the same order, scores equal to float32 rounding: vectors read
    from the file and vectors read from the store are summed in another order by BLAS
    (0.17479 against 0.174789 in one run of 6)."""
    return all(
        [card for card, _ in a] == [card for card, _ in b]
        and [score for _, score in a] == pytest.approx([score for _, score in b], abs=1e-5)
        for a, b in zip(left, right, strict=True)
    )


def test_a_saved_user_caught_up_ranks_as_one_read_from_scratch(store_home: Memory, user: str):
    """Another client changes the user after the save (a new card in a saved turn, a card
    forgotten, a new turn) and catches the file up as it closes, reading only those on
    top of it: the next client's passages, restored from that file, rank exactly as
    passages read card by card from the store."""
    written(store_home, user)
    store_home.remember_many(
        [
            said(user, 0, "We went camping at the lake with Ana", "I went camping at the lake"),
            said(user, 1, "Ana loves spicy food", "Ana loves spicy food", person="Ana"),
        ]
    )
    saved_by(store_home, user)
    [rose] = store_home.recall(user, "rose bush number 3", k=1)
    with Memory.open(store_home.home) as other:  # writes, and prepares the file as it closes
        other.remember(
            said(user, 0, "We went camping at the lake with Ana", "Ana came along", "Ana")
        )
        other.forget(user, rose.card.id)
        other.remember(said(user, 2, "I adopted a grey kitten, Miso", "My kitten is called Miso"))
    with Memory.open(store_home.home) as fresh:
        caught_up = ranked(fresh, user, fresh.passages)
        assert (fresh.passages.restored, fresh.passages.cards_read) == (1, 0)
        scratch = passages.PassageIndex(fresh._store)
        assert same_ranking(ranked(fresh, user, scratch), caught_up)
        assert scratch.cards_read == CARDS + 5
        assert rose.card.id not in {card for hits in caught_up for card, _ in hits}
        restored, read = fresh.passages._users[user], scratch._users[user]
        for held in (restored, read):  # the same passages, keys and lexical scores
            held.order = sorted(range(len(held.passages)), key=lambda at: held.passages[at].source)
        assert [restored.key(at) for at in restored.order] == [read.key(at) for at in read.order]
        words = passages.terms(" ".join(QUESTIONS) + " camping lake ana")
        for word in set(words):
            assert np.allclose(
                restored.bm25.scores([word], len(restored.passages))[restored.order],
                read.bm25.scores([word], len(read.passages))[read.order],
            )


def test_two_clients_on_one_store_see_each_others_writes(store_home: Memory, user: str):
    written(store_home, user)
    with Memory.open(store_home.home) as other:
        assert "kitten" not in other.recall(user, "what is my kitten called?", k=1)[0].card.fact
        store_home.remember({"user_id": user, "fact": "I adopted a grey kitten called Miso"})
        [hit] = other.recall(user, "what is my kitten called?", k=1)
        assert hit.card.fact == "I adopted a grey kitten called Miso"
        other.forget(user, hit.card.id)
    hits = store_home.recall(user, "what is my kitten called?", k=5)
    assert hit.card.id not in [h.card.id for h in hits]


def test_a_file_ahead_of_the_store_is_not_used(store_home: Memory, user: str):
    """A saved revision the store has not reached (the store was replaced, restored from
    a backup): the file describes cards the store may not have, and is read again."""
    written(store_home, user)
    saved_by(store_home, user)
    path = store_home.passages._file(user)
    header = packed.load(path)[0]  # type: ignore[index]
    rewrite(path, revision=header["revision"] + 1000)
    with Memory.open(store_home.home) as fresh:
        assert fresh.recall(user, "peanuts", k=1)[0].card.person == "Ana"
        assert (fresh.passages.restored, fresh.passages.cards_read) == (0, CARDS + 1)


def test_the_budget_counts_the_bytes_held(memory: Memory, user: str, tmp_path: Path):
    """``nbytes`` is what the passages take: on the heap when read from the store
    (tracemalloc, within a factor of 1.5); restored from their file, the file mapped
    (counted whole) and next to nothing on the heap. It is taken again at every recall
    (recalls decode rows), and over the budget the least recently recalled user goes."""
    import gc
    import tracemalloc

    memory.remember_many(
        [
            {"user_id": user, "fact": f"I planted rose bush number {i} in the garden by the gate"}
            for i in range(300)
        ]
    )
    state = UserState.read(memory._store, user)
    index = passages.PassageIndex(memory._store, directory=tmp_path)
    gc.collect()
    tracemalloc.start()
    try:
        held = index.current(user, state.revision, state.deletions)
        assert index.wait(timeout=30)  # the vectors filled in, then saved
        held.neighbours()
        gc.collect()
        read = tracemalloc.get_traced_memory()[0]
        index._save(user)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        restored = index._restore(user)
        assert restored is not None
        gc.collect()
        heap = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 1 / 1.5 < held.nbytes / read < 1.5
    size = index._file(user).stat().st_size
    assert 1 / 1.5 < restored.nbytes / size < 1.5
    assert heap < size / 4, (heap, size)
    assert index.held_bytes() < held.nbytes  # taken before the neighbours were derived
    index.current(user, state.revision, state.deletions)
    assert index.held_bytes() == held.nbytes  # and again at this recall
    mapped = restored.nbytes
    assert [restored.cards[i].id for i in range(len(restored.cards))] == [
        held.cards[i].id for i in range(len(held.cards))
    ]
    assert restored.nbytes >= mapped + 300 * passages._ROW_BYTES  # the rows decoded count
    other = f"{user}-other"
    written(memory, other)
    # the user alone fits as read afresh (without vectors: filled in the background)
    assert held._vectors is not None
    small = passages.PassageIndex(
        memory._store, budget_bytes=held.nbytes - held._vectors.nbytes + 1
    )
    for who in (user, other):
        state = UserState.read(memory._store, who)
        small.current(who, state.revision, state.deletions)
    assert small.held() == {other: CARDS + 1}
