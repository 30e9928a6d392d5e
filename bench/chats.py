"""graphmem on chat-app exports, beside BM25 and dense retrieval over the raw turns.

    python bench/chats.py SET_DIR [SET_DIR ...] [--consolidate] [--k 20] [--json out.json]

A set is a folder of conversations, each two files (the format: ``bench/data/chats``):
``<name>.jsonl``, a chat export (a dated header line per session, then its turns, speaker
"user" or "assistant"), and ``<name>.questions.json``: the user's name, the people they
talk about (relationship at the end, and the former one), and questions with a ``kind``,
evidence turns (``<session_id>:<turn>``) and answer strings (any one counts).

Per conversation, what a user of graphmem gets:

- **graphmem**: a fresh embedded ``Memory`` in a temporary home, the file ingested as
  ``graphmem ingest --format conversation`` does (``ingestion.pipeline.ingest_file``, the
  conversation's name as user id), then every question asked with
  ``Memory.recall(user, q, k=K)`` and the default ``min_relevance``. Each hit counts for
  the turn its card came from (``card.source``), first occurrence kept (LoCoMo's protocol);
  what it shows is ``card.fact``. With ``--consolidate`` the questions are asked again
  after ``Memory.consolidate(user)`` with its defaults.
- **BM25** over the raw turns: Okapi BM25 (``rank_bm25``) over ``[date] speaker: text``;
  English words lower-cased, NLTK's stop words removed, CJK runs as character bigrams
  (``retrieval.tokens``: the tokeniser follows each text's script).
- **dense** over the same texts: graphmem's default embedder alone, cosine (a turn
  embedded by the other model of its routed space against the question's vector there,
  ``Embedder.across``, as recall compares them).
  A baseline shows the turns it ranks, so its answer figures look in the turns' text.

Figures per set, per question kind and overall (percent):

- R@5, R@10: share of a question's evidence turns among the first 5 / 10 turns; MRR: of
  the first evidence turn. Over questions with evidence.
- ans@5: an answer string (case-insensitive) in what the first 5 hits show; top1: in the
  first hit's. Over questions with answers.
- unanswerable (kind ``unanswerable``): the share of questions with a hit at relevance
  >= ``graphmem.recall.scoring.RELEVANT`` (false hits a caller filtering at that bar would
  see), and with any hit at all as the default call returns them.
- people: each expected person found in ``Memory.people`` by name or alias
  (case-insensitive), and whether their current relationship is the expected one
  ("ex-boyfriend" and "ex boyfriend" alike); the people memory holds that were not expected
  (possibly not people; the user's own node, ``graphmem.models.SELF``, aside) and whether
  the user's own name (full, or its first word) shows up as a person.

Nothing is tuned here and no set is treated specially: the same code reads every set.
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
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import describe
from retrieval import bm25_ranks, dense_ranks, hit_turns, percentile, tokens

if TYPE_CHECKING:
    from graphmem.embedding import Embedder

CUTOFFS = (5, 10)
UNANSWERABLE = "unanswerable"
GRAPHMEM, CONSOLIDATED = "graphmem", "graphmem, consolidated"
BM25, DENSE = "BM25, raw turns", "embedding alone, raw turns"
SYSTEMS = (GRAPHMEM, CONSOLIDATED, BM25, DENSE)
METRICS = ("r@5", "r@10", "mrr", "ans@5", "top1")
LABELS = {"r@5": "R@5", "r@10": "R@10", "mrr": "MRR"}


# ---------------------------------------------------------------------------- data


@dataclass(frozen=True)
class ChatTurn:
    session_id: str
    turn: int
    speaker: str
    text: str
    day: str  # the session's date as the export writes it, to the day

    @property
    def key(self) -> str:
        return f"{self.session_id}:{self.turn}"


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    kind: str
    evidence: frozenset[str]
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Expected:
    name: str
    relationship: str | None
    former: str | None


@dataclass
class Chat:
    name: str
    path: Path
    user_name: str | None
    people: list[Expected]
    turns: list[ChatTurn]
    questions: list[Question]


def load_set(folder: Path) -> list[Chat]:
    """Every conversation of a set folder (``<name>.questions.json`` beside
    ``<name>.jsonl``), in name order."""
    chats = []
    for spec in sorted(folder.glob("*.questions.json")):
        name = spec.name.removesuffix(".questions.json")
        path = folder / f"{name}.jsonl"
        if not path.exists():
            print(f"warning: {spec} has no {path.name}: left out", file=sys.stderr)
            continue
        data = json.loads(spec.read_text(encoding="utf-8"))
        days: dict[str, str] = {}
        turns = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            if "turn" not in record:
                days[record["session_id"]] = str(record.get("date", ""))[:10]
                continue
            session = str(record["session_id"])
            turns.append(
                ChatTurn(
                    session,
                    int(record["turn"]),
                    record["speaker"],
                    record["text"],
                    days.get(session, ""),
                )
            )
        questions = [
            Question(
                f"{name}/{q['id']}",
                q["q"],
                q["kind"],
                frozenset(q.get("evidence") or ()),
                tuple(q.get("answer") or ()),
            )
            for q in data["questions"]
        ]
        people = [
            Expected(p["name"], p.get("relationship"), p.get("former"))
            for p in data.get("people") or []
        ]
        chats.append(Chat(name, path, data.get("user_name"), people, turns, questions))
        for problem in flaws(chats[-1]):
            print(f"warning: {folder}/{name}: {problem}", file=sys.stderr)
    return chats


def flaws(chat: Chat) -> list[str]:
    """What the format promises and the files break: evidence that names no turn, an
    answer in none of its evidence turns. Scored as they are; only reported."""
    text = {t.key: t.text.casefold() for t in chat.turns}
    out = []
    for q in chat.questions:
        missing = sorted(q.evidence - text.keys())
        if missing:
            out.append(f"{q.qid}: no turn {', '.join(missing)}")
        said = [text[e] for e in q.evidence if e in text]
        lost = [a for a in q.answers if not any(a.casefold() in t for t in said)]
        if lost:
            out.append(f"{q.qid}: answer {', '.join(map(repr, lost))} in no evidence turn")
    return out


def raw_text(turn: ChatTurn) -> str:
    """What the baselines index: ``[date] speaker: text``."""
    return f"[{turn.day}] {turn.speaker}: {turn.text}"


# ---------------------------------------------------------------------------- scoring


@dataclass
class Answer:
    """One system's answer to one question: the turns it ranks and the texts it shows,
    best first, and (graphmem) each hit's calibrated relevance."""

    turns: list[str]
    shown: list[str]
    relevance: list[float] | None = None


def holds(answers: Iterable[str], texts: Iterable[str]) -> bool:
    """True when any answer string is in any of the texts, case-insensitive.

    >>> holds(["Van Gogh", "Monet"], ["you might like monet's water lilies"])
    True
    >>> holds(["Monet"], ["Manet"]), holds([], ["Monet"])
    (False, False)
    """
    texts = [t.casefold() for t in texts]
    return any(a.casefold() in t for a in answers for t in texts)


def score(questions: Sequence[Question], answers: dict[str, Answer]) -> dict[str, dict[str, Any]]:
    """Per kind and ``all``: r@5, r@10, MRR (questions with evidence), ans@5 and top1
    (questions with answers) in percent, or None where no question counts, with the
    counts. Unanswerable questions add ``hit>=RELEVANT`` and ``any hit`` (graphmem).

    >>> q = [Question("a", "?", "said", frozenset({"s:1", "s:4"}), ("lena",)),
    ...      Question("b", "?", UNANSWERABLE, frozenset(), ())]
    >>> got = {"a": Answer(["s:2", "s:4"], ["x", "Lena's job"]), "b": Answer([], [], [])}
    >>> row = score(q, got)["all"]
    >>> row["r@5"], row["mrr"], row["ans@5"], row["top1"], row["n_evidence"]
    (50.0, 50.0, 100.0, 0.0, 1)
    >>> score(q, got)[UNANSWERABLE]["any hit"]
    0.0
    """
    from graphmem.recall.scoring import RELEVANT

    cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for q in questions:
        got = answers[q.qid]
        first = next((i for i, t in enumerate(got.turns, 1) if t in q.evidence), None)
        for group in (q.kind, "all"):
            row = cells[group]
            row["n"].append(1)
            if q.evidence:
                for k in CUTOFFS:
                    hit = len(q.evidence & set(got.turns[:k]))
                    row[f"r@{k}"].append(100 * hit / len(q.evidence))
                row["mrr"].append(100 / first if first else 0.0)
            if q.answers:
                row["ans@5"].append(100.0 * holds(q.answers, got.shown[:5]))
                row["top1"].append(100.0 * holds(q.answers, got.shown[:1]))
            if q.kind == UNANSWERABLE and got.relevance is not None:
                row[f"hit>={RELEVANT}"].append(100.0 * any(r >= RELEVANT for r in got.relevance))
                row["any hit"].append(100.0 * bool(got.relevance))
    out: dict[str, dict[str, Any]] = {}
    for group, row in cells.items():
        out[group] = {
            m: (statistics.fmean(row[m]) if row.get(m) else None)
            for m in (*METRICS, *(m for m in row if m.startswith(("hit>=", "any hit"))))
        }
        out[group] |= {
            "n": len(row["n"]),
            "n_evidence": len(row.get("mrr", [])),
            "n_answers": len(row.get("ans@5", [])),
        }
    return out


def same_relationship(expected: str | None, held: str | None) -> bool:
    """The same relationship: in the same words (``same_words``) or in words graphmem
    stores as one ("mom" and "mother", "buddy" and "friend":
    ``graphmem.recall.mentions.canonical_relationship``).

    >>> same_relationship("mother", "mom"), same_relationship("friend", "buddy")
    (True, True)
    >>> same_relationship("sister", "brother"), same_relationship("sister", None)
    (False, False)

    A pet is stored with its kind as its relationship, which is what "pet" expects:

    >>> same_relationship("pet", "cat"), same_relationship("pet", "schnauzer")
    (True, True)
    >>> same_relationship("pet", "sister"), same_relationship("dog", "cat")
    (False, False)

    Read as every relationship is: a pet that died is still a pet, and a kind said in
    another language is its kind:

    >>> same_relationship("pet", "late dog"), same_relationship("pet", "橘猫")
    (True, True)
    """
    from graphmem.recall.mentions import canonical_relationship
    from ingestion import cues

    if expected == "pet" and held is not None:
        kind = canonical_relationship(held)
        return kind in cues.PETS or kind in cues.PET_KINDS.values()
    return same_words(expected, held) or (
        expected is not None
        and held is not None
        and canonical_relationship(expected) == canonical_relationship(held)
    )


def same_words(expected: str | None, held: str | None) -> bool:
    """Relationships compared as a user says them: case, accents, hyphens and spacing aside.

    >>> same_words("ex-boyfriend", "Ex boyfriend"), same_words("fiancé", "fiance")
    (True, True)
    >>> same_words("sister", None), same_words("儿子", "儿子"), same_words("mother", "mom")
    (False, True, False)
    """

    def norm(text: str | None) -> str:
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", text or "") if not unicodedata.combining(c)
        )
        return " ".join(re.sub(r"[-_]", " ", bare).casefold().split())

    return expected is not None and held is not None and norm(expected) == norm(held)


def spellings(name: str) -> set[str]:
    """An expected name and the one it gives in brackets, case-folded, each also without
    a title before it (graphmem keeps "Dr. Feldman" as Feldman).

    >>> sorted(spellings("周若溪（朵朵）")), sorted(spellings("Lena"))
    (['周若溪', '朵朵'], ['lena'])
    >>> sorted(spellings("Dr. Feldman")), sorted(spellings("Ma'am Tess"))
    (['dr. feldman', 'feldman'], ["ma'am tess", 'tess'])
    """
    parts = {p.casefold() for p in re.split(r"\s*[(（]\s*|\s*[)）]\s*", name) if p.strip()}
    titled = re.compile(r"^(?:dr|mr|mrs|ms|miss|prof|professor|sir|dame|ma'am|madam)\.?\s+")
    return parts | {titled.sub("", p) for p in parts if titled.match(p)}


@dataclass
class PeopleCheck:
    expected: int = 0
    found: int = 0
    relationship: int = 0
    #: of those, said in the expected words ("mother" for "mother", not "mom")
    same_words: int = 0
    #: expected people missing or with another relationship: (name, expected, held)
    misses: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    #: people memory holds that were not expected: "name (relationship)"
    extra: list[str] = field(default_factory=list)
    #: the memory person that is the user, by full or first name, if any
    user_as_person: str | None = None


def check_people(chat: Chat, held: Sequence[Any]) -> PeopleCheck:
    """``Memory.people`` against the people the questions file expects. The user's own
    node (``SELF``, which carries their name) is the user, not a person they talk about.

    >>> from graphmem.models import Person
    >>> chat = Chat("u", Path("u.jsonl"), "June Park", [Expected("Tom", "ex-boyfriend", None),
    ...     Expected("Dana", "sister", None)], [], [])
    >>> held = [Person(user_id="u", name="me", relationship="self", aliases=["June"]),
    ...     Person(user_id="u", name="Tom", relationship="ex"),
    ...     Person(user_id="u", name="Bakery", relationship=None)]
    >>> got = check_people(chat, held)
    >>> got.found, got.relationship, got.same_words, got.extra, got.user_as_person
    (1, 1, 0, ['Bakery (-)'], None)
    >>> got.misses  # Tom is an ex, as expected ("ex-boyfriend"), in other words
    [('Dana', 'sister', None)]
    """
    from graphmem.models import SELF

    def names(person: Any) -> set[str]:
        return {n.casefold() for n in (person.name, *person.aliases)}

    held = [p for p in held if p.name != SELF]  # the user's own node, named with their name
    out = PeopleCheck(expected=len(chat.people))
    matched: set[str] = set()
    for want in chat.people:
        person = next((p for p in held if spellings(want.name) & names(p)), None)
        if person is None:
            out.misses.append((want.name, want.relationship, None))
            continue
        matched.add(person.name)
        out.found += 1
        if same_relationship(want.relationship, person.relationship):
            out.relationship += 1
            out.same_words += same_words(want.relationship, person.relationship)
        else:
            out.misses.append((want.name, want.relationship, person.relationship or "-"))
    out.extra = [f"{p.name} ({p.relationship or '-'})" for p in held if p.name not in matched]
    if chat.user_name:
        own = {chat.user_name.casefold(), chat.user_name.split()[0].casefold()}
        out.user_as_person = next((p.name for p in held if names(p) & own), None)
    return out


# ---------------------------------------------------------------------------- systems


def baseline_answers(chats: Sequence[Chat], embedder: Embedder) -> dict[str, dict[str, Answer]]:
    """BM25 and dense over each conversation's raw turns."""
    out: dict[str, dict[str, Answer]] = {BM25: {}, DENSE: {}}
    for chat in chats:
        docs = [raw_text(t) for t in chat.turns]
        queries = [q.text for q in chat.questions]
        ranked = {
            BM25: bm25_ranks([tokens(d) for d in docs], (tokens(q) for q in queries)),
            DENSE: dense_ranks(docs, queries, embedder.embed, embedder),
        }
        for system, ranks in ranked.items():
            for q, order in zip(chat.questions, ranks, strict=True):
                out[system][q.qid] = Answer(
                    [chat.turns[i].key for i in order], [chat.turns[i].text for i in order]
                )
    return out


def ask(memory: Any, user_id: str, chat: Chat, k: int, latencies: list[float]) -> dict[str, Answer]:
    """Every question of ``chat`` as a user asks it: ``recall`` with ``k`` and the default
    ``min_relevance``; each call's wall time goes to ``latencies``."""
    out = {}
    for q in chat.questions:
        started = time.perf_counter()
        hits = memory.recall(user_id, q.text, k=k)
        latencies.append((time.perf_counter() - started) * 1000)
        out[q.qid] = Answer(
            [f"{s}:{t}" for s, t in hit_turns(hits)],
            [hit.card.fact for hit in hits],
            [hit.relevance for hit in hits],
        )
    return out


def ingest_counts(memory: Any, user_id: str, chat: Chat, report: Any) -> dict[str, Any]:
    """Turns per speaker, how many of them have a card in the store and the cards per
    speaker (by each stored card's source), beside the ingest report's own tallies."""
    turns: dict[str, int] = defaultdict(int)
    for turn in chat.turns:
        turns[turn.speaker] += 1
    carded: dict[str, set[str]] = defaultdict(set)
    cards: dict[str, int] = defaultdict(int)
    for card in memory.get_many(user_id, list(dict.fromkeys(report.ids))):
        source = card.source
        speaker = (source.speaker if source else None) or "-"
        cards[speaker] += 1
        if source is not None and source.session_id is not None and source.turn is not None:
            carded[speaker].add(f"{source.session_id}:{source.turn}")
    return {
        "records": report.records,
        "cards": report.cards,
        "seconds": report.seconds,
        "speakers": {
            s: {"turns": turns[s], "carded": len(carded.get(s, ())), "cards": cards.get(s, 0)}
            for s in sorted(set(turns) | set(cards))
        },
        # the report's own tally: turns read by the rules, kept as said, skipped and why
        "report_speakers": {s: asdict(t) for s, t in report.speakers.items()},
        "report_languages": {s: asdict(t) for s, t in report.languages.items()},
    }


def graphmem_answers(
    chat: Chat, k: int, consolidate: bool, latencies: list[float]
) -> tuple[dict[str, dict[str, Answer]], dict[str, Any]]:
    """The product path for one conversation in its own fresh store: answers per system
    (graphmem, and after consolidation when asked), and what ingestion and people made."""
    from graphmem import Memory
    from ingestion.pipeline import ingest_file

    user_id = chat.name
    out: dict[str, dict[str, Answer]] = {}
    info: dict[str, Any] = {}
    home = Path(tempfile.mkdtemp(prefix="gm-chats-"))
    try:
        with Memory.open(home) as memory:
            report = ingest_file(memory, chat.path, user_id, format="conversation", progress=False)
            info["ingest"] = ingest_counts(memory, user_id, chat, report)
            out[GRAPHMEM] = ask(memory, user_id, chat, k, latencies)
            info["people"] = asdict(check_people(chat, memory.people(user_id)))
            if consolidate:
                started = time.perf_counter()
                done = memory.consolidate(user_id)
                info["consolidate"] = {
                    "seconds": time.perf_counter() - started,
                    "conflicts": done.conflicts_found,
                    "abstractions": len(done.abstractions),
                    "forgotten": len(done.forgotten),
                    "active_after": memory.count(user_id).get("active", 0),
                }
                out[CONSOLIDATED] = ask(memory, user_id, chat, k, [])
                info["people_consolidated"] = asdict(check_people(chat, memory.people(user_id)))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return out, info


# ---------------------------------------------------------------------------- report


def _cell(value: float | None, width: int = 6) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.1f}"


def tables(name: str, chats: Sequence[Chat], results: dict[str, dict[str, Any]]) -> str:
    """The set's figures: systems by metric overall, then R@10 / ans@5 per kind."""
    questions = [q for c in chats for q in c.questions]
    kinds = list(dict.fromkeys(q.kind for q in questions if q.evidence or q.answers))
    width = max(len(s) for s in results) + 2
    head = f"{'':<{width}}" + "".join(f"{LABELS.get(m, m):>8}" for m in METRICS)
    lines = [head, "-" * len(head)]
    for system, result in results.items():
        lines.append(f"{system:<{width}}" + "".join(_cell(result["all"][m], 8) for m in METRICS))
    counts = results[GRAPHMEM]["all"]
    lines.append(
        f"(n: {counts['n']} questions, {counts['n_evidence']} with evidence, "
        f"{counts['n_answers']} with answers)"
    )
    lines += ["", "R@10 / ans@5 per kind (kinds with evidence or answers)"]
    labels = [f"{k} ({results[GRAPHMEM][k]['n']})" for k in kinds]
    cols = [max(len(label), 13) + 2 for label in labels]
    head = f"{'':<{width}}" + "".join(f"{lb:>{w}}" for lb, w in zip(labels, cols, strict=True))
    lines += [head, "-" * len(head)]
    for system, result in results.items():
        cells = [
            f"{_cell(result[k]['r@10']).strip()} / {_cell(result[k]['ans@5']).strip()}"
            for k in kinds
        ]
        lines.append(
            f"{system:<{width}}" + "".join(f"{c:>{w}}" for c, w in zip(cells, cols, strict=True))
        )
    turns = sum(len(c.turns) for c in chats)
    title = f"== {name}: {len(chats)} conversations, {turns} turns, {len(questions)} questions"
    return title + "\n" + "\n".join(lines)


def summary_lines(chats: Sequence[Chat], info: dict[str, dict[str, Any]], results) -> list[str]:
    """Ingestion, unanswerable questions and people, in words."""
    from graphmem.recall.scoring import RELEVANT

    lines = []
    speakers: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for chat in chats:
        for speaker, row in info[chat.name]["ingest"]["speakers"].items():
            for key, value in row.items():
                speakers[speaker][key] += value
    tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for chat in chats:
        for speaker, tally in info[chat.name]["ingest"]["report_speakers"].items():
            for key in ("turns", "read", "kept", "cards"):
                tallies[speaker][key] += tally[key]
            for reason, n in tally["skipped"].items():
                tallies[speaker][f"skipped {reason}"] += n
    cards = sum(i["ingest"]["cards"] for i in info.values())
    seconds = sum(i["ingest"]["seconds"] for i in info.values())
    lines.append(
        f"ingested: {cards} cards in {seconds:.1f} s; "
        + "; ".join(
            f"{s} turns {r['turns']}, carded {r['carded']}, cards {r['cards']}"
            for s, r in speakers.items()
        )
    )
    lines.append(
        "ingest report: "
        + "; ".join(
            f"{s} " + ", ".join(f"{k} {v}" for k, v in t.items()) for s, t in tallies.items()
        )
    )
    for system in (GRAPHMEM, CONSOLIDATED):
        row = results.get(system, {}).get(UNANSWERABLE)
        if row:
            lines.append(
                f"unanswerable ({row['n']}), {system}: a hit at relevance >= {RELEVANT} "
                f"{_cell(row[f'hit>={RELEVANT}'], 0)} %, any hit (default call) "
                f"{_cell(row['any hit'], 0)} %"
            )
    for label, key in (("people", "people"), ("people, consolidated", "people_consolidated")):
        checks = [(c.name, info[c.name][key]) for c in chats if key in info[c.name]]
        if not checks:
            continue
        expected = sum(p["expected"] for _, p in checks)
        found = sum(p["found"] for _, p in checks)
        same = sum(p["relationship"] for _, p in checks)
        worded = sum(p.get("same_words", 0) for _, p in checks)
        extra = sum(len(p["extra"]) for _, p in checks)
        users = [f"{n}: {p['user_as_person']}" for n, p in checks if p["user_as_person"]]
        lines.append(
            f"{label}: expected {expected}, found by name {found}, relationship as expected "
            f"{same} ({worded} in the same words); not expected {extra}; the user as a person "
            f"in {len(users)} of {len(checks)} conversations"
            + (f" ({', '.join(users)})" if users else "")
        )
        if key == "people":
            for name, p in checks:
                misses = [f"{n} (want {w}, has {h or 'not found'})" for n, w, h in p["misses"]]
                if misses:
                    lines.append(f"  {name} missed: {'; '.join(misses)}")
                if p["extra"]:
                    lines.append(f"  {name} not expected: {', '.join(p['extra'])}")
    for chat in chats:
        done = info[chat.name].get("consolidate")
        if done:
            lines.append(
                f"  {chat.name} consolidate: {done['seconds']:.1f} s, conflicts "
                f"{done['conflicts']}, abstractions {done['abstractions']}, forgotten "
                f"{done['forgotten']}, active cards after {done['active_after']}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sets", type=Path, nargs="+", help="set folders")
    parser.add_argument("--k", type=int, default=20, help="cards asked of Memory.recall")
    parser.add_argument(
        "--consolidate", action="store_true", help="ask again after Memory.consolidate"
    )
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()

    from graphmem.embedding import default_embedder

    started = time.perf_counter()
    embedder = default_embedder()
    latencies: list[float] = []
    report: dict[str, Any] = {"machine": describe(), "k": args.k, "sets": {}}
    printed = [f"machine: {describe()}"]
    for folder in args.sets:
        name = str(folder).rstrip("/")
        set_started = time.perf_counter()
        chats = load_set(folder)
        if not chats:
            print(f"{name}: no conversations", file=sys.stderr)
            continue
        answers: dict[str, dict[str, Answer]] = defaultdict(dict)
        info: dict[str, dict[str, Any]] = {}
        for chat in chats:
            print(f"{name}: {chat.name} ({len(chat.turns)} turns)", file=sys.stderr)
            got, info[chat.name] = graphmem_answers(chat, args.k, args.consolidate, latencies)
            for system, per_q in got.items():
                answers[system] |= per_q
        for system, per_q in baseline_answers(chats, embedder).items():
            answers[system] = per_q
        questions = [q for c in chats for q in c.questions]
        results = {s: score(questions, answers[s]) for s in SYSTEMS if s in answers}
        printed += [
            "",
            tables(name, chats, results),
            "",
            *summary_lines(chats, info, results),
            f"{time.perf_counter() - set_started:.0f} s for this set (ingest, recall, baselines)",
        ]
        report["sets"][name] = {
            "seconds": time.perf_counter() - set_started,
            "results": results,
            "conversations": info,
            "per_conversation": {
                c.name: {s: score(c.questions, answers[s])["all"] for s in SYSTEMS if s in answers}
                for c in chats
            },
            "answers": {
                s: {
                    qid: {
                        "turns": a.turns[:10],
                        "shown": a.shown[:5],
                        "relevance": a.relevance[:5] if a.relevance else None,
                    }
                    for qid, a in per_q.items()
                }
                for s, per_q in answers.items()
            },
        }
    seconds = time.perf_counter() - started
    report["seconds"] = seconds
    if latencies:
        report["recall_ms"] = {
            "p50": statistics.median(latencies),
            "p95": percentile(latencies, 95),
        }
        printed.append(
            f"\nrecall k={args.k}: p50 {report['recall_ms']['p50']:.1f} ms, "
            f"p95 {report['recall_ms']['p95']:.1f} ms; {seconds:.0f} s in all"
        )
    print("\n".join(printed))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
