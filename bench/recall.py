"""Recall latency at growing store sizes (query embedding included).

    python bench/recall.py [--sizes 1000 10000 100000] [--queries 200] [--plot out.png]

One store grows through the sizes (10 users, synthetic cards embedded with the real
model; card vectors are cached in bench/.cache so reruns skip the embedding). At each
size, ``--queries`` varied questions to random users are timed end to end through
``Memory.recall(k=10)``, each embedded anew (repeated questions are not served from a
cache). Recall ranks the card vectors its passages hold, in process
(graphmem/recall/passages.py, cosine.py); a user read afresh has them read in the
background ("vectors s": the wait for them after the first recalls), and recall asks the
store until then. Prints p50/p95/p99 (after every user's first recall and their
vectors), throughput, the server's and this process's RSS and CPU per recall (the
server's too: before, it scanned the user's cards), the median first recall of a user
after the size's writes ("first ms": it reads the user's passages, or the cards written
since), and how many timed recalls restored their user's passages from file
("restored": the process holds ``recall_passages_mb`` of them, ~20 users of 10k cards by
default).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from synthetic import PEOPLE, RELATIONSHIPS, WORDS, synthetic_cards

from graphmem import Card, Memory
from graphmem.embedding import Embedder, FastEmbedder, default_model_dir
from graphmem.store.embedded import EmbeddedServer

CACHE = Path(__file__).resolve().parent / ".cache"
#: Cards validated and written per ``remember_many`` call while loading.
CHUNK = 50_000
QUESTIONS = [
    "what is my {rel} allergic to?",
    "where does {p} live now?",
    "what does {p} do for work?",
    "what should I get my {rel} for their birthday?",
    "does anyone I know like {hobby}?",
    "who lives in {city}?",
    "what is {p} training for?",
    "what does my {rel} drink in the morning?",
]


class CachedEmbedder(Embedder):
    """The real model, with card vectors persisted between benchmark runs."""

    def __init__(self, key: str) -> None:
        self.model = FastEmbedder(cache_size=0)
        self.dimension = self.model.dimension
        self.model_name = self.model.model_name
        # Vectors belong to one prepared model: a new recipe must not reuse old vectors.
        stamp = (default_model_dir() / "prepared.json").read_bytes()
        fingerprint = hashlib.blake2b(stamp, digest_size=4).hexdigest()
        self.path = CACHE / f"{key}-{fingerprint}.npz"
        self.known: dict[str, np.ndarray] = {}
        self.frozen = False
        if self.path.exists():
            data = np.load(self.path, allow_pickle=False)
            self.known = dict(zip(data["texts"].tolist(), data["vectors"], strict=True))

    def embed(self, texts):
        if self.frozen:  # questions: embedded every time, as a new question would be
            return self.model.embed(texts)
        missing = [t for t in texts if t not in self.known]
        if missing:
            for text, vector in zip(missing, self.model.embed(missing), strict=True):
                self.known[text] = vector
        return np.stack([self.known[t] for t in texts])

    def save(self) -> None:
        if not self.known:
            return
        CACHE.mkdir(exist_ok=True)
        texts = list(self.known)
        np.savez(self.path, texts=np.array(texts), vectors=np.stack([self.known[t] for t in texts]))


class RandomCardVectors(CachedEmbedder):
    """``--random-vectors``: cards get seeded random unit vectors (writing a million cards
    then takes no model time; the search costs the same whatever the vectors hold),
    questions are embedded by the model."""

    def embed(self, texts):
        if self.frozen:
            return self.model.embed(texts)
        # seeded by the texts: every batch its own vectors, the same on every run
        seed = hashlib.blake2b("\n".join(texts).encode(), digest_size=8).digest()
        rng = np.random.default_rng(int.from_bytes(seed, "little"))
        vectors = rng.standard_normal((len(texts), self.dimension)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def save(self) -> None:
        pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def server_rss_mb(home: Path) -> float:
    return rss_mb(EmbeddedServer(home).pid())


def loading_progress(start: int, total: int):
    done = start

    def tick(n: int) -> None:
        nonlocal done
        done += n
        print(f"\r  loading {done}/{total}", end="", file=sys.stderr, flush=True)

    return tick


def questions(n: int, users: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        template = rng.choice(QUESTIONS)
        text = template.format(
            rel=rng.choice(RELATIONSHIPS),
            p=rng.choice(PEOPLE),
            **{k: rng.choice(v) for k, v in WORDS.items()},
        )
        out.append((f"bench-user-{rng.randrange(users)}", text))
    return out


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def timed_recalls(memory: Memory, asks: list[tuple[str, str]], server: int) -> dict:
    """Latencies (ms) and wall time (s) of the asks after a warm-up, the median first
    recall of a user in this process (ms: it reads the user's passages, see
    graphmem/recall/passages.py), the wait for the users' vectors after that (s), how many
    timed recalls restored their user's passages from file (evicted: more users than
    ``recall_passages_mb`` holds), and the CPU per timed recall of this process and of
    the server (pid ``server``), ms."""
    first = []
    for user in sorted({user for user, _ in asks}):
        t0 = time.perf_counter()
        memory.recall(user, "warm up", k=10)
        first.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    memory.passages.wait()
    vectors = time.perf_counter() - t0
    for user, text in asks[:10]:
        memory.recall(user, text, k=10)
    latencies = []
    restored = memory.passages.restored
    cpu, server_cpu = time.process_time(), cpu_ms(server)
    start = time.perf_counter()
    for user, text in asks[10:]:
        t0 = time.perf_counter()
        memory.recall(user, text, k=10)
        latencies.append((time.perf_counter() - t0) * 1000)
    wall = time.perf_counter() - start
    return {
        "latencies": latencies,
        "wall": wall,
        "first": statistics.median(first),
        "vectors": vectors,
        "restored": memory.passages.restored - restored,
        "cpu": (time.process_time() - cpu) * 1000 / len(latencies),
        "server_cpu": (cpu_ms(server) - server_cpu) / len(latencies),
    }


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) process ``pid`` used so far, ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--plot", type=Path, help="write a latency plot (PNG) here")
    parser.add_argument(
        "--home", type=Path, help="keep the store in this directory (reused by the next run)"
    )
    parser.add_argument(
        "--written",
        action="store_true",
        help="--home holds the cards already (an earlier run's, same --users and largest "
        "size): write none, measure the largest size only",
    )
    parser.add_argument(
        "--random-vectors",
        action="store_true",
        help="random card vectors: no model time while writing (for a million cards)",
    )
    args = parser.parse_args()
    if args.written:
        if args.home is None:
            parser.error("--written needs --home")
        args.sizes = [max(args.sizes)]

    # Cards are made as they are written: the client's RSS is graphmem's, not the bench's.
    all_cards = synthetic_cards(max(args.sizes), users=args.users, seed=7)
    embedder = (RandomCardVectors if args.random_vectors else CachedEmbedder)(
        f"cards-{max(args.sizes)}-{args.users}"
    )
    home = args.home or Path(tempfile.mkdtemp(prefix="gmr-", dir="/tmp"))
    rows = []
    try:
        with Memory.open(home, embedder=embedder) as memory:
            stored = max(args.sizes) if args.written else 0
            for size in sorted(args.sizes):
                embedder.frozen = False
                start = time.perf_counter()
                tick = loading_progress(stored, size)
                for at in range(stored, size, CHUNK):  # validated and written a chunk at a time
                    chunk = itertools.islice(all_cards, min(CHUNK, size - at))
                    memory.remember_many([Card(**c) for c in chunk], batch_size=1000, progress=tick)
                print(
                    f"\r  loaded {size} cards in {time.perf_counter() - start:.0f}s",
                    file=sys.stderr,
                )
                stored = size
                embedder.save()
                embedder.frozen = True  # card texts loaded: from here on, only questions
                asks = questions(args.queries + 10, args.users, seed=size)
                timed = timed_recalls(memory, asks, EmbeddedServer(home).pid())
                latencies = timed["latencies"]
                rows.append(
                    {
                        **timed,
                        "size": size,
                        "p50": statistics.median(latencies),
                        "p95": percentile(latencies, 95),
                        "p99": percentile(latencies, 99),
                        "qps": len(latencies) / timed["wall"],
                        "server": server_rss_mb(home),
                        "client": rss_mb(),
                        "loadavg": os.getloadavg()[0],
                    }
                )
                print(
                    f"  {size} cards: p50 {rows[-1]['p50']:.1f} ms, "
                    f"p95 {rows[-1]['p95']:.1f} ms, client {rows[-1]['client']:.0f} MB, "
                    f"load average {os.getloadavg()[0]:.1f}",
                    file=sys.stderr,
                )
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nmachine: {describe()}")
    print(
        f"\n{'cards':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'recalls/s':>10} "
        f"{'CPU ms':>7} {'server CPU':>11} {'server MB':>10} {'client MB':>10} "
        f"{'first ms':>9} {'vectors s':>10} {'restored':>9} {'loadavg':>8}"
    )
    for r in rows:
        print(
            f"{r['size']:>8} {r['p50']:>8.1f} {r['p95']:>8.1f} {r['p99']:>8.1f} "
            f"{r['qps']:>10.1f} {r['cpu']:>7.1f} {r['server_cpu']:>11.1f} {r['server']:>10.0f} "
            f"{r['client']:>10.0f} {r['first']:>9.1f} {r['vectors']:>10.1f} {r['restored']:>9} "
            f"{r['loadavg']:>8.1f}"
        )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        ax.boxplot(
            [r["latencies"] for r in rows],
            tick_labels=[f"{r['size']:,}" for r in rows],
            showfliers=False,
        )
        # issue #32: 12 / 20 ms p50 / p95 at 100k cards, p95 30 ms at 1M
        ax.axhline(12, ls="--", c="g", lw=0.8, label="p50 target 12 ms (100k)")
        ax.axhline(20, ls="--", c="orange", lw=0.8, label="p95 target 20 ms (100k)")
        ax.axhline(30, ls="--", c="r", lw=0.8, label="p95 target 30 ms (1M)")
        ax.set_xlabel(f"cards in store ({args.users} users)")
        ax.set_ylabel("recall latency, ms")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
