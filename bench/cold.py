"""A user's first recall in a fresh client, at growing sizes of the user.

    python bench/cold.py [--sizes 1000 10000] [--repeats 5] [--home DIR] [--random-vectors]

One store holds one user per size (``synthetic_user``: conversation-like cards, one in
five with its source turn; card vectors from the real model, cached in bench/.cache),
written by a client that then closes. A client that wrote a user prepares their passages
(``PassageIndex.written``) once their writes pause or as it closes; this one is given the
time that takes, as a service whose writes paused, and the bench prints it. Each repeat
opens a new ``Memory`` on the store (the server is up and the model loaded, as in a
restarted service, a new replica or a CLI call without the daemon) and times its first
recall of each user, then a second recall (warm). What the first pays beyond the second
is the cold path: restoring the user's passages (graphmem/recall/passages.py).
Prints the medians with the machine description.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from recall import CachedEmbedder, RandomCardVectors
from synthetic import synthetic_user

from graphmem import Card, Memory

QUESTIONS = [
    "what is my sister allergic to?",
    "where does Alice live now?",
    "what does Bob do for work?",
    "what should I get my manager for their birthday?",
    "does anyone I know like climbing?",
    "who lives in Lisbon?",
    "what is Carol training for?",
    "what does my brother drink in the morning?",
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--home", type=Path, help="keep the store in this directory (reused by the next run)"
    )
    parser.add_argument(
        "--random-vectors",
        action="store_true",
        help="random card vectors (no embedding while writing: for 100k cards a user)",
    )
    args = parser.parse_args()
    embedder = (RandomCardVectors if args.random_vectors else CachedEmbedder)(
        f"cold-{max(args.sizes)}"
    )
    home = args.home or Path(tempfile.mkdtemp(prefix="gmc-", dir="/tmp"))
    users = {size: f"cold-user-{size}" for size in args.sizes}
    shutil.rmtree(home / "passages", ignore_errors=True)  # the first repeat: none saved yet
    first: dict[int, list[float]] = {size: [] for size in args.sizes}
    warm: dict[int, list[float]] = {size: [] for size in args.sizes}
    cpu: dict[int, list[float]] = {size: [] for size in args.sizes}
    try:
        writer = Memory.open(home, embedder=embedder, keep_server=True)
        for size, user in users.items():
            if not writer.count(user):
                start = time.perf_counter()
                cards = [Card(**c) for c in synthetic_user(size, user)]
                writer.remember_many(cards, batch_size=1000)
                took = time.perf_counter() - start
                print(f"  wrote {size} cards in {took:.0f}s", file=sys.stderr)
        start = time.perf_counter()
        writer.passages.close(timeout=3600)  # prepares without waiting for writes to pause
        writer.close(stop_server=False)
        prepared_s = time.perf_counter() - start
        embedder.save()
        embedder.frozen = True  # questions are embedded every time
        with Memory.open(home, embedder=embedder):  # keeps the server up between clients
            for repeat in range(args.repeats):
                with Memory.open(home, embedder=embedder) as fresh:
                    for size, user in users.items():
                        question = QUESTIONS[(repeat + size) % len(QUESTIONS)]
                        t0, c0 = time.perf_counter(), time.process_time()
                        fresh.recall(user, question, k=10)
                        first[size].append((time.perf_counter() - t0) * 1000)
                        cpu[size].append((time.process_time() - c0) * 1000)
                        t0 = time.perf_counter()
                        fresh.recall(user, QUESTIONS[(repeat + size + 1) % len(QUESTIONS)], k=10)
                        warm[size].append((time.perf_counter() - t0) * 1000)
                print(f"  repeat {repeat + 1}/{args.repeats} done", file=sys.stderr)
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nmachine: {describe()}; load average {os.getloadavg()[0]:.1f} at the end")
    print(f"the writer prepared the passages of the users it wrote in {prepared_s:.1f} s")
    print(
        f"\n{'cards/user':>10} {'first ms':>9} {'then ms':>8} {'then cpu':>9} {'warm ms':>8}"
        f"\n(first: the first client after the writer; then: median first recall of the "
        f"{args.repeats - 1} clients after it, and this process's CPU time in it, which a "
        f"shared machine inflates less; warm: median second recall)"
    )
    for size in args.sizes:
        later = first[size][1:] or first[size]
        later_cpu = cpu[size][1:] or cpu[size]
        print(
            f"{size:>10} {first[size][0]:>9.1f} {statistics.median(later):>8.1f} "
            f"{statistics.median(later_cpu):>9.1f} {statistics.median(warm[size]):>8.1f}"
        )


if __name__ == "__main__":
    main()
