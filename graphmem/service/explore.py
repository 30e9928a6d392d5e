"""The memory explorer: the page at ``/ui`` and the graph routes it reads.

The page is built from ``ui/`` with npm at install time (``make install`` runs
``npm run build``) into ``graphmem/service/page/``, which ships in the wheel; nothing is
fetched at run time. It holds no data: everything comes from the routes below, which
take the same API keys as the rest of the API (the page asks for the key and sends it
as a header, never in a URL) and are scoped to the user in their path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import FileResponse, PlainTextResponse, RedirectResponse, Response

from graphmem.errors import ValidationError
from graphmem.explore import CardView, RecallView, Subgraph
from graphmem.models import MAX_OFFSET
from graphmem.service import schemas as s
from graphmem.service.http import Mem, User

PAGE = Path(__file__).resolve().parent / "page"
#: What the built page consists of (esbuild writes exactly these, see ui/build.mjs).
ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
}
#: The page runs only its own script, talks only to this server, and is never framed.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
NOT_BUILT = (
    "The memory explorer page is not built in this installation ({page}).\n"
    "From a checkout: `make install` (or `npm ci && npm run build`), then restart "
    "`graphmem serve`. The JSON routes under /v1/users/{{user_id}}/graph work without it.\n"
)

graph = APIRouter(prefix="/v1/users/{user_id}/graph", tags=["explorer"])


@graph.get("", response_model=Subgraph)
def overview(
    user: User,
    memory: Mem,
    people: Annotated[int, Query(ge=1, le=500, description="People shown at most.")] = 60,
    per_person: Annotated[int, Query(ge=0, le=500, description="Cards per person.")] = 6,
) -> Subgraph:
    """The first view: the user's people, relationships, and each person's most
    important recent cards with their supersession chains (bounded, whatever the size)."""
    return memory.explore.overview(user, people=people, per_person=per_person)


@graph.get("/people/{name}", response_model=Subgraph)
def person(
    user: User,
    memory: Mem,
    name: str,
    *,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    status: Annotated[str, Query(description="active, superseded, forgotten or all")] = "active",
) -> Subgraph:
    """Expand a person: the next page of their cards, in the overview's order."""
    if status not in ("active", "superseded", "forgotten", "all"):
        raise ValidationError("status must be active, superseded, forgotten or all", field="status")
    return memory.explore.person(
        user, name, offset=offset, limit=limit, status=None if status == "all" else status
    )


@graph.get("/history", response_model=Subgraph)
def history(user: User, memory: Mem, limit: Annotated[int, Query(ge=1, le=500)] = 200) -> Subgraph:
    """The latest supersession and conflict decisions with their reasons."""
    return memory.explore.history(user, limit=limit)


@graph.get("/abstractions", response_model=Subgraph)
def abstractions(
    user: User,
    memory: Mem,
    limit: Annotated[int, Query(ge=1, le=500)] = 40,
    members: Annotated[int, Query(ge=1, le=500)] = 8,
) -> Subgraph:
    """The largest abstractions, their summaries and first members."""
    return memory.explore.abstractions(user, limit=limit, members=members)


@graph.get("/tasks", response_model=Subgraph)
def tasks(user: User, memory: Mem) -> Subgraph:
    """The task graph: ready, blocked, in progress, done, cancelled."""
    return memory.explore.tasks(user)


@graph.get("/cards/{card_id}", response_model=CardView)
def card(user: User, memory: Mem, card_id: str) -> CardView:
    """A card's details: source turn and evidence, status and why, what it superseded."""
    return memory.explore.card(user, card_id)


@graph.post("/recall", response_model=RecallView)
def recall(user: User, memory: Mem, body: s.RecallIn) -> RecallView:
    """Recall (as ``POST /recall``) with each hit placed in the graph and its paths
    resolved to the nodes and edges to highlight."""
    hits = memory.recall(user, body.query, **body.model_dump(exclude={"query"}))
    return memory.explore.recall_view(user, hits)


def mount_page(app: FastAPI) -> None:
    """Serve the built page at ``/ui`` (no key needed: it holds no data)."""

    @app.get("/ui", include_in_schema=False)
    def page_root() -> Response:
        return RedirectResponse("/ui/", status_code=307)

    @app.get("/ui/", include_in_schema=False)
    def page_index() -> Response:
        return _asset("index.html")

    @app.get("/ui/{name}", include_in_schema=False)
    def page_asset(name: str) -> Response:
        return _asset(name)


def _asset(name: str) -> Response:
    if name not in ASSETS:
        return PlainTextResponse("not found", status_code=404, headers=HEADERS)
    path = PAGE / name
    if not path.is_file():
        return PlainTextResponse(NOT_BUILT.format(page=PAGE), status_code=503, headers=HEADERS)
    return FileResponse(path, media_type=ASSETS[name], headers=HEADERS)
