"""The documents say what the code does (issue 31, point 13): the licence pyproject
names is in the tree, and the README and docs/service.md list the real MCP tools and
HTTP routes, no more and no fewer."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from graphmem.integrations.tools import UserTools
from graphmem.service import ServiceSettings, create_app

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "docs" / "service.md"]
USER = "/v1/users/{}"


def test_the_licence_pyproject_names_is_in_the_tree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "Apache-2.0"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License")
    assert "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_the_readme_says_what_the_embedded_store_is_licensed_under():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = " ".join(readme[readme.index("\n## Licence\n") :].split("\n## ")[1].split())
    for said in ("Apache License 2.0", "SSPLv1", "as a service", "GRAPHMEM_NEO4J_URI"):
        assert said in section


def _paragraph(doc: Path, start: str) -> str:
    text = doc.read_text(encoding="utf-8")
    begin = text.index(start)
    end = text.find("\n\n", begin)
    return " ".join(text[begin : end if end != -1 else None].split())


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_the_mcp_tools_listed_are_the_tools_served(doc: Path):
    listed = re.findall(r"`(\w+)`", _paragraph(doc, "Tools: ").split(". ")[0])
    assert listed == list(UserTools.NAMES)


def _expand(token: str) -> set[tuple[str, str]]:
    """``POST|GET /a/{id}/b|c`` or ``GET /graph[/x|/y]`` -> (method, path) pairs, path
    parameters written ``{}``."""
    methods, _, path = token.partition(" ")
    path = re.sub(r"\[\?[^\]]*\]", "", path)  # a query: not a route
    if "[" in path:
        head, _, rest = path.partition("[")
        paths = [head, *(head + alt for alt in rest.rstrip("]").split("|"))]
    elif "|" in path:
        head, _, last = path.rpartition("/")
        paths = [f"{head}/{alt}" for alt in last.split("|")]
    else:
        paths = [path]
    paths = [re.sub(r"\{[^}]*\}", "{}", p) for p in paths]
    absolute = ("/health",)
    return {
        (m, p if p.startswith(absolute) else USER + p) for m in methods.split("|") for p in paths
    }


def _served() -> set[tuple[str, str]]:
    spec = create_app(lambda: None, settings=ServiceSettings()).openapi()  # type: ignore[arg-type, return-value]
    return {
        (method.upper(), re.sub(r"\{[^}]*\}", "{}", path))
        for path, operations in spec["paths"].items()
        for method in operations
    }


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_the_routes_listed_are_the_routes_served(doc: Path):
    paragraph = _paragraph(doc, "Routes (all under")
    tokens = [t for t in re.findall(r"`([^`]+)`", paragraph) if re.match(r"[A-Z|]+ /", t)]
    listed = set().union(*(_expand(t) for t in tokens))
    assert listed == _served()
