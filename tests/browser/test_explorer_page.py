"""The memory explorer page in a real browser: headless Chromium (Debian's ``chromium``)
driven by Playwright against ``graphmem serve``'s app on a loopback port.

One browser for the module. The walk-through: open ``/ui``, sign in with the user's
API key, ask "what is my sister allergic to?", see the right card highlighted with the
path that found it, open its provenance and see the source turn with the evidence
marked; a screenshot is saved (``build/screenshots/``). ``make stress`` also times the
first view of a 2,000-card and a 10,000-card user (sign-in click to painted graph) and
prints it.

``make test`` installs Chromium where it can (root + apt-get); elsewhere these tests
skip and say why.
"""

from __future__ import annotations

import shutil
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from graphmem import Memory
from graphmem.service import ApiKeys, ServiceSettings, create_app
from graphmem.service.explore import PAGE

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from synthetic import synthetic_user  # noqa: E402

from tests.conftest import short_tmpdir  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
#: Flags that work on a machine with no display, no GPU and a closed network: without
#: the networking ones Chromium keeps dialling hosts it cannot reach; SwiftShader gives
#: sigma.js its WebGL on the CPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-unsafe-swiftshader",
]
SCREENSHOTS = ROOT / "build" / "screenshots"
KEY = "explorer-browser-key-0123"
ADMIN_KEY = "explorer-admin-key-0123"
TURN = "Quick one: my sister Alice is allergic to peanuts, so no satay at her birthday."
EVIDENCE = "my sister Alice is allergic to peanuts"
#: Done-when targets for the first view (sign-in click to painted graph).
FIRST_VIEW_LIMIT_S = {2_000: 2.0, 10_000: 3.0}


def _why_no_browser() -> str | None:
    if not CHROMIUM.exists():
        return (
            f"no Chromium at {CHROMIUM}: install Debian's package (apt-get install chromium); "
            "`make test` does it when run as root with apt-get"
        )
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if not (PAGE / "index.html").is_file():
        return f"the explorer page is not built in {PAGE}: npm ci && npm run build"
    return None


pytestmark = pytest.mark.skipif(_why_no_browser() is not None, reason=str(_why_no_browser()))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def ada(memory: Memory) -> str:
    """The walk-through's user: a sister with an allergy said in a chat turn, a city
    that moved, a manager, the user's own training."""
    ada = f"ada-{uuid.uuid4().hex[:8]}"
    memory.remember_many(
        [
            {
                "user_id": ada,
                "fact": "Alice is allergic to peanuts",
                "person": "Alice",
                "relationship": "sister",
                "timestamp": "2024-03-20T10:15:00Z",
                "backstory": "planning her birthday dinner",
                "category": "health",
                "source": {
                    "session_id": "chat-42",
                    "turn": 3,
                    "speaker": "user",
                    "text": TURN,
                    "span": [TURN.index(EVIDENCE), TURN.index(EVIDENCE) + len(EVIDENCE)],
                },
            },
            {
                "user_id": ada,
                "fact": "Alice lives in Paris",
                "person": "Alice",
                "relationship": "sister",
                "timestamp": "2023-01-10",
            },
            {
                "user_id": ada,
                "fact": "Alice moved to Berlin",
                "person": "Alice",
                "relationship": "sister",
                "timestamp": "2024-02-01",
            },
            {
                "user_id": ada,
                "fact": "Tom prefers morning meetings",
                "person": "Tom",
                "relationship": "manager",
                "timestamp": "2024-01-15",
            },
            {
                "user_id": ada,
                "fact": "Tom is vegetarian",
                "person": "Tom",
                "relationship": "manager",
                "timestamp": "2024-01-16",
            },
            {
                "user_id": ada,
                "fact": "I am training for a half marathon",
                "timestamp": "2024-03-01",
            },
        ]
    )
    memory.consolidate(ada, ("conflicts",))
    ask = memory.tasks.create(ada, "Ask Alice which evening suits her")
    memory.tasks.create(ada, "Book a peanut-free table", blocked_by=[ask.id])
    return ada


@pytest.fixture(scope="module")
def large_users(memory: Memory) -> dict[int, str]:
    """A 2,000- and a 10,000-card user (``bench/synthetic.py``). The smaller one's cards
    are the larger one's first cards, so only 10,000 facts are embedded; writing them is
    most of this module's time (10-20 s on an idle 2-core machine)."""
    suffix = uuid.uuid4().hex[:8]
    users = {}
    for cards in sorted(FIRST_VIEW_LIMIT_S, reverse=True):
        users[cards] = f"big{cards}-{suffix}"
        memory.remember_many(synthetic_user(cards, users[cards]), batch_size=1000)
    return users


@pytest.fixture(scope="module")
def server(memory: Memory, ada: str) -> Iterator[str]:
    keys = ApiKeys.parse({KEY: [ada], ADMIN_KEY: ["*"]})
    app = create_app(memory, settings=ServiceSettings(api_keys=keys))
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    service = uvicorn.Server(config)
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not service.started:
        assert time.monotonic() < deadline, "the service did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    service.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def sign_in(browser: Any, server: str, user: str, key: str = KEY) -> tuple[Any, float]:
    """A fresh tab signed in as ``user``; seconds from the click to the painted graph."""
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    page.goto(f"{server}/ui/")
    page.fill("#user", user)
    page.fill("#key", key)
    started = time.perf_counter()
    page.click("#open")
    page.wait_for_function("() => window.explorer && window.explorer.ready", timeout=30_000)
    return page, time.perf_counter() - started


def test_ask_about_the_sister_see_the_path_and_the_source_turn(
    browser, server, ada, memory, capsys
):
    page, _ = sign_in(browser, server, ada)
    assert "key" not in page.url.lower()  # the key never travels in a URL
    people = page.locator("#panel ul.items li").all_inner_texts()
    assert any(p.startswith("Alice sister") for p in people), people
    page.fill("#query", "what is my sister allergic to?")
    page.press("#query", "Enter")
    top = page.locator(".hit").first
    top.wait_for()
    assert top.locator(".fact").inner_text() == "Alice is allergic to peanuts"
    assert "graph" in top.locator(".channels").inner_text()
    known_steps = top.locator(".path .step.known").all_inner_texts()
    assert "Alice" in known_steps
    card_id = top.get_attribute("data-card-id")
    highlighted = set(page.evaluate("() => [...window.explorer.graph.highlight]"))
    assert {
        f"card:{card_id}",
        "person:alice",
        "KNOWS:user->person:alice",
        f"ABOUT:card:{card_id}->person:alice",
    } <= highlighted
    assert page.evaluate("() => window.explorer.graph.focus") == f"card:{card_id}"
    others = {n.id for n in memory.cards(ada) if n.id != card_id}
    assert not {f"card:{i}" for i in others} & highlighted  # only the right card

    top.locator(".provenance-button").click()
    details = page.locator(f'.card-details[data-card-id="{card_id}"]')
    details.wait_for()
    assert details.locator("blockquote.source").inner_text() == TURN
    assert details.locator("mark.evidence").inner_text() == EVIDENCE
    assert "chat-42" in details.locator(".provenance dl").inner_text()
    page.wait_for_timeout(400)  # let the camera settle on the card
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "explorer-recall.png"
    page.screenshot(path=str(shot))
    with capsys.disabled():  # shown in make test's output, not only on failure
        print(f"\nexplorer screenshot: {shot}")
    page.close()


def test_views_expand_and_a_consolidation_dry_run(browser, server, ada, memory):
    page, _ = sign_in(browser, server, ada)
    page.locator("#panel ul.items button", has_text="Alice").click()
    page.locator("#expand").click()
    page.locator("#status", has_text="more cards of Alice").wait_for()
    page.click('#views button[data-view="history"]')
    decision = page.locator("ol.decisions li").first
    decision.wait_for()
    assert "Alice moved to Berlin replaces Alice lives in Paris" in decision.inner_text()
    assert "location" in decision.locator(".reason").inner_text()
    page.click('#views button[data-view="tasks"]')
    page.locator("#panel ul.items li", has_text="Book a peanut-free table").wait_for()
    assert sorted(page.locator("#panel ul.items li").all_inner_texts()) == [
        "Ask Alice which evening suits her ready",
        "Book a peanut-free table blocked",
    ]
    before = memory.count(ada)
    page.click("#consolidate")
    preview = page.locator(".consolidation")
    preview.wait_for()
    assert preview.locator("h2").inner_text() == "Consolidation preview"
    assert page.locator("#apply").is_visible()
    assert memory.count(ada) == before  # a dry run writes nothing
    page.close()


def test_a_wrong_key_is_refused_in_the_page(browser, server, ada):
    page = browser.new_page()
    page.goto(f"{server}/ui/")
    page.fill("#user", ada)
    page.fill("#key", "not-the-key-at-all")
    page.click("#open")
    page.locator("#status.error").wait_for()
    assert "API key" in page.locator("#status").inner_text()
    assert page.locator("#login").is_visible()
    page.close()


def test_the_readme_walkthrough_make_demo_then_serve(browser, tmp_path):
    """The README's two commands as a new user runs them: the demo in a fresh directory,
    then ``graphmem serve`` there (no keys: loopback only), the page opened as "ada" with
    no key. The README's screenshot (docs/img/explorer.png) is the one saved here."""
    import os
    import subprocess

    import httpx

    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    graphmem = [sys.executable, "-c", "from graphmem.cli import main; main()"]
    home = short_tmpdir()
    port = _free_port()
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        cwd=home,
        env=env,
        check=True,
        capture_output=True,
    )
    serve = subprocess.Popen(
        [*graphmem, "serve", "--port", str(port)],
        cwd=home,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert serve.poll() is None, "graphmem serve exited"
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "graphmem serve did not answer"
            time.sleep(0.2)
        page, _ = sign_in(browser, url, "ada", key="")
        people = page.locator("#panel ul.items li").all_inner_texts()
        assert people == ["Alice sister 1 card", "Bob manager 1 card"]
        assert page.locator("#status").inner_text().startswith("showing 3 of 3 cards · 2 people")
        page.fill("#query", "what is my sister allergic to?")
        page.press("#query", "Enter")
        top = page.locator(".hit").first
        top.wait_for()
        assert top.locator(".fact").inner_text() == "Alice is allergic to peanuts"
        # Two ways to her allergy: the relationship, and the card stating what is asked.
        assert top.locator(".path").all_inner_texts() == [
            "relationship 'sister' → Alice → card",
            "asks allergy → Alice → card",
        ]
        assert top.locator(".path").first.locator(".step.known").all_inner_texts() == [
            "relationship 'sister'",
            "Alice",
            "card",
        ]
        top.locator(".provenance-button").click()
        details = page.locator(".card-details")
        details.wait_for()
        said = "Quick one: my sister Alice is allergic to peanuts, so no satay at her birthday."
        assert details.locator("blockquote.source").inner_text() == said
        assert (
            details.locator("mark.evidence").inner_text()
            == "my sister Alice is allergic to peanuts"
        )
        page.wait_for_timeout(400)  # let the camera settle on the card
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "readme-explorer.png"))
        page.close()
    finally:
        serve.terminate()
        serve.wait(timeout=30)
        subprocess.run([*graphmem, "stop"], cwd=home, env=env, capture_output=True, check=False)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.stress
@pytest.mark.skipif(
    "'stress' not in (config.option.markexpr or '')",
    reason="a timing run over two large users: `make stress` (pytest -m stress)",
)
def test_first_view_of_large_users_is_bounded_and_fast(browser, server, large_users, capsys):
    measured = {}
    for cards in FIRST_VIEW_LIMIT_S:
        page, seconds = sign_in(browser, server, large_users[cards], key=ADMIN_KEY)
        timings = page.evaluate("() => window.explorer.timings")
        shown = page.evaluate("() => window.explorer.graph.counts()")
        measured[cards] = (seconds, timings, shown)
        with capsys.disabled():  # shown in make test's output, not only on failure
            print(
                f"\nfirst view of a {cards:,}-card user: {seconds * 1000:.0f} ms from the click "
                f"(fetch {timings['fetch_ms']} ms, render {timings['render_ms']} ms); "
                f"{shown['nodes']} nodes, {shown['cards']} cards shown; {shutil.which('chromium')}"
            )
        assert shown["cards"] <= 500  # a neighbourhood, never the whole user
        page.close()
    for cards, limit in FIRST_VIEW_LIMIT_S.items():
        assert measured[cards][0] < limit, f"{cards} cards: {measured[cards][0]:.2f} s"
