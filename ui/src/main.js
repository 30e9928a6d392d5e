// graphmem's memory explorer: one user's memory as a graph, recall with its paths, card
// details with provenance, consolidation previewed before it is applied.
import { Api } from "./api.js";
import { badge, day, el, evidence, rows, when } from "./dom.js";
import { EDGE_STYLES, MemoryGraph, NODE_COLOURS, STATUS_COLOURS } from "./graph.js";

const $ = (id) => document.getElementById(id);
const STEPS = ["conflicts", "abstraction", "forgetting"];
const KEY_STORE = "graphmem.explorer"; // tab-scoped: sessionStorage, never the URL

const state = {
  api: null,
  view: "people",
  graph: null,
  counts: {},
  recall: null, // last RecallView
  timings: {},
  ready: false,
};
window.explorer = state; // for tests and the curious: graph, highlight, timings

function status(text, error = false) {
  const node = $("status");
  node.textContent = text;
  node.classList.toggle("error", error);
}

/** "1 card", "3 cards"; "1 hit", "2 hits"; "1 person", "2 people". */
const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;
const hits = (n) => `${n} hit${n === 1 ? "" : "s"}`;
const people = (n) => `${n} ${n === 1 ? "person" : "people"}`;

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

function panel(...children) {
  const aside = $("panel");
  aside.replaceChildren(...children.flat().filter(Boolean));
  aside.scrollTop = 0;
}

async function guarded(work) {
  try {
    return await work();
  } catch (error) {
    status(error.message, true);
    if (error.status === 401 || error.status === 403) signOut(error.message);
    return null;
  }
}

// -- session ---------------------------------------------------------------------------
async function signIn(user, key) {
  const started = performance.now();
  state.api = new Api(user, key);
  state.ready = false;
  status(`Opening ${user}…`);
  const view = await guarded(() => state.api.overview());
  if (!view) return;
  const fetched = performance.now();
  sessionStorage.setItem(KEY_STORE, JSON.stringify({ user, key }));
  $("login").hidden = true;
  $("session").hidden = false;
  $("toolbar").hidden = false;
  $("who").textContent = user;
  state.graph.clear();
  state.graph.merge(view);
  state.counts = view.counts;
  await frame();
  await frame(); // painted
  const painted = performance.now();
  state.timings = {
    fetch_ms: Math.round(fetched - started),
    render_ms: Math.round(painted - fetched),
    first_view_ms: Math.round(painted - started),
  };
  state.ready = true;
  selectView("people", false);
  summary();
  status(`${describe()} · first view in ${state.timings.first_view_ms} ms`);
}

function signOut(message) {
  sessionStorage.removeItem(KEY_STORE);
  state.api = null;
  state.ready = false;
  state.graph.clear();
  state.graph.sigma.refresh();
  $("login").hidden = false;
  $("session").hidden = true;
  $("toolbar").hidden = true;
  $("key").value = "";
  panel();
  status(message || "Signed out.", Boolean(message));
}

function describe() {
  const shown = state.graph.counts();
  const c = state.counts;
  const total = c.cards ?? shown.cards;
  const parts = [`showing ${shown.cards} of ${total} cards`];
  if (c.people !== undefined) parts.push(people(c.people));
  if (c["cards:superseded"]) parts.push(`${c["cards:superseded"]} superseded`);
  if (c["cards:forgotten"]) parts.push(`${c["cards:forgotten"]} forgotten`);
  return parts.join(" · ");
}

// -- views -----------------------------------------------------------------------------
const VIEWS = {
  people: (api) => api.overview(),
  history: (api) => api.history(),
  abstractions: (api) => api.abstractions(),
  tasks: (api) => api.tasks(),
};

async function selectView(name, load = true) {
  state.view = name;
  for (const button of $("views").querySelectorAll("button")) {
    button.classList.toggle("active", button.dataset.view === name);
  }
  if (!load) return;
  const view = await guarded(() => VIEWS[name](state.api));
  if (!view) return;
  state.graph.clear();
  state.graph.merge(view);
  if (Object.keys(view.counts).length) state.counts = view.counts;
  await state.graph.reset();
  summary();
  status(describe());
}

function summary() {
  const nodes = state.graph.graph.mapNodes((id, a) => a.raw);
  const intro = {
    people: "The people around the user (most cards first) with their relationship, and each person's most important recent cards. Double-click a person to expand, click anything for details.",
    history: "The latest decisions: which newer card superseded which older one (grey arrows) and which cards contradict each other (red), with the reason.",
    abstractions: "Clusters of related cards, each summarised by an abstraction (yellow).",
    tasks: "The task graph: arrows point from a task to what blocks it.",
  }[state.view];
  const list = {
    people: nodes.filter((n) => n.kind === "person"),
    history: [],
    abstractions: nodes.filter((n) => n.kind === "abstraction"),
    tasks: nodes.filter((n) => n.kind === "task"),
  }[state.view];
  panel(
    el("h2", {}, { people: "People", history: "Changes", abstractions: "Clusters", tasks: "Tasks" }[state.view]),
    el("p", { class: "hint" }, intro),
    state.view === "history" ? historyList() : null,
    el(
      "ul",
      { class: "items" },
      list.map((n) =>
        el(
          "li",
          {},
          el("button", { type: "button", class: "link", on: { click: () => select(n) } }, n.label),
          n.kind === "person" ? [" ", badge(n.relationship || "—", "rel"), ` ${cards(n.total ?? 0)}`] : null,
          n.kind === "person" && n.history?.length ? el("small", {}, ` (was ${n.history.join(", ")})`) : null,
          n.kind === "task" ? [" ", badge(n.status)] : null,
          n.kind === "abstraction" && n.total != null ? ` ${cards(n.total)}` : null,
        ),
      ),
    ),
  );
}

function historyList() {
  const edges = state.graph.graph.mapEdges((id, a) => a.raw).filter((e) => e.kind === "SUPERSEDES" || e.kind === "CONFLICTS_WITH");
  const fact = (id) => state.graph.graph.getNodeAttribute(id, "raw").label;
  if (!edges.length) return el("p", {}, "No supersessions or conflicts yet (consolidation records them).");
  return el(
    "ol",
    { class: "decisions" },
    edges.map((e) =>
      el(
        "li",
        { class: e.kind.toLowerCase() },
        badge(e.kind === "SUPERSEDES" ? "supersedes" : "conflicts", e.kind === "SUPERSEDES" ? "superseded" : "conflict"),
        " ",
        el("button", { type: "button", class: "link", on: { click: () => select(state.graph.graph.getNodeAttribute(e.source, "raw")) } }, fact(e.source)),
        e.kind === "SUPERSEDES" ? " replaces " : " vs ",
        el("button", { type: "button", class: "link", on: { click: () => select(state.graph.graph.getNodeAttribute(e.target, "raw")) } }, fact(e.target)),
        el("div", { class: "reason" }, e.label || "", e.decided_by ? ` — ${e.decided_by}` : ""),
      ),
    ),
  );
}

// -- selection and details ---------------------------------------------------------------
async function select(node) {
  if (!node) {
    if (!state.recall) state.graph.setHighlight([]);
    return;
  }
  if (node.kind === "card") return openCard(node.ref);
  const neighbours = state.graph.graph.neighbors(node.id);
  const edges = state.graph.graph.edges(node.id);
  state.graph.setHighlight([node.id, ...neighbours, ...edges], node.id);
  if (node.kind === "person" || node.kind === "user") return personPanel(node);
  if (node.kind === "abstraction") {
    return panel(
      el("h2", {}, "Abstraction"),
      el("p", { class: "fact" }, node.label),
      rows([["members", node.total], ["not shown", node.hidden || null], ["id", node.ref]]),
    );
  }
  if (node.kind === "task") {
    return panel(el("h2", {}, "Task"), el("p", { class: "fact" }, node.label), rows([["state", badge(node.status)], ["id", node.ref], ["updated", when(node.time)]]));
  }
}

function personPanel(node) {
  const isUser = node.kind === "user";
  panel(
    el("h2", {}, isUser ? "The user" : "Person"),
    el("p", { class: "fact" }, node.label),
    rows([
      ["relationship", isUser ? "self" : node.relationship || "—"],
      ["used to be", node.history?.length ? node.history.join(" → ") : null],
      ["cards", node.total],
      ["not shown", node.hidden || null],
    ]),
    el("button", { type: "button", id: "expand", on: { click: () => expand(node) } }, "Expand: more cards"),
  );
}

async function expand(node) {
  if (!node || (node.kind !== "person" && node.kind !== "user")) return;
  const name = node.kind === "user" ? "me" : node.ref;
  const shown = state.graph.graph.filterNodes((id, a) => a.raw.kind === "card" && a.raw.person === node.id).length;
  const sub = await guarded(() => state.api.person(name, shown));
  if (!sub) return;
  const before = state.graph.counts().cards;
  state.graph.merge(sub);
  const added = state.graph.counts().cards - before;
  const raw = state.graph.graph.getNodeAttribute(node.id, "raw");
  if (raw.kind === "person") {
    const hidden = Math.max(0, (raw.hidden || 0) - added);
    state.graph.graph.mergeNodeAttributes(node.id, { raw: { ...raw, hidden }, label: hidden ? `${raw.label} (+${hidden})` : raw.label });
  }
  status(`${describe()} · ${added} more cards of ${node.label}`);
}

// A card's details; from a recall hit, under the hits (the path stays highlighted).
async function openCard(cardId, fromRecall = false) {
  const view = await guarded(() => state.api.card(cardId));
  if (!view) return;
  state.graph.merge(view.graph);
  const element = `card:${cardId}`;
  if (fromRecall && state.recall) {
    state.graph.setHighlight([...state.graph.highlight, element], element);
    panel(hitsPanel(state.query, state.recall, cardId), cardPanel(view));
    $("panel").querySelector(".hit.selected")?.scrollIntoView({ block: "start" });
    return;
  }
  state.recall = null;
  const around = [element, ...state.graph.graph.neighbors(element), ...state.graph.graph.edges(element)];
  state.graph.setHighlight(around, element);
  panel(cardPanel(view));
}

// Other cards a decision ties this one to (CardLink: id, fact, reason, decided_by/at);
// their status and time come from the graph, which holds the card's chain.
function decisionList(title, items) {
  if (!items.length) return null;
  const node = (id) => (state.graph.graph.hasNode(`card:${id}`) ? state.graph.graph.getNodeAttribute(`card:${id}`, "raw") : {});
  return [
    el("h3", {}, title),
    el(
      "ul",
      { class: "decisions" },
      items.map((d) =>
        el(
          "li",
          {},
          el("button", { type: "button", class: "link", on: { click: () => openCard(d.id) } }, d.fact || d.id),
          " ",
          node(d.id).status ? badge(node(d.id).status) : null,
          node(d.id).time ? ` ${day(node(d.id).time)}` : null,
          el("div", { class: "reason" }, d.reason || "", d.decided_by ? ` — ${d.decided_by}` : ""),
        ),
      ),
    ),
  ];
}

function sourceBlock(s) {
  return el(
    "div",
    { class: "provenance" },
    s.text ? evidence(s.text, s.span) : null,
    rows([
      ["session", s.session_id],
      ["document", s.document],
      ["turn", s.turn],
      ["speaker", s.speaker],
      ["session date", s.session_date ? day(s.session_date) : null],
      ["extracted by", s.extractor],
    ]),
  );
}

function cardPanel(view) {
  const p = view.provenance;
  const c = p.card;
  const s = p.source;
  const repeats = (p.sources || []).filter((other) => !s || other.text !== s.text || other.turn !== s.turn || other.session_id !== s.session_id);
  return el(
    "div",
    { class: "card-details", dataset: { cardId: c.id } },
    el("h2", {}, "Card"),
    el("p", { class: "fact" }, c.fact),
    el(
      "p",
      {},
      badge(c.status),
      c.needs_revision ? [" ", badge("needs revision", "needs_revision")] : null,
      " ",
      badge(c.category, "category"),
    ),
    p.status_reason ? el("p", { class: "reason" }, "Why: ", p.status_reason) : null,
    rows([
      ["person", c.person === "me" ? "the user" : c.person],
      ["relationship", p.relationship || c.relationship],
      ["used to be", p.relationship_history.length ? p.relationship_history.join(" → ") : null],
      ["said / true at", when(c.timestamp)],
    ]),
    el("h3", {}, "Provenance"),
    s ? sourceBlock(s) : el("p", { class: "hint" }, "No source turn was recorded for this card."),
    repeats.length ? [el("h3", {}, `Said again (${repeats.length})`), repeats.map(sourceBlock)] : null,
    c.backstory ? el("p", { class: "backstory" }, "Backstory: ", c.backstory) : null,
    el("h3", {}, "Times and scores"),
    rows([
      ["valid", `${day(c.valid_from)} → ${c.valid_to ? day(c.valid_to) : "now"}`],
      ["stored", when(c.created_at)],
      ["updated", when(c.updated_at)],
      ["recalled", `${c.access_count}×${c.last_accessed ? `, last ${when(c.last_accessed)}` : ""}`],
      ["importance", c.importance],
      ["confidence", c.confidence],
      ["feedback", c.reward || null],
      ["forget score", view.forgotten_score],
      ["tags", c.tags.length ? c.tags.join(", ") : null],
      ["id", c.id],
    ]),
    decisionList("Supersedes", p.supersedes),
    decisionList("Superseded by", p.superseded_by),
    decisionList("Conflicts with", p.conflicts),
    p.abstractions.length
      ? [el("h3", {}, "In clusters"), el("ul", {}, p.abstractions.map((a) => el("li", {}, a.summary || a.id)))]
      : null,
  );
}

// -- recall ------------------------------------------------------------------------------
async function ask(query) {
  const result = await guarded(() => state.api.recall(query));
  if (!result) return;
  state.recall = result;
  state.graph.merge(result.graph);
  const all = result.views.flatMap((v) => v.elements);
  const top = result.views[0];
  state.graph.setHighlight(top ? top.elements : all, top ? `card:${top.card_id}` : null);
  state.query = query;
  panel(hitsPanel(query, result, top?.card_id));
  if (top) await state.graph.show(top.elements);
  status(`${describe()} · ${hits(result.hits.length)} for “${query}”`);
}

function hitsPanel(query, result, selected) {
  const views = new Map(result.views.map((v) => [v.card_id, v]));
  return el(
    "div",
    { class: "hits" },
    el("h2", {}, "Recall"),
    el("p", { class: "hint" }, `“${query}”: ${hits(result.hits.length)}, best first. Click one to see its path in the graph and its provenance.`),
    el("button", { type: "button", class: "link", on: { click: clearRecall } }, "clear"),
    el(
      "ol",
      {},
      result.hits.map((hit, i) => {
        const view = views.get(hit.card.id);
        const item = el(
          "li",
          { class: hit.card.id === selected ? "hit selected" : "hit", dataset: { cardId: hit.card.id } },
          el("div", { class: "score" }, hit.score.toFixed(3)),
          el("div", { class: "fact" }, hit.card.fact),
          el("div", { class: "who" }, hit.card.person === "me" ? "the user" : hit.card.person, hit.relationship || hit.card.relationship ? ` (${hit.relationship || hit.card.relationship})` : ""),
          el("div", { class: "channels" }, (hit.found_by || []).map((c) => badge(c, "channel"))),
          el(
            "table",
            { class: "parts" },
            Object.entries(hit.parts || {}).map(([name, value]) =>
              el("tr", {}, el("th", {}, name), el("td", {}, el("meter", { min: 0, max: 1, value: Math.max(0, Math.min(1, value)) })), el("td", {}, Number(value).toFixed(3))),
            ),
          ),
          (view?.paths || []).map((p) =>
            el(
              "div",
              { class: "path" },
              p.steps.map((step, j) => [j ? el("span", { class: "arrow" }, " → ") : null, el("span", { class: step.element ? "step known" : "step" }, step.text)]),
            ),
          ),
          el("button", { type: "button", class: "provenance-button", on: { click: (event) => { event.stopPropagation(); pick(item, hit, view); openCard(hit.card.id, true); } } }, "Provenance"),
        );
        item.addEventListener("click", () => pick(item, hit, view));
        return item;
      }),
    ),
  );
}

function pick(item, hit, view) {
  for (const other of item.parentNode.children) other.classList.toggle("selected", other === item);
  const elements = view ? view.elements : [`card:${hit.card.id}`];
  state.graph.setHighlight(elements, `card:${hit.card.id}`);
  state.graph.show(elements);
}

function clearRecall() {
  state.recall = null;
  state.graph.setHighlight([]);
  summary();
}

// -- consolidation preview ------------------------------------------------------------------
async function preview() {
  const steps = STEPS.filter((s) => document.querySelector(`#steps input[value="${s}"]`)?.checked ?? true);
  status("Computing what consolidation would do (nothing is written)…");
  const report = await guarded(() => state.api.consolidate(true, steps));
  if (!report) return;
  const involved = [
    ...report.conflicts.flatMap((c) => [`card:${c.from_card}`, `card:${c.to_card}`]),
    ...report.forgotten.map((f) => `card:${f.card_id}`),
  ];
  state.recall = null;
  state.graph.setHighlight(involved);
  panel(consolidationPanel(report, steps));
  status(`${describe()} · dry run: ${report.conflicts.length} decisions, ${report.abstractions.length} abstraction changes, ${report.forgotten.length} to forget`);
}

function stepChoice(steps) {
  return el(
    "div",
    { id: "steps" },
    STEPS.map((s) => el("label", {}, el("input", { type: "checkbox", value: s, checked: steps.includes(s), on: { change: preview } }), ` ${s}`)),
  );
}

function consolidationPanel(report, steps) {
  const fact = (id) => (state.graph.graph.hasNode(`card:${id}`) ? state.graph.graph.getNodeAttribute(`card:${id}`, "raw").label : id);
  return el(
    "div",
    { class: "consolidation" },
    el("h2", {}, report.dry_run ? "Consolidation preview" : "Consolidation applied"),
    el("p", { class: "hint" }, report.dry_run ? `A dry run over ${report.cards} active cards (${report.mode}): nothing has changed yet.` : `Done over ${report.cards} active cards.`),
    stepChoice(steps),
    el("h3", {}, `Would be superseded or flagged (${report.conflicts.length})`),
    el(
      "ul",
      { class: "decisions" },
      report.conflicts.map((c) =>
        el(
          "li",
          { class: c.kind },
          badge(c.kind === "supersede" ? "supersede" : "conflict", c.kind === "supersede" ? "superseded" : "conflict"),
          ` “${c.facts[0]}” ${c.kind === "supersede" ? "replaces" : "contradicts"} “${c.facts[1]}”`,
          el("div", { class: "reason" }, c.reason, ` — ${c.decided_by}`),
        ),
      ),
    ),
    el("h3", {}, `Clusters (${report.abstractions.length})`),
    el(
      "ul",
      {},
      report.abstractions.map((a) =>
        el("li", {}, badge(a.action), ` ${a.summary || a.id} (${cards(a.size)})`, a.reason ? el("div", { class: "reason" }, a.reason) : null),
      ),
    ),
    el("h3", {}, `Would be forgotten (${report.forgotten.length})`),
    el(
      "ul",
      {},
      report.forgotten.map((f) => el("li", {}, f.fact || fact(f.card_id), el("div", { class: "reason" }, `P(forget) ${f.score.toFixed(2)}: ${f.reason}`))),
    ),
    report.dry_run
      ? el("button", { type: "button", id: "apply", on: { click: () => apply(steps) } }, "Apply these changes")
      : null,
  );
}

async function apply(steps) {
  const report = await guarded(() => state.api.consolidate(false, steps));
  if (!report) return;
  await selectView(state.view);
  panel(consolidationPanel(report, steps));
}

// -- legend and wiring ----------------------------------------------------------------------
function legend() {
  const swatch = (colour, text) => el("span", { class: "swatch" }, el("i", { style: `background:${colour}` }), text);
  $("legend").replaceChildren(
    ...Object.entries(NODE_COLOURS).map(([k, c]) => swatch(c, k)),
    swatch(STATUS_COLOURS.superseded, "superseded"),
    swatch(STATUS_COLOURS.needs_revision, "needs revision"),
    swatch(EDGE_STYLES.CONFLICTS_WITH.color, "conflict"),
    swatch(STATUS_COLOURS.ready, "ready task"),
  );
}

function start() {
  state.graph = new MemoryGraph($("graph"), { onSelect: select, onExpand: expand });
  legend();
  $("login").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn($("user").value.trim(), $("key").value.trim());
  });
  $("signout").addEventListener("click", () => signOut());
  $("views").addEventListener("click", (event) => {
    const view = event.target.closest("button")?.dataset.view;
    if (view) selectView(view);
  });
  $("ask").addEventListener("submit", (event) => {
    event.preventDefault();
    const query = $("query").value.trim();
    if (query) ask(query);
  });
  $("consolidate").addEventListener("click", preview);
  const saved = JSON.parse(sessionStorage.getItem(KEY_STORE) || "null");
  if (saved?.user) {
    $("user").value = saved.user;
    signIn(saved.user, saved.key);
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
