"""A compact memory block for a prompt, ordered by what an agent must not get wrong.

Priority: explicit preferences and constraints first, then strategies that earned
positive feedback, then the remaining relevant facts by score. Each line names the
person, their relationship, the date and a short backstory, so the model can judge
scope and freshness. The block never exceeds its token budget (``budget.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.models import SELF, Category
from graphmem.recall.budget import estimate_tokens, pack
from graphmem.recall.engine import RecallHit
from graphmem.timeutil import to_iso

HEADER = "Known about the user (from memory; newest facts override older ones):"
BACKSTORY_CHARS = 80
#: the smallest budget that holds the header and the shortest line there can be
MIN_BUDGET = estimate_tokens(HEADER + "\n") + estimate_tokens("- [user, 2024-01-01] x")


def priority(hit: RecallHit) -> int:
    """0 preferences/constraints, 1 rewarded strategies, 2 everything else."""
    card = hit.card
    if card.category in (Category.PREFERENCE, Category.CONSTRAINT):
        return 0
    if card.category == Category.STRATEGY and card.reward > 0:
        return 1
    return 2


def line(hit: RecallHit) -> str:
    """One card as a context line.

    >>> from graphmem.models import Card
    >>> card = Card(user_id="u", fact="Alice is allergic to peanuts", person="Alice",
    ...             relationship="sister", timestamp="2024-03-20", backstory="birthday dinner")
    >>> line(RecallHit(card=card, score=1.0, parts={}, found_by=[]))
    '- [Alice, sister, 2024-03-20] Alice is allergic to peanuts (birthday dinner)'
    """
    card = hit.card
    who = "user" if card.person == SELF else card.person
    tags = [who]
    relationship = hit.relationship or card.relationship
    if relationship and card.person != SELF:
        tags.append(relationship)
    tags.append((to_iso(card.timestamp) or "")[:10])
    text = f"- [{', '.join(tags)}] {card.fact}"
    if card.backstory:
        story = card.backstory
        if len(story) > BACKSTORY_CHARS:
            story = story[: BACKSTORY_CHARS - 1].rstrip() + "…"
        text += f" ({story})"
    return text


def build_context(hits: Sequence[RecallHit], token_budget: int) -> str:
    """The context block: header plus as many prioritised lines as fit the budget; ""
    when no hit is relevant or none fits (``Memory.context`` refuses a budget under
    ``MIN_BUDGET``: an empty block would read as "nothing known")."""
    ordered = sorted(hits, key=lambda h: (priority(h), -h.score))
    lines = pack((line(h) for h in ordered), token_budget, header=HEADER + "\n")
    return "\n".join([HEADER, *lines]) if lines else ""
