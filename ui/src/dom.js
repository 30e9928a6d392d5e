// Building DOM from data: text always goes in as text (facts may contain markup).

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function when(ms) {
  if (ms === null || ms === undefined) return "—";
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function day(ms) {
  return ms === null || ms === undefined ? "—" : new Date(ms).toISOString().slice(0, 10);
}

// The source text with the evidence span marked.
export function evidence(text, span) {
  if (!span || span.length !== 2) return el("blockquote", { class: "source" }, text);
  const [start, end] = span;
  return el(
    "blockquote",
    { class: "source" },
    text.slice(0, start),
    el("mark", { class: "evidence" }, text.slice(start, end)),
    text.slice(end),
  );
}

export function rows(pairs) {
  return el(
    "dl",
    {},
    pairs.filter(([, v]) => v !== undefined && v !== null && v !== "").map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]),
  );
}

export function badge(text, kind = text) {
  return el("span", { class: `badge ${kind}` }, text);
}
