"""Open time and vector search of the embedded store at 10k / 100k cards.

Synthetic cards (random unit vectors, 384 dims) are written through the store's own
``upsert_cards`` query in UNWIND batches of 1000: embedding 100k texts would measure the
model, not the store. Per size: ``--users`` users share the cards, plus one 100-card user.

Measured: cold open (server stopped cleanly) + first vector query, warm open (server up)
+ first query, vector-candidate p50/p95 over ``--queries`` queries, the 100-card user's
candidates (k=20: all theirs?), server RSS and data on disk; then the same through
``Memory`` as a program sees it: cold (server stopped; model load and the whole first
recall included) and warm (a second ``Memory`` while the first holds the server). With
``--promote``: the
price of the vector index for one user (promotion, cold open with the index rebuilt,
ANN latency).

    python bench/open.py --sizes 10000 100000 --users 10
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from graphmem.cards import write_row
from graphmem.memory import Memory
from graphmem.models import Card
from graphmem.recall.vector import promote, vector_candidates
from graphmem.store.embedded import EmbeddedServer
from graphmem.store.falkordb import FalkorDBStore

DIM = 384
BATCH = 1000
SMALL_USER, SMALL_CARDS = "small-user", 100
K = 20


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def write_user(
    store: FalkorDBStore,
    user: str,
    n: int,
    rng: np.random.Generator,
    progress: Callable[[int], None],
) -> list[str]:
    ids: list[str] = []
    for start in range(0, n, BATCH):
        size = min(BATCH, n - start)
        vectors = unit_vectors(rng, size)
        cards = [
            Card(
                user_id=user,
                fact=f"synthetic fact {start + i} of {user}",
                person=f"person {(start + i) % 50}",
                relationship="friend",
            )
            for i in range(size)
        ]
        store.run(
            "upsert_cards",
            {
                "user_id": user,
                "now": 1,
                "rows": [write_row(c, v) for c, v in zip(cards, vectors, strict=True)],
            },
            write=True,
        )
        ids += [c.id for c in cards]
        progress(size)
    return ids


def populate(home: Path, size: int, users: list[str], rng: np.random.Generator) -> list[str]:
    """Write ``size`` cards: ``SMALL_CARDS`` for the small user, the rest shared by ``users``."""
    store = FalkorDBStore.open_embedded(home)
    store.ensure_schema(DIM)
    done, started = 0, time.perf_counter()

    def progress(n: int) -> None:
        nonlocal done
        done += n
        rate = done / (time.perf_counter() - started)
        print(
            f"\r  writing {done:>7,}/{size:,} cards ({rate:,.0f}/s)",
            end="",
            file=sys.stderr,
            flush=True,
        )

    small = write_user(store, SMALL_USER, SMALL_CARDS, rng, progress)
    per_user = (size - SMALL_CARDS) // len(users)
    for i, user in enumerate(users):
        extra = (size - SMALL_CARDS) - per_user * len(users) if i == 0 else 0
        write_user(store, user, per_user + extra, rng, progress)
    print(file=sys.stderr)
    store.detach()
    return small


def open_and_query(home: Path, user: str, vector: np.ndarray) -> tuple[float, float, object]:
    """(open seconds, first query seconds, store): what a CLI call pays before recall."""
    started = time.perf_counter()
    store = FalkorDBStore.open_embedded(home)
    store.ensure_schema(DIM)
    opened = time.perf_counter()
    vector_candidates(store, user, vector, K)
    return opened - started, time.perf_counter() - opened, store


def memory_open_and_recall(home: Path, users: list[str]) -> tuple[float, float]:
    """(cold, warm) seconds of ``Memory.open`` + first ``recall``, server stopped / up."""
    question = "what does my friend like to do on weekends?"
    started = time.perf_counter()
    with Memory.open(home) as first:
        first.recall(users[2], question, k=10)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        with Memory.open(home) as second:
            second.recall(users[3], question, k=10)
            warm = time.perf_counter() - started
    return cold, warm


def bench_promoted(
    home: Path, store: FalkorDBStore, server: EmbeddedServer, user: str, queries: np.ndarray
) -> dict[str, object]:
    """The price of the index: promote one user, then restart and query through it."""
    print(f"  promoting {user} into the vector index ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    labelled = promote(store, user)
    promote_s = time.perf_counter() - started
    store.detach()
    with server.locked():
        server.stop()
    started = time.perf_counter()
    store = FalkorDBStore.open_embedded(home)
    reopen_s = time.perf_counter() - started
    times = []
    for query in queries:
        t0 = time.perf_counter()
        assert len(vector_candidates(store, user, query, K)) == K
        times.append(time.perf_counter() - t0)
    store.detach()
    return {
        "promoted": labelled,
        "promote_s": promote_s,
        "promoted_open_s": reopen_s,
        "ann_p50_ms": 1000 * float(np.percentile(times, 50)),
        "ann_p95_ms": 1000 * float(np.percentile(times, 95)),
    }


def bench_size(
    size: int, n_users: int, n_queries: int, seed: int, promote_user: bool = False
) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    home = Path(tempfile.mkdtemp(prefix="gm-bench-", dir="/tmp"))
    users = [f"user-{i}" for i in range(n_users)]
    server = EmbeddedServer(home)
    try:
        print(
            f"{size:,} cards, {n_users} users + a {SMALL_CARDS}-card user, in {home}",
            file=sys.stderr,
        )
        started = time.perf_counter()
        small = populate(home, size, users, rng)
        write_s = time.perf_counter() - started

        print("  clean stop, cold open ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        with server.locked():
            server.stop()  # clean shutdown (AOF tail compacted): the next open is cold
        stop_s = time.perf_counter() - started
        cold_open, cold_query, store = open_and_query(home, users[0], unit_vectors(rng, 1)[0])
        store.detach()
        warm_open, warm_query, store = open_and_query(home, users[1], unit_vectors(rng, 1)[0])

        print(f"  {n_queries} vector queries ...", file=sys.stderr, flush=True)
        queries = unit_vectors(rng, n_queries)
        times = []
        for i, query in enumerate(queries):
            t0 = time.perf_counter()
            hits = vector_candidates(store, users[i % n_users], query, K)
            times.append(time.perf_counter() - t0)
            assert len(hits) == K
        small_hits = vector_candidates(store, SMALL_USER, queries[0], K)
        own = set(small)
        info = server.info()
        result = {
            "cards": size,
            "write_s": write_s,
            "stop_s": stop_s,
            "cold_open_s": cold_open,
            "cold_query_s": cold_query,
            "warm_open_s": warm_open,
            "warm_query_s": warm_query,
            "p50_ms": 1000 * float(np.percentile(times, 50)),
            "p95_ms": 1000 * float(np.percentile(times, 95)),
            "small_hits": len(small_hits),
            "small_own": sum(card_id in own for card_id, _ in small_hits),
            "rss_mb": (info.rss_bytes if info else 0) / 2**20,
            "disk_mb": (info.data_bytes if info else 0) / 2**20,
        }
        store.detach()
        with server.locked():
            server.stop()
        print("  cold and warm Memory.open + first recall ...", file=sys.stderr, flush=True)
        result["memory_cold_s"], result["memory_warm_s"] = memory_open_and_recall(home, users)
        if promote_user:
            store = FalkorDBStore.open_embedded(home)
            result |= bench_promoted(home, store, server, users[0], queries)
        return result
    finally:
        with server.locked():
            server.stop()
        shutil.rmtree(home, ignore_errors=True)


ROWS = [  # (label, key, format)
    ("write (UNWIND 1000), s", "write_s", "{:.1f}"),
    ("clean stop (AOF compacted), s", "stop_s", "{:.2f}"),
    ("cold open (server stopped), s", "cold_open_s", "{:.2f}"),
    ("  + first vector query, ms", "cold_query_s", "ms"),
    ("  = cold open + first query, s", "cold_total_s", "{:.2f}"),
    ("warm open (server up), ms", "warm_open_s", "ms"),
    ("  + first vector query, ms", "warm_query_s", "ms"),
    ("  = warm open + first query, ms", "warm_total_s", "ms"),
    ("Memory: cold open + first recall, s", "memory_cold_s", "{:.2f}"),
    ("Memory: warm open + first recall, ms", "memory_warm_s", "ms"),
    ("vector candidates k=20, p50 ms", "p50_ms", "{:.1f}"),
    ("vector candidates k=20, p95 ms", "p95_ms", "{:.1f}"),
    ("100-card user: candidates (own)", "small", "{}"),
    ("server RSS, MiB", "rss_mb", "{:.0f}"),
    ("data on disk, MiB", "disk_mb", "{:.0f}"),
]


PROMOTED_ROWS = [
    ("promoted: cards put in the index", "promoted", "{}"),
    ("promoted: promote time, s", "promote_s", "{:.1f}"),
    ("promoted: cold open (index rebuilt), s", "promoted_open_s", "{:.1f}"),
    ("promoted: ANN candidates p50 ms", "ann_p50_ms", "{:.1f}"),
    ("promoted: ANN candidates p95 ms", "ann_p95_ms", "{:.1f}"),
]


def table(results: list[dict[str, object]]) -> str:
    for r in results:
        r["cold_total_s"] = float(r["cold_open_s"]) + float(r["cold_query_s"])  # type: ignore[arg-type]
        r["warm_total_s"] = float(r["warm_open_s"]) + float(r["warm_query_s"])  # type: ignore[arg-type]
        r["small"] = f"{r['small_hits']} ({r['small_own']})"
    header = f"{'':40}" + "".join(f"{int(r['cards']):>14,}" for r in results)  # type: ignore[call-overload]
    lines = [header + "  cards", "-" * len(header)]
    rows = ROWS + (PROMOTED_ROWS if all("promoted" in r for r in results) else [])
    for label, key, fmt in rows:
        cells = []
        for r in results:
            value = r[key]
            cells.append(
                f"{1000 * float(value):.1f}"
                if fmt == "ms"  # type: ignore[arg-type]
                else fmt.format(value)
            )
        lines.append(f"{label:40}" + "".join(f"{c:>14}" for c in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--promote",
        action="store_true",
        help="also promote one user into the vector index and measure the "
        "cost: promotion time, cold open with the index, ANN latency",
    )
    args = parser.parse_args(argv)
    results = [
        bench_size(size, args.users, args.queries, args.seed, args.promote) for size in args.sizes
    ]
    print(table(results))


if __name__ == "__main__":
    main()
