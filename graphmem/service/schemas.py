"""Request and response bodies of the HTTP API (pydantic, with OpenAPI examples).

The user is always in the path (``/v1/users/{user_id}/...``), never in a body. Every
request body is a ``Body``: unknown fields are a 422 naming them, and numbers and booleans
are taken only as JSON numbers and booleans (``"k": "5"`` and ``"k": true`` are 422s, as
``"hard": "yes"`` is). Responses reuse graphmem's own models (``Card``, ``Person``,
``RecallHit``, ``Task``) so the API and the library say the same.
"""

from __future__ import annotations

import functools
import operator
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator, model_validator

from graphmem.models import MAX_TEXT, MAX_TURN, Card, Category, Count, has_nul
from graphmem.recall.context import MIN_BUDGET
from graphmem.timeutil import allow_future

When = int | str
WHEN = "When: ISO-8601 text (or a year, 2024), or epoch seconds/milliseconds."


def strict_scalars(annotation: Any) -> Any:
    """``annotation`` with every int, float and bool in it made strict (a JSON number
    or boolean only), through unions, ``Annotated`` and containers; enums, literals and
    nested models are left as they are.

    >>> strict_scalars(int | str)
    typing.Union[typing.Annotated[int, Strict(strict=True)], str]
    """
    if annotation in (int, float, bool):
        return Annotated[annotation, Strict()]
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        return functools.reduce(operator.or_, [strict_scalars(a) for a in args])
    if origin is Annotated:
        return Annotated[(strict_scalars(args[0]), *annotation.__metadata__)]
    if origin in (list, set, frozenset) and args:
        return origin[strict_scalars(args[0])]
    if origin is dict and args:
        return dict.__class_getitem__((args[0], strict_scalars(args[1])))
    return annotation


class Body(BaseModel):
    """Base of every request body: unknown fields refused, no NaN or infinity, no NUL
    character anywhere (the store's protocol ends a string there), numbers and booleans
    never read from text (or from each other)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _refuse_nul(cls, value: Any) -> Any:
        if has_nul(value):
            raise ValueError("text must not contain NUL characters")
        return value

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        changed = False
        for field in cls.model_fields.values():
            strict = strict_scalars(field.annotation)
            if strict != field.annotation:
                field.annotation, changed = strict, True
        if changed:
            cls.model_rebuild(force=True)


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(
        extra="forbid", allow_inf_nan=False, json_schema_extra={"examples": list(examples)}
    )


class SourceIn(Body):
    """Where a card came from: a turn of a conversation or a passage of a document."""

    session_id: str | None = Field(None, max_length=256, description="Conversation session id.")
    document: str | None = Field(None, max_length=1024, description="Document name or path.")
    turn: Count | None = Field(None, description="Turn index in the session, or passage index.")
    speaker: str | None = Field(None, max_length=256)
    text: str | None = Field(None, max_length=MAX_TURN, description="The source turn/passage text.")
    span: list[Count] | None = Field(
        None, min_length=2, max_length=2, description="Character span [start, end] of the evidence."
    )
    extractor: str = Field("manual", max_length=128, description="Extractor name/version.")
    session_date: When | None = None


CARD_EXAMPLE = {
    "fact": "Alice is allergic to peanuts",
    "person": "Alice",
    "relationship": "sister",
    "backstory": "mentioned while planning a birthday dinner",
    "timestamp": "2024-03-20T10:15:00Z",
    "category": "health",
    "tags": ["allergy"],
    "source": {
        "session_id": "chat-42",
        "turn": 3,
        "speaker": "user",
        "text": "My sister Alice is allergic to peanuts, so no satay.",
    },
}


class CardIn(Body):
    """A card to remember; the user comes from the path."""

    model_config = _examples(
        CARD_EXAMPLE, {"fact": "I prefer window seats", "category": "preference"}
    )

    fact: str = Field(min_length=1, max_length=MAX_TEXT, description="One atomic statement.")
    backstory: str = Field("", max_length=MAX_TEXT, description="How/where it came up.")
    person: str = Field(
        "me", min_length=1, max_length=256, description="Who the fact is about; 'me' for the user."
    )
    relationship: str | None = Field(
        None, max_length=128, description="The person's relationship to the user."
    )
    timestamp: When | None = Field(None, description=f"{WHEN} Default: now.")
    id: str | None = Field(None, description="Card id; default: derived from the content.")
    category: Category = Category.OTHER
    tags: list[str] = Field(default_factory=list, max_length=64)
    confidence: float | None = Field(None, ge=0.0, le=1.0)
    importance: float | None = Field(None, ge=0.0, le=1.0)
    emotion: float | None = Field(None, ge=0.0, le=1.0, description="Emotional intensity.")
    source: SourceIn | None = Field(None, description="Where it came from.")
    valid_from: When | None = None
    valid_to: When | None = None
    version: int = Field(
        0, ge=0, description="0 for a new card; the stored version to update an existing one."
    )
    allow_future: bool = Field(
        False, description="Accept a timestamp more than a day ahead (a planned event)."
    )

    def to_card(self, user_id: str, *, now: int | None = None) -> Card:
        """The library card (graphmem's ValidationError, naming the field, if invalid);
        ``now``: the timestamp of a card sent without one (one per request, so the same
        card twice in a batch is one card, whatever millisecond each was read in)."""
        data = self.model_dump(exclude_none=True, exclude={"allow_future"})
        if now is not None:
            data.setdefault("timestamp", now)
        with allow_future(self.allow_future):
            return Card.parse({**data, "user_id": user_id})


class CardBatch(Body):
    """Many cards at once; all are validated before any is written."""

    model_config = _examples(
        {"cards": [CARD_EXAMPLE, {"fact": "I prefer window seats", "category": "preference"}]}
    )

    cards: list[CardIn] = Field(min_length=1, max_length=10_000)


class FeedbackIn(Body):
    """Was the card useful? Thumbs "up"/"down" or a rating from 1 (bad) to 5 (great)."""

    model_config = _examples({"signal": "up"}, {"signal": 2})

    signal: Literal["up", "down"] | Annotated[int, Field(ge=1, le=5)]


class RevertIn(Body):
    """Bring a card back to an earlier version; ``version``: its current version as the
    caller saw it (409 if it changed since)."""

    model_config = _examples({"to_version": 1}, {"to_version": 2, "version": 4})

    to_version: int = Field(ge=1, le=2**63 - 1)
    version: int | None = Field(None, ge=1, le=2**63 - 1)


#: a consolidation step (graphmem.consolidation.STEPS)
Step = Literal["conflicts", "abstraction", "forgetting"]


class ConsolidateIn(Body):
    """Which consolidation steps to run; ``dry_run`` reports without writing."""

    model_config = _examples(
        {"steps": ["conflicts", "abstraction", "forgetting"]}, {"dry_run": True}
    )

    steps: list[Step] = Field(default_factory=lambda: list(get_args(Step)), min_length=1)
    dry_run: bool = False
    seed: int = Field(0, description="Clustering seed (same seed, same clusters).")


class ForgetIn(Body):
    """Soft forget (restorable) or, with ``hard``, erase text and vector for good."""

    model_config = _examples({"hard": False, "reason": "outdated"}, {"hard": True})

    hard: bool = False
    reason: str = Field("asked by the user", min_length=1, max_length=500)


MIN_RELEVANCE_HELP = (
    "Only cards at least this relevant (calibrated, in [0, 1], comparable across queries; "
    "0.2 leaves out most answers to questions about nothing memory holds)."
)


class RecallIn(Body):
    """A recall query with optional filters."""

    model_config = _examples(
        {"query": "what should I avoid cooking for my sister?", "k": 5},
        {"query": "trips", "person": "Alice", "since": "2024-01-01", "category": "life"},
    )

    query: str = Field(min_length=1, max_length=MAX_TEXT)
    k: int = Field(10, ge=1, le=1000)
    person: str | None = None
    relationship: str | None = None
    category: str | list[str] | None = None
    tags: list[str] | None = None
    since: When | None = Field(None, description=f"Only cards from then on. {WHEN}")
    until: When | None = Field(None, description=f"Only cards up to then. {WHEN}")
    include_superseded: bool = False
    include_forgotten: bool = False
    card_ids: list[str] | None = Field(None, description="Only among these cards.")
    as_of: When | None = Field(
        None, description=f"Answer from what memory held true at that time. {WHEN}"
    )
    known_at: When | None = Field(
        None,
        description=f"With as_of: by what memory knew then (default as_of; 'now': today). {WHEN}",
    )
    min_relevance: float = Field(0.0, ge=0, le=1, description=MIN_RELEVANCE_HELP)


class ContextIn(Body):
    """A compact memory block for a prompt, within a token budget."""

    model_config = _examples({"query": "plan a birthday dinner for Alice", "token_budget": 300})

    query: str = Field(min_length=1, max_length=MAX_TEXT)
    token_budget: int = Field(400, ge=MIN_BUDGET, le=100_000)
    k: int = Field(30, ge=1, le=1000)
    min_relevance: float = Field(0.0, ge=0, le=1, description=MIN_RELEVANCE_HELP)


class ContextOut(BaseModel):
    context: str


class ForgetOut(BaseModel):
    id: str
    forgotten: bool = True
    hard: bool


class TurnIn(Body):
    """One turn of a conversation; each needs a ``timestamp`` or a ``session_date``."""

    model_config = _examples(
        {
            "session_id": "chat-42",
            "turn": 0,
            "speaker": "user",
            "text": "My sister Alice is allergic to peanuts.",
            "session_date": "2024-03-20",
        }
    )

    session_id: str = Field(min_length=1, max_length=256)
    turn: int = Field(ge=0)
    speaker: str = Field(min_length=1, max_length=256)
    text: str = Field(max_length=MAX_TURN)
    timestamp: When | None = None
    session_date: When | None = None

    @model_validator(mode="after")
    def _dated(self) -> TurnIn:
        # An empty string is no time (the loader reads it as None).
        if self.timestamp in (None, "") and self.session_date in (None, ""):
            raise ValueError("a turn needs a timestamp or a session_date")
        return self


class ConversationIn(Body):
    """A conversation (one or many sessions): facts are extracted from the turns."""

    model_config = _examples(
        {
            "turns": [
                {
                    "session_id": "chat-42",
                    "turn": 0,
                    "speaker": "user",
                    "text": "My sister Alice is allergic to peanuts.",
                    "session_date": "2024-03-20",
                },
                {
                    "session_id": "chat-42",
                    "turn": 1,
                    "speaker": "assistant",
                    "text": "Noted, no peanuts for Alice.",
                },
            ]
        }
    )

    turns: list[TurnIn] = Field(min_length=1, max_length=10_000)


class TextIn(Body):
    """A document's text: split into passages, facts extracted from each."""

    model_config = _examples(
        {
            "document": "notes/2024-03.md",
            "text": "I moved to Lisbon in March. My brother Tom visited.",
            "timestamp": "2024-03-31",
        }
    )

    document: str = Field(min_length=1, max_length=1024, description="Document name/path.")
    text: str = Field(min_length=1, max_length=1_000_000)
    timestamp: When | None = Field(None, description=f"When it was written. {WHEN}")


class CardsIn(Body):
    """Advanced JSON Card records as in a cards file (the lossless path)."""

    model_config = _examples({"cards": [CARD_EXAMPLE]})

    cards: list[dict[str, Any]] = Field(min_length=1, max_length=10_000)


class Review(BaseModel):
    """A person mention that may be someone already known: linked for review, not merged."""

    mention: str
    maybe: list[str]
    where: str


class TurnCounts(BaseModel):
    """What became of one speaker's (or one language's) turns."""

    turns: int
    read: int = Field(description="Turns the extraction rules read claims from.")
    kept: int = Field(description="Turns kept as said (an assistant, another language...).")
    cards: int
    skipped: dict[str, int] = Field(
        default_factory=dict, description="Turns left out, by reason (small talk, empty...)."
    )
    failed: int = Field(
        0, description="Turns the rules failed on: kept as said, the fault in the log."
    )


class IngestOut(BaseModel):
    """What an ingest did: the cards extracted, how many were new, the people learnt."""

    ids: list[str]
    cards: int
    created: int
    unchanged: int
    updated: int
    people: list[str] = Field(default_factory=list, description="The people learnt.")
    to_review: list[Review] = Field(
        default_factory=list, description="Mentions that may be a person already known."
    )
    speakers: dict[str, TurnCounts] = Field(
        default_factory=dict, description="Per speaker: turns read, kept as said, skipped."
    )
    languages: dict[str, TurnCounts] = Field(
        default_factory=dict, description="Per detected language: the same counts."
    )


class TaskIn(Body):
    """A new task, optionally blocked by others and citing cards it relies on."""

    model_config = _examples(
        {
            "subject": "Book the restaurant",
            "description": "peanut-free menu",
            "blocked_by": ["k3x9m2qa"],
            "owner": "planner-agent",
        },
        {"subject": "Design the API"},
    )

    subject: str = Field(min_length=1, max_length=1000)
    description: str = Field("", max_length=MAX_TEXT)
    owner: str | None = None
    blocked_by: list[str] = Field(default_factory=list)
    cites: list[str] = Field(default_factory=list, description="Card ids.")
    id: str | None = Field(None, description="Pick the task id; default: random.")


class TaskUpdateIn(Body):
    """A change to a task; only the fields given change (``owner: null`` clears it)."""

    model_config = _examples(
        {"status": "in_progress", "owner": "planner-agent"},
        {"add_blocked_by": ["k3x9m2qa"], "expected_version": 2},
    )

    status: str | None = Field(None, description="pending, in_progress, completed, cancelled")
    subject: str | None = None
    description: str | None = None
    owner: str | None = None
    add_blocked_by: list[str] = Field(default_factory=list)
    remove_blocked_by: list[str] = Field(default_factory=list)
    add_blocks: list[str] = Field(default_factory=list)
    cites: list[str] = Field(default_factory=list)
    expected_version: int | None = Field(None, ge=1)
    force: bool = Field(
        False, description="Start or complete it even though a blocker is still open."
    )


class CompleteIn(Body):
    """Complete a task; ``force`` completes it even while a blocker is open."""

    model_config = _examples({"force": False}, {"force": True, "expected_version": 3})

    force: bool = False
    expected_version: int | None = Field(None, ge=1)


class ImportOut(BaseModel):
    user_id: str
    counts: dict[str, int]


class Health(BaseModel):
    status: str = Field(description="ok, or unavailable when the store cannot be reached")
    version: str
    store: str = Field(description="the store's dialect: falkordb or neo4j")


class FieldError(BaseModel):
    field: str
    message: str


class ErrorOut(BaseModel):
    """Every error answer: a code, a sentence, the field at fault if any, the request
    id; bad input (422) also lists every field with its message."""

    error: str
    detail: str
    field: str | None = None
    request_id: str | None = None
    errors: list[FieldError] | None = None
