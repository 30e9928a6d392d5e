"""The embedding models side by side: Chinese and cross-lingual retrieval, speed, load time.

    python bench/embeddings.py [--models minilm multilingual] [--chats DIR ...]
                               [--locomo PATH] [--json out.json]

Each model runs in a fresh process (so its load time includes its imports, as a CLI call
that starts cold pays them):

- **pairs**: ``bench/data/embedding-zh.json``, query -> passage pairs written for graphmem:
  Chinese questions to Chinese chat turns (``zh``), Chinese questions to English turns
  (``zh_en``) and English questions to Chinese turns (``en_zh``). Every passage of the
  file is the corpus (100 turns); R@1, R@5, R@10 and MRR of the query's own passage.
- **chats** (``--chats``, any folder in the format of bench/data/chats): the embedding
  model alone over the raw turns (``speaker: text``) of each conversation, every
  answerable question ranked against its conversation's turns; R@10 = share of the
  question's evidence turns in the top 10, averaged over questions.
- **speed**: texts/s embedding 2,000 short card facts (bench/synthetic.py) and the long
  turns of ``--locomo`` (or the chats), each text new to the model's cache, on the
  worker threads graphmem uses; load = ``default_embedder`` until the first vector.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from retrieval import dense_ranks

HERE = Path(__file__).resolve().parent
PAIRS = HERE / "data" / "embedding-zh.json"


def pair_scores(model) -> dict[str, dict[str, float]]:
    """Ranked as recall compares them: a passage another model of the space embedded
    against the query's vector there (``Embedder.across``: the routed space's English
    questions against its Chinese turns)."""
    data = json.loads(PAIRS.read_text())
    sets = {name: data[name] for name in ("zh", "zh_en", "en_zh")}
    corpus = [p for pairs in sets.values() for _, p in pairs]
    out = {}
    for name, pairs in sets.items():
        orders = dense_ranks(corpus, [q for q, _ in pairs], model.embed, model)
        ranks = [orders[i].index(corpus.index(passage)) + 1 for i, (_, passage) in enumerate(pairs)]
        r = np.array(ranks)
        out[name] = {
            "R@1": 100 * float(np.mean(r <= 1)),
            "R@5": 100 * float(np.mean(r <= 5)),
            "R@10": 100 * float(np.mean(r <= 10)),
            "MRR": 100 * float(np.mean(1 / r)),
        }
    return out


def chat_turns(folder: Path) -> list[tuple[list[str], list[str], list[dict]]]:
    """(turn ids, turn texts, answerable questions) per conversation of ``folder``."""
    out = []
    for log in sorted(folder.glob("*.jsonl")):
        if not log.with_suffix(".questions.json").is_file():
            continue  # a conversation still being written
        ids, texts = [], []
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if "turn" in row:
                ids.append(f"{row['session_id']}:{row['turn']}")
                texts.append(f"{row['speaker']}: {row['text']}")
        questions = json.loads(log.with_suffix(".questions.json").read_text(encoding="utf-8"))
        out.append((ids, texts, [q for q in questions["questions"] if q["evidence"]]))
    return out


def chat_scores(model, folder: Path) -> dict[str, float]:
    recalls, count = [], 0
    for ids, texts, questions in chat_turns(folder):
        if not questions:
            continue
        orders = dense_ranks(texts, [q["q"] for q in questions], model.embed, model)
        for q, order in zip(questions, orders, strict=True):
            top = {ids[i] for i in order[:10]}
            recalls.append(len(top & set(q["evidence"])) / len(q["evidence"]))
            count += 1
    return {"R@10": 100 * float(np.mean(recalls)) if recalls else float("nan"), "n": count}


def speed(model, texts: list[str]) -> float:
    start = time.perf_counter()
    for i in range(0, len(texts), 256):
        model.embed(texts[i : i + 256])
    return len(texts) / (time.perf_counter() - start)


def one(name: str, chats: list[Path], locomo: Path | None) -> dict:
    start = time.perf_counter()
    from graphmem.embedding import FastEmbedder, default_embedder

    model = default_embedder(None, name)
    load_s = time.perf_counter() - start
    result: dict = {"model": model.model_name, "dimension": model.dimension, "load_s": load_s}
    result["pairs"] = pair_scores(model)
    result["chats"] = {str(folder): chat_scores(model, folder) for folder in chats}

    from synthetic import synthetic_cards

    # the routed space embeds with MiniLM and the multilingual model: its speed is theirs
    fresh = FastEmbedder(name, cache_size=0) if name != "routed" else model
    short = [c["fact"] for c in synthetic_cards(2000, seed=7)]
    if locomo is not None:
        data = json.loads(locomo.read_text())
        long = [
            f"{turn['speaker']}: {turn['text']}"
            for conv in data
            for key, value in conv["conversation"].items()
            if key.startswith("session_") and isinstance(value, list)
            for turn in value
        ]
    else:
        long = [text for folder in chats for _, texts, _ in chat_turns(folder) for text in texts]
    speed(fresh, short[:64])  # warm the workers
    result["texts_per_s"] = {
        "short facts": speed(fresh, short),
        "long turns": speed(fresh, long[:800]),
        "long turn chars (mean)": float(np.mean([len(t) for t in long[:800]])),
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["minilm", "multilingual"])
    parser.add_argument("--chats", nargs="*", type=Path, default=[])
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.chats, args.locomo)))
        return
    from machine import describe

    results = []
    for name in args.models:
        cmd = [sys.executable, __file__, "--one", name, "--chats", *map(str, args.chats)]
        if args.locomo:
            cmd += ["--locomo", str(args.locomo)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
    print(f"machine: {describe()}\n")
    for r in results:
        print(f"{r['model']} ({r['dimension']} dims): load {r['load_s']:.2f} s")
        for name, s in r["pairs"].items():
            print(
                f"  pairs {name:6} R@1 {s['R@1']:5.1f}  R@5 {s['R@5']:5.1f}  "
                f"R@10 {s['R@10']:5.1f}  MRR {s['MRR']:5.1f}"
            )
        for folder, s in r["chats"].items():
            print(f"  chats {Path(folder).name}: R@10 {s['R@10']:.1f} ({s['n']} questions)")
        speeds = r["texts_per_s"]
        print(
            f"  texts/s: short facts {speeds['short facts']:.0f}, long turns "
            f"{speeds['long turns']:.0f} ({speeds['long turn chars (mean)']:.0f} chars)"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
