"""The export format, checked: every record of a graphmem export as a pydantic model.

``check_export`` reads a whole export before anything is written and stops at the first
record that could not be imported as it is: not JSON, an unknown type, a missing or
ill-typed field, a property a graph cannot store, a card that is not a valid card, a
key the store would choke on, records out of order, or a reference to a card or task
the export does not hold. The error names the line and the field (``line 7.props.fact``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import pydantic
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from graphmem.errors import ValidationError
from graphmem.models import UserId, person_name

FORMAT = "graphmem-export"
VERSION = 1

#: Keys of nodes under a uniqueness constraint: the same shapes the library writes.
Key = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")]
_SCALARS = (str, int, float, bool)
_MAX_INT = 2**63 - 1


def _property(value: Any) -> Any:
    """What a graph stores as a property: a scalar or a list of scalars (no maps, no
    nesting), numbers finite and within 64 bits."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        if item is None and not isinstance(value, list):
            continue
        if not isinstance(item, _SCALARS):
            raise ValueError(
                "a property is text, a number, a boolean or a list of them, "
                f"not {type(item).__name__}"
            )
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError("a number must be finite")
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) > _MAX_INT:
            raise ValueError("an integer must fit in 64 bits")
        if isinstance(item, str) and "\x00" in item:
            raise ValueError("text must not contain NUL characters")
    return value


Props = dict[
    Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")],
    Annotated[Any, AfterValidator(_property)],
]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)


class Header(_Record):
    type: Literal["header"]
    format: Literal["graphmem-export"]
    version: Literal[1]
    user_id: UserId
    embeddings: bool = False
    dimension: int | None = Field(None, ge=1, le=65_536)


class UserRecord(_Record):
    type: Literal["user"]
    props: Props


class PersonRecord(_Record):
    type: Literal["person"]
    key: Annotated[str, Field(min_length=1, max_length=256)]
    props: Props
    knows: Props | None = None

    @field_validator("key")
    @classmethod
    def _key(cls, value: str) -> str:
        person_name(value)  # a control character here crashes the store (models.person_name)
        return value


class MaybeSameRecord(_Record):
    type: Literal["maybe_same"]
    source: Annotated[str, Field(min_length=1, max_length=256)]
    target: Annotated[str, Field(min_length=1, max_length=256)]
    props: Props


class ContainerRecord(_Record):
    type: Literal["session", "document"]
    id: Annotated[str, Field(min_length=1, max_length=1024)]
    props: Props


class ContainerRef(_Record):
    label: Literal["Session", "Document"]
    id: Annotated[str, Field(min_length=1, max_length=1024)]


class SourceRecord(_Record):
    type: Literal["source"]
    id: Key
    props: Props
    containers: list[ContainerRef] = Field(default_factory=list)


class Evidence(_Record):
    id: Key
    props: Props


Vector = list[float]


class CardRecord(_Record):
    type: Literal["card"]
    id: Key
    props: Props
    ann: bool = False
    people: list[Annotated[str, Field(min_length=1, max_length=256)]] = Field(default_factory=list)
    sources: list[Evidence] = Field(default_factory=list)
    embedding: Vector | None = None


class CardVersionRecord(_Record):
    type: Literal["card_version"]
    id: Key
    version: int = Field(ge=1)
    props: Props


class EdgeRecord(_Record):
    type: Literal["supersedes", "conflicts_with"]
    source: Key
    target: Key
    props: Props


class Member(_Record):
    id: Key
    props: Props


class AbstractionRecord(_Record):
    type: Literal["abstraction"]
    id: Key
    props: Props
    members: list[Member] = Field(default_factory=list)
    embedding: Vector | None = None


class TaskRecord(_Record):
    type: Literal["task"]
    id: Key
    props: Props
    blocked_by: list[Key] = Field(default_factory=list)
    cites: list[Key] = Field(default_factory=list)


class EntityRecord(_Record):
    type: Literal["entity"]
    id: Key
    props: Props


class LinkRecord(_Record):
    type: Literal["relation", "mention"]
    source: Key
    target: Key
    props: Props


class SessionSummaryRecord(_Record):
    type: Literal["session_summary"]
    id: Annotated[str, Field(min_length=1, max_length=1024)]
    props: Props
    turns: list[Key] = Field(default_factory=list)


class TraceStep(_Record):
    props: Props
    calls: list[Props] = Field(default_factory=list)


class TraceRecord(_Record):
    type: Literal["trace"]
    id: Key
    props: Props
    task: Key | None = None
    steps: list[TraceStep] = Field(default_factory=list)


Record = (
    UserRecord
    | PersonRecord
    | MaybeSameRecord
    | ContainerRecord
    | SourceRecord
    | CardRecord
    | CardVersionRecord
    | EdgeRecord
    | AbstractionRecord
    | TaskRecord
    | EntityRecord
    | LinkRecord
    | SessionSummaryRecord
    | TraceRecord
)
MODELS: dict[str, type[_Record]] = {
    "header": Header,
    "user": UserRecord,
    "person": PersonRecord,
    "maybe_same": MaybeSameRecord,
    "session": ContainerRecord,
    "document": ContainerRecord,
    "source": SourceRecord,
    "card": CardRecord,
    "card_version": CardVersionRecord,
    "supersedes": EdgeRecord,
    "conflicts_with": EdgeRecord,
    "abstraction": AbstractionRecord,
    "task": TaskRecord,
    "entity": EntityRecord,
    "relation": LinkRecord,
    "mention": LinkRecord,
    "session_summary": SessionSummaryRecord,
    "trace": TraceRecord,
}
RECORD_TYPES = tuple(MODELS)
#: The order records are written in; an export lists them so (import relies on it).
STAGES = {
    "user": 0,
    "person": 1,
    "maybe_same": 2,
    "session": 3,
    "document": 3,
    "source": 4,
    "card": 5,
    "card_version": 6,
    "supersedes": 6,
    "conflicts_with": 6,
    "abstraction": 7,
    "task": 8,
    "entity": 9,
    "session_summary": 9,
    "trace": 9,
    "relation": 10,
    "mention": 10,
}
_STATUSES = TypeAdapter(Literal["pending", "in_progress", "completed", "cancelled"])


@dataclass
class ExportSummary:
    """What a checked export holds: its header and how many records of each type."""

    header: Header
    counts: dict[str, int] = field(default_factory=dict)


def _identity(record: _Record) -> tuple[Any, ...] | None:
    """What makes a record one thing: its type and id (a person's key, a card version's
    id and number; the user record is one); None for links, which carry no id. Two
    records with one identity would be written last-wins (cards) or first-wins (tasks)
    and counted twice, so the file is refused."""
    if isinstance(record, UserRecord):
        return ("user",)
    if isinstance(record, PersonRecord):
        return ("person", record.key)
    if isinstance(record, CardVersionRecord):
        return ("card_version", record.id, record.version)
    if isinstance(record, ContainerRecord | SessionSummaryRecord | CardRecord | SourceRecord):
        return (record.type, record.id)
    if isinstance(record, AbstractionRecord | TaskRecord | EntityRecord | TraceRecord):
        return (record.type, record.id)
    return None


def check_export(lines: Iterable[str]) -> ExportSummary:
    """Validate every record of an export; ``ValidationError`` naming the first bad
    line and field. Nothing is written: ``import_file`` calls this first."""
    header: Header | None = None
    counts: dict[str, int] = {}
    cards: set[str] = set()
    tasks: set[str] = set()
    references: list[tuple[int, str, str, set[str]]] = []  # line, field, id, among
    first_line: dict[tuple[Any, ...], int] = {}  # a record's identity -> its line
    stage = -1
    for number, data in _json_lines(lines):
        kind = data.get("type")
        kind = kind if isinstance(kind, str) else None
        where = f"line {number}"
        if header is None:
            if kind != "header":
                raise ValidationError(
                    f"{where}: not a graphmem export: the first record must be its header",
                    field=f"{where}.type",
                )
            header = _model(Header, data, where)
            continue
        if kind not in MODELS or kind == "header":
            known = ", ".join(t for t in RECORD_TYPES if t != "header")
            message = (
                "a second header: concatenated exports are not supported"
                if kind == "header"
                else f"a record needs a type, one of {known}"
            )
            raise ValidationError(f"{where}: {message}", field=f"{where}.type")
        record = _model(MODELS[kind], data, where)
        if STAGES[kind] < stage:
            raise ValidationError(
                f"{where}: a {kind} record after records that must follow it "
                f"(an export lists {', '.join(dict.fromkeys(STAGES))} in that order)",
                field=f"{where}.type",
            )
        stage = STAGES[kind]
        counts[kind] = counts.get(kind, 0) + 1
        _check(record, where, header)
        identity = _identity(record)
        if identity is not None:
            if identity[1:] and (seen := first_line.get(identity)) is not None:
                name = "key" if isinstance(record, PersonRecord) else "id"
                raise ValidationError(
                    f"{where}: {kind} {identity[1]!r} again (first at line {seen}); an "
                    f"export holds each {kind} once",
                    field=f"{where}.{name}",
                )
            if not identity[1:] and (seen := first_line.get(identity)) is not None:
                raise ValidationError(
                    f"{where}: a second {kind} record (the first is line {seen})",
                    field=f"{where}.type",
                )
            first_line[identity] = number
        if isinstance(record, CardRecord):
            cards.add(record.id)
        elif isinstance(record, TaskRecord):
            tasks.add(record.id)
            references += [(number, "blocked_by", t, tasks) for t in record.blocked_by]
            references += [(number, "cites", c, cards) for c in record.cites]
        elif isinstance(record, EdgeRecord):
            references += [(number, "source", record.source, cards)]
            references += [(number, "target", record.target, cards)]
        elif isinstance(record, AbstractionRecord):
            references += [(number, "members", m.id, cards) for m in record.members]
    if header is None:
        raise ValidationError("empty: not a graphmem export", field="line 1")
    for number, name, ref, among in references:
        if ref not in among:
            raise ValidationError(
                f"line {number}: {name} refers to {ref!r}, which the export does not hold",
                field=f"line {number}.{name}",
            )
    return ExportSummary(header, counts)


def _json_lines(lines: Iterable[str]) -> Iterable[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(
                f"line {number}: not JSON: {exc.msg} (column {exc.colno})",
                field=f"line {number}",
            ) from None
        except RecursionError:
            raise ValidationError(
                f"line {number}: nested too deeply", field=f"line {number}"
            ) from None
        if not isinstance(data, dict):
            raise ValidationError(
                f"line {number}: a record is a JSON object, not {type(data).__name__}",
                field=f"line {number}",
            )
        yield number, data


def _model(model: type[_Record], data: dict[str, Any], where: str) -> Any:
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        pairs = [
            (".".join(str(part) for part in err.get("loc", ())) or "record", err.get("msg", ""))
            for err in exc.errors()
        ]
        detail = "; ".join(f"{loc}: {msg}" for loc, msg in pairs[:5])
        raise ValidationError(
            f"{where} ({data.get('type')}): {detail}",
            field=f"{where}.{pairs[0][0]}",
            errors=[(f"{where}.{loc}", msg) for loc, msg in pairs],
        ) from None


def _check(record: _Record, where: str, header: Header) -> None:
    """What a model alone cannot say: ids inside props agree, a card is a valid card,
    vectors are finite and of the header's dimension."""
    props = getattr(record, "props", {})
    for name in ("id", "key"):
        if name in props and props[name] != getattr(record, name, props[name]):
            raise ValidationError(
                f"{where}: props.{name} {props[name]!r} differs from the record's "
                f"{name} {getattr(record, name)!r}",
                field=f"{where}.props.{name}",
            )
    if isinstance(record, CardRecord) or (
        isinstance(record, CardVersionRecord) and props.get("erased_at") is None
    ):
        from graphmem.cards import card_from_row

        try:
            card_from_row({"card": {"user_id": header.user_id, **props, "id": record.id}})
        except ValidationError as exc:
            raise ValidationError(
                f"{where}: not a valid card: {exc}", field=f"{where}.props.{exc.field}"
            ) from None
    if isinstance(record, TaskRecord):
        if not isinstance(props.get("subject"), str) or not props["subject"].strip():
            raise ValidationError(
                f"{where}: a task needs a subject", field=f"{where}.props.subject"
            )
        try:
            _STATUSES.validate_python(props.get("status", "pending"))
        except pydantic.ValidationError:
            raise ValidationError(
                f"{where}: unknown task status {props.get('status')!r}",
                field=f"{where}.props.status",
            ) from None
    vector = getattr(record, "embedding", None)
    if vector is not None:
        if not all(math.isfinite(x) for x in vector):
            raise ValidationError(
                f"{where}: the embedding holds NaN or infinity", field=f"{where}.embedding"
            )
        if header.dimension is not None and len(vector) != header.dimension:
            raise ValidationError(
                f"{where}: an embedding of {len(vector)} numbers, "
                f"the header says {header.dimension}",
                field=f"{where}.embedding",
            )
