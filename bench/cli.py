"""Wall time of a `graphmem recall` and a `graphmem remember` as an agent shelling out pays it.

    python bench/cli.py [--cards 1000] [--rounds 5] [--calls 10]

Runs the installed ``graphmem`` script (the one beside this interpreter) on a fresh data
directory holding ``--cards`` cards of one user, each call a new process, three ways:

  cold        nothing running (``graphmem stop`` first): the call starts the embedded
              store and the graphmem daemon, and is answered by it
  warm        the daemon up: the call hands off to it (what every call after the
              first costs)
  in-process  the store up, no daemon (``GRAPHMEM_DAEMON=off``): Python start-up, the
              CLI's imports and the model's load in every call

Each round takes one cold call of each command and ``--calls`` warm and in-process calls;
medians over all rounds, with the machine (bench/machine.py) and its load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from machine import describe  # noqa: E402

GRAPHMEM = str(Path(sys.executable).parent / "graphmem")
USER = "bench"


def timed(home: Path, *args: str, daemon: bool = True) -> float:
    """Seconds of wall time of one ``graphmem`` call (which must succeed)."""
    env = {**os.environ, "GRAPHMEM_HOME": str(home), "GRAPHMEM_DAEMON": "on" if daemon else "off"}
    started = time.perf_counter()
    done = subprocess.run(
        [GRAPHMEM, *args], env=env, capture_output=True, text=True, check=False, timeout=600
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"graphmem {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def stop(home: Path) -> None:
    subprocess.run(
        [GRAPHMEM, "--home", str(home), "stop"], capture_output=True, check=True, timeout=120
    )


def seed(home: Path, cards: int) -> None:
    from graphmem import Memory

    topics = ["tea", "hiking", "jazz", "Lisbon", "chess", "pottery", "sailing", "curry"]
    people = ["Alice", "Bob", "Chen", "Dana", "me"]
    with Memory.open(home) as memory:
        memory.remember_many(
            {
                "user_id": USER,
                "fact": f"{people[i % 5]} mentioned {topics[i % 8]} on occasion {i}",
                "person": people[i % 5],
                "timestamp": "2024-01-01",
            }
            for i in range(cards)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="gm-cli-", dir="/tmp"))
    times: dict[tuple[str, str], list[float]] = {}
    load_before = os.getloadavg()
    try:
        seed(home, args.cards)
        n = 0

        def recall(daemon: bool = True) -> float:
            return timed(home, "recall", "who likes jazz?", "-u", USER, daemon=daemon)

        def remember(daemon: bool = True) -> float:
            nonlocal n
            n += 1
            return timed(home, "remember", f"I tried bench dish {n}", "-u", USER, daemon=daemon)

        for _ in range(args.rounds):
            for name, command in (("recall", recall), ("remember", remember)):
                stop(home)
                times.setdefault((name, "cold"), []).append(command())
                for _ in range(args.calls):
                    times.setdefault((name, "warm"), []).append(command())
                    times.setdefault((name, "in-process"), []).append(command(daemon=False))
    finally:
        stop(home)
        shutil.rmtree(home, ignore_errors=True)
    load_after = os.getloadavg()

    print(describe())
    print(
        f"load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
        f"{args.cards} cards, {args.rounds} rounds, {args.calls} warm calls per round"
    )
    print(f"{'command':10} {'way':11} {'median':>8} {'min':>8} {'max':>8}  calls")
    for (name, way), values in times.items():
        print(
            f"{name:10} {way:11} {statistics.median(values):7.3f}s {min(values):7.3f}s "
            f"{max(values):7.3f}s  {len(values)}"
        )


if __name__ == "__main__":
    main()
