"""One store client recalling for many users in turn: its RSS, the passages it holds, p50/p95.

    python bench/served.py HOME [--users 100] [--queries 300] [--mb 256] [--build N]

What a service answering for more users than ``recall_passages_mb`` holds costs: HOME is a
store ``bench/recall.py --home HOME`` wrote (or ``--build N`` writes N synthetic cards
first, random card vectors). Every user is recalled once (the "first" recall of each in
this process: it reads the user's passages, or restores them from their saved file; a
user read afresh has their card vectors read in the background, waited for before the
timed recalls, which rank them in process), then ``--queries`` random questions to random
users are timed. Prints the medians, the recalls that restored their user from file, the
passages' bytes as the budget counted them, this process's RSS after opening, after the
first recalls and at the end, the client CPU per recall and the load average.

``--dir`` names the passages directory inside HOME (default ``passages``): two trees
whose saved formats differ, measured in turn on one store, each keep their own.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from recall import RandomCardVectors, percentile, questions, rss_mb
from synthetic import synthetic_cards

from graphmem import Card, Memory
from graphmem.config import Settings

#: cards validated and written per ``remember_many`` call with ``--build``
CHUNK = 50_000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("home", type=Path)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--mb", type=int, default=256, help="recall_passages_mb")
    parser.add_argument("--build", type=int, default=0, help="write this many cards first")
    parser.add_argument("--seed", type=int, default=1, help="of the questions")
    parser.add_argument("--dir", default="passages", help="passages directory in HOME")
    parser.add_argument("--trace", action="store_true", help="tracemalloc's top lines at the end")
    args = parser.parse_args()
    embedder = RandomCardVectors(f"served-{args.build}-{args.users}")
    settings = Settings(recall_passages_mb=args.mb)
    with Memory.open(args.home, embedder=embedder, settings=settings) as memory:
        memory.passages._directory = args.home / args.dir
        if args.build:
            cards = synthetic_cards(args.build, users=args.users, seed=7)
            for at in range(0, args.build, CHUNK):
                chunk = [Card(**c) for c in itertools.islice(cards, min(CHUNK, args.build - at))]
                memory.remember_many(chunk, batch_size=1000)
        embedder.frozen = True
        opened = rss_mb()
        if args.trace:
            tracemalloc.start(1)
        asks = questions(args.queries + 10, args.users, seed=args.seed)
        first = []
        for user in range(args.users):
            start = time.perf_counter()
            memory.recall(f"bench-user-{user}", "warm up", k=10)
            first.append((time.perf_counter() - start) * 1000)
        memory.passages.wait()
        after_first = rss_mb()
        for user, text in asks[:10]:
            memory.recall(user, text, k=10)
        restored = memory.passages.restored
        latencies = []
        cpu = time.process_time()
        for user, text in asks[10:]:
            start = time.perf_counter()
            memory.recall(user, text, k=10)
            latencies.append((time.perf_counter() - start) * 1000)
        cpu = (time.process_time() - cpu) / len(latencies) * 1000
        print(f"machine: {describe()}")
        print(
            f"{args.users} users, {args.mb} MB of passages: first recall median "
            f"{statistics.median(first):.1f} ms; p50 {statistics.median(latencies):.1f} / p95 "
            f"{percentile(latencies, 95):.1f} / p99 {percentile(latencies, 99):.1f} ms, client "
            f"CPU {cpu:.1f} ms a recall; {memory.passages.restored - restored} of "
            f"{len(latencies)} recalls restored their user, {len(memory.passages.held())} "
            f"users held, {memory.passages.held_bytes() / 2**20:.1f} MB counted; RSS "
            f"{opened:.0f} MB opened, {after_first:.0f} after the first recalls, "
            f"{rss_mb():.0f} at the end; load average {os.getloadavg()[0]:.1f}"
        )
        if args.trace:
            gc.collect()
            for stat in tracemalloc.take_snapshot().statistics("lineno")[:15]:
                print(f"  {stat.size / 2**20:7.1f} MB {stat.count:>8} {stat.traceback}")


if __name__ == "__main__":
    main()
