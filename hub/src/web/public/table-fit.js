// The table drawing on a small screen (a phone): its words at fixed CSS sizes rather than scaled with the drawing,
// so the seats' labels are measured first (a canvas, in the page's font) and the drawing's scale is the largest at
// which the seats and their labels fit the room without one label over another.

/** @typedef {{ left: number, top: number, right: number, bottom: number }} Rect */
/** @typedef {"start" | "middle" | "end"} Anchor */
/** @typedef {{ cx: number, cy: number, r: number, anchor: Anchor, label: Rect }} Placed */

/** px between a seat's circle and its label, and around the drawing */
const GAP = 4;
const EDGE = 4;

/** @type {CanvasRenderingContext2D | null} */
let pen = null;

/**
 * A text's width in CSS px, in the page's font.
 * @param {string} text
 * @param {number} px font size
 * @param {string} family
 * @param {boolean} [bold]
 */
export function textWidth(text, px, family, bold = false) {
  pen ??= document.createElement("canvas").getContext("2d");
  if (!pen) return text.length * px * 0.6;
  pen.font = `${bold ? "bold " : ""}${px}px ${family}`;
  return pen.measureText(text).width;
}

/**
 * `text`, shortened with an ellipsis to at most `max` px wide.
 * @param {string} text
 * @param {number} max
 * @param {number} px
 * @param {string} family
 * @param {boolean} [bold]
 */
export function ellipsize(text, max, px, family, bold = false) {
  if (textWidth(text, px, family, bold) <= max) return text;
  const chars = Array.from(text);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(`${chars.slice(0, mid).join("").trimEnd()}…`, px, family, bold) <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join("").trimEnd()}…`;
}

/**
 * Whether two boxes overlap by more than half a pixel either way.
 * @param {Rect} a
 * @param {Rect} b
 */
export const overlaps = (a, b) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/**
 * Where each seat and its label go at scale `k` (px per metre), by one way of placing labels: "radial" (outward,
 * beside the seats on the sides), "vertical" (centred above the top seats, below the others) or "mixed" (beside on
 * the sides, else centred).
 * @param {{ x: number, y: number }[]} seats metres, y down
 * @param {{ w: number, h: number }[]} labels px
 * @param {number} k
 * @param {number} radius the seat's circle, metres
 * @param {"radial" | "vertical" | "mixed"} how
 * @returns {Placed[]}
 */
function place(seats, labels, k, radius, how) {
  return seats.map((p, i) => {
    const d = Math.hypot(p.x, p.y) || 1;
    const ux = p.x / d;
    const uy = p.y / d;
    const cx = p.x * k;
    const cy = p.y * k;
    const r = radius * k;
    const { w, h } = labels[i];
    const side = Math.abs(uy) < 0.35;
    /** @type {Anchor} */
    let anchor = "middle";
    let left = cx - w / 2;
    let top = uy < -0.35 ? cy - r - GAP - h : cy + r + GAP;
    if (how === "radial" || (how === "mixed" && side)) {
      const ax = cx + ux * (r + GAP);
      const ay = cy + uy * (r + GAP);
      anchor = ux > 0.35 ? "start" : ux < -0.35 ? "end" : "middle";
      left = anchor === "start" ? ax : anchor === "end" ? ax - w : ax - w / 2;
      top = uy < -0.35 ? ay - h : uy > 0.35 ? ay : ay - h / 2;
    }
    return { cx, cy, r, anchor, label: { left, top, right: left + w, bottom: top + h } };
  });
}

/** @param {Placed[]} placed */
function extent(placed) {
  const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const s of placed) {
    for (const b of [s.label, { left: s.cx - s.r, right: s.cx + s.r, top: s.cy - s.r, bottom: s.cy + s.r }]) {
      box.left = Math.min(box.left, b.left);
      box.top = Math.min(box.top, b.top);
      box.right = Math.max(box.right, b.right);
      box.bottom = Math.max(box.bottom, b.bottom);
    }
  }
  return box;
}

/** @param {Placed[]} placed how many labels lie over another label or a seat */
function clashes(placed) {
  let n = 0;
  for (const [i, a] of placed.entries())
    for (const [j, b] of placed.entries()) {
      if (i === j) continue;
      if (j > i && overlaps(a.label, b.label)) n++;
      if (overlaps(a.label, { left: b.cx - b.r, right: b.cx + b.r, top: b.cy - b.r, bottom: b.cy + b.r })) n++;
    }
  return n;
}

/**
 * The largest scale at which the seats and their labels fit `room`, and where everything goes then, by the way of
 * placing the labels that draws biggest; a way where a label lies over another label or a seat counts as drawing
 * smaller than it does (a clean drawing a little smaller wins, one much smaller does not).
 * @param {{ x: number, y: number }[]} seats metres, y down
 * @param {{ w: number, h: number }[]} labels each seat's label, px
 * @param {{ w: number, h: number }} room px
 * @param {number} radius the seat's circle, metres
 * @returns {{ k: number, placed: Placed[], box: Rect }} `box` in px, the edge included
 */
export function fitTable(seats, labels, room, radius) {
  /** @type {{ k: number, placed: Placed[], box: Rect, score: number } | null} */
  let best = null;
  for (const how of /** @type {const} */ (["vertical", "mixed", "radial"])) {
    const fits = (k) => {
      const e = extent(place(seats, labels, k, radius, how));
      return e.right - e.left + 2 * EDGE <= room.w && e.bottom - e.top + 2 * EDGE <= room.h;
    };
    let lo = 1;
    let hi = 2000;
    if (!fits(lo)) continue;
    while (hi - lo > 0.5) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    const placed = place(seats, labels, lo, radius, how);
    const e = extent(placed);
    const box = { left: e.left - EDGE, top: e.top - EDGE, right: e.right + EDGE, bottom: e.bottom + EDGE };
    const score = clashes(placed) ? lo * 0.7 : lo;
    if (!best || score > best.score) best = { k: lo, placed, box, score };
  }
  if (best) return best;
  // a room too small for anything: the smallest drawing
  const placed = place(seats, labels, 1, radius, "vertical");
  const e = extent(placed);
  return {
    k: 1,
    placed,
    box: { left: e.left - EDGE, top: e.top - EDGE, right: e.right + EDGE, bottom: e.bottom + EDGE },
  };
}
