"""Benchmark: consolidation time per step at 10k and 100k cards, and +1k incremental.

Synthetic but realistic cards for 10 users: facts from templates about the user and
their people (places, employers, jobs, likes, hobbies, food, work, small talk), with
timestamps spread over ~8 months so conflicts (moves, job changes, changed tastes)
and faded cards exist. Only the distinct texts are embedded, with the real model;
rows go straight through the store's ``upsert_cards`` query in UNWIND batches of 1000.

Stages: 10 users x 1k cards (10k) full run; grow to 10 users x 10k (100k) and run
full again (re-cluster); add 100 cards per user (+1k) and run again (incremental).

    .venv/bin/python bench/consolidate.py [--per-user 10000] [--users 10] [--home DIR]

Targets: full run on 100k cards <= 120 s; incremental +1k <= 5 s (all users).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from graphmem.cards import write_row
from graphmem.memory import Memory
from graphmem.models import Card

DAY = 86_400_000
START = 1_735_689_600_000  # 2025-01-01
SPAN_DAYS = 240
NOW = START + (SPAN_DAYS + 5) * DAY

PEOPLE = [("me", "self")] + [
    (name, rel)
    for name, rel in zip(
        "Alice Bob Carol Dan Erin Frank Grace Heidi Ivan Judy Ken Laura Mallory Nina Oscar Peggy "
        "Quinn Rita Sam Trent Uma Victor Wendy Xavier Yara Zoe Aaron Bella Chris Diana".split(),
        [
            "sister",
            "brother",
            "friend",
            "manager",
            "colleague",
            "neighbour",
            "mother",
            "father",
            "cousin",
            "partner",
        ]
        * 3,
        strict=False,
    )
]
CITIES = "Paris Berlin Rome Madrid Lisbon Vienna Prague Oslo".split()
COMPANIES = "Acme Globex Initech Umbrella Hooli Stark Wayne Tyrell".split()
JOBS = "teacher engineer designer nurse lawyer chef writer pilot".split()
LIKES = (
    "sushi",
    "jazz",
    "football",
    "chess",
    "opera",
    "coffee",
    "tea",
    "cats",
    "dogs",
    "horror films",
    "gardening",
    "yoga",
)
HOBBIES = (
    "hiking in the mountains",
    "rock climbing",
    "trail running",
    "camping outdoors",
    "mountain biking",
    "kayaking",
    "skiing",
    "swimming in lakes",
)
FOODS = (
    "Italian pasta",
    "pizza",
    "Thai curry",
    "ramen",
    "spicy Indian food",
    "tacos",
    "dim sum",
    "French pastries",
)
WORK = (
    "the billing service",
    "the quarterly report",
    "code reviews",
    "the on-call rota",
    "the hiring plan",
    "the product launch",
    "the budget",
    "the team offsite",
)
SMALL = (
    "the weather was rainy",
    "the train was late",
    "the printer jammed",
    "the parking lot was full",
    "the coffee machine broke",
    "a meeting ran long",
)
BACKSTORIES = ("mentioned over dinner", "said during a phone call", "came up in a chat", "")


def subject(person: str) -> str:
    return "I" if person == "me" else person


def fact(rng: random.Random, person: str) -> tuple[str, float]:
    """One templated fact about ``person`` and its importance."""
    who = subject(person)
    be = "am" if person == "me" else "is"
    s = "" if person == "me" else "s"
    kind = rng.random()
    if kind < 0.03:
        return f"{who} live{s} in {rng.choice(CITIES)}", 0.6
    if kind < 0.06:
        return f"{who} work{s} at {rng.choice(COMPANIES)}", 0.6
    if kind < 0.08:
        return f"{who} {be} a {rng.choice(JOBS)}", 0.5
    if kind < 0.40:
        verb = rng.choice(("like", "love", "love", "love", "hate")) + s
        return f"{who} {verb} {rng.choice(LIKES)}", 0.4
    if kind < 0.58:
        return f"{who} enjoy{s} {rng.choice(HOBBIES)}", 0.5
    if kind < 0.74:
        return f"{who} love{s} {rng.choice(FOODS)}", 0.4
    if kind < 0.88:
        return f"{who} {'have' if person == 'me' else 'has'} to work on {rng.choice(WORK)}", 0.5
    return f"Once {rng.choice(SMALL)}", 0.1


def make_cards(user: str, count: int, seed: int, *, start_day: int = 0) -> list[Card]:
    rng = random.Random(seed)
    cards = []
    for _ in range(count):
        person, rel = rng.choice(PEOPLE[:12]) if rng.random() < 0.6 else rng.choice(PEOPLE)
        text, importance = fact(rng, person)
        when = START + rng.randrange(start_day * DAY, SPAN_DAYS * DAY)
        cards.append(
            Card(
                user_id=user,
                fact=text,
                person=person,
                relationship=None if person == "me" else rel,
                backstory=rng.choice(BACKSTORIES),
                timestamp=when,
                importance=importance,
                emotion=round(rng.random() * 0.3, 2),
            )
        )
    return cards


class Vectors:
    """Embeds each distinct text once (the real model), then serves it from a dict."""

    def __init__(self, memory: Memory) -> None:
        self.embedder = memory.embedder
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, cards: list[Card]) -> list[np.ndarray]:
        todo = sorted({c.embedding_text for c in cards} - self.cache.keys())
        for start in range(0, len(todo), 512):
            chunk = todo[start : start + 512]
            for text, vec in zip(chunk, self.embedder.embed(chunk), strict=True):
                self.cache[text] = vec
        return [self.cache[c.embedding_text] for c in cards]


def write(memory: Memory, vectors: Vectors, cards: list[Card]) -> float:
    started = time.perf_counter()
    for start in range(0, len(cards), 1000):
        batch = cards[start : start + 1000]
        rows = [write_row(c, v) for c, v in zip(batch, vectors(batch), strict=True)]
        memory._store.run(
            "upsert_cards",
            {"user_id": batch[0].user_id, "rows": rows, "now": int(time.time() * 1000)},
            write=True,
        )
    return time.perf_counter() - started


STEP_COLUMNS = ("project", "conflicts", "forgetting", "abstraction", "total")


def stage(memory: Memory, users: list[str], label: str, *, recluster: bool | None) -> dict:
    """Consolidate every user; print one row per user and the totals."""
    print(f"\n== {label}", flush=True)
    header = f"{'user':<8}{'cards':>7}{'mode':>12}{'confl':>7}{'forgot':>7}{'clust':>7}" + "".join(
        f"{c:>12}" for c in STEP_COLUMNS
    )
    print(header, flush=True)
    totals = dict.fromkeys(STEP_COLUMNS, 0.0)
    for user in users:
        report = memory.consolidate(user, now=NOW, recluster=recluster)
        for c in STEP_COLUMNS:
            totals[c] += report.timings.get(c, 0.0)
        print(
            f"{user:<8}{report.cards:>7}{report.mode:>12}{report.conflicts_found:>7}"
            f"{len(report.forgotten):>7}{report.clusters:>7}"
            + "".join(f"{report.timings.get(c, 0.0):>12.2f}" for c in STEP_COLUMNS),
            flush=True,
        )
    print(
        f"{'all':<8}{'':>7}{'':>12}{'':>7}{'':>7}{'':>7}"
        + "".join(f"{totals[c]:>12.2f}" for c in STEP_COLUMNS),
        flush=True,
    )
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--per-user", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000, help="cards per user, stage 1")
    parser.add_argument("--added", type=int, default=100, help="new cards per user, stage 3")
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="gmb-", dir="/tmp"))
    users = [f"u{i}" for i in range(args.users)]
    results = {}
    try:
        with Memory.open(home) as memory:
            vectors = Vectors(memory)
            for i, user in enumerate(users):
                took = write(memory, vectors, make_cards(user, args.small, seed=i))
                print(
                    f"wrote {args.small} cards for {user} in {took:.1f}s "
                    f"({len(vectors.cache)} distinct texts embedded)",
                    flush=True,
                )
            results["10k full"] = stage(
                memory, users, f"{args.users * args.small} cards, full", recluster=True
            )
            for i, user in enumerate(users):
                more = make_cards(user, args.per_user - args.small, seed=1000 + i)
                took = write(memory, vectors, more)
                print(f"wrote {len(more)} cards for {user} in {took:.1f}s", flush=True)
            results["100k full"] = stage(
                memory, users, f"{args.users * args.per_user} cards, full", recluster=True
            )
            for i, user in enumerate(users):
                write(
                    memory,
                    vectors,
                    make_cards(user, args.added, seed=5000 + i, start_day=SPAN_DAYS - 3),
                )
            results["+1k incremental"] = stage(
                memory, users, f"+{args.users * args.added} cards, incremental", recluster=None
            )
        print("\n== summary (seconds, all users)")
        print(f"{'stage':<18}" + "".join(f"{c:>12}" for c in STEP_COLUMNS))
        for name, totals in results.items():
            print(f"{name:<18}" + "".join(f"{totals[c]:>12.2f}" for c in STEP_COLUMNS))
    finally:
        if args.home is None:
            from graphmem.store.embedded import EmbeddedServer

            EmbeddedServer(home).stop()
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
