"""What keeping history costs: write throughput and store size, against a baseline, one run.

    python bench/history.py [--cards 10000] [--rounds 3] [--share 0.1] [--full]
                            [--baseline no-history | GITREF] [--tree GITREF]

Each round runs the same job once on this tree and once on the baseline, alternating which
goes first, each in a fresh process and data directory:

  ingest    remember_many of N synthetic cards over 10 users (vectors computed beforehand,
            so the store's time shows; --full embeds with the model as bench/ingest.py does)
  changes   a share of the cards updated (new text), half that share rated, a fifth of it
            soft-forgotten, then consolidation's conflict step for every user
  size      the store on disk after each phase (the RDB an AOF rewrite leaves), and the
            CardVersion nodes kept

Baselines: ``no-history`` (default) is this tree with the history clauses taken out of its
queries (the archive of the state a write replaces, and a new card's change/decided_by), so
the difference is history and nothing else; a git ref (e.g. the last main before history,
191aeed) is a whole other tree, with whatever else changed since; ``--tree`` measures
another commit instead of this checkout (``--tree 4d8309e --baseline 191aeed``: main just
after and just before history landed). Medians over rounds, the ratio this/baseline, and
the machine (bench/machine.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from synthetic import synthetic_cards  # noqa: E402

USERS = 10

# The history clauses, as the queries write them (tests/test_history.py keeps them so).
_ARCHIVE = re.compile(
    r"^CREATE \((\w+):CardVersion\)-\[:VERSION_OF\]->\((\w+)\)\nSET \1 \+= \2 \{[^}]*\}\n", re.M
)
_FOREACH_ARCHIVE = re.compile(
    r"^FOREACH \(_ IN CASE WHEN \w+ THEN \[1\] ELSE \[\] END \|\n"
    r"  CREATE \(\w+:CardVersion\)[^\n]*\n  SET [^\n]*\n\)\n",
    re.M,
)
_CREATE_RECORD = re.compile(r", c\.change = 'create',\n\s*c\.decided_by = r\.decided_by")


# -- the job, in a worker process ----------------------------------------------------------


class Precomputed:
    """Vectors computed beforehand, by text: the store's time alone."""

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        self.index = {t: i for i, t in enumerate(texts)}
        self.vectors = vectors
        self.dimension = int(vectors.shape[1])
        self.model_name = "precomputed"

    def embed(self, texts):
        return self.vectors[[self.index[t] for t in texts]]

    def embed_batches(self, batches):
        return (self.embed(texts) for texts in batches)

    def forget(self, text: str) -> None:
        pass


def job_cards(n: int) -> tuple[list[dict], list[dict]]:
    """The cards, and the updates (same id, new text) of every ``1/share``-th one."""
    cards = [
        {**c, "id": f"card-{i}", "user_id": c["user_id"]}
        for i, c in enumerate(synthetic_cards(n, users=USERS, seed=n))
    ]
    return cards, [{**c, "fact": c["fact"] + " (corrected)", "version": 1} for c in cards]


def store_bytes(home: Path) -> tuple[int, int]:
    """(bytes of the store's RDB after an AOF rewrite, CardVersion nodes)."""
    from graphmem.store.falkordb import FalkorDBStore

    store = FalkorDBStore.open_embedded(home)
    try:
        store.purge_deleted()  # rewrites the AOF: its base RDB is the store's state
        rows = store.execute("MATCH (v:CardVersion) RETURN count(v) AS n")
        versions = int(rows[0]["n"]) if rows else 0
    finally:
        store.close()
    base = sorted((home / "falkordb").rglob("*.base.rdb"), key=lambda p: p.stat().st_mtime)
    return (base[-1].stat().st_size if base else 0), versions


def worker(args: argparse.Namespace) -> None:
    from graphmem import Card, Memory
    from graphmem.embedding import FastEmbedder

    data = np.load(args.vectors, allow_pickle=False)
    texts, vectors = [str(t) for t in data["texts"]], data["vectors"]
    cards, updates = job_cards(args.cards)
    step = max(1, round(1 / args.share))
    updates = updates[::step]
    home = Path(tempfile.mkdtemp(prefix="gmh-", dir="/tmp"))
    out: dict[str, float] = {}
    try:
        embedder = FastEmbedder(cache_size=0) if args.full else Precomputed(texts, vectors)
        parsed = [Card(**c) for c in cards]
        with Memory.open(home, embedder=embedder) as memory:
            start = time.perf_counter()
            memory.remember_many(parsed, batch_size=256)
            out["ingest_s"] = time.perf_counter() - start
        out["ingest_bytes"], _ = store_bytes(home)
        with Memory.open(home, embedder=embedder) as memory:
            start = time.perf_counter()
            memory.remember_many([Card(**u) for u in updates])
            rated = updates[::2]
            for card in rated:
                memory.feedback(card["user_id"], card["id"], "up")
            gone = updates[::5]
            for card in gone:
                memory.forget(card["user_id"], card["id"], reason="bench")
            for user in sorted({c["user_id"] for c in cards}):
                memory.consolidate(user, ("conflicts",))
            out["changes_s"] = time.perf_counter() - start
            out["changes"] = len(updates) + len(rated) + len(gone)
        out["changed_bytes"], out["versions"] = store_bytes(home)
    finally:
        from graphmem.store.embedded import EmbeddedServer

        EmbeddedServer(home).stop()
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(out))


# -- the parent: trees, rounds, figures ----------------------------------------------------


def checkout(baseline: str) -> Path:
    """A checkout of ``baseline`` (a git ref, or ``no-history``) in a temporary worktree."""
    where = Path(tempfile.mkdtemp(prefix="gmh-tree-", dir="/tmp"))
    ref = "HEAD" if baseline == "no-history" else baseline
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), ref],
        check=True,
        capture_output=True,
    )
    if baseline == "no-history":
        strip_history(where / "cypher")
    return where


def strip_history(cypher: Path) -> None:
    """Take the history clauses out of every query (fails if there were none to take)."""
    archives = creates = 0
    for path in sorted(cypher.rglob("*.cypher")):
        text = path.read_text(encoding="utf-8")
        text, a = _ARCHIVE.subn("", text)
        text, f = _FOREACH_ARCHIVE.subn("", text)
        text, c = _CREATE_RECORD.subn("", text)
        archives, creates = archives + a + f, creates + c
        path.write_text(text, encoding="utf-8")
    if archives < 6 or creates < 2:
        raise SystemExit(f"found {archives} archive and {creates} create clauses: out of date")


def run_worker(tree: Path, args: argparse.Namespace, vectors: Path) -> dict[str, float]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--cards",
        str(args.cards),
        "--share",
        str(args.share),
        "--vectors",
        str(vectors),
    ]
    if args.full:
        command.append("--full")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"worker on {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def precompute(n: int, where: Path) -> Path:
    from graphmem import Card
    from graphmem.embedding import FastEmbedder

    cards, updates = job_cards(n)
    texts = sorted({Card(**c).embedding_text for c in cards + updates})
    print(f"embedding {len(texts)} texts once for every round ...", file=sys.stderr)
    vectors = FastEmbedder().embed(texts)
    path = where / "vectors.npz"
    np.savez(path, texts=np.array(texts), vectors=vectors)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--share", type=float, default=0.1, help="Share of cards updated.")
    parser.add_argument("--full", action="store_true", help="Embed with the model as well.")
    parser.add_argument("--baseline", default="no-history")
    parser.add_argument("--tree", default=None, help="Measure this commit, not the checkout.")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--vectors", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    from machine import describe

    scratch = Path(tempfile.mkdtemp(prefix="gmh-", dir="/tmp"))
    base = checkout(args.baseline)
    mine = checkout(args.tree) if args.tree else ROOT
    try:
        vectors = precompute(args.cards, scratch)
        trees = {f"this ({args.tree or 'checkout'})": mine, f"baseline ({args.baseline})": base}
        results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in order:
                print(f"round {round_ + 1}/{args.rounds}: {name} ...", file=sys.stderr)
                results[name].append(run_worker(trees[name], args, vectors))
        report(results, args, describe())
    finally:
        for tree in {base, mine} - {ROOT}:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                check=False,
                capture_output=True,
            )
        shutil.rmtree(scratch, ignore_errors=True)


def report(
    results: dict[str, list[dict[str, float]]], args: argparse.Namespace, machine: str
) -> None:
    def median(name: str, key: str) -> float:
        return statistics.median(r[key] for r in results[name])

    mine, base = list(results)
    n = args.cards
    print(f"\nmachine: {machine}")
    print(
        f"{n} cards over {USERS} users, {args.rounds} rounds (medians), "
        f"{'with the embedding model' if args.full else 'vectors precomputed (store time)'}"
    )
    rows = [
        ("ingest (cards/s)", lambda k: n / median(k, "ingest_s"), True),
        ("changes (changes/s)", lambda k: median(k, "changes") / median(k, "changes_s"), True),
        ("store after ingest (MB)", lambda k: median(k, "ingest_bytes") / 2**20, False),
        ("store after changes (MB)", lambda k: median(k, "changed_bytes") / 2**20, False),
        ("CardVersion nodes", lambda k: median(k, "versions"), False),
    ]
    print(f"{'':28}{mine:>24}{base:>28}{'this/baseline':>16}")
    for label, value, _ in rows:
        a, b = value(mine), value(base)
        ratio = f"{a / b:.3f}" if b else "-"
        print(f"{label:28}{a:>24.2f}{b:>28.2f}{ratio:>16}")
    print(
        "\nper round (ingest s, changes s): "
        + "; ".join(
            f"{name}: "
            + ", ".join(f"{r['ingest_s']:.2f}/{r['changes_s']:.2f}" for r in results[name])
            for name in results
        )
    )


if __name__ == "__main__":
    main()
