"""Every Neo4j-dialect query passes Neo4j's own Cypher front end, offline.

No Neo4j server runs in tests, so the Neo4j side is kept honest by linting: each named
query as the Neo4j store would send it (shared files and ``cypher/neo4j/`` variants, the
schema split into statements) goes through ``lintCypherQuery`` from the npm package
``@neo4j-cypher/language-support`` (tools/cypher_lint.mjs), under Cypher 5 (Neo4j 5 LTS)
and Cypher 25 (2025.x). Parameters are declared from the query text, so only real syntax
and semantic errors remain (unknown functions/procedures, undefined variables, bad YIELD).
The ready-made queries of docs/neo4j.md and browser/guide.md are linted too.

Every per-dialect query also keeps one signature: the Neo4j variant of a
``cypher/falkordb/`` query takes the same parameters and returns the same columns.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from graphmem.store import queries
from graphmem.store.falkordb import JSON_COLUMNS
from graphmem.store.neo4j import ADAPTER_QUERIES, schema_statements

ROOT = Path(__file__).resolve().parent.parent
LINTER = ROOT / "tools" / "cypher_lint.mjs"
PACKAGE = ROOT / "node_modules" / "@neo4j-cypher" / "language-support"
# Results of unchanged queries are reused (keyed by query, linter and script version);
# `npm ci` and `make clean` remove it with node_modules.
CACHE = ROOT / "node_modules" / ".cache" / "graphmem" / "cypher-lint.json"
_WRITE_LINE = re.compile(r"\b(?:MERGE|CREATE)\b|\bSET\s+\w+:")
_NODE_LABEL = re.compile(r"(?:\(\w*|\bSET\s+\w+):(\w+)")
_REL_TYPE = re.compile(r"\[\w*:(\w+)")
_PARAM = re.compile(r"\$(\w+)")
_STRING = re.compile(r"'[^']*'")  # a $ inside a string literal is text, not a parameter
_LISTS = ("ids", "rows", "statuses", "embedding", "vector", "tags")
_NUMBERS = (
    "k",
    "limit",
    "skip",
    "now",
    "version",
    "expected_version",
    "timestamp",
    "dimension",
    "min_score",
    "since",
    "until",
)


def sample_value(param: str) -> Any:
    """A plausibly typed value for a parameter, by its name."""
    if param in _LISTS or param.endswith("_ids"):
        return []
    if param in _NUMBERS or param.endswith(("_ms", "_count")):
        return 0
    if param in ("props", "source", "container", "at") or param.endswith("_props"):
        return {}
    return "x"


def with_parameters(name: str, query: str) -> dict[str, Any]:
    """A linter input: the query and every ``$parameter`` it uses, declared."""
    return {
        "name": name,
        "query": query,
        "parameters": {p: sample_value(p) for p in _PARAM.findall(query)},
    }


def neo4j_queries() -> list[dict[str, Any]]:
    """Every query text the Neo4j store can send, named ``query`` or ``query[i]``."""
    found = [with_parameters(f"schema[{i}]", text) for i, text in enumerate(schema_statements(384))]
    found += [with_parameters(name, queries.load(name, "neo4j")) for name in queries.names()]
    found += [with_parameters(name, text) for name, text in ADAPTER_QUERIES.items()]
    return found


def docs_queries() -> list[dict[str, Any]]:
    """The ready-made Cypher users paste into Neo4j Browser: docs/neo4j.md and the saved
    queries of browser/guide.md."""
    found = []
    for doc in ("docs/neo4j.md", "browser/guide.md"):
        path = ROOT / doc
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        blocks = re.findall(r"```cypher\n(.*?)```", text, re.S)
        found += [with_parameters(f"{doc}[{i}]", block.strip()) for i, block in enumerate(blocks)]
    return found


def written_labels() -> tuple[list[str], list[str]]:
    """Node labels and relationship types some query creates (MERGE/CREATE/SET n:Label).

    Declared to the linter as "in the database", so a label or type that queries read but
    none writes (a typo, a leftover) is reported as a warning.
    """
    labels: set[str] = set()
    types: set[str] = set()
    for name in queries.names():
        for dialect in queries.DIALECTS:
            for line in queries.load(name, dialect).splitlines():
                if _WRITE_LINE.search(line):
                    labels |= set(_NODE_LABEL.findall(line))
                    types |= set(_REL_TYPE.findall(line))
    return sorted(labels), sorted(types)


def lint(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run tools/cypher_lint.mjs once over all items (one node process, cached results)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed: cannot lint Cypher")
    if not PACKAGE.is_dir():
        pytest.fail(
            "node_modules/@neo4j-cypher/language-support is missing: run make test (npm ci)"
        )
    labels, types = written_labels()
    payload = {"queries": items, "schema": {"labels": labels, "relationshipTypes": types}}
    done = subprocess.run(
        ["node", str(LINTER), "--cache", str(CACHE)],
        input=json.dumps(payload),
        text=True,
        capture_output=True,
        cwd=ROOT,
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def problems(results: list[dict[str, Any]], severity: str) -> list[str]:
    return [
        f"{r['name']} ({r['cypherVersion']}) {d['line']}:{d['column']}: {d['message']}"
        for r in results
        for d in r["diagnostics"]
        if d["severity"] == severity
    ]


#: Queries Neo4j must reject, each with the errors the linter is expected to report.
BROKEN = [
    with_parameters("example:syntax", "MATCH (c:Card RETURN c"),
    with_parameters("example:undefined_variable", "MATCH (c:Card) RETURN d"),
    with_parameters(
        "example:falkordb_only", "MATCH (c:Card) RETURN vec.cosineDistance(c.embedding, vecf32($v))"
    ),
    with_parameters(
        "example:unknown_yield",
        "CALL db.index.vector.queryNodes('card_embedding', 5, $v) YIELD nodes RETURN nodes",
    ),
    {
        "name": "example:undeclared_parameter",
        "query": "MATCH (c:Card {id: $id}) RETURN c",
        "parameters": {},
    },
    with_parameters("example:valid", "MATCH (c:Card {user_id: $user_id}) RETURN count(c) AS n"),
    with_parameters("example:unwritten_label", "MATCH (c:Crad)-[:ABOUT]->(p) RETURN p.name"),
]


@pytest.fixture(scope="module")
def linted() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the store's queries, lint results for them and for BROKEN), from one node run."""
    items = neo4j_queries() + docs_queries()
    return items, lint(items + BROKEN)


def test_every_neo4j_query_lints_clean(
    linted: tuple[list[dict[str, Any]], list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    items, all_results = linted
    results = [r for r in all_results if not r["name"].startswith("example:")]
    errors, warnings = problems(results, "error"), problems(results, "warning")
    with capsys.disabled():
        docs = sum(item["name"].endswith("]") and ".md[" in item["name"] for item in items)
        print(
            f"\nlinted {len(items) - docs} Neo4j queries (+ {docs} from docs/neo4j.md, "
            "browser/guide.md) "
            f"under CYPHER 5 and CYPHER 25: {len(errors)} errors, {len(warnings)} warnings"
        )
        for warning in warnings:
            print(f"  warning: {warning}")
    assert errors == []
    assert {r["name"] for r in results} == {item["name"] for item in items}


def test_linter_reports_real_errors(
    linted: tuple[list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    found = {
        r["name"].removeprefix("example:"): [
            d["message"] for d in r["diagnostics"] if d["severity"] == "error"
        ]
        for r in linted[1]
        if r["name"].startswith("example:") and r["cypherVersion"] == "CYPHER 5"
    }
    assert found["syntax"][0].startswith("Invalid input 'RETURN'")
    assert found["undefined_variable"] == ["Variable `d` not defined"]
    assert [m.split(" is not")[0] for m in found["falkordb_only"]] == [
        "Function vec.cosineDistance",
        "Function vecf32",
    ]
    assert found["unknown_yield"] == ["Unknown procedure output: `nodes`"]
    assert found["undeclared_parameter"] == ["Parameter $id is not defined."]
    assert found["valid"] == []
    assert found["unwritten_label"] == []  # a warning only:
    [typo] = [
        r
        for r in linted[1]
        if r["name"] == "example:unwritten_label" and r["cypherVersion"] == "CYPHER 5"
    ]
    assert [d["message"].split(" is not")[0] for d in typo["diagnostics"]] == ["Label Crad"]


# -- dialect parity: a per-dialect query is one operation with one signature ----------
_RETURN = re.compile(
    r"\bRETURN\b(?!.*\bRETURN\b)(.*?)(?:\bORDER BY\b|\bSKIP\b|\bLIMIT\b|$)", re.S | re.I
)


def returned_columns(query: str) -> list[str]:
    """The column names of a query's final RETURN (alias, or the expression itself).

    Examples:
        >>> returned_columns("MATCH (c) RETURN c.id AS id, count(c) AS n ORDER BY n LIMIT 3")
        ['id', 'n']
        >>> returned_columns("RETURN c.id AS id, toJSON({t: c.t, v: c.v}) AS json_columns")
        ['id', 't', 'v']
    """
    match = _RETURN.search(query)
    if match is None:
        return []
    columns, depth, current = [], 0, ""
    for char in match.group(1):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            columns.append(current)
            current = ""
        else:
            current += char
    columns.append(current)
    names = []
    for column in columns:
        *expression, alias = re.split(r"\s+AS\s+", column.strip(), flags=re.I)
        if alias.strip() == JSON_COLUMNS and expression:  # the adapter unpacks the keys
            names += re.findall(r"[{,]\s*(\w+)\s*:", expression[0])
        else:
            names.append(alias.strip())
    return names


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in (queries.cypher_dir() / "falkordb").glob("*.cypher"))
)
def test_neo4j_variant_has_the_same_signature(name: str) -> None:
    neo4j_path = queries.cypher_dir() / "neo4j" / f"{name}.cypher"
    assert neo4j_path.is_file(), f"cypher/falkordb/{name}.cypher has no Neo4j variant"
    falkordb, neo4j = queries.load(name, "falkordb"), queries.load(name, "neo4j")
    assert set(_PARAM.findall(_STRING.sub("''", neo4j))) == set(
        _PARAM.findall(_STRING.sub("''", falkordb))
    )
    if name != "schema":
        assert returned_columns(neo4j) == returned_columns(falkordb)


_VECF32 = re.compile(r"vecf32\(([^()]*)\)")
_OTHER_DIALECT = ("db.idx.", "vec.cosineDistance", "CREATE INDEX", "CREATE VECTOR INDEX")


def _differs_only_in_vecf32(name: str) -> bool:
    falkordb = queries.load(name, "falkordb")
    return "vecf32(" in falkordb and not any(token in falkordb for token in _OTHER_DIALECT)


@pytest.mark.parametrize(
    "name",
    [
        p.stem
        for p in sorted((queries.cypher_dir() / "falkordb").glob("*.cypher"))
        if _differs_only_in_vecf32(p.stem)
    ],
)
def test_vector_writes_differ_only_in_vecf32(name: str) -> None:
    """Where FalkorDB's variant differs only by ``vecf32(...)``, Neo4j's is that query
    without it (Neo4j stores LIST<FLOAT>): an edit to one is made to the other."""
    assert queries.load(name, "neo4j") == _VECF32.sub(r"\1", queries.load(name, "falkordb"))
