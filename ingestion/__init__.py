"""Ingestion: files of cards, conversations and documents -> graphmem cards.

The pure parts (loaders, dates, people, extraction) never touch a store;
``ingest_file`` streams a file into a ``Memory`` in resumable batches, and
``ingest_turns`` / ``ingest_text`` / ``ingest_cards`` take the same path for data that
comes in by HTTP or the agent loop.
"""

from ingestion.dates import find_dates, resolve_date
from ingestion.extract import Extractor, extract_conversation, extract_text
from ingestion.llm import LLMExtractor, extract_with_llm
from ingestion.loaders import (
    Passage,
    Turn,
    detect_format,
    load_cards,
    load_conversation,
    load_text,
    split_passages,
)
from ingestion.people import PersonRegistry, Resolution
from ingestion.pipeline import IngestReport, ingest_cards, ingest_file, ingest_text, ingest_turns

__all__ = [
    "Extractor",
    "IngestReport",
    "LLMExtractor",
    "Passage",
    "PersonRegistry",
    "Resolution",
    "Turn",
    "detect_format",
    "extract_conversation",
    "extract_text",
    "extract_with_llm",
    "find_dates",
    "ingest_cards",
    "ingest_file",
    "ingest_text",
    "ingest_turns",
    "load_cards",
    "load_conversation",
    "load_text",
    "resolve_date",
    "split_passages",
]
