// The campaign page's plot: each lanista's sesterces (a line, left scale) and living men (dots,
// right scale) after each munus, from the view's timeline (one row per munus closed, and the
// start). Drawn as SVG; the league table above it gives the same figures as text.

import { h, s } from "./dom.js";

const W = 640;
const H = 260;
const PAD = { left: 58, right: 40, top: 14, bottom: 34 };
// Distinct on the light ground, and told apart by their dash too (style.css's .swatch-N match).
const COLOURS = ["#8a3b12", "#1f5fa8", "#2e7d32", "#6a3d9a", "#b3261e", "#00796b", "#5d4037", "#37474f"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"];

function niceMax(n) {
  if (n <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

export function drawPlot(view, svg, legend) {
  const rows = view.timeline;
  svg.replaceChildren();
  if (!rows.length) return;
  const lanistas = view.lanistas;
  const lastMunus = Math.max(1, rows[rows.length - 1].munus);
  const money = niceMax(Math.max(...rows.flatMap((r) => Object.values(r.purses)), 1));
  const men = niceMax(Math.max(...rows.flatMap((r) => Object.values(r.men)), 1));
  const x = (m) => PAD.left + (m / lastMunus) * (W - PAD.left - PAD.right);
  const yMoney = (v) => H - PAD.bottom - (v / money) * (H - PAD.top - PAD.bottom);
  const yMen = (v) => H - PAD.bottom - (v / men) * (H - PAD.top - PAD.bottom);
  svg.appendChild(s("title", {}, "Sesterces and living men of each lanista after each munus"));
  svg.appendChild(s("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }));
  svg.appendChild(s("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }));
  for (const f of [0, 0.5, 1]) {
    svg.appendChild(s("text", { x: PAD.left - 6, y: yMoney(money * f) + 4, class: "tick", "text-anchor": "end" }, `${Math.round(money * f)}`));
    svg.appendChild(s("text", { x: W - PAD.right + 6, y: yMen(men * f) + 4, class: "tick" }, `${Math.round(men * f)}`));
  }
  for (const r of rows) svg.appendChild(s("text", { x: x(r.munus), y: H - PAD.bottom + 16, class: "tick", "text-anchor": "middle" }, `${r.munus}`));
  svg.appendChild(s("text", { x: (W + PAD.left - PAD.right) / 2, y: H - 4, class: "tick", "text-anchor": "middle" }, "munus"));
  lanistas.forEach((lan, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = rows.filter((r) => lan.id in r.purses).map((r) => `${x(r.munus)},${yMoney(r.purses[lan.id])}`);
    svg.appendChild(s("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[i % DASHES.length], "data-lanista": lan.id }));
    for (const r of rows.filter((row) => lan.id in row.men)) {
      svg.appendChild(s("circle", { cx: x(r.munus) + (i - lanistas.length / 2) * 3, cy: yMen(r.men[lan.id]), r: 3.5, fill: colour, class: "men-dot" }));
    }
  });
  legend.replaceChildren(...lanistas.map((lan, i) => h("li", {}, h("span", { class: `swatch swatch-${i % COLOURS.length}` }), ` ${lan.name}`)));
}
