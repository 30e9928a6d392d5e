"""The demo `make demo` runs: remember cards for two users, reopen, print them back,
then recall by relationship ("my sister" -> Alice -> her cards).

Alice's allergy keeps the chat turn it was said in (its provenance, with the words that
say it), so the explorer (`graphmem serve`, /ui) shows where the card came from."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from graphmem import Card, Memory, Provenance
from graphmem.timeutil import to_iso

SAID = "Quick one: my sister Alice is allergic to peanuts, so no satay at her birthday."
EVIDENCE = "my sister Alice is allergic to peanuts"

CARDS = [
    Card(
        user_id="ada",
        fact="Alice is allergic to peanuts",
        person="Alice",
        relationship="sister",
        backstory="mentioned while planning a birthday dinner",
        timestamp="2024-03-20T10:15:00Z",
        category="constraint",
        importance=0.9,
        source=Provenance(
            session_id="chat-1",
            turn=0,
            speaker="user",
            text=SAID,
            span=(SAID.index(EVIDENCE), SAID.index(EVIDENCE) + len(EVIDENCE)),
        ),
    ),
    Card(
        user_id="ada",
        fact="Bob prefers morning meetings",
        person="Bob",
        relationship="manager",
        backstory="said during a weekly one-to-one",
        timestamp="2024-04-02T09:00:00Z",
        category="work",
    ),
    Card(
        user_id="ada",
        fact="I am training for the Berlin marathon",
        person="me",
        backstory="told the assistant while planning workouts",
        timestamp="2024-05-11T18:30:00Z",
        category="life",
    ),
    Card(
        user_id="ben",
        fact="Tom waters our plants when we travel",
        person="Tom",
        relationship="neighbour",
        backstory="came up while booking a holiday",
        timestamp="2024-06-01T12:00:00Z",
        category="life",
    ),
    Card(
        user_id="ben",
        fact="I can't eat gluten",
        person="me",
        backstory="mentioned when ordering lunch",
        timestamp="2024-06-03T12:30:00Z",
        category="constraint",
        importance=0.9,
    ),
]


def main() -> None:
    console = Console()
    with Memory.open() as memory:
        result = memory.remember_many(CARDS)
        console.print(
            f"stored {result.created} new cards, {result.unchanged} unchanged in {memory.home}"
        )
    with Memory.open() as memory:  # reopen: everything came back from disk
        for user in ("ada", "ben"):
            table = Table(title=f"memory of {user}")
            for column in ("person", "relationship", "fact", "when", "backstory"):
                table.add_column(column)
            for card in memory.cards(user):
                table.add_row(
                    card.person,
                    card.relationship or "",
                    card.fact,
                    (to_iso(card.timestamp) or "")[:10],
                    card.backstory,
                )
            console.print(table)
        question = "what is my sister allergic to?"
        console.print(f"\n[bold]ada asks:[/bold] {question}")
        for hit in memory.recall("ada", question, k=2):
            console.print(
                f"  {hit.score:.2f}  {hit.card.fact}  "
                f"[dim]found by {', '.join(hit.found_by)}; "
                f"{'; '.join(hit.paths) or 'no graph path'}[/dim]"
            )
        console.print("\n[bold]context for a prompt (60 tokens):[/bold]")
        console.print(memory.context("ada", "plan my sister's birthday dinner", token_budget=60))


if __name__ == "__main__":
    main()
