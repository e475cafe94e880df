// "My matches": the seats this browser holds, kept in localStorage only (a seat's token never
// goes to the server except in the hello and the bearer header), so the lobby can offer a
// rejoin link after the tab was closed.

const KEY = "gladiator.my-matches";
const KEEP = 30;

function read() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(all) ? all.filter((m) => m && typeof m.id === "string" && m.seats) : [];
  } catch {
    return [];
  }
}

function write(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all.slice(0, KEEP)));
  } catch {
    // storage refused (private window): nothing is remembered
  }
}

// The matches remembered, newest first: [{id, ruleset, at, seats: {seat: link}}].
export function myMatches() {
  return read();
}

// Remember seat links (the arena link with its #t=TOKEN fragment) of a match.
export function rememberSeats(id, ruleset, seats) {
  const all = read();
  const old = all.find((m) => m.id === id);
  const entry = { id, ruleset: ruleset || (old && old.ruleset) || "", at: new Date().toISOString(), seats: { ...((old && old.seats) || {}), ...seats } };
  write([entry, ...all.filter((m) => m.id !== id)]);
}

export function forgetMatch(id) {
  write(read().filter((m) => m.id !== id));
}
