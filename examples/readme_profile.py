"""The README's example user as `graphmem profile` shows them.

The README's steps, in Python: its two `graphmem remember` commands, its example
conversation ingested (`graphmem ingest tests/fixtures/conversation.jsonl --user ada`),
then consolidated (`graphmem consolidate --user ada --steps conflicts,abstraction`), in a
fresh data directory; prints the profile.

    python examples/readme_profile.py
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from graphmem import Memory
from ingestion.pipeline import ingest_file

ROOT = Path(__file__).resolve().parent.parent


def render(home: Path) -> str:
    """The README's steps in the data directory ``home``; the profile they leave."""
    with Memory.open(home) as memory:
        memory.remember(
            {
                "user_id": "ada",
                "fact": "Alice is allergic to peanuts",
                "person": "Alice",
                "relationship": "sister",
                "backstory": "planning a birthday dinner",
                "category": "constraint",
            }
        )
        memory.remember(
            {
                "user_id": "ada",
                "fact": "Bob prefers morning meetings",
                "person": "Bob",
                "relationship": "manager",
            }
        )
        ingest_file(memory, ROOT / "tests/fixtures/conversation.jsonl", "ada", progress=False)
        memory.consolidate("ada", ("conflicts", "abstraction"))
        return memory.profile("ada").markdown()


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="gm-", dir="/tmp"))
    try:
        print(render(home), end="")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
