"""`graphmem serve` as a real process on loopback: start, wait for /health, use, stop."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

KEY = "serve-test-key-0123"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_answers_over_http_and_stops_cleanly(home: Path):
    port = free_port()
    env = {**os.environ, "GRAPHMEM_API_KEYS": json.dumps({KEY: ["alice"]})}
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from graphmem.cli import main; main()",
            "--home",
            str(home),
            "serve",
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, process.communicate()[1]
            try:
                health = httpx.get(f"{base}/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not come up"
                time.sleep(0.3)
        assert health.json() == {"status": "ok", "version": "0.1.0", "store": "falkordb"}
        auth = {"Authorization": f"Bearer {KEY}"}
        with httpx.Client(base_url=base, headers=auth, timeout=30) as client:
            card = client.post(
                "/v1/users/alice/cards",
                json={
                    "fact": "Alice is allergic to peanuts",
                    "person": "Alice",
                    "relationship": "sister",
                },
            ).json()
            hits = client.post(
                "/v1/users/alice/recall", json={"query": "sister allergy", "k": 1}
            ).json()
            assert [h["card"]["id"] for h in hits] == [card["id"]]
            assert client.get("/v1/users/bob/people").status_code == 403
            assert httpx.get(f"{base}/v1/users/alice/people").status_code == 401
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    # uvicorn shuts down gracefully (lifespan closes memory), then re-raises the signal.
    assert process.returncode in (0, -signal.SIGTERM), stderr
    assert "Application shutdown complete" in stderr
    requests = [
        json.loads(line)
        for line in stderr.splitlines()
        if line.startswith("{") and '"msg": "request"' in line
    ]
    seen = [(r["method"], r["path"], r["status"]) for r in requests]
    # The port is bound before start-up: a health check that timed out waiting is answered too.
    while seen[1:2] == [("GET", "/health", 200)]:
        seen.pop(0)
    assert seen == [
        ("GET", "/health", 200),
        ("POST", "/v1/users/{user_id}/cards", 200),
        ("POST", "/v1/users/{user_id}/recall", 200),
        ("GET", "/v1/users/{user_id}/people", 403),
        ("GET", "/v1/users/{user_id}/people", 401),
    ]
    assert KEY not in stderr
    assert "peanuts" not in stderr


def test_serve_on_a_busy_port_says_so_and_exits_1(home: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve = ["--home", str(home), "serve", "--port", str(port)]
        result = subprocess.run(
            [sys.executable, "-c", "from graphmem.cli import main; main()", *serve],
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 1, result.stderr
    assert f"error: cannot listen on 127.0.0.1:{port}: Address already in use" in result.stderr
    assert "graphmem API on" not in result.stderr  # no banner for a server that never ran
