"""Load `graphmem serve` on loopback and check that nothing acknowledged was lost.

Starts ``graphmem --home <tmp> serve`` (API keys on: one key per user), runs ``clients``
concurrent httpx clients for ``duration`` seconds, each mixing

- remember: a new card (acknowledged = 200, kept for verification);
- update: re-read one of the user's cards and write a new fact with its version
  (200 = acknowledged, 409 = a version conflict, reported, never silently merged);
- feedback: thumbs up/down on one of the user's cards (version-guarded as well);
- recall: a query over the user's cards;

while ``quota_clients`` more clients write batches of cards for one user held at a card
quota (set with ``graphmem quota`` while the service runs): every batch is either written
whole (200) or refused whole (429 naming the ``cards`` limit), never in part, and the
other users' clients see no error from it. Then it verifies: every acknowledged card is
readable with its fact; each card's stored
version is 1 + its acknowledged updates + its acknowledged feedbacks (no acknowledged
write lost, none applied twice); its fact is that of the last acknowledged update; and a
key never reads another user's cards (403). Reports throughput, p50/p95/p99 latency per
operation, errors, conflicts and lost writes.

    .venv/bin/python bench/load.py --duration 60 --clients 8 [--quota-clients 2]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

OPS = ("remember", "update", "feedback", "recall")
QUOTA_USER = "load-quota-user"
QUOTA_CARDS = 10  # batches of 3: three fit (9 cards), a fourth would need 12
QUOTA_BATCH = 3
MIX = (0.35, 0.25, 0.15, 0.25)
WORDS = [
    "peanuts",
    "sushi",
    "marathon",
    "piano",
    "Paris",
    "deadline",
    "birthday",
    "dog",
    "garden",
    "chess",
    "coffee",
    "flight",
]
PEOPLE = ["Alice", "Bob", "Carol", "me"]


@dataclass
class CardLog:
    """What the clients were told about one card (shared by the clients of its user)."""

    fact: str
    updates: list[tuple[int, str]] = field(default_factory=list)  # (base version, new fact)
    feedbacks: int = 0


@dataclass
class UserLog:
    """The acknowledged cards of one user; its clients pick cards from here, so they
    contend on the same cards."""

    user: str
    key: str
    cards: dict[str, CardLog] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class LoadReport:
    """Figures of one run."""

    duration_s: float
    clients: int
    requests: int
    throughput_rps: float
    latency_ms: dict[str, dict[str, float]]  # op -> p50/p95/p99/count
    errors: int
    conflicts: int
    lost_writes: int
    acknowledged_cards: int
    acknowledged_updates: int
    acknowledged_feedbacks: int
    error_samples: list[str]
    quota: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0-100) of ``values``.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0
    >>> percentile([5.0], 99)
    5.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def graphmem_command(home: Path, *args: str) -> list[str]:
    """``graphmem --home HOME ARGS...`` with this interpreter."""
    main = "from graphmem.cli import main; main()"
    return [sys.executable, "-c", main, "--home", str(home), *args]


@contextlib.contextmanager
def serve(
    home: Path,
    keys: dict[str, list[str]],
    *,
    timeout: float = 120.0,
    card_quotas: dict[str, int] | None = None,
) -> Iterator[str]:
    """Run ``graphmem serve`` on a free loopback port; yield its base URL. ``card_quotas``
    are set with ``graphmem quota`` once it answers, as an operator would."""
    port = free_port()
    env = {**os.environ, "GRAPHMEM_API_KEYS": json.dumps(keys), "GRAPHMEM_IDLE_TIMEOUT": "60"}
    command = graphmem_command(home, "serve", "--port", str(port), "--log-level", "warning")
    log = (home.parent / f"{home.name}-serve.log").open("w")
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"graphmem serve exited with {proc.returncode}; see {log.name}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"graphmem serve did not answer within {timeout:.0f}s")
            time.sleep(0.2)
        for user, cards in (card_quotas or {}).items():
            subprocess.run(
                graphmem_command(home, "quota", "--user", user, "--cards", str(cards)),
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        from graphmem.store.embedded import EmbeddedServer

        server = EmbeddedServer(home)
        with server.locked():
            server.stop()


class Client(threading.Thread):
    """One load client: its own user, key and connection; records what it was told."""

    def __init__(self, base: str, log: UserLog, seed: int, until: float) -> None:
        super().__init__(name=f"load-{log.user}-{seed}", daemon=True)
        self.user, self.log, self.until = log.user, log, until
        self.rng = random.Random(seed)
        self.http = httpx.Client(
            base_url=f"{base}/v1/users/{log.user}",
            timeout=60,
            headers={"Authorization": f"Bearer {log.key}"},
        )
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.conflicts = 0
        self.serial = 0
        self.tag = seed

    def run(self) -> None:
        try:
            while time.monotonic() < self.until:
                op = self.rng.choices(OPS, MIX)[0] if self.log.cards else "remember"
                getattr(self, f"_{op}")()
        finally:
            self.http.close()

    def _call(self, op: str, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            self.errors.append(f"{op}: {type(exc).__name__}: {exc}")
            return None
        self.latency[op].append((time.perf_counter() - started) * 1000)
        if response.status_code == 409:
            self.conflicts += 1
        elif response.status_code != 200:
            self.errors.append(f"{op}: {response.status_code} {response.text[:200]}")
        return response

    def _fact(self) -> str:
        self.serial += 1
        words = " ".join(self.rng.sample(WORDS, 3))
        return f"{self.rng.choice(PEOPLE)} {words} #{self.user}-{self.tag}-{self.serial}"

    def _remember(self) -> None:
        fact = self._fact()
        body = {"fact": fact, "person": fact.split()[0]}
        response = self._call("remember", "POST", "/cards", json=body)
        if response is not None and response.status_code == 200:
            with self.log.lock:
                self.log.cards[response.json()["id"]] = CardLog(fact)

    def _pick(self) -> str:
        with self.log.lock:
            return self.rng.choice(list(self.log.cards)[-20:])  # recent cards: contention

    def _update(self) -> None:
        card_id = self._pick()
        current = self._call("update", "GET", f"/cards/{card_id}")
        if current is None or current.status_code != 200:
            return
        card = current.json()
        fact = self._fact()
        body = {
            k: card[k]
            for k in ("person", "relationship", "timestamp", "category")
            if card.get(k) is not None
        }
        body |= {"id": card_id, "fact": fact, "version": card["version"]}
        response = self._call("update", "POST", "/cards", json=body)
        if response is not None and response.status_code == 200:
            with self.log.lock:
                self.log.cards[card_id].updates.append((card["version"], fact))

    def _feedback(self) -> None:
        card_id = self._pick()
        signal = self.rng.choice(["up", "down", 4])
        response = self._call(
            "feedback", "POST", f"/cards/{card_id}/feedback", json={"signal": signal}
        )
        if response is not None and response.status_code == 200:
            with self.log.lock:
                self.log.cards[card_id].feedbacks += 1

    def _recall(self) -> None:
        query = f"{self.rng.choice(PEOPLE)} {' '.join(self.rng.sample(WORDS, 2))}"
        response = self._call("recall", "POST", "/recall", json={"query": query, "k": 10})
        if response is not None and response.status_code == 200:
            strangers = {h["card"]["user_id"] for h in response.json()} - {self.user}
            if strangers:
                self.errors.append(f"recall: {self.user} got cards of {sorted(strangers)}")


class QuotaClient(threading.Thread):
    """Writes batches of new cards for a user at a card quota until ``until``; records
    which batches were written (200) and which refused (429), and anything else."""

    def __init__(self, base: str, key: str, seed: int, until: float) -> None:
        super().__init__(name=f"quota-{seed}", daemon=True)
        self.until, self.seed = until, seed
        self.http = httpx.Client(
            base_url=f"{base}/v1/users/{QUOTA_USER}",
            timeout=60,
            headers={"Authorization": f"Bearer {key}"},
        )
        self.written: list[list[str]] = []
        self.refused: list[list[str]] = []
        self.problems: list[str] = []

    def run(self) -> None:
        serial = 0
        try:
            while time.monotonic() < self.until:
                facts = [f"quota fact {self.seed}-{serial}-{i}" for i in range(QUOTA_BATCH)]
                serial += 1
                try:
                    reply = self.http.post(
                        "/cards:batch", json={"cards": [{"fact": f} for f in facts]}
                    )
                except httpx.HTTPError as exc:
                    self.problems.append(f"quota batch: {type(exc).__name__}: {exc}")
                    continue
                if reply.status_code == 200:
                    self.written.append(facts)
                elif reply.status_code == 429 and reply.json().get("field") == "cards":
                    self.refused.append(facts)
                    time.sleep(0.05)  # over quota stays over: no need to hammer
                else:
                    self.problems.append(f"quota batch: {reply.status_code} {reply.text[:200]}")
        finally:
            self.http.close()


def verify_quota(base: str, key: str, clients: list[QuotaClient]) -> dict[str, Any]:
    """What the quota'd user holds: exactly the cards of the batches written, none of a
    refused batch, no more than the limit."""
    with httpx.Client(
        base_url=f"{base}/v1/users/{QUOTA_USER}",
        timeout=60,
        headers={"Authorization": f"Bearer {key}"},
    ) as http:
        stored = {c["fact"] for c in http.get("/cards", params={"limit": 1000}).json()}
        usage = http.get("/quota").json()
    written = {f for c in clients for batch in c.written for f in batch}
    refused = {f for c in clients for batch in c.refused for f in batch}
    problems = [p for c in clients for p in c.problems]
    if stored != written:
        problems.append(
            f"quota user holds {len(stored)} cards, {len(written)} acknowledged "
            f"({len(stored & refused)} from refused batches)"
        )
    if len(stored) > QUOTA_CARDS or usage["cards"] != len(stored):
        problems.append(f"quota user: {len(stored)} cards, usage says {usage['cards']}")
    return {
        "limit": QUOTA_CARDS,
        "batch": QUOTA_BATCH,
        "batches_written": sum(len(c.written) for c in clients),
        "batches_refused": sum(len(c.refused) for c in clients),
        "cards_stored": len(stored),
        "problems": problems,
    }


def verify(base: str, logs: list[UserLog]) -> list[str]:
    """Every acknowledged write readable and counted once; no cross-user read."""
    problems: list[str] = []
    for log in logs:
        with httpx.Client(
            base_url=f"{base}/v1/users/{log.user}",
            timeout=60,
            headers={"Authorization": f"Bearer {log.key}"},
        ) as http:
            for card_id, card_log in log.cards.items():
                response = http.get(f"/cards/{card_id}")
                if response.status_code != 200:
                    problems.append(f"{log.user}/{card_id}: {response.status_code}")
                    continue
                card = response.json()
                bases = [v for v, _ in card_log.updates]
                if len(set(bases)) != len(bases):  # two writers both won one version
                    problems.append(
                        f"{log.user}/{card_id}: lost update, acknowledged "
                        f"twice on base versions {sorted(bases)}"
                    )
                expected_version = 1 + len(card_log.updates) + card_log.feedbacks
                expected_fact = max(card_log.updates)[1] if card_log.updates else card_log.fact
                if (card["version"], card["fact"]) != (expected_version, expected_fact):
                    problems.append(
                        f"{log.user}/{card_id}: stored v{card['version']} "
                        f"{card['fact']!r}, acknowledged v{expected_version} "
                        f"{expected_fact!r}"
                    )
    if len(logs) > 1:
        denied = httpx.get(
            f"{base}/v1/users/{logs[1].user}/cards",
            timeout=30,
            headers={"Authorization": f"Bearer {logs[0].key}"},
        )
        if denied.status_code != 403:
            problems.append(
                f"key of {logs[0].user} on {logs[1].user}'s cards: {denied.status_code}"
            )
    return problems


def run_load(
    base: str,
    keys: dict[str, list[str]],
    *,
    clients: int = 8,
    duration: float = 60.0,
    seed: int = 0,
    quota_clients: int = 0,
) -> LoadReport:
    """Drive the service at ``base`` with ``clients`` clients spread over the users of
    ``keys`` (one key per user), then verify. With ``quota_clients``, that many more
    write batches for ``QUOTA_USER`` (its key in ``keys``; at ``QUOTA_CARDS``, see
    ``serve``)."""
    quota_key = next((k for k, users in keys.items() if users == [QUOTA_USER]), None)
    logs = [UserLog(users[0], key) for key, users in keys.items() if key != quota_key]
    started = time.monotonic()
    workers = [
        Client(base, logs[n % len(logs)], seed * 1000 + n, started + duration)
        for n in range(clients)
    ]
    quota = []
    if quota_clients:
        assert quota_key is not None, f"no key for {QUOTA_USER}"
        quota = [QuotaClient(base, quota_key, n, started + duration) for n in range(quota_clients)]
    for worker in [*workers, *quota]:
        worker.start()
    for worker in [*workers, *quota]:
        worker.join()
    elapsed = time.monotonic() - started
    problems = verify(base, logs)
    quota_report = verify_quota(base, quota_key, quota) if quota else {}
    latency: dict[str, list[float]] = defaultdict(list)
    for worker in workers:
        for op, values in worker.latency.items():
            latency[op].extend(values)
    requests = sum(len(v) for v in latency.values())
    errors = [e for w in workers for e in w.errors]
    return LoadReport(
        duration_s=round(elapsed, 1),
        clients=len(workers),
        requests=requests,
        throughput_rps=round(requests / elapsed, 1),
        latency_ms={
            op: {
                "count": len(v),
                "p50": round(percentile(v, 50), 1),
                "p95": round(percentile(v, 95), 1),
                "p99": round(percentile(v, 99), 1),
            }
            for op, v in sorted(latency.items())
        },
        errors=len(errors),
        conflicts=sum(w.conflicts for w in workers),
        lost_writes=len(problems),
        acknowledged_cards=sum(len(log.cards) for log in logs),
        acknowledged_updates=sum(len(c.updates) for log in logs for c in log.cards.values()),
        acknowledged_feedbacks=sum(c.feedbacks for log in logs for c in log.cards.values()),
        error_samples=(errors + problems)[:10],
        quota=quota_report,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument(
        "--users",
        type=int,
        default=4,
        help="distinct users (clients share them: contention on cards)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--quota-clients",
        type=int,
        default=0,
        help=f"clients writing batches for a user at a {QUOTA_CARDS}-card quota",
    )
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="gm-load-", dir="/tmp"))
    keys = load_keys(args.users, quota=args.quota_clients > 0)
    quotas = {QUOTA_USER: QUOTA_CARDS} if args.quota_clients else None
    try:
        with serve(home / "data", keys, card_quotas=quotas) as base:
            report = run_load(
                base,
                keys,
                clients=args.clients,
                duration=args.duration,
                seed=args.seed,
                quota_clients=args.quota_clients,
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(report.as_dict(), indent=2))
    ok = report.errors == 0 and report.lost_writes == 0
    return 0 if ok and not report.quota.get("problems") else 1


def load_keys(users: int, *, quota: bool = False) -> dict[str, list[str]]:
    """One key per user, granting that user only (and one for ``QUOTA_USER``)."""
    keys = {
        f"key-{n:02d}-{random.Random(n).getrandbits(64):016x}": [f"load-user-{n}"]
        for n in range(users)
    }
    if quota:
        keys[f"key-quota-{random.Random(-1).getrandbits(64):016x}"] = [QUOTA_USER]
    return keys


if __name__ == "__main__":
    sys.exit(main())
