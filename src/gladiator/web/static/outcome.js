// The arena page's end screen (#outcome): who won and how, the revealed seed and nonce
// (#outcome-seed), how to check the dice, the record (a.record-link) and the replay
// (a.replay-link); #seed then says the seed was revealed.

import { h } from "./dom.js";

export function drawOutcome(node, view, matchId) {
  const out = view.outcome;
  if (!out) {
    node.hidden = true;
    return;
  }
  node.replaceChildren(
    h("h2", {}, out.winners && out.winners.length ? `Won by ${out.winners.join(", ")}` : "A draw"),
    h("p", {}, `${out.summary} (${out.method})`),
  );
  if (view.seed !== undefined && view.seed !== null) {
    const id = encodeURIComponent(matchId);
    node.append(
      h("p", { id: "outcome-seed" }, `Seed ${view.seed}, nonce ${view.nonce}; commitment ${view.seed_commitment}`),
      h("p", { class: "hint" }, "Check the dice: save the record and run ", h("code", {}, "gladiator verify record.json"), "."),
      h("p", {},
        h("a", { class: "record-link", href: `/api/matches/${id}/record`, download: `match-${matchId}.json` }, "Download the record"),
        " · ",
        h("a", { class: "replay-link", href: `/replay/${id}` }, "Watch the replay")),
    );
    document.querySelector("#seed").textContent = `Seed ${view.seed} revealed (nonce ${view.nonce}); commitment ${view.seed_commitment}`;
  }
  node.hidden = false;
}
