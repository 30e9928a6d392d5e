"""The embedded FalkorDB server: durable, shared between processes, self-healing."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from graphmem import Card, Memory
from graphmem.cards import write_row
from graphmem.config import Settings
from graphmem.errors import ValidationError
from graphmem.processes import alive
from graphmem.store import embedded
from graphmem.store.embedded import EmbeddedServer
from graphmem.store.falkordb import FalkorDBStore


def test_cards_survive_close_and_reopen(home):
    with Memory.open(home) as mem:
        card = mem.remember(
            Card(user_id="u", fact="Bob loves sushi", person="Bob", relationship="manager")
        )
    assert not EmbeddedServer(home).is_running()  # the last client stopped it cleanly
    with Memory.open(home) as mem:
        assert mem.get("u", card.id).fact == "Bob loves sushi"


def test_a_restart_replays_no_command_that_failed(home):
    """The start probe's graph is logged created before it is deleted, and a constraint
    already there is not created again: replaying a lone delete errs ("Invalid graph
    operation on empty key") and once hung a start; FalkorDB's own log of a constraint
    it made errs once, however often the store is opened."""
    for _ in range(3):
        with Memory.open(home) as mem:
            mem.remember(Card(user_id="u", fact="I like green tea"))
    errors = [
        line for line in EmbeddedServer(home).logfile.read_text().splitlines() if "CRITICAL" in line
    ]
    assert not [line for line in errors if "graph.DELETE" in line]
    assert len(errors) <= 3 * 6  # three restarts, each replaying the six constraints once
    with Memory.open(home) as mem:
        assert [c.fact for c in mem.cards("u")] == ["I like green tea"]


def test_schema_setup_is_idempotent(home):
    with Memory.open(home) as mem:
        before = mem._store.execute(
            "CALL db.indexes() YIELD label, properties RETURN label, properties ORDER BY label"
        )
        mem._store.ensure_schema(mem.embedder.dimension)
        after = mem._store.execute(
            "CALL db.indexes() YIELD label, properties RETURN label, properties ORDER BY label"
        )
    assert before == after


def test_kill_9_of_the_server_loses_no_acknowledged_card(home):
    mem = Memory.open(home)
    ids = []
    for i in range(200):
        ids.append(mem.remember_many([Card(user_id="u", fact=f"fact number {i}")]).ids[0])
    pid = EmbeddedServer(home).pid()
    os.kill(pid, signal.SIGKILL)
    while EmbeddedServer(home).pid() is not None:
        time.sleep(0.01)
    with Memory.open(home) as again:  # a stale pid file and socket are cleaned up
        assert len(again.get_many("u", ids)) == 200
        assert again.count("u") == {"active": 200}


def test_two_processes_share_one_server(home):
    script = textwrap.dedent(f"""
        from graphmem import Memory
        from graphmem.store.embedded import EmbeddedServer
        with Memory.open({str(home)!r}) as mem:
            mem.remember({{"user_id": "u", "fact": "written by the child"}})
            print(EmbeddedServer({str(home)!r}).pid())
    """)
    with Memory.open(home) as parent:
        pid = EmbeddedServer(home).pid()
        child = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
        )
        assert int(child.stdout.strip()) == pid  # the child joined, did not start another
        assert EmbeddedServer(home).pid() == pid  # and leaving did not stop it under us
        assert [c.fact for c in parent.cards("u")] == ["written by the child"]


def test_a_killed_client_leaves_nothing_that_blocks_the_next_start(home):
    script = textwrap.dedent(f"""
        import os, signal
        from graphmem import Memory
        mem = Memory.open({str(home)!r})
        mem.remember({{"user_id": "u", "fact": "before the crash"}})
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    subprocess.run([sys.executable, "-c", script], timeout=120, check=False)
    with Memory.open(home) as mem:
        assert [c.fact for c in mem.cards("u")] == ["before the crash"]


def test_stale_pid_file_of_another_program_is_ignored(home):
    server = EmbeddedServer(home)
    server.dir.mkdir(parents=True)
    server.pidfile.write_text(str(os.getpid()))  # alive, but not a redis server
    server.socket.write_text("")
    with Memory.open(home) as mem:
        assert mem.count("u") == {}
        assert server.pid() != os.getpid()


def test_a_server_that_hangs_on_graph_queries_is_killed_and_replaced(home, monkeypatch):
    # FalkorDB 4.16 sometimes starts with its graph lock taken: PING answers, the first
    # new graph blocks forever. CLIENT PAUSE WRITE makes a real server behave the same.
    with Memory.open(home) as mem:
        card = mem.remember(Card(user_id="u", fact="Bob loves sushi"))
    monkeypatch.setattr(embedded, "_PROBE_TIMEOUT", 1.0)
    server = EmbeddedServer(home)
    hung: list[int] = []
    wait_ready = server._wait_ready

    def first_server_hangs(pid: int, timeout: float) -> bool:
        ready = wait_ready(pid, timeout)
        if not hung:
            hung.append(pid)
            server.connect().execute_command("CLIENT", "PAUSE", 600_000, "WRITE")
        return ready

    monkeypatch.setattr(server, "_wait_ready", first_server_hangs)
    started_again_with(card, server, hung)
    with Memory.open(home) as mem:
        assert mem.remember(Card(user_id="u", fact="Bob moved to Oslo")).version == 1
        graphs = server.connect().execute_command("GRAPH.LIST")
    assert graphs == [b"graphmem"]  # the start-up probe leaves no graph behind


def started_again_with(card: Card, server: EmbeddedServer, hung: list[int]) -> None:
    """Start ``server``, whose first start misbehaves and notes its pid in ``hung``: that
    one is gone, a new one runs, and ``card``, written before, is there."""
    with server.locked():
        server.ensure_running()
    assert not alive(hung[0])
    assert server.pid() not in (None, hung[0])
    with Memory.open(server.home) as mem:
        assert mem.get("u", card.id).fact == "Bob loves sushi"


def test_a_server_that_hangs_while_loading_is_killed_and_replaced(home, monkeypatch):
    # FalkorDB 4.16 sometimes hangs replaying its AOF, before it answers anyone: no reply,
    # no CPU used. SIGSTOP makes a real server stand still the same way.
    with Memory.open(home) as mem:
        card = mem.remember(Card(user_id="u", fact="Bob loves sushi"))
    monkeypatch.setattr(embedded, "_STALL_SECONDS", 1.0)
    server = EmbeddedServer(home)
    hung: list[int] = []
    wait_pid = server._wait_pid

    def first_server_stands_still(*, timeout: float) -> int:
        pid = wait_pid(timeout=timeout)
        if not hung:
            hung.append(pid)
            os.kill(pid, signal.SIGSTOP)
        return pid

    monkeypatch.setattr(server, "_wait_pid", first_server_stands_still)
    started_again_with(card, server, hung)


def test_a_running_server_found_standing_still_is_replaced(home, monkeypatch):
    with Memory.open(home, keep_server=True) as mem:
        card = mem.remember(Card(user_id="u", fact="Bob loves sushi"))
    stuck = EmbeddedServer(home).pid()
    assert stuck is not None
    os.kill(stuck, signal.SIGSTOP)
    monkeypatch.setattr(embedded, "_STALL_SECONDS", 1.0)
    with Memory.open(home) as mem:
        assert mem.get("u", card.id).fact == "Bob loves sushi"
    assert not alive(stuck)


def test_a_clean_stop_folds_the_aof_tail_into_the_snapshot(home):
    store = FalkorDBStore.open_embedded(home)
    store.ensure_schema(384)
    vectors = np.random.default_rng(0).standard_normal((1000, 384))
    rows = [write_row(Card(user_id="u", fact=f"fact {i}"), v) for i, v in enumerate(vectors)]
    store.run("upsert_cards", {"user_id": "u", "rows": rows, "now": 1}, write=True)
    server = EmbeddedServer(home)
    tail = sum(p.stat().st_size for p in server.datadir.glob("appendonlydir/*.incr.aof"))
    assert tail > 4 * 2**20  # each write is logged as query text, vectors included
    store.close()  # the last client: a clean stop
    assert sum(p.stat().st_size for p in server.datadir.glob("appendonlydir/*.incr.aof")) == 0
    with Memory.open(home) as mem:
        assert mem.count("u") == {"active": 1000}


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("GRAPHMEM_IDLE_TIMEOUT", "soon"),
        ("GRAPHMEM_IDLE_TIMEOUT", "-1"),
        ("GRAPHMEM_IDLE_TIMEOUT", "inf"),
        ("GRAPHMEM_MAX_BODY_BYTES", "2MB"),
        ("GRAPHMEM_RECALL_PASSAGES_MB", "0"),
        ("GRAPHMEM_ANN_THRESHOLD", "0"),
    ],
)
def test_a_bad_setting_names_its_variable(variable: str, value: str):
    with pytest.raises(ValidationError) as caught:
        Settings.from_env({variable: value})
    assert caught.value.field == variable
    assert value in str(caught.value)


def test_settings_are_read_from_the_environment_in_one_place():
    settings = Settings.from_env(
        {
            "GRAPHMEM_IDLE_TIMEOUT": "0",
            "GRAPHMEM_NEO4J_PASSWORD": "s3cret",
            "GRAPHMEM_MODEL_DIR": "/opt/models",
            "GRAPHMEM_MAX_BODY_BYTES": "1024",
        }
    )
    assert settings.idle_timeout == 0.0  # never stop
    assert settings.neo4j.uri is None  # a password alone does not switch to Neo4j
    assert settings.neo4j.auth == ("neo4j", "s3cret")
    assert settings.model_dir == Path("/opt/models")
    assert settings.max_body_bytes == 1024


def open_to_others(home: Path) -> list[str]:
    """Every entry under ``home`` (and ``home``) that another account could read."""
    paths = [home, *home.rglob("*")]
    return [f"{p} {oct(p.lstat().st_mode)}" for p in paths if p.lstat().st_mode & 0o077]


def test_the_data_directory_is_private_whatever_the_umask(home):
    home.rmdir()
    old = os.umask(0)  # the worst a caller may have: every file world-writable
    try:
        with Memory.open(home / "data") as mem:
            mem.remember(Card(user_id="u", fact="Bob has a secret"))
            assert open_to_others(home / "data") == []
    finally:
        os.umask(old)
    assert open_to_others(home / "data") == []  # the AOF after a clean stop, too


def test_a_home_left_open_is_tightened(home):
    os.chmod(home, 0o755)  # as an older graphmem left it
    (home / "falkordb" / "data").mkdir(parents=True)
    (home / "falkordb").chmod(0o755)
    (home / "falkordb" / "server.log").write_text("old log\n")
    (home / "falkordb" / "server.log").chmod(0o644)
    (home / "notes.txt").write_text("the user's own file")
    (home / "notes.txt").chmod(0o644)
    with Memory.open(home):
        pass
    assert open_to_others(home) == [f"{home / 'notes.txt'} 0o100644"]  # not graphmem's
