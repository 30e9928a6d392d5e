// The memory graph on screen: graphology holds it, sigma.js draws it (WebGL; chosen over
// cytoscape.js by measurement, see docs/explorer.md). Colours follow
// browser/graphmem.grass; statuses and decisions are styled apart; a highlight dims
// everything but the elements of a recall path or a consolidation preview.
import Graph from "graphology";
import Sigma from "sigma";
import { layout } from "./layout.js";

// browser/graphmem.grass colours, by kind
export const NODE_COLOURS = {
  user: "#4C8EDA",
  person: "#F79767",
  card: "#57C7E3",
  abstraction: "#FFC454",
  task: "#DA7194",
};
export const STATUS_COLOURS = {
  superseded: "#A5ABB6", // kept, replaced by a newer card
  forgotten: "#D9DCE1",
  needs_revision: "#F16667",
  ready: "#8DCC93",
  blocked: "#DA7194",
  in_progress: "#4C8EDA",
  done: "#A5ABB6",
  cancelled: "#D9DCE1",
};
export const EDGE_STYLES = {
  KNOWS: { color: "#4C8EDA", size: 2, type: "arrow" },
  ABOUT: { color: "#F9B99A", size: 1, type: "line" },
  SUPERSEDES: { color: "#6B7280", size: 2.5, type: "arrow" },
  CONFLICTS_WITH: { color: "#F16667", size: 3.5, type: "line" },
  SUMMARIZES: { color: "#D7A013", size: 1, type: "line" },
  BLOCKED_BY: { color: "#CC3C6C", size: 2, type: "arrow" },
  CITES: { color: "#DA7194", size: 1, type: "line" },
  MAYBE_SAME: { color: "#F16667", size: 1, type: "line" },
};
const SIZES = { user: 16, person: 11, abstraction: 12, task: 9, card: 5 };
const DIM = "#E5E7EB";
const HIGHLIGHT = "#E8590C";

function nodeColour(n) {
  if (n.kind === "task") return STATUS_COLOURS[n.status] || NODE_COLOURS.task;
  if (n.kind === "card") {
    if (n.needs_revision) return STATUS_COLOURS.needs_revision;
    if (n.status === "superseded" || n.status === "forgotten") return STATUS_COLOURS[n.status];
  }
  return NODE_COLOURS[n.kind];
}

function caption(n) {
  const text = n.label || n.ref;
  const short = text.length > 48 ? `${text.slice(0, 47)}…` : text;
  if (n.kind === "person" && n.hidden) return `${short} (+${n.hidden})`;
  if (n.kind === "abstraction" && n.hidden) return `${short} (+${n.hidden})`;
  return short;
}

export class MemoryGraph {
  constructor(container, { onSelect, onExpand } = {}) {
    this.graph = new Graph({ multi: false, type: "directed" });
    this.highlight = new Set(); // element ids
    this.focus = null; // one element drawn larger (the selected hit or card)
    this.container = container;
    this.sigma = new Sigma(this.graph, container, {
      renderEdgeLabels: true,
      labelRenderedSizeThreshold: 5,
      labelDensity: 0.6,
      labelFont: "system-ui, sans-serif",
      edgeLabelFont: "system-ui, sans-serif",
      edgeLabelSize: 11,
      zIndex: true,
      defaultEdgeType: "line",
      stagePadding: 60,
      nodeReducer: (id, data) => this.reduceNode(id, data),
      edgeReducer: (id, data) => this.reduceEdge(id, data),
    });
    this.sigma.on("clickNode", ({ node }) => onSelect?.(this.graph.getNodeAttribute(node, "raw")));
    this.sigma.on("doubleClickNode", (event) => {
      event.preventSigmaDefault();
      onExpand?.(this.graph.getNodeAttribute(event.node, "raw"));
    });
    this.sigma.on("clickStage", () => onSelect?.(null));
    this.sigma.on("enterNode", () => { container.style.cursor = "pointer"; });
    this.sigma.on("leaveNode", () => { container.style.cursor = ""; });
  }

  clear() {
    this.graph.clear();
    this.highlight = new Set();
    this.focus = null;
  }

  // Merge a Subgraph from the API (nodes first writer wins, so a later, richer view of a
  // person or card replaces the earlier one), then lay everything out again.
  merge(sub) {
    for (const n of sub.nodes) {
      const old = this.graph.hasNode(n.id) ? this.graph.getNodeAttribute(n.id, "raw") : null;
      const raw = old ? { ...old, ...n, hidden: Math.min(old.hidden ?? 0, n.hidden ?? 0) } : n;
      if (old && old.kind === "person" && old.total != null && n.total == null) raw.total = old.total;
      this.graph.mergeNode(n.id, {
        ...(old ? {} : { x: 0, y: 0 }), // placed by relayout() below
        raw,
        label: caption(raw),
        size: SIZES[n.kind] + (n.kind === "card" ? (n.importance ?? 0.5) * 3 : 0),
        color: nodeColour(raw),
      });
    }
    for (const e of sub.edges) {
      if (!this.graph.hasNode(e.source) || !this.graph.hasNode(e.target)) continue;
      const style = EDGE_STYLES[e.kind] || EDGE_STYLES.ABOUT;
      const label = e.kind === "KNOWS" ? e.label : e.kind === "CONFLICTS_WITH" ? "conflicts" : e.kind === "SUPERSEDES" ? "supersedes" : null;
      if (!this.graph.hasEdge(e.id)) {
        this.graph.addEdgeWithKey(e.id, e.source, e.target, { ...style, raw: e, label });
      }
    }
    this.relayout();
  }

  relayout() {
    const nodes = this.graph.mapNodes((id, a) => a.raw);
    const edges = this.graph.mapEdges((id, a) => a.raw);
    const pos = layout(nodes, edges);
    this.graph.forEachNode((id) => {
      const p = pos.get(id);
      this.graph.mergeNodeAttributes(id, { x: p.x, y: -p.y });
    });
    this.sigma.refresh();
  }

  setHighlight(elements, focus = null) {
    this.highlight = new Set(elements);
    this.focus = focus;
    this.sigma.refresh({ skipIndexation: true });
  }

  // Bring nodes into view (a recall path, say): the camera frames them all.
  async show(ids, { duration = 300 } = {}) {
    const points = ids.filter((id) => this.graph.hasNode(id)).map((id) => this.sigma.getNodeDisplayData(id)).filter(Boolean);
    if (!points.length) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const ratio = Math.min(1.1, Math.max(0.12, Math.max(x1 - x0, y1 - y0) * 2.2));
    await this.sigma.getCamera().animate({ x: (x0 + x1) / 2, y: (y0 + y1) / 2, ratio }, { duration });
  }

  reset() {
    return this.sigma.getCamera().animatedReset({ duration: 200 });
  }

  reduceNode(id, data) {
    if (!this.highlight.size) return data;
    if (!this.highlight.has(id)) return { ...data, color: DIM, label: "", zIndex: 0 };
    const focused = id === this.focus;
    return {
      ...data,
      zIndex: focused ? 3 : 2,
      forceLabel: true,
      highlighted: focused,
      size: data.size * (focused ? 1.9 : 1.4),
    };
  }

  reduceEdge(id, data) {
    if (!this.highlight.size) {
      return data.raw.kind === "ABOUT" || data.raw.kind === "SUMMARIZES" ? { ...data, label: null } : data;
    }
    if (!this.highlight.has(id)) return { ...data, color: DIM, label: null, zIndex: 0 };
    return { ...data, color: HIGHLIGHT, size: Math.max(3, data.size * 1.6), zIndex: 2, forceLabel: true };
  }

  counts() {
    let cards = 0;
    this.graph.forEachNode((id, a) => { if (a.raw.kind === "card") cards += 1; });
    return { nodes: this.graph.order, edges: this.graph.size, cards };
  }
}
