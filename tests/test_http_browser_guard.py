"""A no-key server on loopback is not a web page's to use (issue 31, point 3): a foreign
``Host`` (DNS rebinding) gets 421, a foreign ``Origin`` 403, and ``/import`` takes only a
JSON or NDJSON body (a cross-site "simple" POST is ``text/plain``), as a real
``graphmem serve`` process answers them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from graphmem import Memory
from graphmem.service import ServiceSettings, create_app
from tests.test_http_serve import free_port

HEADER = {"type": "header", "format": "graphmem-export", "version": 1, "user_id": "victim"}
CARD = {"type": "card", "id": "c" * 32, "props": {"fact": "planted by a web page"}}
PLANTED = (json.dumps(HEADER) + "\n" + json.dumps(CARD) + "\n").encode()


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """``graphmem serve`` on 127.0.0.1 without API keys; yields its base URL."""
    from tests.conftest import short_tmpdir

    home = short_tmpdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_API_KEYS")}
    argv = ["--home", str(home), "serve", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, "-c", "from graphmem.cli import main; main()", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, process.communicate()[1]
            try:
                httpx.get(f"{base}/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not come up"
                time.sleep(0.3)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
        from graphmem.store.embedded import EmbeddedServer

        EmbeddedServer(home).stop()


def test_a_cross_site_simple_post_to_import_is_refused(served: str):
    # What a page's fetch(..., {method: "POST", mode: "no-cors", body: text}) sends.
    text_plain = {"content-type": "text/plain;charset=UTF-8"}
    answer = httpx.post(
        f"{served}/v1/users/victim/import",
        content=PLANTED,
        headers={**text_plain, "origin": "https://evil.example"},
    )
    assert (answer.status_code, answer.json()["error"]) == (403, "cross_origin")
    # Without Origin (not a browser): still not JSON, still refused.
    answer = httpx.post(f"{served}/v1/users/victim/import", content=PLANTED, headers=text_plain)
    assert (answer.status_code, answer.json()["error"]) == (415, "unsupported_media_type")
    answer = httpx.post(f"{served}/v1/users/victim/import", content=PLANTED)
    assert answer.status_code == 415
    assert httpx.get(f"{served}/v1/users/victim/cards").json() == []


def test_a_rebound_host_name_is_refused(served: str):
    # DNS rebinding: the page's own name now resolves to 127.0.0.1; Origin and Host agree.
    port = served.rsplit(":", 1)[1]
    rebound = {"host": f"evil.example:{port}", "origin": f"http://evil.example:{port}"}
    answer = httpx.get(f"{served}/v1/users/victim/cards", headers=rebound)
    assert (answer.status_code, answer.json()["field"]) == (421, "host")
    answer = httpx.get(f"{served}/v1/users/victim/cards", headers={"host": "evil.example"})
    assert answer.status_code == 421


def test_the_server_itself_and_local_tools_are_answered(served: str):
    port = served.rsplit(":", 1)[1]
    ndjson = {"content-type": "application/x-ndjson"}
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST"):
        assert httpx.get(f"{served}/health", headers={"host": host}).status_code == 200
    # The explorer page posting from its own origin.
    same = {"origin": served, **ndjson}
    header = {**HEADER, "user_id": "mine"}
    answer = httpx.post(
        f"{served}/v1/users/mine/import", content=json.dumps(header) + "\n", headers=same
    )
    assert answer.status_code == 200, answer.text
    answer = httpx.post(
        f"{served}/v1/users/mine/cards",
        json={"fact": "Mine is mine"},
        headers={"origin": served.replace("127.0.0.1", "localhost")},
    )
    assert answer.status_code == 403  # another origin, though the same machine


def test_an_app_built_for_a_bind_checks_hosts(memory: Memory):
    from graphmem.service.auth import hosts_for_bind

    settings = ServiceSettings(allowed_hosts=hosts_for_bind("127.0.0.1"))
    with TestClient(create_app(memory, settings=settings), base_url="http://127.0.0.1") as c:
        assert c.get("/health").status_code == 200
        assert c.get("/health", headers={"host": "attacker.example"}).status_code == 421
        assert c.get("/health", headers={"origin": "null"}).status_code == 403


def test_wildcard_binds_take_any_host():
    from graphmem.service.auth import hosts_for_bind

    assert hosts_for_bind("0.0.0.0") is None
    assert hosts_for_bind("::") is None
    assert hosts_for_bind("[::1]") == frozenset({"localhost", "127.0.0.1", "::1"})
