"""How the command line shows memory to people: safe, short and honest.

Everything a card holds came from someone else (a user, an agent, a document), so it is
never printed as it is: control characters (terminal escapes, bidi overrides) are shown
escaped, rich markup in it stays text, and long text is cut with an ellipsis. A card's
status is always said in words, with why when it is not plainly active.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from graphmem.models import Card, CardLink, CardProvenance, Provenance, Status
from graphmem.timeutil import to_iso

#: Characters of a table cell before the ellipsis.
CELL = 160
#: Characters of a card's text in ``show`` before the ellipsis (``--json`` has it all).
FULL = 2000
#: How many characters of an id tables show (``show`` and friends take any 6+).
SHORT_ID = 12

# C0/C1 controls, DEL, and the format characters that reorder or hide text (bidi
# overrides, zero-width joiners...): all shown as escapes.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


_UNSAFE_BEYOND_C0 = re.compile(r"[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(value: Any, limit: int | None = CELL) -> str:
    r"""Text safe for a terminal: control characters escaped, cut at ``limit``.

    >>> print(clean("red \x1b[31malert\x1b[0m"))
    red \x1b[31malert\x1b[0m
    >>> clean("x" * 10, limit=5)
    'xxxx…'
    """
    text = "" if value is None else str(value)
    text = _UNSAFE.sub(_escape, text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def clean_block(text: str) -> str:
    r"""A block of lines (context, a profile) safe for a terminal: ``clean`` keeping
    newlines, nothing cut.

    >>> print(clean_block("line one\nline \x1b[2J two"))
    line one
    line \x1b[2J two
    """
    return "\n".join(clean(line, limit=None) for line in text.split("\n"))


def safe(value: Any, limit: int | None = CELL, style: str = "") -> Text:
    """``clean`` as a rich ``Text``, so markup-like brackets in it stay text."""
    return Text(clean(value, limit), style=style)


def json_text(data: Any) -> str:
    """JSON for machines: non-ASCII kept readable, every control character escaped."""
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    # json.dumps escapes C0 controls itself; the rest pass through ensure_ascii=False.
    return _UNSAFE_BEYOND_C0.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 tasks``.

    >>> plural(1, "card"), plural(2, "ready task"), plural(3, "person", "people")
    ('1 card', '2 ready tasks', '3 people')
    """
    return f"{n} {word if n == 1 else many or word + 's'}"


def short_id(card_id: str | None) -> str:
    return (card_id or "")[:SHORT_ID]


def day(ms: int | None) -> str:
    return (to_iso(ms) or "")[:10]


def moment(ms: int | None) -> str:
    return (to_iso(ms) or "").replace("T", " ").removesuffix("Z")


def status_words(card: Card) -> str:
    """``active``, ``superseded``, ``forgotten``, plus ``needs revision`` when flagged."""
    words = card.status.value
    return f"{words}, needs revision" if card.needs_revision else words


def status_text(card: Card) -> Text:
    style = {Status.ACTIVE: "green", Status.SUPERSEDED: "yellow", Status.FORGOTTEN: "dim"}
    text = Text(card.status.value, style=style[card.status])
    if card.needs_revision:
        text.append(", needs revision", style="red")
    return text


def fact_text(card: Card, limit: int = CELL) -> Text:
    """The fact, marked when the card is not plainly active (recall can return such)."""
    text = Text()
    if card.status != Status.ACTIVE:
        text.append(f"[{card.status.value}] ", style="yellow")
    if card.needs_revision:
        text.append("[needs revision] ", style="red")
    text.append(clean(card.fact, limit))
    return text


def who(card: Card, relationship: str | None = None) -> Text:
    """``Alice (sister)``; the user is ``me``."""
    relationship = relationship or card.relationship
    label = (
        card.person
        if card.person == "me" or not relationship
        else f"{card.person} ({relationship})"
    )
    return safe(label, 60)


def card_table(cards: list[Card], title: str) -> Table:
    table = Table(title=safe(title, 120))
    for column in ("id", "person", "fact", "when", "status"):
        table.add_column(column, overflow="fold")
    for card in cards:
        table.add_row(
            short_id(card.id), who(card), fact_text(card), day(card.timestamp), status_text(card)
        )
    return table


def card_sheet(story: CardProvenance) -> Table:
    """One card as a two-column sheet: what it says, about whom, when, its status and
    why, how sure, how often said, where from."""
    card = story.card
    sheet = Table(title=safe(f"card {card.id}", 120), show_header=False)
    sheet.add_column("field", style="bold")
    sheet.add_column("value", overflow="fold")
    status = status_text(card)
    if story.status_reason:
        status.append(f": {clean(story.status_reason, FULL)}")
    rows: list[tuple[str, Text | str]] = [
        ("fact", safe(card.fact, FULL)),
        ("person", who(card, story.relationship)),
        ("when", moment(card.timestamp)),
        ("status", status),
    ]
    if card.backstory:
        rows.append(("backstory", safe(card.backstory, FULL)))
    rows += [
        ("category", card.category.value),
        ("tags", safe(", ".join(card.tags), FULL) if card.tags else "-"),
        (
            "scores",
            f"confidence {card.confidence:g}, importance {card.importance:g}, "
            f"emotion {card.emotion:g}, reward {card.reward:g}",
        ),
        (
            "said",
            f"{plural(card.seen_count, 'time')}, last {moment(card.last_seen)}"
            if card.seen_count > 1
            else "once",
        ),
        ("recalled", f"{plural(card.access_count, 'time')}"),
        ("source", source_text(card.source) if card.source else "-"),
        ("version", f"{card.version} (updated {moment(card.updated_at)})"),
    ]
    for name, value in rows:
        sheet.add_row(name, value)
    return sheet


def source_text(source: Provenance, limit: int = CELL) -> Text:
    """``session chat-42, turn 3, user (2024-03-20): "My sister Alice ..."``."""
    where = []
    if source.session_id:
        where.append(f"session {source.session_id}")
    if source.document:
        where.append(f"document {source.document}")
    if source.turn is not None:
        where.append(f"{'turn' if source.session_id else 'passage'} {source.turn}")
    if source.speaker:
        where.append(source.speaker)
    head = ", ".join(where) or "given directly"
    if source.session_date:
        head += f" ({day(source.session_date)})"
    text = safe(head, 200)
    if source.text:
        text.append(": ")
        text.append(Text(f'"{clean(source.text, limit)}"', style="italic"))
    return text


def provenance_tree(story: CardProvenance) -> Tree:
    """Where a card came from and what became of it, as a tree."""
    card = story.card
    root = Text(f"card {short_id(card.id)} ", style="bold")
    root.append(f'"{clean(card.fact, CELL)}"')
    root.append(" (")
    root.append(status_text(card))
    root.append(")")
    tree = Tree(root)
    about = Text("about: ")
    about.append(who(card, story.relationship))
    if story.relationship_history:
        about.append(f"; was {clean(', '.join(story.relationship_history), 80)}")
    tree.add(about)
    if story.status_reason:
        tree.add(Text("why: ", style="bold").append(clean(story.status_reason, FULL)))
    said = tree.add(Text(f"said {plural(max(1, len(story.sources)), 'time')}", style="bold"))
    if not story.sources:
        said.add(Text(f"given directly, {moment(card.timestamp)}"))
    for source in story.sources:
        said.add(source_text(source))
    for label, links in (
        ("supersedes", story.supersedes),
        ("superseded by", story.superseded_by),
        ("conflicts with", story.conflicts),
    ):
        if links:
            branch = tree.add(Text(label, style="bold"))
            for link in links:
                branch.add(link_text(link))
    if story.abstractions:
        branch = tree.add(Text("in abstractions", style="bold"))
        for abstraction in story.abstractions:
            branch.add(safe(f"{short_id(abstraction.id)}: {abstraction.summary or ''}"))
    return tree


def link_text(link: CardLink) -> Text:
    text = Text(f"{short_id(link.id)} ")
    text.append(f'"{clean(link.fact, 80)}"')
    if link.reason:
        text.append(f": {clean(link.reason, 200)}")
    by = ", ".join(x for x in (link.decided_by, moment(link.decided_at)) if x)
    if by:
        text.append(f" ({by})", style="dim")
    return text
