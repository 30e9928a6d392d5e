"""Person attribution of the spaCy extractor on the shipped evaluation set.

    python bench/attribution.py [--data bench/data/eval] [--users N] [--show N]

Recall's graph channel ("what is my sister allergic to?" -> the sister -> her cards)
only finds a fact when extraction put the card on the right person. This script measures
that, without a store: each user's turns go through ``extract_conversation`` and the
cards of every evidence turn of the "single-hop", "relationship" and "multi-hop"
questions are checked against the person the question is about.

Who a question is about (its *gold* people), from the question text and people.jsonl:
- names of the user's people written in the question ("What is Tom allergic to?");
- a chain of relationships from the user: "my sister" is the user's person with that
  relationship (``of`` empty), "my sister's son" the person whose ``of`` is the sister
  and relationship "son"; a chain ending in a pet or a thing ("my mentor's dog") stops
  at the last person (the owner: that is who the graph channel reaches);
- otherwise ("the person who lives in Oslo") the user's people named in the question's
  evidence turns;
- a single-hop question with none of these is about the user (``me``).
A question with no gold people is reported as unlabelled and left out.

Per evidence turn the gold set is narrowed to the gold people named in that turn when
any is ("Hana's daughter Beth is 4" keeps both, "Beth is allergic to sesame" only Beth);
a turn that names none ("She supports Ajax") keeps the whole set.

Reported per category and overall:
  turns       evidence turns scored
  coverage    evidence turns with at least one card
  turn ok     evidence turns with a card whose person is a gold person (the graph
              channel can reach the turn); the main figure
  +rel        as "turn ok", also counting a relationship-only person ("my coworker")
              whose relationship is the gold person's (reachable by relationship)
  card ok     share of the evidence turns' cards whose person is a gold person
  as me       share of those cards put on the user although the gold is someone else
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.models import SELF, Card
from ingestion.extract import extract_conversation

HERE = Path(__file__).resolve().parent
CATEGORIES = ("single-hop", "relationship", "multi-hop")


@dataclass(frozen=True)
class Gold:
    """A person a question may be about: name and first-degree relationship (if any)."""

    name: str
    relationship: str | None


@dataclass
class Tally:
    turns: int = 0
    covered: int = 0
    turn_ok: int = 0
    turn_ok_rel: int = 0
    cards: int = 0
    cards_ok: int = 0
    cards_me: int = 0
    unlabelled: int = 0
    wrong: list[tuple[str, str, str, str]] = field(default_factory=list)

    def row(self, label: str) -> str:
        def pct(n: int, d: int) -> str:
            return f"{100 * n / d:5.1f}%" if d else "    - "

        return (
            f"{label:<13}{self.turns:>6}  {pct(self.covered, self.turns)}  "
            f"{pct(self.turn_ok, self.turns)}  {pct(self.turn_ok_rel, self.turns)}  "
            f"{pct(self.cards_ok, self.cards)}  {pct(self.cards_me, self.cards)}"
            f"{self.unlabelled:>8}"
        )


def load(data: Path) -> tuple[dict[str, list[dict]], list[dict], dict[str, list[dict]]]:
    turns: dict[str, list[dict]] = defaultdict(list)
    for line in (data / "conversations.jsonl").read_text().splitlines():
        record = json.loads(line)
        turns[record["user_id"]].append(record)
    questions = [json.loads(x) for x in (data / "questions.jsonl").read_text().splitlines()]
    people: dict[str, list[dict]] = defaultdict(list)
    for line in (data / "people.jsonl").read_text().splitlines():
        record = json.loads(line)
        people[record["user_id"]].append(record)
    return turns, questions, people


def _named(text: str, people: list[dict]) -> list[dict]:
    return [p for p in people if re.search(rf"(?<![\w-]){re.escape(p['name'])}(?![\w-])", text)]


def _chain(question: str, people: list[dict]) -> list[dict]:
    """ "my cousin's son" -> [the cousin, her son]; stops at the first unknown link."""
    text = question.lower().replace("’", "'")
    first = sorted((p for p in people if p["of"] is None), key=lambda p: -len(p["relationship"]))
    for person in first:
        m = re.search(rf"\bmy {re.escape(person['relationship'].lower())}\b", text)
        if m:
            break
    else:
        return []
    found, rest = [person], text[m.end() :]
    while link := re.match(r"'s ", rest):
        rest = rest[link.end() :]
        nxt = [
            p
            for p in people
            if p["of"] == found[-1]["name"]
            and re.match(rf"{re.escape(p['relationship'].lower())}\b", rest)
        ]
        if not nxt:
            break
        found.append(nxt[0])
        rest = rest[len(nxt[0]["relationship"]) :]
    return found


def gold_people(question: dict, people: list[dict], evidence: list[str]) -> list[Gold]:
    """Who ``question`` is about (see the module docstring)."""
    chosen = _named(question["question"], people) + _chain(question["question"], people)
    if not chosen and question["category"] != "single-hop":
        chosen = [p for text in evidence for p in _named(text, people)]
    if not chosen:
        return [Gold(SELF, None)] if question["category"] == "single-hop" else []
    seen: dict[str, Gold] = {}
    for p in chosen:
        seen.setdefault(p["name"], Gold(p["name"], None if p["of"] else p["relationship"]))
    return list(seen.values())


def _is(card: Card, gold: Gold) -> bool:
    person = card.person.casefold()
    name = gold.name.casefold()
    return person == name or person.startswith(name + " ")


def _by_relationship(card: Card, gold: Gold) -> bool:
    return (
        gold.relationship is not None
        and card.person.startswith("my ")
        and (card.relationship or "").casefold() == gold.relationship.casefold()
    )


def score(
    turns: dict[str, list[dict]], questions: list[dict], people: dict[str, list[dict]]
) -> tuple[dict[str, Tally], float, int]:
    tallies: dict[str, Tally] = {c: Tally() for c in (*CATEGORIES, "all")}
    text = {(r["session_id"], r["turn"]): r["text"] for rs in turns.values() for r in rs}
    seconds, n_turns = 0.0, 0
    for user in sorted(turns):
        start = time.perf_counter()
        cards = extract_conversation(turns[user], user)
        seconds += time.perf_counter() - start
        n_turns += len(turns[user])
        by_turn: dict[tuple[str, int], list[Card]] = defaultdict(list)
        for card in cards:
            by_turn[(card.source.session_id, card.source.turn)].append(card)
        for q in questions:
            if q["user_id"] != user or q["category"] not in CATEGORIES:
                continue
            keys = [(e["session_id"], e["turn"]) for e in q["expected"]]
            golds = gold_people(q, people[user], [text[k] for k in keys])
            for tally in (tallies[q["category"]], tallies["all"]):
                if not golds:
                    tally.unlabelled += 1
                    continue
                for key in keys:
                    names = {p["name"] for p in _named(text[key], people[user])}
                    here = [g for g in golds if g.name in names] or golds
                    got = by_turn.get(key, [])
                    ok = [c for c in got if any(_is(c, g) for g in here)]
                    rel = [c for c in got if any(_by_relationship(c, g) for g in here)]
                    tally.turns += 1
                    tally.covered += bool(got)
                    tally.turn_ok += bool(ok)
                    tally.turn_ok_rel += bool(ok or rel)
                    tally.cards += len(got)
                    tally.cards_ok += len(ok)
                    if here[0].name != SELF:
                        tally.cards_me += sum(c.person == SELF for c in got)
                    if got and not ok and tally is tallies["all"]:
                        tally.wrong.append(
                            (
                                q["qid"],
                                text[key],
                                ", ".join(sorted({c.person for c in got})),
                                "/".join(g.name for g in here),
                            )
                        )
    return tallies, n_turns / seconds if seconds else 0.0, n_turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE / "data" / "eval")
    parser.add_argument("--users", type=int, default=None, help="first N users only")
    parser.add_argument("--show", type=int, default=0, help="print N misattributed turns")
    args = parser.parse_args(argv)
    turns, questions, people = load(args.data)
    if args.users:
        keep = sorted(turns)[: args.users]
        turns = {u: turns[u] for u in keep}
    tallies, rate, n_turns = score(turns, questions, people)
    print(
        f"{'category':<13}{'turns':>6}  {'cover':>6}  {'turn ok':>6}  {'+rel':>6}  "
        f"{'card ok':>6}  {'as me':>6}{'unlab.':>8}"
    )
    for name, tally in tallies.items():
        print(tally.row(name))
    print(f"extraction: {n_turns} turns at {rate:.0f} turns/s", file=sys.stderr)
    for qid, said, got, want in tallies["all"].wrong[: args.show]:
        print(f"  {qid}: {said!r}\n      got {got!r}, want {want!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
