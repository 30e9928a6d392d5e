"""Reflections: one user's memory as a folder of Markdown files people can read and diff.

    DIR/profile.md                    the profile (graphmem.profile)
    DIR/themes/<slug>--<id>.md        one per abstraction: its summary and its cards
    DIR/strategies/<slug>--<id>.md    one per strategy card (what worked, and when)
    DIR/.graphmem-export.json         which user, which files this export wrote

Theme and strategy files start with YAML front matter (``id``, ``kind``, ``category``,
``tags``, ``created``, ``updated``, ``cards``), values written as JSON scalars and lists,
which YAML reads as they are. Everything is rendered from the graph and depends on
nothing else (no time of export), so exporting again writes only the files whose text
changed and removes the files of themes or strategies that are gone (only files a
previous export listed: anything else in the folder is left alone).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import Field

from graphmem.errors import ValidationError
from graphmem.models import Category, Model, Status
from graphmem.profile import Profile, References, Snapshot, Theme, fact_line, line_of
from graphmem.timeutil import to_iso

MANIFEST = ".graphmem-export.json"
FORMAT = "graphmem-markdown"


class MarkdownExport(Model):
    """What an export to a folder did: files written (new or changed), unchanged, removed."""

    directory: str
    written: list[str] = Field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = Field(default_factory=list)


def render_folder(profile: Profile, themes: Sequence[Theme], snapshot: Snapshot) -> dict[str, str]:
    """Every file of the folder, by relative path: the profile, a file per theme (all of
    them, not only the profile's first ones) and per active strategy card."""
    by_id = {c["id"]: c for c in snapshot.cards}
    files = {"profile.md": profile.markdown()}
    for theme in themes:
        files[f"themes/{_name(theme.summary, theme.id)}.md"] = _theme_file(
            profile.user_id, theme, snapshot, by_id
        )
    for card in snapshot.cards:
        if card.get("category") == Category.STRATEGY.value and card.get("status") == (
            Status.ACTIVE.value
        ):
            files[f"strategies/{_name(card['fact'], card['id'])}.md"] = _strategy_file(
                profile.user_id, card, snapshot, by_id
            )
    return files


def write_folder(directory: Path | str, user_id: str, files: Mapping[str, str]) -> MarkdownExport:
    """Write ``files`` under ``directory``: only those whose text differs from what is on
    disk, each atomically; remove what the previous export of this folder wrote and this
    one does not. Refuses a folder holding anything but an export of the same user."""
    root = Path(directory)
    previous = _previous_files(root, user_id)
    report = MarkdownExport(directory=str(root))
    for relative in sorted(files):
        path = root / relative
        text = files[relative]
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            report.unchanged += 1
            continue
        _write(path, text)
        report.written.append(relative)
    for relative in sorted(previous - set(files)):
        path = root / relative
        if path.is_file():
            path.unlink()
            report.removed.append(relative)
    manifest = {"format": FORMAT, "user_id": user_id, "files": sorted(files)}
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    manifest_path = root / MANIFEST
    if not manifest_path.is_file() or manifest_path.read_text(encoding="utf-8") != text:
        _write(manifest_path, text)
    return report


def _previous_files(root: Path, user_id: str) -> set[str]:
    """The files the last export to ``root`` wrote; refuses a folder that is not one."""
    manifest = root / MANIFEST
    if manifest.is_file():
        try:
            found = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = {}
        if found.get("format") != FORMAT or found.get("user_id") != user_id:
            raise ValidationError(
                f"{root} holds an export of another user or format: choose another folder",
                field="directory",
            )
        return {f for f in found.get("files") or () if _inside(root, f)}
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ValidationError(
            f"{root} is not empty and not a graphmem Markdown export: choose an empty or new "
            "folder",
            field="directory",
        )
    return set()


def _inside(root: Path, relative: str) -> bool:
    """A manifest entry that stays inside the folder (a tampered one cannot delete
    files elsewhere)."""
    resolved = (root / relative).resolve()
    return resolved.is_relative_to(root.resolve()) and resolved != root.resolve()


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# -- one file each -------------------------------------------------------------------------


def _theme_file(
    user_id: str, theme: Theme, snapshot: Snapshot, by_id: Mapping[str, Mapping[str, Any]]
) -> str:
    lines = sorted(
        (line_of(by_id[i], snapshot, by_id) for i in theme.card_ids),
        key=lambda ln: (ln.card_id != theme.representative, -ln.timestamp, ln.card_id),
    )
    ids = [ln.card_id for ln in lines] + [w.card_id for ln in lines for w in ln.was]
    refs = References(user_id, ids, [])
    body = [fact_line(line, refs, name_person=True) for line in lines]
    return _document(
        {
            "id": theme.id,
            "kind": "theme",
            "category": theme.category,
            "tags": theme.tags,
            "created": to_iso(theme.created_at),
            "updated": to_iso(theme.updated_at),
            "cards": theme.card_ids,
            "representative": theme.representative,
        },
        theme.summary,
        body,
        refs,
    )


def _strategy_file(
    user_id: str,
    card: Mapping[str, Any],
    snapshot: Snapshot,
    by_id: Mapping[str, Mapping[str, Any]],
) -> str:
    line = line_of(card, snapshot, by_id)
    refs = References(user_id, [line.card_id, *(w.card_id for w in line.was)], [])
    body = []
    if card.get("backstory"):
        body += [str(card["backstory"]), ""]
    body.append(fact_line(line, refs))
    body.append(
        f"- confidence {card.get('confidence', 0):.2f} · reward {card.get('reward', 0):+.2f} · "
        f"used {card.get('access_count') or 0} times · version {card.get('version') or 1}"
    )
    return _document(
        {
            "id": card["id"],
            "kind": "strategy",
            "category": card.get("category"),
            "tags": list(card.get("tags") or []),
            "created": to_iso(card.get("created_at")),
            "updated": to_iso(card.get("updated_at")),
            "cards": [card["id"]],
        },
        str(card["fact"]),
        body,
        refs,
    )


def _document(front: Mapping[str, Any], title: str, body: list[str], refs: References) -> str:
    matter = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in front.items()]
    heading = title.replace("\n", " ")
    return (
        "\n".join(
            ["---", *matter, "---", "", f"# {heading}", "", *body, "", *refs.definitions()]
        ).rstrip()
        + "\n"
    )


def _name(text: str, identifier: str) -> str:
    """A file name people can read and that stays unique: a slug of the text, then the
    id (its first 8 characters for long ids)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:48].rstrip("-")
    short = identifier if len(identifier) < 24 else identifier[:8]
    short = re.sub(r"[^A-Za-z0-9_.-]+", "-", short).strip(".-") or "card"
    return f"{slug}--{short}" if slug else short
