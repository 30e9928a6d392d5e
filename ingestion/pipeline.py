"""Ingestion into ``Memory``, one path for every door; files streamed, resumable, idempotent.

Every door ingests through here: the CLI and files (``ingest_file``), the HTTP routes
(``ingest_turns``, ``ingest_text``, ``ingest_cards``) and the agent loop's session compaction
(``ingest_turns``), so the cards, the people learnt and the report are the same whichever
door the data came in by. Records are extracted in batches from what the user's memory
knows of their people and written with ``Memory.remember_many``; the people learnt (aliases,
relationships) and the mentions to review are stored at the end.

A file is read record by record. After every written batch a small checkpoint
(``<home>/ingest/<sha>.json``: file hash, records done, the people learnt so far) is saved,
so an interrupted run picks up after the last written batch. When the file is done the
checkpoint stays, marked done, with the people known before the first run: re-running
re-extracts from that same knowledge and writes nothing new, because the same content
gives the same card id.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.errors import ValidationError
from graphmem.models import Card, Person
from ingestion.extract import DEFAULT_MODEL, Extractor, Review, TurnTally
from ingestion.loaders import (
    FORMATS,
    Format,
    Turn,
    TurnNumbers,
    check_file,
    detect_format,
    iter_cards,
    iter_turns,
    load_text,
    parse_card,
    split_passages,
)
from ingestion.people import PersonRegistry

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from graphmem.memory import Memory

CHECKPOINT_VERSION = 2


@dataclass
class IngestReport:
    """What one ingestion did (``ingest_file``, ``ingest_turns``, ``ingest_text``,
    ``ingest_cards``)."""

    #: the file ingested, or what came in ("conversation", a document's name, "cards")
    path: str
    format: Format
    records: int = 0
    resumed_from: int = 0
    cards: int = 0
    created: int = 0
    unchanged: int = 0
    updated: int = 0
    seconds: float = 0.0
    llm_failures: int = 0
    #: the id of every card written or found unchanged, in the order extracted
    ids: list[str] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)
    #: conversations: what became of each speaker's turns and of each language's (read
    #: by the rules, kept as said, skipped and why), in this run
    speakers: dict[str, TurnTally] = field(default_factory=dict)
    languages: dict[str, TurnTally] = field(default_factory=dict)


def file_sha(path: Path) -> str:
    """SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class Checkpoint:
    """Records done for one (file content, user, format), saved atomically as JSON.

    It also keeps the people known when the file was first ingested (``seed``) and stays
    behind, marked done, after the run: a re-run starts from the same knowledge, so it
    extracts the same cards and writes nothing, whatever was learnt since.
    """

    def __init__(self, directory: Path, sha: str, user_id: str, fmt: Format) -> None:
        key = hashlib.sha256(json.dumps([sha, user_id, fmt]).encode()).hexdigest()
        self.path = directory / f"{key}.json"
        self.sha, self.user_id, self.format = sha, user_id, fmt
        self.records_done = 0
        self.people: list[dict[str, Any]] = []
        self.context: dict[str, Any] = {}
        self.seed: list[dict[str, Any]] | None = None
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") == CHECKPOINT_VERSION and data.get("file_sha") == sha:
                self.records_done = int(data["records_done"])
                self.people = list(data.get("people", []))
                self.context = dict(data.get("context", {}))
                self.seed = data.get("seed")

    def save(
        self, records_done: int, registry: PersonRegistry | None, context: dict[str, Any] | None
    ) -> None:
        self.records_done = records_done
        data = {
            "version": CHECKPOINT_VERSION,
            "file_sha": self.sha,
            "user_id": self.user_id,
            "format": self.format,
            "records_done": records_done,
            "people": registry.dump() if registry is not None else [],
            "context": context or {},
            "seed": self.seed,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, self.path)

    def finish(self) -> None:
        """Mark the file done: the next run starts over from the seed."""
        self.save(0, None, None)


def as_format(value: str) -> Format:
    """``value`` as one of the formats ingestion reads (``FORMATS``), or a
    ``ValidationError`` naming them."""
    for known in FORMATS:
        if value == known:
            return known
    raise ValidationError(f"format must be one of {', '.join(FORMATS)}", field="format")


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _count_records(path: Path, fmt: Format) -> int | None:
    """Records in a JSONL file (non-blank lines), for the progress bar; None if unknown."""
    if fmt == "text" or path.suffix.lower() != ".jsonl":
        return None
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def ingest_file(
    memory: Memory,
    path: str | Path,
    user_id: str,
    *,
    format: Format | str | None = None,
    llm: BaseChatModel | None = None,
    batch_size: int = 256,
    progress: bool | Callable[[int], None] = True,
    people: PersonRegistry | Iterable[Person] | None = None,
    known_facts: Iterable[str] = (),
    checkpoint_dir: Path | None = None,
    model: str = DEFAULT_MODEL,
) -> IngestReport:
    """Ingest a cards / conversation / text file for ``user_id`` into ``memory``.

    ``format`` is detected when not given. ``llm`` (a langchain chat model) switches
    conversation extraction to the LLM path, with the spaCy path as fallback.
    ``progress`` is a rich progress bar (True), nothing (False) or a callback taking the
    number of records just done. Returns counts plus the people learnt (stored as Person
    nodes with their aliases) and the person mentions that need review.
    """
    path = Path(path)
    fmt = as_format(format) if format else detect_format(path)
    if fmt != "text":  # a bad record anywhere is named before anything is written
        try:
            check_file(path, fmt, user_id)
        except ValidationError as exc:
            raise ValidationError(
                f"{exc}; nothing of it was written: fix the file and run again",
                field=exc.field,
                errors=exc.errors,
            ) from None
    home = Path(memory.home) if memory.home is not None else Path(".graphmem")
    checkpoint = Checkpoint(checkpoint_dir or home / "ingest", file_sha(path), user_id, fmt)
    records: Iterator[Any]
    if fmt == "cards":
        records = (card for _, card in iter_cards(path, user_id))
    elif fmt == "conversation":
        records = (turn for _, turn in iter_turns(path))
    else:
        records = iter(load_text(path))
    return _ingest(
        memory,
        user_id,
        fmt,
        records,
        label=str(path),
        document=path.name,
        timestamp=int(path.stat().st_mtime * 1000) if fmt == "text" else None,
        total=_count_records(path, fmt),
        checkpoint=checkpoint,
        llm=llm,
        batch_size=batch_size,
        progress=progress,
        people=people,
        known_facts=known_facts,
        model=model,
    )


def ingest_turns(
    memory: Memory,
    turns: Iterable[Turn | Mapping[str, Any]],
    user_id: str,
    *,
    llm: BaseChatModel | None = None,
    batch_size: int = 256,
    progress: bool | Callable[[int], None] = False,
    people: PersonRegistry | Iterable[Person] | None = None,
    known_facts: Iterable[str] = (),
    model: str = DEFAULT_MODEL,
) -> IngestReport:
    """Ingest conversation turns (``Turn`` or its fields) as ``ingest_file`` ingests a
    conversation file holding them: the same cards, people and report."""
    records, numbers = [], TurnNumbers()  # all checked before any is written
    for i, t in enumerate(turns):
        turn = t if isinstance(t, Turn) else Turn.parse(dict(t), where=f"turns[{i}]")
        numbers.check(turn, f"turns[{i}]", field=f"turns.{i}.turn")
        records.append(turn)
    return _ingest(
        memory,
        user_id,
        "conversation",
        iter(records),
        label="conversation",
        llm=llm,
        batch_size=batch_size,
        progress=progress,
        people=people,
        known_facts=known_facts,
        model=model,
    )


def ingest_text(
    memory: Memory,
    text: str,
    user_id: str,
    *,
    document: str,
    timestamp: int | None = None,
    batch_size: int = 256,
    progress: bool | Callable[[int], None] = False,
    people: PersonRegistry | Iterable[Person] | None = None,
    model: str = DEFAULT_MODEL,
) -> IngestReport:
    """Ingest a document's text, split into passages, as ``ingest_file`` ingests a text
    file named ``document`` written at ``timestamp`` (epoch ms; default now)."""
    return _ingest(
        memory,
        user_id,
        "text",
        iter(split_passages(text)),
        label=document,
        document=document,
        timestamp=timestamp,
        batch_size=batch_size,
        progress=progress,
        people=people,
        model=model,
    )


def ingest_cards(
    memory: Memory,
    records: Iterable[Card | Mapping[str, Any]],
    user_id: str,
    *,
    batch_size: int = 256,
    progress: bool | Callable[[int], None] = False,
) -> IngestReport:
    """Ingest Advanced JSON Card records as they are, as ``ingest_file`` ingests a cards
    file (a record of another user is refused, naming it)."""
    cards = [
        r if isinstance(r, Card) else parse_card(dict(r), user_id, where=f"cards[{i}]")
        for i, r in enumerate(records)
    ]
    return _ingest(
        memory,
        user_id,
        "cards",
        iter(cards),
        label="cards",
        batch_size=batch_size,
        progress=progress,
    )


def _ingest(
    memory: Memory,
    user_id: str,
    fmt: Format,
    records: Iterator[Any],
    *,
    label: str,
    document: str = "",
    timestamp: int | None = None,
    total: int | None = None,
    checkpoint: Checkpoint | None = None,
    llm: BaseChatModel | None = None,
    batch_size: int,
    progress: bool | Callable[[int], None],
    people: PersonRegistry | Iterable[Person] | None = None,
    known_facts: Iterable[str] = (),
    model: str = DEFAULT_MODEL,
) -> IngestReport:
    """The one ingestion path every door takes (files, HTTP, MCP): extract in batches
    from what the user's memory knows of their people, write, checkpoint (files), then
    store the people learnt and the mentions to review."""
    started = time.perf_counter()
    skip = checkpoint.records_done if checkpoint is not None else 0
    report = IngestReport(label, fmt, resumed_from=skip)
    if people is None:  # start from the people memory already knows for this user
        people = memory.people(user_id)
    registry = people if isinstance(people, PersonRegistry) else PersonRegistry.from_people(people)
    if checkpoint is not None:
        if checkpoint.seed is None:
            checkpoint.seed = registry.dump()
        else:
            registry = PersonRegistry.load(checkpoint.seed)
        if checkpoint.people:
            registry = PersonRegistry.load(checkpoint.people)
    extractor = Extractor(user_id, registry, model)
    if checkpoint is not None:
        extractor.restore(checkpoint.context)
    llm_extractor = None
    if llm is not None and fmt == "conversation":
        from ingestion.llm import LLMExtractor

        llm_extractor = LLMExtractor(
            llm, user_id, people=registry, known_facts=list(known_facts), model=model
        )
        llm_extractor.fallback = extractor

    batches = _batches(
        itertools.islice(records, skip, None),
        fmt,
        extractor,
        llm_extractor=llm_extractor,
        size=batch_size,
        document=document,
        timestamp=timestamp,
    )
    done = skip
    with _progress(progress, Path(label).name, total, done) as advance:
        for n_records, cards in batches:
            result = memory.remember_many(cards, batch_size=batch_size) if cards else None
            done += n_records
            report.records += n_records
            report.cards += len(cards)
            if result is not None:
                report.ids.extend(result.ids)
                report.created += result.created
                report.unchanged += result.unchanged
                report.updated += result.updated
            if checkpoint is not None:
                checkpoint.save(done, extractor.registry, extractor.state())
            advance(n_records)
    if checkpoint is not None:
        checkpoint.finish()
    report.seconds = round(time.perf_counter() - started, 3)
    report.speakers, report.languages = extractor.speakers, extractor.languages
    report.people = extractor.registry.to_people(user_id)
    report.reviews = list(extractor.reviews)
    memory.save_people(
        user_id,
        report.people,
        [(r.mention, c, r.where) for r in report.reviews for c in r.candidates],
    )
    report.llm_failures = llm_extractor.failures if llm_extractor else 0
    return report


def _batches(
    records: Iterator[Any],
    fmt: Format,
    extractor: Extractor,
    *,
    llm_extractor: Any,
    size: int,
    document: str,
    timestamp: int | None,
) -> Iterator[tuple[int, list[Card]]]:
    """(records in the batch, cards to write) pairs."""
    for chunk in _chunks(records, size):
        if fmt == "cards":
            yield len(chunk), chunk
        elif fmt == "conversation":
            kept = [t for t in chunk if t is not None]  # None: a session header
            yield len(chunk), (llm_extractor or extractor).conversation(kept) if kept else []
        else:
            yield len(chunk), extractor.text(chunk, document, timestamp=timestamp)


class _progress:
    """A rich progress bar, a callback, or nothing, behind one ``advance(n)`` function."""

    def __init__(
        self, progress: bool | Callable[[int], None], label: str, total: int | None, done: int
    ) -> None:
        self.progress, self.label, self.total, self.done = progress, label, total, done
        self._bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if callable(self.progress):
            return self.progress
        if not self.progress:
            return lambda n: None
        from rich.progress import Progress

        self._bar = Progress(transient=True)
        self._bar.start()
        task = self._bar.add_task(f"ingesting {self.label}", total=self.total, completed=self.done)
        return lambda n: self._bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
