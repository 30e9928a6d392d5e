"""The Neo4j adapter: production backend over Bolt with the official driver.

One retry policy (``RetryPolicy``) owns every retry: the driver's own transaction retry is
switched off (``max_transaction_retry_time=0``) so a lost server costs a bounded, known
time and then a ``StoreUnavailableError`` naming the server. Named queries are
idempotent (MERGE), so replaying a unit of work after a dropped connection is safe.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction
from neo4j.exceptions import (
    AuthError,
    ConstraintError,
    DriverError,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)
from neo4j.graph import Node, Path, Relationship
from neo4j.spatial import Point
from neo4j.time import Date, DateTime, Duration, Time
from neo4j.vector import Vector
from tenacity import (
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
)

from graphmem.errors import ConflictError, StoreError, StoreUnavailableError, ValidationError
from graphmem.store import queries
from graphmem.store.base import Capabilities, Row
from graphmem.store.migrations import key_cards_by_identity, tag_cards_with_tenant
from graphmem.store.text import search_words, with_tenant

T = TypeVar("T")

DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_USER = "neo4j"
#: Oldest server with CREATE VECTOR INDEX and vector.similarity.cosine (exact search).
MIN_VERSION = (5, 18)
#: Neo4j 5's largest vector index dimension.
MAX_DIMENSION = 4096
#: Queries the adapter sends besides the named ones (linted with them).
ADAPTER_QUERIES = {
    "neo4j_components": "CALL dbms.components() YIELD name, versions, edition\n"
    "RETURN name, versions, edition",
}

#: Bolt only: the driver's HTTP transport is a preview and needs extra packages.
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
RETRYABLE = (ServiceUnavailable, TransientError, SessionExpired)


def _retryable(exc: BaseException) -> bool:
    # IncompleteCommit: the commit may have happened; the driver does not replay it either.
    return isinstance(exc, RETRYABLE) and not isinstance(exc, IncompleteCommit)


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded exponential back-off for lost connections and transient server errors.

    Waits ``first_wait``, doubling up to ``max_wait``, for at most ``attempts`` tries and
    ``max_total`` seconds; then gives up with ``StoreUnavailableError``.

    Examples:
        >>> waits = []
        >>> policy = RetryPolicy(attempts=4, first_wait=0.5, sleep=waits.append)
        >>> calls = iter([ServiceUnavailable("down"), TransientError(), "ok"])
        >>> def flaky():
        ...     outcome = next(calls)
        ...     if isinstance(outcome, Exception):
        ...         raise outcome
        ...     return outcome
        >>> policy.call(flaky, what="cannot reach Neo4j"), waits
        ('ok', [0.5, 1.0])
    """

    attempts: int = 5
    first_wait: float = 0.2
    max_wait: float = 4.0
    max_total: float = 10.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def call(self, fn: Callable[[], T], *, what: str) -> T:
        """``fn()``, retried on retryable driver errors; ``what`` prefixes the final error."""
        retrying = Retrying(
            stop=stop_after_attempt(self.attempts) | stop_after_delay(self.max_total),
            wait=wait_exponential(multiplier=self.first_wait, max=self.max_wait),
            retry=retry_if_exception(_retryable),
            sleep=self.sleep,
            reraise=True,
        )
        tries = 0

        def attempt() -> T:
            nonlocal tries
            tries += 1
            return fn()

        try:
            return retrying(attempt)
        except RETRYABLE as exc:
            if isinstance(exc, IncompleteCommit):
                raise
            raise StoreUnavailableError(
                f"{what}: {_describe(exc)} (gave up after {tries} attempts)"
            ) from exc


Auth = tuple[str, str]


def connection_settings(
    uri: str | None = None,
    auth: Auth | None = None,
    database: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[str, Auth | None, str | None]:
    """(uri, auth, database): arguments first, then the settings (``graphmem.config``:
    GRAPHMEM_NEO4J_URI / _USER / _PASSWORD / _DATABASE, read now, never at import), then
    defaults.

    Examples:
        >>> connection_settings(environ={"GRAPHMEM_NEO4J_PASSWORD": "s3cret"})
        ('bolt://localhost:7687', ('neo4j', 's3cret'), None)
        >>> connection_settings("bolt://db:7687", ("me", "pw"), environ={})
        ('bolt://db:7687', ('me', 'pw'), None)
    """
    from graphmem.config import Settings

    known = Settings.from_env(environ).neo4j
    return (uri or known.uri or DEFAULT_URI, auth or known.auth, database or known.database)


class Neo4jStore:
    """A ``GraphStore`` on a Neo4j 5.18+ / 2025.x server (one database, all tenants)."""

    def __init__(
        self,
        driver: Driver,
        caps: Capabilities,
        *,
        uri: str,
        database: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self._driver = driver
        self.caps = caps
        self.uri = uri
        self.database = database
        self.retry = retry or RetryPolicy()

    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        auth: Auth | None = None,
        database: str | None = None,
        *,
        retry: RetryPolicy | None = None,
        connection_timeout: float = 5.0,
    ) -> Neo4jStore:
        """Connect, check the credentials and detect what the server can do.

        Arguments left out come from the GRAPHMEM_NEO4J_* environment variables.
        """
        uri, auth, database = connection_settings(uri, auth, database)
        retry = retry or RetryPolicy()
        if uri.partition("://")[0] not in SCHEMES:
            raise ValidationError(
                f"Neo4j address must start with one of "
                f"{', '.join(s + '://' for s in SCHEMES)}: got {uri!r}",
                field="uri",
            )
        try:
            driver = GraphDatabase.driver(
                uri,
                auth=auth,
                max_transaction_retry_time=0,
                connection_timeout=connection_timeout,
                user_agent="graphmem",
            )
        except (DriverError, ValueError) as exc:
            raise StoreUnavailableError(f"bad Neo4j address {uri!r}: {exc}") from exc
        store = cls(driver, Capabilities(dialect="neo4j"), uri=uri, database=database, retry=retry)
        try:
            retry.call(driver.verify_connectivity, what=f"cannot reach Neo4j at {uri}")
            rows = store._transact(ADAPTER_QUERIES["neo4j_components"], {}, write=False)
            store.caps = capabilities_for(_kernel_version(rows))
        except AuthError as exc:
            driver.close()
            raise StoreUnavailableError(_auth_message(uri, auth, exc)) from exc
        except StoreError:
            driver.close()
            raise
        except (Neo4jError, DriverError) as exc:
            driver.close()
            raise StoreUnavailableError(f"cannot use Neo4j at {uri}: {_describe(exc)}") from exc
        return store

    # -- GraphStore -------------------------------------------------------------------
    def run(
        self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> list[Row]:
        return self.execute(
            queries.load(name, "neo4j"), with_tenant(params), write=write, name=name
        )

    def execute(
        self,
        text: str,
        params: Mapping[str, Any] | None = None,
        *,
        write: bool = False,
        name: str = "query",
    ) -> list[Row]:
        """Run query text the adapter owns (schema, named queries); not for user input."""
        try:
            return self._transact(text, dict(params or {}), write=write)
        except ConstraintError as exc:
            raise ConflictError(f"duplicate ({name}): {exc.message}") from exc
        except AuthError as exc:
            raise StoreUnavailableError(_auth_message(self.uri, None, exc)) from exc
        except Neo4jError as exc:
            raise StoreError(f"Neo4j query {name} failed: {exc.code}: {exc.message}") from exc
        except DriverError as exc:
            raise StoreError(f"Neo4j query {name} failed: {_describe(exc)}") from exc

    def ensure_schema(self, dimension: int) -> None:
        """Constraints, range, vector and full-text indexes; every statement IF NOT EXISTS."""
        for statement in schema_statements(dimension):
            self.execute(statement, write=True, name="schema")
        tag_cards_with_tenant(self)
        key_cards_by_identity(self)

    def fulltext_query(self, text: str) -> str | None:
        return lucene_query(text)

    def purge_deleted(self) -> None:
        """Nothing to do from a client: Neo4j reuses the space of deleted records, and its
        transaction logs keep them until rotated (``db.tx_log.rotation`` settings)."""

    def close(self) -> None:
        self._driver.close()

    @property
    def started_server(self) -> bool:
        return False  # Neo4j's server is not graphmem's to start or stop

    def detach(self) -> None:
        """Neo4j's server is not graphmem's to stop: the same as close."""
        self.close()

    def _transact(self, text: str, params: dict[str, Any], *, write: bool) -> list[Row]:
        """One managed transaction, replayed by the retry policy if the server drops."""

        def attempt() -> list[Row]:
            with self._driver.session(database=self.database) as session:
                work = session.execute_write if write else session.execute_read
                return work(_collect, text, params)

        return self.retry.call(attempt, what=f"cannot reach Neo4j at {self.uri}")


def _kernel_version(rows: list[Row]) -> str:
    """The server version from ``dbms.components()`` rows ("5.26.4", "2025.01.0")."""
    for row in rows:
        if row.get("name") == "Neo4j Kernel" and row.get("versions"):
            return str(row["versions"][0])
    return "0.0"


def _collect(tx: ManagedTransaction, text: str, params: dict[str, Any]) -> list[Row]:
    """Read every record inside the transaction (results die with it)."""
    return [
        {key: to_plain(value) for key, value in record.items()} for record in tx.run(text, params)
    ]


def schema_statements(dimension: int) -> list[str]:
    """The schema DDL with the vector dimension written in as a checked integer literal.

    Examples:
        >>> [s for s in schema_statements(384) if "VECTOR" in s][0].count("384")
        1
    """
    if (
        isinstance(dimension, bool)
        or not isinstance(dimension, int)
        or not 1 <= dimension <= MAX_DIMENSION
    ):
        raise ValidationError(
            f"dimension must be an integer in 1..{MAX_DIMENSION}, got {dimension!r}",
            field="dimension",
        )
    return [s.replace("$dimension", str(dimension)) for s in queries.statements("schema", "neo4j")]


def capabilities_for(version: str) -> Capabilities:
    """What a server of this version can do (``CALL dbms.components()`` version string).

    Examples:
        >>> capabilities_for("5.26.4")
        Capabilities(dialect='neo4j')
        >>> capabilities_for("2025.01").dialect
        'neo4j'
    """
    match = re.match(r"(\d+)\.(\d+)", version)
    found = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
    if found < MIN_VERSION:
        raise StoreError(
            f"graphmem needs Neo4j {MIN_VERSION[0]}.{MIN_VERSION[1]} or newer, "
            f"the server is {version}"
        )
    return Capabilities(dialect="neo4j")


# -- full-text ------------------------------------------------------------------------
#: Words this long also match with one typo (``word~1``).
FUZZY_MIN = 6
MAX_TERMS = 32


def lucene_query(text: str) -> str | None:
    """Free text as a Lucene query: the searchable words, OR-ed, typo-tolerant when long.

    Words are runs of letters/digits, lower-cased, so no Lucene operator (``AND``, ``+``,
    ``"``, ``:``, ``*`` ...) survives from user text. Long words appear exact (stemmed by
    the index analyzer) and fuzzy (typos), as fuzzy terms are not stemmed.

    Examples:
        >>> lucene_query('What is Alice allergic to? "peanuts" AND (nuts*)')
        'alice OR allergic OR allergic~1 OR peanuts OR peanuts~1 OR nuts'
        >>> lucene_query("Who did it in 2023?")
        '2023'
        >>> lucene_query("is it? -- :)") is None
        True
    """
    terms: list[str] = []
    for word in search_words(text):
        terms.append(word)
        if len(word) >= FUZZY_MIN and not word.isdigit():
            terms.append(f"{word}~1")
    return " OR ".join(terms[:MAX_TERMS]) or None


# -- values ---------------------------------------------------------------------------
def to_plain(value: Any) -> Any:
    """Driver values as plain Python: nodes/relationships as property dicts, paths as node
    lists, temporals as ``datetime``/``date``/``time`` (durations as ISO-8601 text),
    points and vectors as lists of numbers.

    Examples:
        >>> to_plain({"when": Date(2024, 3, 20), "at": [Point((1.5, 2.0))]})
        {'when': datetime.date(2024, 3, 20), 'at': [[1.5, 2.0]]}
    """
    if isinstance(value, Node | Relationship):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, Path):
        return [to_plain(node) for node in value.nodes]
    if isinstance(value, Duration):
        return value.iso_format()
    if isinstance(value, Date | Time | DateTime):
        return value.to_native()
    if isinstance(value, Point):
        return list(value)
    if isinstance(value, Vector):
        return value.to_native()
    if isinstance(value, Mapping):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_plain(item) for item in value]
    return value


def _describe(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {' '.join(str(message).split())}"


def _auth_message(uri: str, auth: Any, exc: BaseException) -> str:
    user = auth[0] if isinstance(auth, tuple) and auth else "(none given)"
    return (
        f"authentication failed for Neo4j at {uri} as user {user}: {_describe(exc)}; "
        "set GRAPHMEM_NEO4J_USER / GRAPHMEM_NEO4J_PASSWORD (or pass auth=(user, password))"
    )
