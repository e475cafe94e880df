// Panels of a scene (docs/web.md): one card per figure with its rows (a log sheet, a wound track)
// and its boxes drawn as small squares, the checked ones filled.
//
// DOM: .panel[data-seat] > h3, dl.rows (dt key, dd[data-row=key] value), .boxes > .box-row[data-box="LABEL"] > span.box(.checked)

import { seatColour } from "./hexsvg.js";

export function renderPanels(container, panels, seats = []) {
  container.replaceChildren();
  for (const p of panels || []) {
    const index = Math.max(0, seats.indexOf(p.seat));
    const card = document.createElement("section");
    card.className = "panel";
    card.dataset.seat = p.seat;
    card.style.borderColor = seatColour(p.seat, index);
    const title = document.createElement("h3");
    title.textContent = p.title;
    title.style.color = seatColour(p.seat, index);
    card.appendChild(title);

    if ((p.rows || []).length) {
      // Two key/value pairs a line, so that a whole log sheet fits beside the board.
      const list = document.createElement("dl");
      list.className = "rows";
      for (const [key, value] of p.rows) {
        const dt = document.createElement("dt");
        dt.textContent = key;
        const dd = document.createElement("dd");
        dd.textContent = value;
        dd.dataset.row = key;
        list.append(dt, dd);
      }
      card.appendChild(list);
    }

    if ((p.boxes || []).length) {
      const boxes = document.createElement("div");
      boxes.className = "boxes";
      for (const b of p.boxes) {
        const row = document.createElement("div");
        row.className = "box-row";
        row.dataset.box = b.label;
        const label = document.createElement("span");
        label.className = "box-label";
        label.textContent = `${b.label} ${b.checked}/${b.total}`;
        row.appendChild(label);
        const track = document.createElement("span");
        track.className = "box-track";
        // A long track (hit points, strength) stays one line: at most 40 squares are drawn.
        const shown = Math.min(b.total, 40);
        for (let i = 0; i < shown; i++) {
          const sq = document.createElement("span");
          sq.className = i < b.checked ? "box checked" : "box";
          track.appendChild(sq);
        }
        row.appendChild(track);
        boxes.appendChild(row);
      }
      card.appendChild(boxes);
    }
    container.appendChild(card);
  }
}
