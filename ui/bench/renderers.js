// The renderer measurement (bench/ui.py drives it in headless Chromium): the same
// subgraph of a real user, laid out once by ui/src/layout.js, drawn by cytoscape.js
// (canvas) and by sigma.js over graphology (WebGL); times to the first painted frame and
// per frame while zooming.
import cytoscape from "cytoscape";
import Graph from "graphology";
import Sigma from "sigma";
import { layout } from "../src/layout.js";

const COLOURS = {
  user: "#4C8EDA", person: "#F79767", card: "#57C7E3", abstraction: "#FFC454", task: "#DA7194",
};
const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
const frames = async (n) => { for (let i = 0; i < n; i += 1) await frame(); };

function container() {
  document.body.innerHTML = "";
  const div = document.createElement("div");
  div.style.cssText = "width:1280px;height:800px;position:absolute;left:0;top:0";
  document.body.appendChild(div);
  return div;
}

async function zoomFrames(step) {
  const t0 = performance.now();
  for (let i = 0; i < 10; i += 1) {
    step(i);
    await frame();
  }
  return (performance.now() - t0) / 10;
}

async function withCytoscape(graph, pos) {
  const el = container();
  const t0 = performance.now();
  const cy = cytoscape({
    container: el,
    elements: [
      ...graph.nodes.map((n) => ({ data: { id: n.id, label: n.label, kind: n.kind }, position: pos.get(n.id) })),
      ...graph.edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target } })),
    ],
    layout: { name: "preset" },
    style: [
      { selector: "node", style: { label: "data(label)", "font-size": 8, "min-zoomed-font-size": 8, width: 20, height: 20, "text-max-width": 120, "text-wrap": "ellipsis" } },
      ...Object.entries(COLOURS).map(([kind, colour]) => ({ selector: `node[kind = "${kind}"]`, style: { "background-color": colour } })),
      { selector: "edge", style: { width: 1, "line-color": "#A5ABB6" } },
    ],
  });
  cy.fit();
  await frames(2);
  const first = performance.now() - t0;
  const zoom = await zoomFrames((i) => cy.zoom({ level: cy.zoom() * (i % 2 ? 0.8 : 1.25), renderedPosition: { x: 640, y: 400 } }));
  cy.destroy();
  return { first, zoom };
}

async function withSigma(graph, pos) {
  const el = container();
  const t0 = performance.now();
  const g = new Graph({ multi: true });
  for (const n of graph.nodes) {
    const p = pos.get(n.id);
    g.addNode(n.id, { x: p.x, y: -p.y, size: 5, label: n.label, color: COLOURS[n.kind] });
  }
  for (const e of graph.edges) g.addEdgeWithKey(e.id, e.source, e.target, { color: "#A5ABB6", size: 1 });
  const sigma = new Sigma(g, el, { labelRenderedSizeThreshold: 6 });
  await frames(2);
  const first = performance.now() - t0;
  const camera = sigma.getCamera();
  const zoom = await zoomFrames((i) => camera.setState({ ratio: camera.getState().ratio * (i % 2 ? 1.25 : 0.8) }));
  sigma.kill();
  return { first, zoom };
}

window.benchRenderers = async (graph) => {
  const t0 = performance.now();
  const pos = layout(graph.nodes, graph.edges);
  const layoutMs = performance.now() - t0;
  const out = { nodes: graph.nodes.length, edges: graph.edges.length, layout: layoutMs };
  out.cytoscape = await withCytoscape(graph, pos);
  out.sigma = await withSigma(graph, pos);
  return out;
};
