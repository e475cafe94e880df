// The lobby's "Correspondence" choice (docs/web.md, Correspondence play): off (live play), or a
// deadline per decision, what happens when it passes (the seat's bot plays that decision, or
// the seat forfeits), and an optional e-mail address per human seat (notices, and a lost link
// sent again; the server never shows it to anyone).
//
// DOM for tests: #deadline-seconds (select: "" off, or seconds), #deadline-more (shown while on),
// input[name="deadline-then"][value="bot"|"forfeit"], #emails input[data-email-seat="SEAT"].

import { h } from "./dom.js";

const $ = (sel) => document.querySelector(sel);
const typed = new Map(); // seat -> the address typed, kept while the seats are drawn again

export function setupCorrespondence() {
  const select = $("#deadline-seconds");
  if (!select) return;
  select.addEventListener("change", () => {
    $("#deadline-more").hidden = !select.value;
  });
  $("#deadline-more").hidden = !select.value;
}

// The human seats changed (the options, or who plays a seat): one e-mail field for each.
export function drawEmails(seats, choice) {
  const box = $("#emails");
  if (!box) return;
  const humans = seats.filter((seat) => (choice.get(seat) || "human") === "human");
  box.replaceChildren(
    ...humans.map((seat) => {
      const input = h("input", {
        type: "email",
        autocomplete: "off",
        spellcheck: "false",
        maxlength: 254,
        "data-email-seat": seat,
        "aria-describedby": "emails-hint",
        value: typed.get(seat) || "",
      });
      input.addEventListener("input", () => typed.set(seat, input.value));
      return h("label", { class: "field" }, `${seat}'s e-mail (optional)`, input);
    }),
  );
  $("#emails-hint").hidden = !humans.length;
}

// What the create body gets: {} for live play; else {deadline} and, where any address was
// typed, {emails: {seat: address}} for the human seats.
export function correspondenceBody() {
  const select = $("#deadline-seconds");
  if (!select || !select.value) return {};
  const then = document.querySelector('input[name="deadline-then"]:checked');
  const body = { deadline: { seconds: Number.parseInt(select.value, 10), then: then ? then.value : "bot" } };
  const emails = {};
  for (const input of document.querySelectorAll("#emails input[data-email-seat]")) {
    const address = input.value.trim();
    if (address) emails[input.dataset.emailSeat] = address;
  }
  if (Object.keys(emails).length) body.emails = emails;
  return body;
}
