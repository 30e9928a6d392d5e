"""Pydantic models at graphmem's edges: what users hand in and what they get back."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import weakref
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

import pydantic
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from graphmem.errors import ValidationError
from graphmem.timeutil import check_not_future, ms_to_datetime, now_ms, to_ms

#: The person every first-person fact is about: the user themself.
SELF = "me"
#: The relationship of what an assistant (agent, companion) said: attributed to it, never
#: one of the user's people (no KNOWS edge, not in ``people`` or the profile's people).
ASSISTANT = "assistant"
#: Speaker names that mean the assistant (compared lower-cased): its turns are memory,
#: attributed to it, never facts about the user's life.
ASSISTANT_SPEAKERS = frozenset(
    {"assistant", "ai", "bot", "agent", "model", "companion", "system", "tool"}
)
#: The tag of a card holding words as said (no claim read from them): recall and context
#: find it; the profile does not list it as who the user is.
SAID = "said"
#: The tag of a turn kept whole beside the cards the rules read from its parts: recall
#: shows it for them (a part alone often names nothing: "first shift is thursday"), and
#: its claims are theirs, never read from it again.
TURN = "turn"
_SELF_ALIASES = {"me", "i", "myself", "user", "the user", "self"}

MAX_TEXT = 20_000
#: A turn as said may be longer than a fact (a pasted letter, a log, a chapter): it is
#: kept and cut into pieces (``ingestion.said``), each a fact of its own.
MAX_TURN = 400_000


def _unpadded(value: Any) -> Any:
    """Models strip whitespace; a padded user id would land in another user's namespace."""
    if isinstance(value, str) and value != value.strip():
        raise ValueError("user_id must not start or end with whitespace")
    return value


UserId = Annotated[
    str,
    BeforeValidator(_unpadded),
    Field(
        min_length=1,
        max_length=128,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="Tenant: the user this memory belongs to.",
    ),
]
_USER_ID = TypeAdapter(UserId)


def check_user_id(user_id: Any) -> str:
    """The one check of a user id outside a model (reads, routes, tools)."""
    try:
        return _USER_ID.validate_python(user_id)
    except pydantic.ValidationError as exc:
        raise ValidationError.from_pydantic(exc, prefix="user_id") from None


#: Stores keep 64-bit integers; larger ones would be clamped silently.
MAX_INT = 2**63 - 1
Count = Annotated[int, Field(ge=0, le=MAX_INT)]

#: The largest page offset and page size any read takes: FalkorDB reads SKIP and LIMIT
#: as 32-bit counts, so 2**32 wrapped to 0 and answered the first page.
MAX_OFFSET = 10**9
MAX_LIMIT = 10**9


def check_range(name: str, value: int, low: int, high: int) -> int:
    """``value`` if ``low <= value <= high``, else a ``ValidationError`` naming ``name``.

    >>> check_range("offset", 2**32, 0, MAX_OFFSET)
    Traceback (most recent call last):
    ...
    graphmem.errors.ValidationError: offset must be between 0 and 1000000000
    """
    if not low <= value <= high:
        raise ValidationError(f"{name} must be between {low} and {high}", field=name)
    return value


def has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list | tuple | set | frozenset):
        return any(has_nul(v) for v in value)
    if isinstance(value, Mapping):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    return False


_TIME_FIELDS = ("timestamp", "valid_from", "valid_to", "last_accessed", "last_seen")


def stored_times(data: dict[str, Any]) -> dict[str, Any]:
    """Epoch-ms ints we stored ourselves, as datetimes: re-validating them must not guess
    seconds-or-milliseconds (below 1e11, input numbers are read as seconds)."""
    out = dict(data)
    for key in _TIME_FIELDS:
        if isinstance(out.get(key), int):
            out[key] = _stored_time(out[key], key)
    source = out.get("source")
    if isinstance(source, Mapping) and isinstance(source.get("session_date"), int):
        day = _stored_time(source["session_date"], "source.session_date")
        out["source"] = {**source, "session_date": day}
    return out


def _stored_time(ms: int, field: str) -> datetime:
    """An epoch-ms int as a datetime; one no calendar holds (an imported file's
    ``"timestamp": 10**20``) is a clear error, not a crash.

    >>> _stored_time(10**20, "timestamp")
    Traceback (most recent call last):
    graphmem.errors.ValidationError: timestamp: 100000000000000000000 ms is no date
    """
    try:
        return ms_to_datetime(ms)
    except OverflowError:
        raise ValidationError(f"{field}: {ms} ms is no date", field=field) from None


def _clean_text(value: str) -> str:
    value = unicodedata.normalize("NFC", value)
    return re.sub(r"\s+", " ", value).strip()


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def person_name(value: str) -> str:
    """A person's name, whitespace collapsed; control characters are refused.

    Names become uniquely constrained keys in the store, and FalkorDB 4.16's server dies
    (SIGSEGV in EnforceUniqueEntity) on such a string holding \\x01 anywhere or starting
    with \\t..\\r: one user's bad name would take every tenant's memory offline.

    >>> person_name(" Alice\\tSmith ")
    'Alice Smith'
    >>> person_name("\\x01Alice")
    Traceback (most recent call last):
    ...
    ValueError: a name must not contain control characters
    """
    value = _clean_text(value)
    if _CONTROL.search(value):
        raise ValueError("a name must not contain control characters")
    return value


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"


class Category(StrEnum):
    PREFERENCE = "preference"
    CONSTRAINT = "constraint"
    LIFE = "life"
    WORK = "work"
    HEALTH = "health"
    EMOTION = "emotion"
    STRATEGY = "strategy"
    EVENT = "event"
    OTHER = "other"


class Model(BaseModel):
    """Base: strict about unknown fields, NaN and infinities."""

    model_config = ConfigDict(
        extra="forbid", allow_inf_nan=False, str_strip_whitespace=True, validate_assignment=True
    )

    @field_validator("*", mode="before")
    @classmethod
    def _refuse_nul(cls, value: Any) -> Any:
        """NUL ends a query string in the store's protocol: refuse it, never truncate."""
        if has_nul(value):
            raise ValueError("text must not contain NUL characters")
        return value

    @classmethod
    def parse(cls, data: Any, *, where: str = "") -> Any:
        """Validate a mapping (or an instance) into this model, raising our ValidationError."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise ValidationError(
                f"{where or cls.__name__}: expected an object, got {type(data).__name__}",
                field=where or "input",
            )
        try:
            return cls._validate({str(k): v for k, v in data.items()})
        except pydantic.ValidationError as exc:
            raise ValidationError.from_pydantic(exc, prefix=f"{where}." if where else "") from None

    @classmethod
    def _validate(cls, data: dict[str, Any]) -> Any:
        return cls.model_validate(data)


#: Instances validation built, by id (a copy made by ``model_copy``, which skips
#: validators, or by ``model_construct`` is not among them): ``parse`` trusts these.
_VALIDATED: weakref.WeakValueDictionary[int, BaseModel] = weakref.WeakValueDictionary()


class InputModel(Model):
    """A model users build by hand: bad input raises graphmem's ``ValidationError``.

    Only top-level inputs get this: pydantic calls a custom ``__init__`` for nested
    models too, which would bury the field path inside a "Value error" message.
    """

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except pydantic.ValidationError as exc:
            raise ValidationError.from_pydantic(exc) from None

    @model_validator(mode="after")
    def _remember_validated(self) -> Any:
        _VALIDATED[id(self)] = self
        return self

    @classmethod
    def parse(cls, data: Any, *, where: str = "") -> Any:
        if isinstance(data, cls):
            if _VALIDATED.get(id(data)) is data:
                return data  # validated when built, and on every assignment since
            # A copy or a constructed instance skipped validators: derived fields
            # (content hash) may be stale, values unchecked.
            data = stored_times(data.model_dump(exclude={"content_hash", "identity"}))
        return super().parse(data, where=where)

    @classmethod
    def _validate(cls, data: dict[str, Any]) -> Any:
        # pydantic runs a custom __init__ inside model_validate and would wrap our error;
        # validate through pydantic's own __init__ and let parse() name the fields.
        instance = cls.__new__(cls)
        BaseModel.__init__(instance, **data)
        return instance


Millis = Annotated[int, Field(description="UTC epoch milliseconds")]


def _ms_or_none(value: Any) -> int | None:
    if value is None or value == "":
        return None
    return to_ms(value)


class Provenance(Model):
    """Where a card came from: a turn of a conversation or a passage of a document."""

    session_id: str | None = Field(None, max_length=256, description="Conversation session id.")
    document: str | None = Field(None, max_length=1024, description="Document name or path.")
    turn: int | None = Field(
        None, ge=0, le=MAX_INT, description="Turn index in the session, or passage index."
    )
    speaker: str | None = Field(None, max_length=256)
    text: str | None = Field(None, max_length=MAX_TURN, description="The source turn/passage text.")
    span: tuple[Count, Count] | None = Field(None, description="Character span of the evidence.")
    extractor: str = Field("manual", max_length=128, description="Extractor name/version.")
    session_date: Millis | None = None
    language: str | None = Field(
        None, max_length=16, description="Language of the text (graphmem.lang.detect)."
    )

    @field_validator("session_date", mode="before")
    @classmethod
    def _session_date(cls, value: Any) -> int | None:
        return _ms_or_none(value)

    @model_validator(mode="after")
    def _span_inside(self) -> Provenance:
        if self.span is not None:
            start, end = self.span
            if start < 0 or end < start:
                raise ValueError("span must be (start, end) with 0 <= start <= end")
            if self.text is not None and end > len(self.text):
                raise ValueError("span ends after the source text")
        return self

    @property
    def source_id(self) -> str | None:
        """Stable id of the Source node: same session/document and turn, same source."""
        container = self.session_id or self.document
        if (
            container is None
            and self.text is None
            and self.turn is None
            and self.speaker is None
            and self.extractor == "manual"
        ):
            return None
        key = json.dumps(
            [
                self.session_id,
                self.document,
                self.turn,
                None if container else self.text,
                None if container else self.speaker,
            ]
        )
        return hashlib.sha256(key.encode()).hexdigest()[:24]


#: fields of a card derived from the others when not given
_DERIVED = ("id", "content_hash", "identity")


class Card(InputModel):
    """An Advanced JSON Card: one atomic fact with the context that fixes its meaning.

    The five core fields are ``fact``, ``backstory``, ``person``, ``relationship`` and
    ``timestamp``; everything else is metadata graphmem keeps or computes.

    Examples:
        >>> card = Card(user_id="u1", fact="Alice is allergic to peanuts",
        ...             person="Alice", relationship="Sister",
        ...             timestamp="2024-03-20T10:15:00Z")
        >>> card.relationship, card.timestamp, card.id == card.identity[:32]
        ('sister', 1710929700000, True)

    The id derives from the card's identity (user, fact, person, relationship), not
    from its time: the same fact remembered again is the same card, seen again.
    """

    user_id: UserId
    fact: str = Field(min_length=1, max_length=MAX_TEXT, description="One atomic statement.")
    backstory: str = Field("", max_length=MAX_TEXT, description="How/where it came up.")
    person: str = Field(
        SELF,
        min_length=1,
        max_length=256,
        description=f"Who the fact is about; '{SELF}' for the user.",
    )
    relationship: str | None = Field(
        None, max_length=128, description="The person's relationship to the user."
    )
    timestamp: Millis = Field(
        default_factory=now_ms,
        description="When it was said / became true (epoch ms; "
        "ISO-8601, datetime or epoch accepted).",
    )
    # id, content_hash and identity are always set on a card: derived when not given
    # (the empty default is never validated, and never kept).
    id: str = Field(
        "",
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="Default: derived from the identity.",
    )
    category: Category = Category.OTHER
    tags: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=64
    )
    confidence: float = Field(0.8, ge=0.0, le=1.0)
    importance: float = Field(0.5, ge=0.0, le=1.0)
    emotion: float = Field(0.0, ge=0.0, le=1.0, description="Emotional intensity.")
    reward: float = Field(0.0, ge=-1.0, le=1.0, description="Accumulated feedback.")
    source: Provenance | None = None
    triple: tuple[str, str, str] | None = Field(
        None, description="(subject, predicate, object) when the card states a relation."
    )
    valid_from: Millis | None = None
    valid_to: Millis | None = None
    status: Status = Status.ACTIVE
    needs_revision: bool = False
    version: int = Field(
        0, ge=0, le=MAX_INT, description="0 for a new card; the stored version to update."
    )
    content_hash: str = Field("", description="Hash of the content (derived).")
    identity: str = Field(
        "", description="Hash of what makes this the same memory (see ``identity``)."
    )
    last_seen: Millis | None = Field(
        None, description="When the fact was last stated (a repeat moves it; default: timestamp)."
    )
    seen_count: int = Field(1, ge=1, le=MAX_INT, description="How often it was stated.")
    access_count: Count = 0
    last_accessed: Millis | None = None
    created_at: Millis | None = None
    updated_at: Millis | None = None

    @model_validator(mode="before")
    @classmethod
    def _derived_when_none(cls, data: Any) -> Any:
        """A derived field given as None (JSON null, a stored row) is derived anew."""
        if isinstance(data, dict) and any(data.get(k, "") is None for k in _DERIVED):
            return {k: v for k, v in data.items() if not (k in _DERIVED and v is None)}
        return data

    @field_validator("fact", "backstory", "person", mode="after")
    @classmethod
    def _normalise_text(cls, value: str) -> str:
        return _clean_text(value)

    @field_validator("fact", mode="after")
    @classmethod
    def _fact_not_blank(cls, value: str) -> str:
        if not value:
            raise ValueError("fact must not be blank")
        return value

    @field_validator("person", mode="after")
    @classmethod
    def _self_alias(cls, value: str) -> str:
        if not value:
            raise ValueError("person must not be blank")
        value = person_name(value)
        return SELF if value.lower() in _SELF_ALIASES else value

    @field_validator("relationship", mode="after")
    @classmethod
    def _relationship(cls, value: str | None) -> str | None:
        value = _clean_text(value).lower() if value else None
        return value or None

    @field_validator("tags", mode="after")
    @classmethod
    def _tags(cls, value: list[str]) -> list[str]:
        tags = sorted({_clean_text(tag).lower() for tag in value if _clean_text(tag)})
        if any(len(tag) > 64 for tag in tags):  # "İ" lower-cases to two characters
            raise ValueError("a tag must have at most 64 characters once lower-cased")
        return tags

    @field_validator(
        "timestamp", "valid_from", "valid_to", "last_accessed", "last_seen", mode="before"
    )
    @classmethod
    def _time(cls, value: Any) -> int | None:
        return _ms_or_none(value)

    @field_validator("timestamp", mode="after")
    @classmethod
    def _not_future(cls, value: int) -> int:
        return check_not_future(value)

    @model_validator(mode="after")
    def _derive(self) -> Card:
        # object.__setattr__ avoids re-running validation (validate_assignment) in a loop.
        if self.person == SELF and self.relationship is None:
            object.__setattr__(self, "relationship", "self")
        valid_from = self.timestamp if self.valid_from is None else self.valid_from
        object.__setattr__(self, "valid_from", valid_from)
        if self.valid_to is not None and self.valid_to < valid_from:
            raise ValueError("valid_to is before valid_from")
        if self.last_seen is None:
            object.__setattr__(self, "last_seen", self.timestamp)
        object.__setattr__(self, "content_hash", content_hash(self))
        key = identity(self)
        object.__setattr__(self, "identity", key)
        if not self.id:  # not given
            object.__setattr__(self, "id", key[:32])
        return self

    @property
    def derived_id(self) -> bool:
        """Whether the id comes from the identity (not picked by the caller)."""
        return self.id == self.identity[:32]

    @property
    def embedding_text(self) -> str:
        """The text embedded for vector search: who the fact is about, then the fact.

        The backstory is left out: on bench/data/eval it doubled embedding time (the
        model's cost grows with length) for a mixed effect on recall (vector-only MRR
        +0.03, hybrid recall@10 -0.01); it stays searchable through the full-text index.
        """
        return embedding_text(self.person, self.relationship, self.fact)


def embedding_text(person: str, relationship: str | None, fact: str) -> str:
    """``Card.embedding_text`` of a card about ``person`` (``SELF``: the user)."""
    who = "I" if person == SELF else person
    rel = f" ({relationship})" if relationship and person != SELF else ""
    return f"{who}{rel}: {fact}"


def identity(card: Card) -> str:
    """Hash of what makes two cards the same memory for one user: the fact, the person
    it is about (case-insensitive) and their relationship to the user.

    The time is left out, so a fact remembered again (with a time or without one) is the
    card already stored, seen again; the backstory too, which tells how it came up, not
    what it says. Card ids derive from it.

    >>> a = Card(user_id="u", fact="I like green tea")
    >>> b = Card(user_id="u", fact="I like green tea", timestamp="2024-01-01",
    ...          backstory="at lunch")
    >>> a.id == b.id, a.content_hash == b.content_hash
    (True, False)
    """
    return identity_of(card.user_id, card.fact, card.person, card.relationship)


def identity_of(user_id: str, fact: str, person: str, relationship: str | None) -> str:
    """``identity`` from a card's stored (already normalised) fields."""
    key = json.dumps(["card/2", user_id, fact, person.lower(), relationship], ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()


def content_hash(card: Card) -> str:
    """Hash of a card's content as stated: identity plus backstory and time.

    An exact re-send (re-ingesting a file) has the stored hash and changes nothing; a
    repeat with another time or backstory has the same ``identity`` and another hash.
    """
    key = json.dumps(
        [card.user_id, card.fact, card.backstory, card.person.lower(), card.timestamp],
        ensure_ascii=False,
    )
    return hashlib.sha256(key.encode()).hexdigest()


class Person(Model):
    """Someone in a user's life, as stored."""

    user_id: UserId
    name: Annotated[str, AfterValidator(person_name), Field(min_length=1, max_length=256)]
    relationship: str | None = None
    aliases: list[Annotated[str, AfterValidator(person_name)]] = Field(default_factory=list)
    card_count: int = 0
    relationship_history: list[str] = Field(default_factory=list)
    since: int | None = Field(
        default=None, description="When the relationship was said (epoch ms), where known."
    )
    maybe_same_as: list[str] = Field(
        default_factory=list, description="Known people this may be (for review)."
    )


class RememberResult(Model):
    """What ``remember_many`` did with each card, in input order.

    ``ids`` are the stored ids: a repeat of a card stored under an older id scheme gets
    that card's id. ``seen_again``: repeats of a stored fact (its ``last_seen`` and
    ``seen_count`` moved, its new source linked).
    """

    ids: list[str]
    created: int = 0
    unchanged: int = 0
    updated: int = 0
    seen_again: int = 0
    superseded: int = Field(
        0, description="Stored cards this write superseded (a newer value of the same claim)."
    )
    conflicts: int = Field(0, description="Same-time contradictions flagged for revision.")


class CardLink(Model):
    """Another card a decision ties this one to, and why (``SUPERSEDES``, ``CONFLICTS_WITH``)."""

    id: str
    fact: str | None = None
    reason: str | None = None
    decided_by: str | None = None
    decided_at: Millis | None = None


class AbstractionRef(Model):
    """An abstraction (cluster summary) that includes the card."""

    id: str
    summary: str | None = None


class CardProvenance(Model):
    """Where a card came from and what became of it (``Memory.provenance``).

    ``source`` is where it was first stated, ``sources`` every statement (repeats
    included); ``status_reason`` says in words why it is not plainly active.
    """

    card: Card
    source: Provenance | None = None
    sources: list[Provenance] = Field(default_factory=list)
    person: str | None = None
    relationship: str | None = None
    relationship_history: list[str] = Field(default_factory=list)
    supersedes: list[CardLink] = Field(default_factory=list)
    superseded_by: list[CardLink] = Field(default_factory=list)
    conflicts: list[CardLink] = Field(default_factory=list)
    abstractions: list[AbstractionRef] = Field(default_factory=list)
    forgotten_reason: str | None = None
    forgotten_at: Millis | None = None
    status_reason: str | None = Field(
        None, description="Why the card is superseded, forgotten or needs revision."
    )


def status_reason(story: CardProvenance) -> str | None:
    """Why a card is superseded, forgotten or flagged for revision, in words.

    >>> card = Card(user_id="u", fact="I live in Paris", status="superseded")
    >>> status_reason(CardProvenance(card=card, superseded_by=[CardLink(
    ...     id="b" * 32, fact="I moved to Berlin", reason="newer location")]))
    "superseded by 'I moved to Berlin' (bbbbbbbb): newer location"
    """
    card = story.card
    reasons: list[str] = []
    if card.status == Status.SUPERSEDED:
        by = [
            f"{link.fact!r} ({link.id[:8]})" + (f": {link.reason}" if link.reason else "")
            for link in story.superseded_by
        ]
        reasons.append("superseded by " + "; ".join(by) if by else "superseded")
    elif card.status == Status.FORGOTTEN:
        reasons.append(f"forgotten: {story.forgotten_reason or 'no reason recorded'}")
    if card.needs_revision:
        why = [
            f"conflicts with {link.fact!r} ({link.id[:8]})"
            + (f": {link.reason}" if link.reason else "")
            for link in story.conflicts
        ]
        if card.reward < 0:
            why.append(f"negative feedback (reward {card.reward:g})")
        reasons.append("needs revision: " + ("; ".join(why) or "flagged"))
    return "; ".join(reasons) or None
