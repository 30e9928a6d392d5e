// Positions for a user's memory graph, from its structure (no force simulation): the user
// in the middle, people on a ring around them, each person's cards in a sunflower disc
// just outside their person, the user's own cards in a disc around the user;
// abstractions and tasks get their own arrangements. O(n), deterministic, stable when a
// person is expanded (earlier cards keep their place), so it scales to the whole user.

const GOLDEN = Math.PI * (3 - Math.sqrt(5));
const SPACING = 34; // distance between neighbouring cards in a disc
const GAP = 60;

// Disc of `count` points around (cx, cy): the sunflower (Vogel) spiral, densest inside.
function disc(cx, cy, count, skip = 0) {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const r = SPACING * Math.sqrt(i + skip + 0.5);
    const a = (i + skip) * GOLDEN;
    out.push({ x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
  }
  return out;
}

const discRadius = (count) => SPACING * Math.sqrt(count + 1.5);

// nodes: [{id, kind, person?, status?}], edges: [{kind, source, target}]
// returns Map id -> {x, y}
export function layout(nodes, edges) {
  const pos = new Map();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const members = new Map(); // group element id -> card ids
  const grouped = new Set();
  for (const e of edges) {
    if (e.kind === "SUMMARIZES" && byId.has(e.source)) {
      if (!members.has(e.source)) members.set(e.source, []);
      if (!grouped.has(e.target)) {
        members.get(e.source).push(e.target);
        grouped.add(e.target);
      }
    }
  }
  const people = nodes.filter((n) => n.kind === "person");
  const tasks = nodes.filter((n) => n.kind === "task");
  const groups = nodes.filter((n) => n.kind === "abstraction");
  const cardsOf = new Map([["user", []]]);
  for (const p of people) cardsOf.set(p.id, []);
  const loose = [];
  for (const n of nodes) {
    if (n.kind !== "card" || grouped.has(n.id)) continue;
    if (n.person && cardsOf.has(n.person)) cardsOf.get(n.person).push(n.id);
    else loose.push(n.id);
  }
  cardsOf.get("user").push(...loose);

  pos.set("user", { x: 0, y: 0 });
  const own = cardsOf.get("user");
  const inner = own.length ? discRadius(own.length) + GAP : 0;
  disc(0, 0, own.length, 2).forEach((p, i) => pos.set(own[i], p));

  // People on a ring wide enough for their discs (the person sits on the disc's inner
  // edge, its cards fan outwards).
  const radii = people.map((p) => discRadius(cardsOf.get(p.id).length));
  const circumference = radii.reduce((sum, r) => sum + 2 * r + GAP, 0);
  const ring = Math.max(inner + GAP * 2, circumference / (2 * Math.PI), 240);
  let angle = -Math.PI / 2;
  people.forEach((p, i) => {
    const share = ((2 * radii[i] + GAP) / Math.max(circumference, 1)) * 2 * Math.PI;
    const a = people.length === 1 ? -Math.PI / 2 : angle + share / 2;
    angle += share;
    const px = ring * Math.cos(a);
    const py = ring * Math.sin(a);
    pos.set(p.id, { x: px, y: py });
    const cards = cardsOf.get(p.id);
    const cx = px + (radii[i] + GAP / 2) * Math.cos(a);
    const cy = py + (radii[i] + GAP / 2) * Math.sin(a);
    disc(cx, cy, cards.length).forEach((q, j) => pos.set(cards[j], q));
  });
  const outer = ring + Math.max(0, ...radii) * 2 + GAP * 2;

  // Abstractions: a row of discs below everything else, the summary node above its disc.
  let x = -outer;
  for (const g of groups) {
    const cards = members.get(g.id) || [];
    const r = discRadius(cards.length);
    const cx = x + r;
    const cy = outer + r + GAP * 2;
    pos.set(g.id, { x: cx, y: cy - r - GAP / 2 });
    disc(cx, cy, cards.length).forEach((q, j) => pos.set(cards[j], q));
    x += 2 * r + GAP * 2;
  }

  // Tasks: columns by dependency depth (a task right of everything it is blocked by).
  if (tasks.length) {
    const blockers = new Map(tasks.map((t) => [t.id, []]));
    for (const e of edges) {
      if (e.kind === "BLOCKED_BY" && blockers.has(e.source)) blockers.get(e.source).push(e.target);
    }
    const depth = new Map();
    const visit = (id, seen) => {
      if (depth.has(id)) return depth.get(id);
      if (seen.has(id)) return 0; // never for a stored task graph (no cycles), but bounded
      seen.add(id);
      const d = Math.max(-1, ...(blockers.get(id) || []).map((b) => visit(b, seen))) + 1;
      depth.set(id, d);
      return d;
    };
    const rows = new Map();
    for (const t of tasks) {
      const d = visit(t.id, new Set());
      const row = rows.get(d) || 0;
      rows.set(d, row + 1);
      pos.set(t.id, { x: outer + 200 + d * 220, y: -200 + row * 90 });
    }
    // cited cards sit under the task citing them
    let row = 0;
    for (const e of edges) {
      if (e.kind === "CITES" && !pos.has(e.target) && pos.has(e.source)) {
        const t = pos.get(e.source);
        pos.set(e.target, { x: t.x + 40, y: t.y + 40 + (row % 3) * 20 });
        row += 1;
      }
    }
  }
  // Anything left (a card whose person is not shown, say) circles the user.
  const rest = nodes.filter((n) => !pos.has(n.id));
  disc(0, 0, rest.length, own.length + 2).forEach((p, i) => pos.set(rest[i].id, p));
  return pos;
}
