// The HTTP API as the page uses it: the key travels in a header, never in a URL.

export class ApiError extends Error {
  constructor(status, body) {
    const detail = typeof body?.detail === "string" ? body.detail : JSON.stringify(body?.detail ?? body);
    super(explain(status, detail));
    this.status = status;
    this.body = body;
  }
}

function explain(status, detail) {
  if (status === 401) return "The server needs an API key: this one is missing or unknown.";
  if (status === 403) return "This API key may not open that user.";
  if (status === 404) return `Not found: ${detail}`;
  if (status === 422) return `Invalid input: ${detail}`;
  if (status === 503) return "The memory store is unavailable; retry in a moment.";
  return `Error ${status}: ${detail}`;
}

export class Api {
  constructor(user, key) {
    this.user = user;
    this.key = key;
  }

  base() {
    return `/v1/users/${encodeURIComponent(this.user)}`;
  }

  async request(method, path, body) {
    const headers = { Accept: "application/json" };
    if (this.key) headers["X-API-Key"] = this.key;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(this.base() + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  overview() { return this.request("GET", "/graph"); }
  person(name, offset) {
    return this.request("GET", `/graph/people/${encodeURIComponent(name)}?offset=${offset}&limit=50`);
  }
  history() { return this.request("GET", "/graph/history"); }
  abstractions() { return this.request("GET", "/graph/abstractions"); }
  tasks() { return this.request("GET", "/graph/tasks"); }
  card(id) { return this.request("GET", `/graph/cards/${encodeURIComponent(id)}`); }
  recall(query) { return this.request("POST", "/graph/recall", { query, k: 10 }); }
  consolidate(dryRun, steps) {
    return this.request("POST", "/consolidate", { dry_run: dryRun, steps });
  }
}
