"""Batch ingestion of a file into ``Memory``: streamed, resumable, idempotent.

A file is read record by record, extracted in batches and written with
``Memory.remember_many``. After every written batch a small checkpoint
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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.errors import ValidationError
from graphmem.models import Card, Person
from ingestion.extract import DEFAULT_MODEL, Extractor, Review
from ingestion.loaders import (
    FORMATS,
    Format,
    Turn,
    detect_format,
    iter_cards,
    iter_turns,
    load_text,
)
from ingestion.people import PersonRegistry

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from graphmem.memory import Memory

CHECKPOINT_VERSION = 2


@dataclass
class IngestReport:
    """What one ``ingest_file`` run did."""

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
    people: list[Person] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)


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
    format: Format | None = None,
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
    number of records just done. Returns counts plus the people learnt (for the lead to
    store as Person nodes) and the person mentions that need review.
    """
    path = Path(path)
    fmt = format or detect_format(path)
    if fmt not in FORMATS:
        raise ValidationError(f"format must be one of {', '.join(FORMATS)}", field="format")
    started = time.perf_counter()
    home = Path(memory.home) if getattr(memory, "home", None) else Path(".graphmem")
    checkpoint = Checkpoint(checkpoint_dir or home / "ingest", file_sha(path), user_id, fmt)
    report = IngestReport(str(path), fmt, resumed_from=checkpoint.records_done)

    if people is None:  # start from the people memory already knows for this user
        people = memory.people(user_id)
    registry = people if isinstance(people, PersonRegistry) else PersonRegistry.from_people(people)
    if checkpoint.seed is None:
        checkpoint.seed = registry.dump()
    else:
        registry = PersonRegistry.load(checkpoint.seed)
    if checkpoint.people:
        registry = PersonRegistry.load(checkpoint.people)
    extractor = Extractor(user_id, registry, model)
    extractor.restore(checkpoint.context)
    llm_extractor = None
    if llm is not None and fmt == "conversation":
        from ingestion.llm import LLMExtractor

        llm_extractor = LLMExtractor(
            llm, user_id, people=registry, known_facts=list(known_facts), model=model
        )
        llm_extractor.fallback = extractor

    batches = _batches(
        path,
        fmt,
        user_id,
        extractor,
        llm_extractor=llm_extractor,
        size=batch_size,
        skip=checkpoint.records_done,
    )
    done = checkpoint.records_done
    with _progress(progress, path.name, _count_records(path, fmt), done) as advance:
        for n_records, cards in batches:
            result = memory.remember_many(cards, batch_size=batch_size) if cards else None
            done += n_records
            report.records += n_records
            report.cards += len(cards)
            if result is not None:
                report.created += result.created
                report.unchanged += result.unchanged
                report.updated += result.updated
            checkpoint.save(done, extractor.registry, extractor.state())
            advance(n_records)
    checkpoint.finish()
    report.seconds = round(time.perf_counter() - started, 3)
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
    path: Path,
    fmt: Format,
    user_id: str,
    extractor: Extractor,
    *,
    llm_extractor: Any,
    size: int,
    skip: int,
) -> Iterator[tuple[int, list[Card]]]:
    """(records in the batch, cards to write) pairs, after skipping ``skip`` records."""
    if fmt == "cards":
        records: Iterator[Any] = (card for _, card in iter_cards(path, user_id))
        for chunk in _chunks(itertools.islice(records, skip, None), size):
            yield len(chunk), chunk
    elif fmt == "conversation":
        turns: Iterator[Turn | None] = (turn for _, turn in iter_turns(path))
        for chunk in _chunks(itertools.islice(turns, skip, None), size):
            kept = [t for t in chunk if t is not None]
            cards = (llm_extractor or extractor).conversation(kept) if kept else []
            yield len(chunk), cards
    else:
        passages = load_text(path)
        mtime = int(path.stat().st_mtime * 1000)
        for chunk in _chunks(passages[skip:], size):
            yield len(chunk), extractor.text(chunk, path.name, timestamp=mtime)


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
