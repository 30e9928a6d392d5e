"""The explorer page's renderer, measured: cytoscape.js vs sigma.js + graphology.

Builds a synthetic user (default 10,000 cards, ``synthetic.synthetic_user``) in a fresh
embedded store, takes three subgraphs of it from ``Memory.explore`` (the first view the
page opens on, the first 2,000 cards, every card), lays each out once with the page's
own layout (ui/src/layout.js) and draws it with both renderers in headless Chromium
(Debian's ``chromium``, driven by Playwright): time to the first painted frame and mean
frame time while zooming, medians of ``--rounds``.

    python bench/ui.py [--cards 10000] [--rounds 3]

Needs ``npm ci`` (esbuild, cytoscape, sigma, graphology) and ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe
from synthetic import synthetic_user

from graphmem import Memory
from graphmem.explore import Subgraph

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
#: Without the networking flags Chromium keeps trying hosts a closed network refuses.
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


def full_graph(memory: Memory, user_id: str, limit: int | None = None) -> Subgraph:
    """The overview plus every person's cards (pages of 500), up to ``limit`` cards."""
    graph = memory.explore.overview(user_id)
    nodes = {n.id: n for n in graph.nodes}
    edges = {e.id: e for e in graph.edges}
    for person in [n for n in graph.nodes if n.kind in ("person", "user")]:
        offset = 0
        while True:
            cards = sum(1 for n in nodes.values() if n.kind == "card")
            if limit is not None and cards >= limit:
                break
            name = "me" if person.kind == "user" else person.ref
            page = memory.explore.person(user_id, name, offset=offset, limit=500, status=None)
            fresh = [n for n in page.nodes if n.id not in nodes]
            if limit is not None:
                fresh = [n for n in fresh if n.kind != "card"] + [
                    n for n in fresh if n.kind == "card"
                ][: limit - cards]
            nodes.update({n.id: n for n in fresh})
            edges.update({e.id: e for e in page.edges})
            if sum(1 for n in page.nodes if n.kind == "card") < 500:
                break
            offset += 500
    kept = [e for e in edges.values() if e.source in nodes and e.target in nodes]
    return Subgraph(user_id=user_id, nodes=list(nodes.values()), edges=kept)


def bundle() -> Path:
    out = Path(tempfile.mkdtemp(prefix="gm-ui-bench-")) / "renderers.js"
    subprocess.run(
        [
            str(ROOT / "node_modules" / ".bin" / "esbuild"),
            str(ROOT / "ui" / "bench" / "renderers.js"),
            "--bundle",
            "--minify",
            f"--outfile={out}",
            "--log-level=warning",
        ],
        check=True,
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--home", type=Path, help="reuse a store holding user 'ui-bench'")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(describe())
    script = bundle()
    home = args.home or Path(tempfile.mkdtemp(prefix="gm-ui-", dir="/tmp"))
    user = "ui-bench"
    with Memory.open(home) as memory:
        if memory.count(user).get("active", 0) < args.cards:
            started = time.perf_counter()
            memory.remember_many(synthetic_user(args.cards, user))
            print(f"wrote {args.cards} cards in {time.perf_counter() - started:.1f} s")
        graphs = {
            "first view": memory.explore.overview(user),
            "2,000 cards": full_graph(memory, user, limit=2000),
            f"{args.cards:,} cards": full_graph(memory, user),
        }
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(path=str(script))
        print(f"{browser.version}, WebGL renderer:", page.evaluate(_WEBGL))
        header = (
            f"{'graph':<14} {'nodes':>6} {'edges':>6} {'layout':>7} | "
            f"{'cytoscape first':>15} {'zoom/frame':>10} | {'sigma first':>11} {'zoom/frame':>10}"
        )
        print(header)
        for name, graph in graphs.items():
            data = json.loads(graph.model_dump_json(include={"nodes", "edges"}))
            runs = [
                page.evaluate("g => window.benchRenderers(g)", data) for _ in range(args.rounds)
            ]

            def median(*keys: str, runs: list = runs) -> float:
                values = []
                for run in runs:
                    value = run
                    for key in keys:
                        value = value[key]
                    values.append(value)
                return statistics.median(values)

            print(
                f"{name:<14} {runs[0]['nodes']:>6} {runs[0]['edges']:>6} "
                f"{median('layout'):>5.0f}ms | "
                f"{median('cytoscape', 'first'):>13.0f}ms {median('cytoscape', 'zoom'):>8.1f}ms | "
                f"{median('sigma', 'first'):>9.0f}ms {median('sigma', 'zoom'):>8.1f}ms"
            )
        browser.close()
    if args.home is None:
        shutil.rmtree(home, ignore_errors=True)


_WEBGL = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'none';
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
}"""


if __name__ == "__main__":
    main()
