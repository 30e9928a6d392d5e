"""Ingest throughput: cards/s with and without embedding, and what the store adds.

    python bench/ingest.py [--sizes 1000 10000] [--repeat 3] [--turns 600]

For each size, ``--repeat`` rounds (medians are printed), one fresh data directory per
measurement:
  embed only   the embedding model alone on the cards' texts (cold cache)
  store only   Memory.remember_many with a precomputed-vector embedder (no model time)
  full         Memory.remember_many with the real model (embedding overlapped with writes)
and the store's overhead = full / embed-only - 1 per round (target <= 30%), peak RSS of this
process and of the FalkorDB server. Also conversation turns/s through the spaCy
extraction path of the ``ingestion`` package.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from synthetic import synthetic_cards

from graphmem import Card, Memory
from graphmem.embedding import Embedder, FastEmbedder
from graphmem.store.embedded import EmbeddedServer


class Precomputed(Embedder):
    """An embedder that returns vectors computed beforehand: isolates store time."""

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        self.index = {t: i for i, t in enumerate(texts)}
        self.vectors = vectors
        self.dimension = vectors.shape[1]
        self.model_name = "precomputed"

    def embed(self, texts):
        return self.vectors[[self.index[t] for t in texts]]


def server_hwm_mb(home: Path) -> float:
    pid = EmbeddedServer(home).pid()
    if pid is None:
        return float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def progress(total: int):
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        print(f"\r    {done}/{total} cards", end="", file=sys.stderr, flush=True)

    return tick


def timed_ingest(cards: list[Card], embedder) -> tuple[float, float]:
    """Seconds for ``remember_many`` of ``cards`` into a fresh data directory, and the
    server's peak RSS (MB)."""
    home = Path(tempfile.mkdtemp(prefix="gmb-", dir="/tmp"))
    try:
        with Memory.open(home, embedder=embedder) as memory:
            start = time.perf_counter()
            memory.remember_many(cards, progress=progress(len(cards)))
            elapsed = time.perf_counter() - start
            print(file=sys.stderr)
            server_mb = server_hwm_mb(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return elapsed, server_mb


def measure(size: int, repeat: int) -> dict[str, float]:
    """Medians over ``repeat`` rounds; each round times embed-only, store-only and full
    back to back, so the overhead compares runs that saw the same machine load."""
    cards = [Card(**c) for c in synthetic_cards(size, seed=size)]
    texts = [c.embedding_text for c in cards]
    embed, store, full, overhead, server_mb = [], [], [], [], []
    for _ in range(repeat):
        model = FastEmbedder(cache_size=0)  # fresh, like the one ``full`` gets
        start = time.perf_counter()
        vectors = model.embed(texts)
        embed.append(time.perf_counter() - start)
        store.append(timed_ingest(cards, Precomputed(texts, vectors))[0])
        took, peak = timed_ingest(cards, FastEmbedder(cache_size=0))
        full.append(took)
        server_mb.append(peak)
        overhead.append(full[-1] / embed[-1] - 1)
    return {
        "size": size,
        "embed_only_cps": size / statistics.median(embed),
        "store_only_cps": size / statistics.median(store),
        "full_cps": size / statistics.median(full),
        "overhead": statistics.median(overhead),
        "server_mb": max(server_mb),
    }


def turns_per_second(turns: int) -> float | None:
    try:
        from ingestion.extract import extract_conversation
        from ingestion.loaders import Turn
    except ImportError:
        return None
    rng = np.random.default_rng(0)
    lines = [
        "My sister Alice moved to Berlin last week.",
        "Bob, my manager, loves sushi.",
        "I started running again yesterday.",
        "ok thanks!",
        "She said the new job at Acme is great.",
        "We are going to Lisbon in two weeks.",
        "I can't eat gluten, so pick somewhere safe.",
        "Tom, our neighbour, has a dog.",
    ]
    batch = [
        Turn(
            session_id=f"s{i // 20}",
            turn=i % 20,
            speaker="user",
            text=lines[int(rng.integers(len(lines)))],
            timestamp=1_710_000_000_000 + i * 60_000,
        )
        for i in range(turns)
    ]
    extract_conversation(batch[:5], "bench")  # load the spaCy model outside the timing
    start = time.perf_counter()
    extract_conversation(batch, "bench")
    return turns / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--turns", type=int, default=600)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds per size; figures are medians (the machine is noisy)",
    )
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        print(f"measuring {size} cards ...", file=sys.stderr)
        rows.append(measure(size, args.repeat))
    print(f"\nmachine: {describe()}")
    print(
        f"\n{'cards':>7} {'embed-only c/s':>15} {'store-only c/s':>15} {'full c/s':>9} "
        f"{'store overhead':>15} {'server peak MB':>15}"
    )
    for r in rows:
        print(
            f"{r['size']:>7} {r['embed_only_cps']:>15.0f} {r['store_only_cps']:>15.0f} "
            f"{r['full_cps']:>9.0f} {r['overhead']:>14.0%} {r['server_mb']:>15.0f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nbench process peak RSS: {peak:.0f} MB")
    tps = turns_per_second(args.turns)
    if tps is None:
        print("conversation turns/s (spaCy path): ingestion package not available")
    else:
        print(f"conversation turns/s (spaCy path, {args.turns} turns): {tps:.0f}")


if __name__ == "__main__":
    main()
