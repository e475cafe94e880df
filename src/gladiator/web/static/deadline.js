// Correspondence play (docs/web.md, Correspondence play): the time left to a decision's deadline
// as a player reads it, whose move a match waits for, and the browser notification of "your
// move" (shared by the lobby's "My matches" and the arena page).
//
// A deadline is the server's {seconds, then, due}: `due` is Unix seconds (null once the match is
// over); the time left is read on this browser's clock.

const UNITS = [["d", 86400], ["h", 3600], ["min", 60], ["s", 1]];

// `seconds` in its largest unit and the next one where that is not zero: "22 h 10 min",
// "3 d", "45 s", "1 min 5 s".
export function durationText(seconds) {
  let left = Math.max(0, Math.round(seconds));
  const counts = UNITS.map(([unit, size]) => {
    const n = Math.floor(left / size);
    left -= n * size;
    return [n, unit];
  });
  const first = counts.findIndex(([n]) => n > 0);
  if (first < 0) return "0 s";
  return counts.slice(first, first + 2).filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}`).join(" ");
}

// Seconds until the deadline passes (0 once it has), or null without one.
export function secondsLeft(deadline, now = Date.now() / 1000) {
  if (!deadline || typeof deadline.due !== "number") return null;
  return Math.max(0, deadline.due - now);
}

// "22 h 10 min left", "the deadline has passed", or "" without a deadline.
export function leftText(deadline, now) {
  const left = secondsLeft(deadline, now);
  if (left === null) return "";
  return left >= 0.5 ? `${durationText(left)} left` : "the deadline has passed";
}

// A list item's (GET /api/matches, /api/turns) "waiting for blue · 22 h left"; "" when it
// waits for nobody.
export function waitingText(item, now) {
  const who = (item && item.waiting_for) || [];
  if (!who.length) return "";
  const left = item.deadline ? leftText(item.deadline, now) : "";
  return `waiting for ${who.join(", ")}${left ? ` · ${left}` : ""}`;
}

// What a deadline per decision is, for a list: "1 d a decision, then the bot plays".
export function deadlineRule(deadline) {
  if (!deadline || !deadline.seconds) return "";
  const then = deadline.then === "forfeit" ? "then a forfeit" : "then a bot plays";
  return `${durationText(deadline.seconds)} a decision, ${then}`;
}

// -- notifications ------------------------------------------------------------------------------
export const notificationsOffered = () => typeof window.Notification === "function";

export function notificationsOn() {
  return notificationsOffered() && Notification.permission === "granted";
}

// Ask the browser (from a click) whether this site may show notifications; the permission then.
export async function askNotifications() {
  if (!notificationsOffered()) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

// "GLADIATOR: your move", while the page is hidden and the player allowed it. A click brings the
// page forward. Some browsers (Android) only notify from a service worker: nothing then.
export function notifyMove(body, tag) {
  if (!notificationsOn() || !document.hidden) return null;
  try {
    const note = new Notification("GLADIATOR: your move", { body, tag });
    note.addEventListener("click", () => window.focus());
    return note;
  } catch {
    return null;
  }
}
