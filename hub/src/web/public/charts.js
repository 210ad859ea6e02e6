// SVG charts, no library: money per round per player, and who shot whom.

import { roundSeats, seatColour } from "/protocol/index.js";
import { money, t } from "./i18n.js";
import { css, s } from "./ui.js";

/** Line height of the chart's end labels (class "axis"), in the chart's units. */
const LABEL_GAP = 13;

/**
 * Lines of money per round: `rounds` maps round → money by seat.
 * @param {{names: string[], rounds: Record<string, number[]>}} hist
 */
export function moneyChart(hist, colours = []) {
  const W = 640;
  const H = 300;
  const L = 70;
  const B = 30;
  // room on the right for the names at the lines' ends
  const R = 80;
  const rounds = Object.keys(hist.rounds)
    .map(Number)
    .sort((a, b) => a - b);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", id: "money-chart", role: "img" });
  if (rounds.length === 0) return svg;
  const max = Math.max(1, ...rounds.flatMap((r) => hist.rounds[r]));
  const x = (i) => L + (rounds.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (rounds.length - 1));
  const y = (v) => H - B - (v / max) * (H - B - 20);
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    svg.append(
      s("line", { x1: L, x2: W - R + 10, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, money(v)),
    );
  }
  rounds.forEach((r, i) => {
    svg.append(s("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "axis" }, t("chart.round", { n: r })));
  });
  const last = rounds.length - 1;
  const labelY = spread(
    hist.names.map((_, seat) => y(hist.rounds[rounds[last]][seat] ?? 0) - 4),
    LABEL_GAP,
    LABEL_GAP,
    H - B,
  );
  hist.names.forEach((name, seat) => {
    const colour = css(colours[seat] ?? seatColour(seat));
    const pts = rounds.map((r, i) => `${x(i)},${y(hist.rounds[r][seat] ?? 0)}`);
    svg.append(
      s("polyline", { points: pts.join(" "), fill: "none", stroke: colour, "stroke-width": 3, "data-seat": seat }),
    );
    rounds.forEach((r, i) => {
      svg.append(s("circle", { cx: x(i), cy: y(hist.rounds[r][seat] ?? 0), r: 4, fill: colour, class: "point" }));
    });
    svg.append(s("text", { x: x(last) + 4, y: labelY[seat], fill: colour, class: "axis", "data-seat": seat }, name));
  });
  return svg;
}

/**
 * Label positions moved apart as little as it takes so that none is closer than `gap` to the next (players on
 * the same amount would print their names on top of each other), kept within [top, bottom] when they fit.
 */
function spread(ys, gap, top, bottom) {
  const order = ys.map((_, i) => i).sort((a, b) => ys[a] - ys[b] || a - b);
  const out = ys.slice();
  for (let k = 1; k < order.length; k++) out[order[k]] = Math.max(out[order[k]], out[order[k - 1]] + gap);
  // a stack pushed past the bottom moves back up, as far as the top allows
  for (let k = order.length - 1; k >= 0; k--) {
    const max = k === order.length - 1 ? bottom : out[order[k + 1]] - gap;
    out[order[k]] = Math.max(top, Math.min(out[order[k]], max));
  }
  return out;
}

/** Who shot whom (Bang! shots that hit a target), on a round table: arrow width = how often. */
export function shotsPicture(names, shots, colours = []) {
  const n = names.length;
  const svg = s("svg", { viewBox: "-1.4 -1.4 2.8 2.8", class: "chart shots", id: "shots-chart", role: "img" });
  svg.append(
    s(
      "defs",
      {},
      s(
        "marker",
        { id: "shot-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" },
        s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" }),
      ),
    ),
  );
  // the table's seats on a unit circle, y down as SVG draws
  const pos = roundSeats(n, 1).map((p) => ({ x: p.x, y: -p.y }));
  const count = new Map();
  for (const sh of shots) {
    const k = `${sh.seat}>${sh.target}`;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  for (const [k, c] of count) {
    const [a, b] = k.split(">").map(Number);
    const p = pos[a];
    const q = pos[b];
    if (!p || !q) continue;
    // bend each arrow a little so a→b and b→a do not overlap
    const mx = (p.x + q.x) / 2 + (q.y - p.y) * 0.12;
    const my = (p.y + q.y) / 2 - (q.x - p.x) * 0.12;
    const f = (t) => ({ x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t });
    const a0 = f(0.14);
    const a1 = f(0.86);
    svg.append(
      s("path", {
        d: `M ${a0.x} ${a0.y} Q ${mx} ${my} ${a1.x} ${a1.y}`,
        fill: "none",
        stroke: css(colours[a] ?? seatColour(a)),
        "stroke-width": 0.02 + 0.015 * c,
        "marker-end": "url(#shot-arrow)",
        class: "shot",
        "data-from": a,
        "data-to": b,
        "data-count": c,
      }),
      s("text", { x: mx, y: my, class: "shot-count", "text-anchor": "middle" }, String(c)),
    );
  }
  names.forEach((name, i) => {
    svg.append(
      s("circle", {
        cx: pos[i].x,
        cy: pos[i].y,
        r: 0.12,
        fill: "#111",
        stroke: css(colours[i] ?? seatColour(i)),
        "stroke-width": 0.03,
      }),
      s("text", { x: pos[i].x, y: pos[i].y + 0.04, "text-anchor": "middle", class: "shot-name" }, name),
    );
  });
  return svg;
}
