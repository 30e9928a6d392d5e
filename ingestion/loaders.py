"""Read cards, conversations and documents from files, with errors that name the spot.

Every malformed record raises ``graphmem.errors.ValidationError`` with a message of the
form ``"<file> line <n>: <field>: <problem>"`` (``record <n>`` for JSON arrays), so a user
can open the file and fix it. Records are streamed: ``iter_*`` functions yield
``(record_number, item)`` pairs, which is what makes resumable ingestion possible.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import ConfigDict, Field, field_validator

from graphmem.errors import ValidationError
from graphmem.models import MAX_INT, MAX_TURN, Card, Model
from graphmem.timeutil import wall_clock_ms

Format = Literal["cards", "conversation", "text"]
FORMATS: tuple[Format, ...] = ("cards", "conversation", "text")
TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".rst", ".text"}
MAX_PASSAGE = 800


class Turn(Model):
    """One turn of a conversation, with the dates that anchor relative phrases."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, validate_assignment=False)

    session_id: str = Field(min_length=1, max_length=256)
    turn: int = Field(ge=0, le=MAX_INT)
    speaker: str = Field(min_length=1, max_length=256)
    text: str = Field(max_length=MAX_TURN)
    timestamp: int | None = None
    session_date: int | None = None

    @field_validator("session_id", "speaker", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("timestamp", "session_date", mode="before")
    @classmethod
    def _time(cls, value: Any) -> int | None:
        if value is None or value == "":
            return None
        return wall_clock_ms(value)

    @property
    def when(self) -> int:
        """When the turn was said: its own timestamp, else its session's date."""
        when = self.timestamp if self.timestamp is not None else self.session_date
        assert when is not None  # loaders guarantee one of them
        return when


@dataclass(frozen=True)
class Passage:
    """A bounded piece of a document, with its exact character offsets in the file text."""

    index: int
    text: str
    start: int
    end: int
    heading: str | None = None


# ---------------------------------------------------------------------------- errors


def _problem(exc: pydantic.ValidationError | ValidationError) -> tuple[str, str]:
    if isinstance(exc, ValidationError):
        field, msg = exc.errors[0] if exc.errors else (exc.field or "input", str(exc))
    else:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err.get("loc", ())) or "input"
        msg = err.get("msg", "")
    msg = re.sub(r"^(Value error|Assertion failed), ", "", msg)
    return field, msg


def _fail(where: str, field: str | None, msg: str) -> ValidationError:
    text = f"{where}: {field}: {msg}" if field else f"{where}: {msg}"
    return ValidationError(text, field=field or "input", errors=[(field or "input", msg)])


# ---------------------------------------------------------------------------- records


def iter_records(path: str | Path) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Yield ``(where, number, record)`` from a JSON array / ``{"cards": [...]}`` or JSONL.

    ``number`` counts records from 1 (the line number for JSONL, blank lines skipped).
    """
    path = Path(path)
    name = path.name
    with path.open("rb") as fh:
        head = _decode(fh.read(4096), name, errors="ignore").lstrip()
        fh.seek(0)
        if head.startswith(("[", "{")) and not _looks_like_jsonl(path, head):
            data = _parse(_decode(fh.read(), name), name)
            items = data.get("cards", data.get("turns")) if isinstance(data, dict) else data
            if not isinstance(items, list):
                raise _fail(name, None, 'expected a JSON list or an object with a "cards" list')
            for number, item in enumerate(items, 1):
                where = f"{name} record {number}"
                if not isinstance(item, dict):
                    raise _fail(where, None, f"expected an object, got {type(item).__name__}")
                yield where, number, item
            return
        for number, raw in enumerate(fh, 1):
            where = f"{name} line {number}"
            line = _decode(raw, where)
            if not line.strip():
                continue
            item = _parse(line, where)
            if not isinstance(item, dict):
                raise _fail(where, None, f"expected an object, got {type(item).__name__}")
            yield where, number, item


def _decode(raw: bytes, where: str, *, errors: str = "strict") -> str:
    try:
        return raw.decode("utf-8", errors=errors)
    except UnicodeDecodeError as exc:
        raise _fail(where, None, f"not UTF-8 text (byte {exc.start})") from None


def _parse(text: str, where: str) -> Any:
    """JSON, with every way it can fail turned into a ValidationError naming the place."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        line = f" line {exc.lineno}" if " line " not in where else ""
        raise _fail(f"{where}{line}", None, f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise _fail(where, None, "JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python accepts
        raise _fail(where, None, f"unreadable JSON value ({exc})") from None


def _looks_like_jsonl(path: Path, head: str) -> bool:
    if path.suffix.lower() == ".jsonl":
        return True
    first = head.split("\n", 1)[0].strip()
    if not first.startswith("{"):
        return False
    try:
        json.loads(first)
    except json.JSONDecodeError:
        return False
    return True


# ---------------------------------------------------------------------------- cards


def parse_card(record: dict[str, Any], user_id: str, *, where: str) -> Card:
    """Validate one Advanced JSON Card record for ``user_id``.

    A record that names another user is refused rather than silently re-owned.
    """
    owner = record.get("user_id")
    if owner is not None and owner != user_id:
        raise _fail(where, "user_id", f"card belongs to {owner!r}, not to {user_id!r}")
    try:
        return Card(**{**record, "user_id": user_id})
    except ValidationError as exc:
        raise _fail(where, *_problem(exc)) from None


def iter_cards(path: str | Path, user_id: str) -> Iterator[tuple[int, Card]]:
    """Yield ``(record_number, Card)`` from a JSON / JSONL file of cards."""
    for where, number, record in iter_records(path):
        yield number, parse_card(record, user_id, where=where)


def load_cards(path: str | Path, user_id: str) -> list[Card]:
    """All cards of a file (the lossless path: what is in the file is what is stored)."""
    return [card for _, card in iter_cards(path, user_id)]


# ---------------------------------------------------------------------------- conversations


class TurnNumbers:
    """Each turn of a session has its own number: two turns under one (session, turn)
    would share one source, and the second's evidence spans would point past the first's
    text. The first place each number was seen, to name both."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, int], str] = {}

    def check(self, turn: Turn, where: str, *, field: str = "turn") -> None:
        """A ``ValidationError`` (on ``field``) if ``turn``'s number was seen before."""
        seen = self.first.setdefault((turn.session_id, turn.turn), where)
        if seen != where:
            message = (
                f"turn {turn.turn} of session {turn.session_id!r} again (first at {seen}); "
                f"each turn of a session needs its own number"
            )
            raise ValidationError(f"{where}: {message}", field=field, errors=[(field, message)])


def iter_turns(path: str | Path) -> Iterator[tuple[int, Turn | None]]:
    """Yield ``(record_number, Turn)`` from a conversation JSONL (or JSON array).

    A record ``{session_id, date}`` without ``text`` is a session header: it sets the
    session date for the turns that follow and yields ``None`` (so record numbers stay
    countable). Turns without a ``turn`` index are numbered within their session; a
    number a session already used is refused, naming both records.
    """
    session_dates: dict[str, int] = {}
    next_turn: dict[str, int] = {}
    numbers = TurnNumbers()
    for where, number, record in iter_records(path):
        session = record.get("session_id")
        if "text" not in record and ("date" in record or "session_date" in record):
            if session is None:
                raise _fail(where, "session_id", "Field required")
            try:
                session_dates[str(session)] = wall_clock_ms(
                    record.get("date", record.get("session_date"))
                )
            except ValueError as exc:
                raise _fail(where, "date", str(exc)) from None
            yield number, None
            continue
        data = dict(record)
        if session is not None:
            data.setdefault("session_date", session_dates.get(str(session)))
            data.setdefault("turn", next_turn.get(str(session), 0))
        try:
            turn = Turn.model_validate(data)
        except pydantic.ValidationError as exc:
            raise _fail(where, *_problem(exc)) from None
        if turn.timestamp is None and turn.session_date is None:
            raise _fail(where, "timestamp", "missing (no turn timestamp and no session date)")
        numbers.check(turn, where)
        if turn.session_date is not None:
            session_dates.setdefault(turn.session_id, turn.session_date)
        next_turn[turn.session_id] = turn.turn + 1
        yield number, turn


def load_conversation(path: str | Path) -> list[Turn]:
    """All turns of a conversation file, in file order."""
    return [turn for _, turn in iter_turns(path) if turn is not None]


# ---------------------------------------------------------------------------- documents


def split_passages(text: str, max_chars: int = MAX_PASSAGE) -> list[Passage]:
    """Split a document into passages at headings and blank lines, each ≤ ``max_chars``.

    Heading lines are not passages themselves; they label the passages that follow.

    Offsets are exact: ``text[p.start:p.end] == p.text``. A paragraph longer than the
    bound is cut at sentence ends (or, failing that, at a space).

    Examples:
        >>> doc = "# Family\\n\\nAlice is my sister.\\n\\nBob is my manager."
        >>> [(p.text, p.start, p.heading) for p in split_passages(doc)]
        [('Alice is my sister.', 10, 'Family'), ('Bob is my manager.', 31, 'Family')]
    """
    passages: list[Passage] = []
    heading: str | None = None
    for start, end in _blocks(text):
        block = text[start:end]
        if block.startswith("#"):  # a heading labels the passages below it
            heading = block.lstrip("#").strip() or heading
            continue
        for s, e in _bounded(text, start, end, max_chars):
            passages.append(Passage(len(passages), text[s:e], s, e, heading))
    return passages


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """Spans of paragraphs: runs of non-blank lines; a Markdown heading line stands alone."""
    start: int | None = None
    end = 0
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        line_start = offset + len(line) - len(line.lstrip())
        line_end = offset + len(line.rstrip())
        offset += len(line)
        if not stripped or stripped.startswith("#"):
            if start is not None:
                yield start, end
                start = None
            if stripped:
                yield line_start, line_end
            continue
        if start is None:
            start = line_start
        end = line_end
    if start is not None:
        yield start, end


def _bounded(text: str, start: int, end: int, max_chars: int) -> Iterator[tuple[int, int]]:
    while end - start > max_chars:
        window = text[start : start + max_chars]
        cut = max((m.end() for m in re.finditer(r"[.!?](?=\s)", window)), default=0)
        if cut < max_chars // 4:
            cut = window.rfind(" ") if window.rfind(" ") > max_chars // 4 else max_chars
        piece_end = start + cut
        yield start, len(text[start:piece_end].rstrip()) + start
        start = piece_end
        while start < end and text[start].isspace():
            start += 1
    if start < end:
        yield start, end


def load_text(path: str | Path, max_chars: int = MAX_PASSAGE) -> list[Passage]:
    """Passages of a plain-text / Markdown file (bytes that are not UTF-8: a
    ``ValidationError`` naming the line, as ``import`` says it)."""
    path = Path(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        where = f"{path.name} line {line}"
        raise _fail(where, None, f"not UTF-8 text (byte {exc.start})") from None
    return split_passages(text, max_chars)


def check_file(path: str | Path, fmt: Format, user_id: str) -> int:
    """Read every record of a cards or conversation file as ingestion will, writing
    nothing: a bad record anywhere is a ``ValidationError`` naming its line before the
    first card is written. Streams; returns the records read."""
    records = iter_cards(path, user_id) if fmt == "cards" else iter_turns(path)
    return sum(1 for _ in records)


# ---------------------------------------------------------------------------- detection


def detect_format(path: str | Path) -> Format:
    """Guess ``cards`` / ``conversation`` / ``text`` from the extension and first record.

    JSON whose first record has a ``fact`` is cards; one with ``text`` or ``speaker`` (or
    a session header) is a conversation; anything that is not JSON is text.
    """
    path = Path(path)
    if path.suffix.lower() in TEXT_SUFFIXES:
        return "text"
    try:
        first = next(iter_records(path), None)
    except (ValidationError, UnicodeDecodeError):
        if path.suffix.lower() in {".json", ".jsonl"}:
            raise
        return "text"
    if first is None:
        if path.suffix.lower() in {".json", ".jsonl"}:
            return "cards"
        return "text"
    record = first[2]
    if "fact" in record:
        return "cards"
    if {"text", "speaker"} & record.keys() or "date" in record or "session_date" in record:
        return "conversation"
    raise _fail(
        first[0],
        None,
        "cannot tell cards (need 'fact') from a conversation (need 'text' and 'speaker')",
    )
