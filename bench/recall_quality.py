"""Recall quality on the shipped evaluation set: vector-only vs full-text-only vs hybrid.

    python bench/recall_quality.py [--data bench/data/eval] [--users N] [--plot out.png]

Every user's conversations go through the real ingestion path (spaCy extraction,
people, provenance) into a fresh embedded store. Each question is then answered by
``recall`` three times with different candidate channels. A returned card counts for
the source turn it came from; turns are ranked by their first card. Reported per
category and overall:

  recall@5 / recall@10   share of the expected evidence turns among the top 5 / 10 turns
  MRR                    1 / rank of the first expected turn (0 when absent)
  stale@10               "updated" questions whose superseded turn ranks above the
                         current one (lower is better)
  coverage               expected turns that yielded at least one card (the ceiling
                         extraction sets for every retriever)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from graphmem import Memory

HERE = Path(__file__).resolve().parent
MODES = {
    "vector": ("vector",),
    "fulltext": ("fulltext",),
    "hybrid": ("vector", "fulltext", "graph"),
}


def load(data: Path, users: int | None) -> tuple[dict[str, list[dict]], list[dict]]:
    turns: dict[str, list[dict]] = defaultdict(list)
    for line in (data / "conversations.jsonl").read_text().splitlines():
        record = json.loads(line)
        turns[record["user_id"]].append(record)
    keep = sorted(turns)[:users] if users else sorted(turns)
    questions = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines()]
    return {u: turns[u] for u in keep}, [q for q in questions if q["user_id"] in keep]


def ingest(memory: Memory, turns: dict[str, list[dict]], workdir: Path) -> dict[str, set]:
    """Ingest each user's conversation; return the (session, turn) pairs that gave cards."""
    from ingestion.pipeline import ingest_file

    covered: dict[str, set] = {}
    for index, (user, records) in enumerate(turns.items(), start=1):
        path = workdir / f"{user}.jsonl"
        path.write_text(
            "\n".join(json.dumps({k: v for k, v in r.items() if k != "user_id"}) for r in records)
        )
        start = time.perf_counter()
        report = ingest_file(memory, path, user, progress=False)
        print(
            f"  [{index}/{len(turns)}] {user}: {report.records} turns -> {report.cards} "
            f"cards in {time.perf_counter() - start:.1f}s",
            file=sys.stderr,
        )
        covered[user] = {
            (c.source.session_id, c.source.turn)
            for c in memory.cards(user, status=None, limit=100_000)
            if c.source
        }
    return covered


def ranked_turns(hits) -> list[tuple[str, int]]:
    turns: list[tuple[str, int]] = []
    for hit in hits:
        source = hit.card.source
        if source is not None and (source.session_id, source.turn) not in turns:
            turns.append((source.session_id, source.turn))
    return turns


def score(questions: list[dict], answers: dict[str, dict[str, list]]) -> dict:
    table: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for q in questions:
        expected = {(e["session_id"], e["turn"]) for e in q["expected"]}
        stale = {(e["session_id"], e["turn"]) for e in q.get("superseded", [])}
        for mode, by_qid in answers.items():
            turns = by_qid[q["qid"]]
            for cat in (q["category"], "all"):
                row = table[cat][mode]
                row["r@5"].append(len(expected & set(turns[:5])) / len(expected))
                row["r@10"].append(len(expected & set(turns[:10])) / len(expected))
                rank = next((i for i, t in enumerate(turns, 1) if t in expected), None)
                row["mrr"].append(1 / rank if rank else 0.0)
                if stale:
                    first_stale = next((i for i, t in enumerate(turns[:10]) if t in stale), 99)
                    first_good = next((i for i, t in enumerate(turns[:10]) if t in expected), 99)
                    row["stale"].append(float(first_stale < first_good))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=HERE / "data" / "eval")
    parser.add_argument("--users", type=int, help="only the first N users")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--plot", type=Path, help="write a bar chart (PNG) here")
    args = parser.parse_args()

    turns, questions = load(args.data, args.users)
    home = Path(tempfile.mkdtemp(prefix="gmq-", dir="/tmp"))
    try:
        with Memory.open(home) as memory:
            print(f"ingesting {len(turns)} users ...", file=sys.stderr)
            covered = ingest(memory, turns, home)
            answers: dict[str, dict[str, list]] = {mode: {} for mode in MODES}
            print(f"asking {len(questions)} questions x {len(MODES)} modes ...", file=sys.stderr)
            for i, q in enumerate(questions, start=1):
                for mode, channels in MODES.items():
                    hits = memory.recall(
                        q["user_id"], q["question"], k=args.k * 3, channels=channels
                    )
                    answers[mode][q["qid"]] = ranked_turns(hits)
                if i % 50 == 0:
                    print(f"  {i}/{len(questions)}", file=sys.stderr)
    finally:
        shutil.rmtree(home, ignore_errors=True)

    coverage = [
        len({(e["session_id"], e["turn"]) for e in q["expected"]} & covered[q["user_id"]])
        / len(q["expected"])
        for q in questions
    ]
    table = score(questions, answers)
    print(
        f"\n{len(questions)} questions, {len(turns)} users; evidence turns with a card "
        f"(extraction coverage): {sum(coverage) / len(coverage):.1%}\n"
    )
    print(
        f"{'category':<13} {'n':>4} "
        + " ".join(f"{mode + ' ' + m:>16}" for mode in MODES for m in ("r@5", "r@10", "MRR"))
    )
    for cat in ("single-hop", "relationship", "multi-hop", "temporal", "updated", "all"):
        if cat not in table:
            continue
        n = len(table[cat]["hybrid"]["mrr"])
        cells = []
        for mode in MODES:
            row = table[cat][mode]
            cells += [sum(row[m]) / n for m in ("r@5", "r@10", "mrr")]
        print(f"{cat:<13} {n:>4} " + " ".join(f"{c:>16.3f}" for c in cells))
    stale = {mode: table["updated"][mode]["stale"] for mode in MODES if "updated" in table}
    if stale:
        print(
            "\nstale answer ranked first (updated questions): "
            + ", ".join(f"{m} {sum(v) / len(v):.1%}" for m, v in stale.items() if v)
        )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        cats = [
            c
            for c in ("single-hop", "relationship", "multi-hop", "temporal", "updated", "all")
            if c in table
        ]
        fig, ax = plt.subplots(figsize=(8, 4))
        width = 0.27
        for j, mode in enumerate(MODES):
            values = [sum(table[c][mode]["r@10"]) / len(table[c][mode]["r@10"]) for c in cats]
            ax.bar([i + (j - 1) * width for i in range(len(cats))], values, width, label=mode)
        ax.set_xticks(range(len(cats)), cats)
        ax.set_ylabel("recall@10 (evidence turns)")
        ax.set_ylim(0, 1)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
