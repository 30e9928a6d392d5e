"""kill -9 of the embedded server during a few-thousand-card batch, several times over.

Each round's batch (new cards) runs in a child process that prints every acknowledged
batch (``progress``); the parent kills the server mid-batch, reopens and checks every
acknowledged card. The store heals (a dead server is started again and the write tried
once more), so a killed batch may still finish: what must hold is that nothing
acknowledged is lost. A last run of every round's cards again adds nothing: each card
once.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from graphmem import Card, Memory
from graphmem.errors import StoreUnavailableError
from graphmem.store.embedded import EmbeddedServer

pytestmark = pytest.mark.stress
CARDS = 3000
BATCH = 200


@pytest.fixture(autouse=True)
def only_when_asked(request: pytest.FixtureRequest) -> None:
    if "stress" not in (request.config.option.markexpr or ""):
        pytest.skip("stress run: use `make stress` (pytest -m stress tests/stress)")


def batch(n: int, start: int = 0) -> list[Card]:
    return [
        Card(
            user_id="u",
            fact=f"stress fact {i}: Alice and Bob, round {i % 7}",
            person=("Alice", "Bob")[i % 2],
            timestamp=1_700_000_000_000 + i,
        )
        for i in range(start, start + n)
    ]


CHILD = textwrap.dedent("""
    import sys
    from graphmem import Card, Memory
    home, n, size, start = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    cards = [Card(user_id="u", fact=f"stress fact {i}: Alice and Bob, round {i % 7}",
                  person=("Alice", "Bob")[i % 2], timestamp=1_700_000_000_000 + i)
             for i in range(start, start + n)]
    mem = Memory.open(home)
    mem.remember_many(cards, batch_size=size,
                      progress=lambda k: print(k, flush=True))
    print("done", flush=True)
    mem.close()
""")


def run_and_kill(
    home: Path, kill_after: int, rng: random.Random, n: int = CARDS, start: int = 0
) -> tuple[int, bool]:
    """Run the batch of ``n`` cards from ``start`` in a child; kill the server once
    ``kill_after`` cards are acked. Returns (cards acknowledged, whether it was killed)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(home), str(n), str(BATCH), str(start)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acked, killed = 0, False
    for line in child.stdout:
        if line.strip() == "done":
            break
        acked += int(line)
        if not killed and acked >= kill_after:
            time.sleep(rng.uniform(0.0, 0.3))  # somewhere inside the next batch
            pid = EmbeddedServer(home).pid()
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                killed = True
    for line in child.stdout:  # acknowledgements that raced the kill
        if line.strip().isdigit():
            acked += int(line)
    child.wait(timeout=300)
    return acked, killed


def test_repeated_kill_9_during_a_big_batch_loses_nothing(home: Path):
    rng = random.Random(9)
    rounds = 3
    report = []
    for round_ in range(rounds):
        ids = [c.id for c in batch(CARDS, round_ * CARDS)]
        acked, killed = run_and_kill(home, rng.randrange(400, 2400), rng, start=round_ * CARDS)
        with Memory.open(home) as mem:
            present = {c.id for c in mem.get_many("u", ids)}
        report.append((round_, acked, len(present)))
        assert killed, f"the server was not killed mid-batch: {report}"
        assert set(ids[:acked]) <= present, f"acknowledged but missing after kill: {report}"
    acked, killed = run_and_kill(home, rounds * CARDS + 1, rng, n=rounds * CARDS)
    assert not killed
    assert acked == rounds * CARDS
    with Memory.open(home) as mem:
        assert mem.count("u") == {"active": rounds * CARDS}
        rows = mem._store.execute(
            "MATCH (c:Card {user_id: 'u'}) RETURN count(c) AS n, count(DISTINCT c.id) AS d"
        )
        assert rows == [{"n": rounds * CARDS, "d": rounds * CARDS}]
        people = {p.name: p.card_count for p in mem.people("u")}
        assert people == {"Alice": rounds * CARDS // 2, "Bob": rounds * CARDS // 2}
    print("kill -9 rounds (round, acknowledged, present after restart):", report)


def test_opening_on_a_full_disk_says_why():
    import contextlib
    import tempfile

    mount = Path(tempfile.mkdtemp(prefix="gmfull-", dir="/tmp"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        (mount / "ballast").write_bytes(b"\0" * (60 * 1024))
        with pytest.raises(StoreUnavailableError, match="FalkorDB did not start"):
            Memory.open(mount)
    finally:
        server = EmbeddedServer(mount)
        with server.locked():
            server.stop()
        subprocess.run(["umount", "-l", str(mount)], check=False)
        with contextlib.suppress(OSError):
            mount.rmdir()
