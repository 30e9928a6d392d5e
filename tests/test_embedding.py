"""The offline default embedding model: prepared once, normalised, meaningful."""

import json

import numpy as np
import pytest

from graphmem.embedding import (
    DIMENSION,
    Embedder,
    FastEmbedder,
    default_embedder,
    default_model_dir,
)


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def test_the_prepared_model_multiplies_in_int8():
    import onnx

    model_dir = default_model_dir()
    ops = {node.op_type for node in onnx.load(str(model_dir / "model.onnx")).graph.node}
    assert "MatMulInteger" in ops
    assert json.loads((model_dir / "prepared.json").read_text())["recipe"].startswith(
        "onnxruntime-dynamic-int8"
    )


def test_vectors_are_unit_length_and_similar_texts_are_closer(embedder):
    sister, allergy, weather = embedder.embed(
        [
            "Alice (sister): Alice is allergic to peanuts",
            "my sister cannot eat nuts",
            "the train to Berlin leaves at nine",
        ]
    )
    assert sister.shape == (DIMENSION,)
    assert np.linalg.norm(sister) == pytest.approx(1.0, abs=1e-4)
    assert float(sister @ allergy) > float(sister @ weather) + 0.2


def test_a_text_gets_nearly_the_same_vector_in_any_batch():
    # int8 products scale activations per batch, so batch-mates move a vector a little.
    uncached = FastEmbedder(cache_size=0)
    alone = uncached.embed(["Bob (manager): Bob loves sushi"])[0]
    mixed = uncached.embed(
        [
            "a much longer text, so the batch is padded further than the "
            "short one, WITH CAPITALS and numbers 12345",
            "Bob (manager): Bob loves sushi",
        ]
    )[1]
    assert float(alone @ mixed) > 0.98
    assert float(alone @ uncached.embed(["Bob (manager): Bob loves sushi"])[0]) == pytest.approx(
        1.0, abs=1e-6
    )


def test_batches_embedded_side_by_side_keep_each_text_with_its_vector():
    uncached = FastEmbedder(cache_size=0, batch_size=8)
    texts = [
        f"{name} ({rel}) likes {thing}"
        for name, rel in [
            ("Alice", "sister"),
            ("Bob", "manager"),
            ("Carol", "friend"),
            ("Dan", "son"),
        ]
        for thing in [
            "jazz",
            "sushi",
            "long walks by the river in autumn",
            "chess",
            "the smell of rain",
            "mountain biking",
            "old films",
            "tea",
        ]
    ]
    together = uncached.embed(texts)  # 4 batches of 8, on the worker threads
    alone = np.stack([uncached.embed([text])[0] for text in texts])

    assert np.array_equal(together, uncached.embed(texts))
    assert ((together * alone).sum(axis=1) > 0.98).all()
    assert (np.argmax(alone @ together.T, axis=1) == np.arange(len(texts))).all()


def test_a_model_prepared_by_an_older_recipe_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_MODEL_DIR", str(tmp_path))
    model_dir = default_model_dir()
    stamp = model_dir / "prepared.json"
    stamp.write_text(stamp.read_text().replace("/1", "/0"))
    (model_dir / "model.onnx").write_bytes(b"not a model")

    assert default_model_dir() == model_dir
    assert (model_dir / "model.onnx").stat().st_size > 10_000_000
    assert "/0" not in stamp.read_text()


def test_batches_embedded_ahead_get_the_vectors_embed_gives_them():
    uncached = FastEmbedder(cache_size=0)
    batches = [
        [f"card {b}.{i}: someone likes {'long ' * (i % 7)}walks" for i in range(n)]
        for b, n in enumerate([70, 1, 0, 33])
    ]
    ahead = list(uncached.embed_batches(batches))  # each queued while the previous ends
    assert [v.shape for v in ahead] == [
        (70, DIMENSION),
        (1, DIMENSION),
        (0, DIMENSION),
        (33, DIMENSION),
    ]
    for vectors, texts in zip(ahead, batches, strict=True):
        assert np.array_equal(vectors, uncached.embed(texts))


def test_any_embedder_can_be_streamed_one_batch_per_call():
    class Lengths(Embedder):
        dimension, model_name = 1, "lengths"

        def embed(self, texts):
            return np.array([[float(len(t))] for t in texts])

    assert [v.tolist() for v in Lengths().embed_batches([["ab"], ["abc", "d"]])] == [
        [[2.0]],
        [[3.0], [1.0]],
    ]


def test_an_english_question_meets_chinese_text_in_the_multilingual_models_space():
    """Chinese is embedded by the multilingual model, English by MiniLM: a question in
    English is compared with Chinese cards through the multilingual model's vector of it
    (``across``), loaded only for a user who holds such cards."""
    from graphmem.embedding import DEFAULT_MODEL, MULTILINGUAL_MODEL, RoutedEmbedder

    loads = []

    def multilingual() -> FastEmbedder:
        loads.append(1)
        return FastEmbedder.shared(MULTILINGUAL_MODEL)

    routed = RoutedEmbedder(FastEmbedder.shared(DEFAULT_MODEL), multilingual)
    question = "where did my dad have his knee surgery?"
    assert routed.spaces([question, "我老爸上周膝盖做了手术", "mi papá se operó"]) == [0, 1, 0]
    assert routed.across(question, {0}) == {}  # an English-only user
    assert not loads  # never loads the multilingual model
    assert routed.across("我老爸在哪做的手术？", {0, 1}) == {}  # the question's own vector
    (card,) = routed.embed(["I: 对了，我老爸上周膝盖做了手术，换了人工关节"])
    (same, *_) = routed.embed([question])
    there = routed.across(question, {0, 1})[1]
    assert float(there @ card) > 0.5 > abs(float(same @ card)) + 0.4
