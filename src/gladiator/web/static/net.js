// One websocket to /ws/{match} for one token (docs/web.md "Websocket"): hello with the number of
// events already held, reconnection with backoff after a drop, and catch-up from that number.

// Close codes after which trying again cannot help (docs/web.md).
const FATAL = {
  4400: "the server could not read the greeting",
  4401: "the link carries no token",
  4403: "the token was refused (wrong token, or a page of another site)",
  4404: "there is no such match",
  4429: "too many messages: the server closed the connection",
  1009: "a message was too big",
};
// Another server process holds the match; the "moved" message before it says where (OW5).
const MOVED = 4302;
// The stored match stops replaying at some order: GET /api/matches/{id}/view says which, and
// how to resume it from its last good step (HF5).
const BROKEN = 4409;
const PING_MS = 25000;
const MAX_BACKOFF_MS = 15000;

export class Connection {
  // handlers: {welcome, update, ack, error, voided, clock, status(text, ok), fatal(text),
  // broken()}
  constructor(matchId, token, handlers) {
    this.matchId = matchId;
    this.token = token;
    this.handlers = handlers;
    this.eventCount = 0;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.nextId = 1;
    this.base = null; // the server process that holds the match, once one said so
  }

  url() {
    const path = `/ws/${encodeURIComponent(this.matchId)}`;
    if (this.base) return this.base.replace(/^http/, "ws") + path;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}`;
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, last_event: this.eventCount }));
      this._status("connected", true);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = parseExact(ev.data);
      } catch {
        return; // not ours to show
      }
      if (msg.type === "welcome") this.attempt = 0;
      if (msg.type === "moved") this.base = typeof msg.url === "string" ? msg.url : null;
      if (msg.type === "update" && typeof msg.event_count === "number") {
        this.eventCount = msg.event_count;
      }
      const handler = this.handlers[msg.type];
      if (handler) handler(msg, this);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      if (FATAL[ev.code]) {
        this.closed = true;
        if (this.handlers.fatal) this.handlers.fatal(`Disconnected: ${FATAL[ev.code]}.`, this);
        return;
      }
      if (ev.code === BROKEN) {
        this.closed = true;
        if (this.handlers.broken) this.handlers.broken(this);
        return;
      }
      if (this.closed) return;
      if (ev.code === MOVED) {
        this.attempt = 0;
        this._status("the match moved to another server; reconnecting", false);
        this.retry = setTimeout(() => this.open(), 50);
        return;
      }
      this.base = null; // that process may be the one that went: ask the page's own server
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this._status(`connection lost; trying again in ${Math.round(delay / 1000)} s`, false);
      this.retry = setTimeout(() => this.open(), delay);
    });
  }

  _status(text, ok) {
    if (this.handlers.status) this.handlers.status(text, ok, this);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  // Send an order for the decision `number` (the view's `decision_number`: one that is over by
  // the time it arrives is refused, never applied to the next, CP9); returns its client id, or
  // null when the socket is not open.
  order(text, number) {
    const id = `c${this.nextId++}`;
    const message = { type: "order", id, order: text };
    if (Number.isInteger(number)) message.decision_number = number;
    return this.send(message) ? id : null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}

// JSON.parse, except that a revealed seed (up to 2**63, beyond a JavaScript number's exact
// integers) is kept as the exact digits the server sent, so "gladiator verify" can be given it.
export function parseExact(text) {
  const data = JSON.parse(text);
  const view = data && typeof data === "object" ? data.view : null;
  if (view && typeof view.seed === "number" && !Number.isSafeInteger(view.seed)) {
    // Inside a JSON string a quote is escaped, so an unescaped "seed": is the key itself.
    const m = /(?<!\\)"seed"\s*:\s*(\d+)/.exec(text);
    if (m) view.seed = m[1];
  }
  return data;
}

// Fetch JSON; throws an Error carrying the server's one-sentence {"error"} when there is one.
export async function getJSON(url, options = {}) {
  const res = await fetch(url, options);
  let body = null;
  try {
    body = parseExact(await res.text());
  } catch {
    body = null;
  }
  if (!res.ok) {
    const why = body && typeof body.error === "string" ? body.error : `${res.status} ${res.statusText}`;
    const err = new Error(why);
    err.status = res.status;
    err.body = body;
    throw err;
  }
  return body;
}

export function postJSON(url, data) {
  return getJSON(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
}

// What the server makes of an order without giving it (POST /api/matches/{id}/check):
// {ok: true, order: canonical} or {ok: false, error, reason, legal}. `base`: the server process
// that holds the match, when the socket was sent there (a browser drops the token on a
// redirect to another origin, so the call goes there itself).
export function checkOrder(matchId, token, text, base = null) {
  return getJSON(`${base || ""}/api/matches/${encodeURIComponent(matchId)}/check`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ order: text }),
  });
}
