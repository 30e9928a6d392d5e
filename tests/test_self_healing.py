"""A service that heals (issue 19, points 5 and 10): a long-lived ``Memory``, ``graphmem
serve`` and ``graphmem mcp`` start a dead embedded store again by themselves (bounded,
logged once), and a store they started stops when they exit."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from mcp import Client, StdioServerParameters

from graphmem import Memory, StoreUnavailableError
from graphmem.store import falkordb
from graphmem.store.embedded import EmbeddedServer

RESTARTED = "had stopped; started it again"


def kill_store(home: Path) -> int:
    """SIGKILL the embedded server of ``home``; its pid."""
    pid = EmbeddedServer(home).pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while EmbeddedServer(home).pid() == pid:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return pid


def test_a_long_lived_memory_starts_a_killed_store_again(
    home: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING, logger="graphmem.store.falkordb")
    with Memory.open(home) as memory:
        card = memory.remember({"user_id": "ada", "fact": "I like green tea"})
        dead = kill_store(home)
        hits = memory.recall("ada", "green tea", k=1)
        assert [h.card.id for h in hits] == [card.id]
        assert EmbeddedServer(home).pid() not in (None, dead)
        memory.remember({"user_id": "ada", "fact": "I like oolong too"})
        assert memory.count("ada") == {"active": 2}
        assert memory.started_server
    restarts = [r for r in caplog.records if RESTARTED in r.getMessage()]
    assert len(restarts) == 1  # logged once, not per query
    assert not EmbeddedServer(home).is_running()  # the last client stopped it


def test_a_store_that_cannot_start_is_an_error_tried_again_after_a_pause(
    home: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(falkordb, "REVIVE_PAUSE", 1.0)
    caplog.set_level(logging.WARNING, logger="graphmem.store.falkordb")
    data = home / "falkordb" / "data"
    with Memory.open(home) as memory:
        memory.remember({"user_id": "ada", "fact": "I like green tea"})
        kill_store(home)
        data.rename(home / "data-away")
        data.write_text("not a directory")  # the server cannot start here
        for _ in range(3):
            with pytest.raises(StoreUnavailableError):
                memory.count("ada")
        failures = [r for r in caplog.records if "could not be started again" in r.getMessage()]
        assert len(failures) == 1  # one attempt, then a pause: no restart loop
        data.unlink()
        (home / "data-away").rename(data)
        time.sleep(1.1)
        assert memory.count("ada") == {"active": 1}  # nothing acknowledged was lost


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(home: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    serve_args = ["--home", str(home), "serve", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, "-c", "from graphmem.cli import main; main()", *serve_args],
        env={**os.environ, "GRAPHMEM_API_KEYS": "{}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, process.communicate()[1]
        try:
            httpx.get(f"{base}/health", timeout=5)
            return process, base
        except httpx.TransportError:
            assert time.monotonic() < deadline, "serve did not come up"
            time.sleep(0.2)


def stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    return stderr


def test_serve_heals_and_stops_the_store_it_started(home: Path):
    process, base = serve(home)
    try:
        made = httpx.post(f"{base}/v1/users/ada/cards", json={"fact": "I like green tea"})
        assert made.status_code == 200, made.text
        kill_store(home)
        assert httpx.get(f"{base}/health", timeout=60).json()["status"] == "ok"
        found = httpx.post(f"{base}/v1/users/ada/recall", json={"query": "tea"}, timeout=60)
        assert [h["card"]["id"] for h in found.json()] == [made.json()["id"]]
    finally:
        stderr = stop(process)
    assert stderr.count(RESTARTED) == 1, stderr
    assert not EmbeddedServer(home).is_running()  # started by serve, stopped with it


def test_serve_leaves_running_a_store_it_did_not_start(home: Path):
    Memory.open(home, keep_server=True).close()  # as a CLI call leaves it
    before = EmbeddedServer(home).pid()
    process, _ = serve(home)
    stop(process)
    assert EmbeddedServer(home).pid() == before


def test_mcp_heals_and_stops_the_store_it_started(home: Path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem.mcp_server", "--home", str(home), "--user", "ada"],
    )

    async def session() -> tuple[dict, list]:
        async with Client(params, read_timeout_seconds=120) as client:
            made = await client.call_tool("remember", {"fact": "I like green tea"})
            kill_store(home)
            found = await client.call_tool("recall", {"query": "green tea", "k": 1})
            return made.structured_content, found.structured_content["result"]

    made, found = asyncio.run(session())
    assert [h["id"] for h in found] == [made["id"]]
    deadline = time.monotonic() + 30  # the server process exits after the client hangs up
    while EmbeddedServer(home).is_running():
        assert time.monotonic() < deadline, "mcp left the store it started running"
        time.sleep(0.1)


def test_a_503_logs_one_line(home: Path, caplog: pytest.LogCaptureFixture):
    """What a request logs while the store is down is one line, not the store's log."""
    from fastapi.testclient import TestClient

    from graphmem.service import create_app

    memory = Memory.open(home)
    data = home / "falkordb" / "data"
    try:
        with TestClient(create_app(memory)) as client:
            kill_store(home)
            data.rename(home / "data-away")
            data.write_text("not a directory")
            answer = client.get("/v1/users/ada/cards")
            assert answer.status_code == 503
            assert json.loads(answer.text)["error"] == "store_unavailable"
        logged = [r.getMessage() for r in caplog.records if "store unavailable" in r.getMessage()]
        assert len(logged) == 1
        assert "\n" not in logged[0], logged[0]
    finally:
        data.unlink()
        (home / "data-away").rename(data)
        memory.close()
