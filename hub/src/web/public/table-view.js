// The live table, drawn from above: seats (name, colour, wounds, shame, money or loot, alive/dead, Godfather),
// live aim lines, the count, the step, the loot, the draft turn and the round's result. On a phone (PHONE) the
// drawing keeps its words at sizes one can read: each seat shows its name and money beside it (a long name
// shortened, whole on a tap), wounds as pips, and the other lines move below the drawing (#seat-lines).

import { hostPanel, messageLine } from "./host.js";
import { lang, list, money, t } from "./i18n.js";
import { ellipsize, fitTable, overlaps, textWidth } from "./table-fit.js";
import {
  bulletName,
  cardName,
  css,
  decisionName,
  editionName,
  h,
  PHONE,
  powerName,
  redrawOnChange,
  roleName,
  s,
  stepName,
} from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */
/** @typedef {import("/protocol/index.js").GameEvent} GameEvent */
/** @typedef {(seat: number | null | undefined) => string} NameOf */

// the SVG's extent in metres: wider than tall, so the names beside the seats fit
const VIEW_X = 2.5;
const VIEW_Y = 1.45;
const WIDE_VIEW = `${-VIEW_X} ${-VIEW_Y} ${2 * VIEW_X} ${2 * VIEW_Y}`;
const AIM_FRESH_MS = 3000;
/** a seat's circle, metres */
const SEAT_R = 0.13;
/** the count's number, metres */
const COUNT_SIZE = 0.32;
// On a phone: the words' sizes in CSS px (the name's grows with the drawing, up to NAME_PX_MAX), a name's longest
// drawn width in ems, the count's least size, the line below the drawing that the count's words take, and the side
// panel's least width beside the drawing.
const NAME_PX = 14;
const NAME_PX_MAX = 20;
const NAME_EM = 7;
const SEAT_NO_PX = 14;
const COUNT_PX = 40;
const CAPTION_PX = 30;
const AIM_WORD_PX = 13;
const AIM_WORD_MAX_PX = 84;
const SIDE_MIN_PX = 300;
const LINE = 1.25;

/**
 * How the drawing is laid out now: a phone's (`compact`, in `room` px, at `k` px per metre), the seats whose whole
 * name shows.
 * @typedef {{ compact: boolean, room: { w: number, h: number }, k: number, whole: Set<number> }} Frame
 */

/**
 * Mounts the table view into `root`; returns a cleanup function.
 * @param {HTMLElement} root
 * @param {Link} link
 */
export function tableView(root, link) {
  const svg = s("svg", { viewBox: WIDE_VIEW, class: "table-svg", role: "img" });
  // on a phone the count's words go below the drawing, at a size one can read
  const caption = h("p", { class: "count-caption", id: "count-caption", "aria-live": "polite" });
  // the side panel: what the table shows, and below it the host's controls, each drawn on its own
  const info = h("section", { class: "side-part" });
  const controls = h("section", { class: "side-part" });
  const side = h("aside", { class: "side" }, info, controls);
  const page = h("div", { class: "table-page" }, h("section", { class: "table-wrap" }, svg, caption), side);
  root.replaceChildren(page);
  /** @type {Frame} */
  const frame = { compact: false, room: { w: 0, h: 0 }, k: 0, whole: new Set() };
  let raf = 0;
  const hostMsg = messageLine("host-msg");

  const stopSide = sideParts(link, info, controls, hostMsg);
  const draw = () => {
    page.classList.toggle("compact", frame.compact);
    const width = drawTable(svg, link, frame);
    page.classList.toggle("beside", frame.compact && page.clientWidth - width >= SIDE_MIN_PX);
    tick();
  };
  const onChange = (e) => {
    if (e.detail === "aim") drawAims(svg, link, frame);
    else draw();
  };
  // The count and the reveal window run on the hub's clock, drawn every frame while one runs.
  const tick = () => {
    cancelAnimationFrame(raf);
    const running = drawCount(svg, link);
    const words = frame.compact ? (svg.querySelector("text.count-sub")?.textContent ?? "") : "";
    if (caption.textContent !== words) caption.textContent = words;
    if (running) raf = requestAnimationFrame(tick);
  };
  // The room is measured when the screen changes, not on each state: the header's menu opening must not resize it.
  let measured = "";
  const resized = () => {
    const compact = matchMedia(PHONE).matches;
    const key = `${compact} ${root.clientWidth} ${innerHeight}`;
    if (key === measured) return;
    measured = key;
    frame.compact = compact;
    page.classList.toggle("compact", compact);
    const top = page.getBoundingClientRect().top + scrollY;
    frame.room = { w: page.clientWidth, h: Math.max(160, innerHeight - top - CAPTION_PX - 8) };
    draw();
  };
  const watch = new ResizeObserver(resized);
  watch.observe(root);
  addEventListener("resize", resized);
  // a tap on a seat shows its whole name, or shortens it again
  svg.addEventListener("click", (e) => {
    const seat = /** @type {Element} */ (e.target).closest?.("g.seat")?.getAttribute("data-seat");
    if (!frame.compact || seat === null || seat === undefined) return;
    const n = Number(seat);
    if (!frame.whole.delete(n)) frame.whole.add(n);
    draw();
  });
  link.addEventListener("change", onChange);
  resized();
  const stale = setInterval(() => drawAims(svg, link, frame), 1000);
  return () => {
    stopSide();
    link.removeEventListener("change", onChange);
    watch.disconnect();
    removeEventListener("resize", resized);
    cancelAnimationFrame(raf);
    clearInterval(stale);
  };
}

/**
 * The side panel's two parts, each redrawn only when what it shows changes, never for the live aim that rides along
 * in table/state: a button replaced under a click would swallow the click. The round's result comes on table/events,
 * which may arrive after the state it belongs to: it is part of what the table shows (`info`), not of the host's
 * controls (a late event batch landing as the host clicks a draft pick lost the click). Returns the stop.
 * @param {Link} link
 * @param {HTMLElement} info
 * @param {HTMLElement} controls
 * @param {HTMLDivElement} hostMsg
 */
function sideParts(link, info, controls, hostMsg) {
  const shown = () => {
    const st = link.state;
    return [
      st?.game,
      st?.table && { ...st.table, live: null },
      link.seats().map((x) => [x.name, x.gun, x.online, x.player?.alive]),
      lang(),
    ];
  };
  const stopInfo = redrawOnChange(
    link,
    () => [...shown(), link.eventBatches],
    () => drawSide(info, link),
  );
  const stopControls = redrawOnChange(
    link,
    () => [...shown(), link.isHost],
    () => controls.replaceChildren(...(link.isHost ? [hostPanel(link, hostMsg)] : [])),
  );
  return () => {
    stopInfo();
    stopControls();
  };
}

const pt = (p) => ({ x: p.x, y: -p.y });

/**
 * Draws the table; returns the drawing's width in CSS px.
 * @param {SVGSVGElement} svg
 * @param {Link} link
 * @param {Frame} frame
 */
function drawTable(svg, link, frame) {
  const seats = link.seats();
  const game = link.state?.game;
  svg.replaceChildren();
  if (seats.length === 0) {
    const w = frame.compact ? frame.room.w : 0;
    setFrame(svg, WIDE_VIEW, frame.compact ? { k: w / (2 * VIEW_X), w, h: (w * VIEW_Y) / VIEW_X } : null);
    svg.append(
      s("text", { x: 0, y: 0, class: "big-note", "text-anchor": "middle" }, t("table.noGame")),
      s("text", { x: 0, y: 0.14, class: "note", "text-anchor": "middle" }, t("table.setUpOne")),
    );
    return svg.getBoundingClientRect().width;
  }
  const pos = link.layout(seats.length).map(pt);
  const fit = frame.compact ? compactFit(svg, seats, pos, frame) : null;
  frame.k = fit?.k ?? 0;
  if (fit) {
    const { k, box } = fit;
    const viewBox = [box.left / k, box.top / k, (box.right - box.left) / k, (box.bottom - box.top) / k].join(" ");
    setFrame(svg, viewBox, { k, w: box.right - box.left, h: box.bottom - box.top });
  } else setFrame(svg, WIDE_VIEW, null);
  const layout = link.state?.layout;
  const isRound = !layout || !("points" in layout);
  svg.append(
    isRound
      ? s("circle", { cx: 0, cy: 0, r: 0.62, class: "felt" })
      : s("polygon", { points: pos.map((p) => `${p.x * 0.78},${p.y * 0.78}`).join(" "), class: "felt" }),
  );
  svg.append(s("g", { class: "aims" }));
  const turn = game?.turn ?? null;
  /** the seat whose whole name shows goes last, over its neighbours */
  const last = [];
  for (const seat of seats) {
    const g = seatGroup(seat, pos[seat.seat], game, fit, frame, turn);
    if (fit && frame.whole.has(seat.seat)) last.push(g);
    else svg.append(g);
  }
  svg.append(...last);
  // the centre: on a phone the step's line sits above the count's number, however big that is drawn
  const countSize = fit ? Math.max(COUNT_SIZE, COUNT_PX / fit.k) : COUNT_SIZE;
  const stepY = fit ? 0.1 - 0.8 * countSize - 6 / fit.k : -0.12;
  svg.append(
    s(
      "g",
      { class: "centre" },
      s("circle", { cx: 0, cy: 0, r: 0.3, class: "count-ring", "stroke-dasharray": "1.885 1.885" }),
      s("text", { x: 0, y: 0.1, class: "count", "text-anchor": "middle" }, ""),
      s("text", { x: 0, y: 0.22, class: "count-sub", "text-anchor": "middle" }, ""),
      s("text", { x: 0, y: stepY, class: "centre-step", "text-anchor": "middle" }, centreStep(link)),
    ),
  );
  drawAims(svg, link, frame);
  return fit ? fit.box.right - fit.box.left : svg.getBoundingClientRect().width;
}

/**
 * One seat as the table shows it: its circle and number, the Godfather's crown, a gun gone, and its label (a phone's
 * short one with wound pips).
 * @param {any} seat
 * @param {{ x: number, y: number }} p
 * @param {any} game
 * @param {any} fit
 * @param {Frame} frame
 * @param {number | null} turn
 */
function seatGroup(seat, p, game, fit, frame, turn) {
  const pl = seat.player;
  const out = Math.hypot(p.x, p.y) || 1;
  const ux = p.x / out;
  const uy = p.y / out;
  const dead = pl && !pl.alive;
  const g = s(
    "g",
    {
      class: `seat${dead ? " dead" : ""}${pl?.waiting ? " waiting" : ""}${turn === seat.seat ? " turn" : ""}`,
      "data-seat": seat.seat,
    },
    s("title", {}, seat.name),
  );
  g.append(
    s("circle", { cx: p.x, cy: p.y, r: SEAT_R, fill: "#111", stroke: css(seat.colour), "stroke-width": 0.035 }),
    // people count seats from 1
    s(
      "text",
      { x: p.x, y: p.y + (fit ? (0.36 * SEAT_NO_PX) / fit.k : 0.045), class: "seat-no", "text-anchor": "middle" },
      String(seat.seat + 1),
    ),
  );
  // on a phone the crown sits further in, past the wound pips
  const crown = fit ? (SEAT_R * fit.k + 24) / fit.k : 0.21;
  if (game && game.godfather === seat.seat) {
    g.append(
      s("text", { x: p.x - ux * crown, y: p.y - uy * crown + 0.04, class: "godfather", "text-anchor": "middle" }, "♛"),
    );
  }
  if (!seat.online && seat.gun) {
    g.append(s("text", { x: p.x - 0.11, y: p.y - 0.1, class: "offline-mark", "text-anchor": "middle" }, "⚠"));
  }
  if (fit) {
    compactLabel(g, fit, seat, frame.whole.has(seat.seat));
    if (pl && !dead) g.append(woundPips(p, ux, uy, fit.k, pl.wounds, pl.deadly));
    return g;
  }
  g.append(wideLabel(seat, p, ux, uy, game, turn));
  return g;
}

/**
 * The label block outside a seat on a wide screen: the name, the wounds and money, the loot or shame, and a note.
 * @param {any} seat
 * @param {{ x: number, y: number }} p
 * @param {number} ux
 * @param {number} uy
 * @param {any} game
 * @param {number | null} turn
 */
function wideLabel(seat, p, ux, uy, game, turn) {
  const pl = seat.player;
  const lx = p.x + ux * 0.26;
  const ly = p.y + uy * 0.26 + (uy > 0.3 ? 0.06 : uy < -0.3 ? -0.12 : -0.03);
  const anchor = ux > 0.35 ? "start" : ux < -0.35 ? "end" : "middle";
  const lines = [s("tspan", { x: lx, dy: 0, class: "name" }, seat.name)];
  if (pl) {
    const bits = [statsText(pl)];
    if (game?.edition === "classic") {
      if (pl.shame) bits.push(t("table.shame", { n: pl.shame }));
    } else if (pl.loot) lines.push(s("tspan", { x: lx, dy: 0.075, class: "sub" }, lootText(pl)));
    lines.splice(1, 0, s("tspan", { x: lx, dy: 0.075, class: "stats" }, bits.join("  ")));
    const extra = extraText(pl, turn === seat.seat);
    if (extra) lines.push(s("tspan", { x: lx, dy: 0.07, class: "sub" }, extra));
  } else if (seat.gun) {
    lines.push(s("tspan", { x: lx, dy: 0.075, class: "sub" }, t("table.gun", { gun: seat.gun })));
  }
  return s("text", { x: lx, y: ly, "text-anchor": anchor, class: "label" }, lines);
}

/**
 * The drawing's view box, and on a phone its size in CSS px and the user units per CSS px (`--u`, which the
 * stylesheet sizes the drawing's words and lines by).
 * @param {SVGSVGElement} svg
 * @param {string} viewBox
 * @param {{ k: number, w: number, h: number } | null} px
 */
function setFrame(svg, viewBox, px) {
  svg.setAttribute("viewBox", viewBox);
  svg.classList.toggle("compact", px !== null);
  if (px) {
    svg.style.setProperty("--u", String(1 / px.k));
    svg.style.width = `${px.w}px`;
    svg.style.height = `${px.h}px`;
  } else {
    svg.style.removeProperty("--u");
    svg.style.removeProperty("width");
    svg.style.removeProperty("height");
  }
}

/** A player's wounds (or death) and money, as the drawing beside a seat says them. */
function statsText(pl) {
  const dead = !pl.alive;
  const wounds = dead ? t("table.dead") : `♥ ${"●".repeat(pl.wounds)}${"○".repeat(Math.max(0, pl.deadly - pl.wounds))}`;
  return `${wounds}  ${money(pl.money)}`;
}

/** A second edition player's loot. */
function lootText(pl) {
  const l = pl.loot;
  return t("table.loot", { cash: l.cash, diamonds: l.diamonds, paintings: l.paintings });
}

/** What else a player is (power, role, lying down, hurt, score, choosing, picking), or "". */
function extraText(pl, picks) {
  const extra = [];
  if (pl.power) extra.push(powerName(pl.power));
  if (pl.role) extra.push(roleName(pl.role));
  if (pl.lyingDown) extra.push(t("table.lyingDown"));
  if (pl.hurt) extra.push(t("table.hurt", { n: pl.hurt }));
  if (pl.score !== undefined) extra.push(t("table.score", { money: money(pl.score) }));
  if (pl.waiting) extra.push(t("table.choosing"));
  if (picks) extra.push(t("table.picks"));
  return extra.join(" · ");
}

/**
 * @typedef {{ name: string, whole: string, money: string, px: number, family: string }} SeatWords
 * @typedef {ReturnType<typeof fitTable> & { words: SeatWords[] }} Fit
 */

/**
 * A phone's drawing: each seat's label (its name, shortened, and its money) measured at its size in CSS px, and
 * the scale at which the seats and labels fill the room.
 * @param {SVGSVGElement} svg
 * @param {ReturnType<Link["seats"]>} seats
 * @param {{ x: number, y: number }[]} pos
 * @param {Frame} frame
 * @returns {Fit}
 */
function compactFit(svg, seats, pos, frame) {
  const family = getComputedStyle(svg).fontFamily;
  const words = (px) =>
    seats.map((seat) => ({
      name: ellipsize(seat.name, NAME_EM * px, px, family, true),
      whole: seat.name,
      money: seat.player ? money(seat.player.money) : seat.gun ? t("table.gun", { gun: seat.gun }) : "",
      px,
      family,
    }));
  const sizes = (ws) =>
    ws.map((w) => ({
      w: Math.max(textWidth(w.name, w.px, family, true), w.money ? textWidth(w.money, w.px - 1, family) : 0),
      h: LINE * (w.money ? 2 * w.px - 1 : w.px),
    }));
  let ws = words(NAME_PX);
  let fit = fitTable(pos, sizes(ws), frame.room, SEAT_R);
  // a roomy screen draws the names bigger, and fits again
  const px = Math.min(NAME_PX_MAX, Math.floor(fit.k * 0.09 * 2) / 2);
  if (px > NAME_PX) {
    ws = words(px);
    fit = fitTable(pos, sizes(ws), frame.room, SEAT_R);
  }
  return { ...fit, words: ws };
}

/**
 * A seat's label on a phone: its name and money at fixed CSS sizes; the whole name when tapped, over a backing
 * and kept inside the drawing.
 * @param {SVGGElement} g
 * @param {Fit} fit
 * @param {ReturnType<Link["seats"]>[number]} seat
 * @param {boolean} whole
 */
function compactLabel(g, fit, seat, whole) {
  const { k, box } = fit;
  const w = fit.words[seat.seat];
  const at = fit.placed[seat.seat];
  let { left, right } = at.label;
  let anchor = at.anchor;
  const name = whole ? w.whole : w.name;
  if (whole) {
    const wide = Math.max(textWidth(name, w.px, w.family, true), right - left);
    const mid = (left + right) / 2;
    left = Math.max(
      box.left,
      Math.min(box.right - wide, anchor === "start" ? left : anchor === "end" ? right - wide : mid - wide / 2),
    );
    right = left + wide;
    anchor = "start";
    g.append(
      s("rect", {
        class: "name-back",
        x: (left - 3) / k,
        y: (at.label.top - 2) / k,
        width: (wide + 6) / k,
        height: (at.label.bottom - at.label.top + 4) / k,
        rx: 4 / k,
      }),
    );
  }
  const x = (anchor === "start" ? left : anchor === "end" ? right : (left + right) / 2) / k;
  const nameY = (at.label.top + 0.97 * w.px) / k;
  const lines = [s("tspan", { x, y: nameY, class: "name", style: `font-size:${w.px / k}px` }, name)];
  if (w.money)
    lines.push(
      s("tspan", { x, y: nameY + (LINE * w.px) / k, class: "stats", style: `font-size:${(w.px - 1) / k}px` }, w.money),
    );
  g.append(s("text", { "text-anchor": anchor, class: "label" }, lines));
}

/**
 * A living player's wounds on a phone: a pip each on the seat's inner side, filled for a wound, open for one to go.
 * @param {{ x: number, y: number }} p
 * @param {number} ux
 * @param {number} uy
 * @param {number} k
 * @param {number} wounds
 * @param {number} deadly
 */
function woundPips(p, ux, uy, k, wounds, deadly) {
  const ring = SEAT_R * k + 8;
  const step = 9 / ring;
  const toward = Math.atan2(-uy, -ux);
  const pips = s("g", { class: "wounds" });
  for (let i = 0; i < deadly; i++) {
    const a = toward + (i - (deadly - 1) / 2) * step;
    pips.append(
      s("circle", {
        cx: p.x + (Math.cos(a) * ring) / k,
        cy: p.y + (Math.sin(a) * ring) / k,
        r: 3.2 / k,
        class: i < wounds ? "pip hit" : "pip",
      }),
    );
  }
  return pips;
}

/** @param {Link} link */
function centreStep(link) {
  const g = link.state?.game;
  if (!g) return "";
  if (g.over) return t("table.centreOver");
  return t("table.centreRound", { n: g.round });
}

/**
 * The aim each seat shows: the committed aim once the rules show it, else the live one (null = nobody).
 * @param {Link} link
 */
function aimsNow(link) {
  const fresh = link.hubNow() - link.aimAt < AIM_FRESH_MS;
  const live = link.state?.table?.live ?? [];
  const out = new Map();
  for (const seat of link.seats()) {
    const pl = seat.player;
    if (pl && !pl.alive) continue;
    if (pl && pl.aim !== undefined) {
      out.set(seat.seat, { target: pl.aim, yaw: null, committed: true });
      continue;
    }
    const a = fresh ? link.aims.get(seat.seat) : undefined;
    if (a) out.set(seat.seat, { target: a.target, yaw: a.yaw, committed: false });
    else if (live[seat.seat] !== undefined && (seat.online || live[seat.seat] !== null))
      out.set(seat.seat, { target: live[seat.seat], yaw: null, committed: false });
  }
  return out;
}

/**
 * @param {Link} link
 * @param {Frame} frame
 */
function drawAims(svg, link, frame) {
  const layer = svg.querySelector("g.aims");
  if (!layer) return;
  layer.replaceChildren();
  const seats = link.seats();
  const pos = link.layout(seats.length).map(pt);
  // on a phone, what the words keep clear of (px): the words already placed, and where they can, the step's line
  // and the crown
  const placed = [];
  const marks = [];
  for (const el of frame.compact ? svg.querySelectorAll("text.centre-step, text.godfather") : []) {
    if (!el.textContent) continue;
    const b = /** @type {SVGTextElement} */ (el).getBBox();
    const k = frame.k;
    marks.push({ left: b.x * k, right: (b.x + b.width) * k, top: b.y * k, bottom: (b.y + b.height) * k });
  }
  for (const [seat, a] of aimsNow(link)) {
    const from = pos[seat];
    if (!from) continue;
    const colour = css(seats[seat].colour);
    const cls = a.committed ? "aim committed" : "aim";
    if (a.target !== null && pos[a.target]) {
      layer.append(aimArrow(from, pos[a.target], colour, cls, seat, a.target));
    } else {
      // nobody or ambiguous: a short ray where the gun points (when known), and the word
      const rad = a.yaw === null ? Math.atan2(-from.y, -from.x) : (-a.yaw * Math.PI) / 180;
      const x2 = from.x + Math.cos(rad) * 0.32;
      const y2 = from.y + Math.sin(rad) * 0.32;
      if (a.yaw !== null)
        layer.append(s("line", { x1: from.x, y1: from.y, x2, y2, stroke: colour, class: `${cls} nobody` }));
      const said = a.committed ? t("who.nobody") : a.yaw === null ? t("aim.none") : t("aim.nobodyOrAmbiguous");
      // the word sits on the table side of the seat, clear of the names outside; on a phone it is drawn at a size
      // one can read, kept short, and set in from the seat by its own width (past the wound pips)
      let word = said;
      let at = { x: from.x * 0.68, y: from.y * 0.68 + 0.02 };
      if (frame.compact) ({ word, at } = placeWord(svg, frame, from, said, placed, marks));
      layer.append(
        s(
          "text",
          {
            x: at.x,
            y: at.y,
            class: "aim-word",
            "text-anchor": "middle",
            "data-from": seat,
            "data-to": "none",
          },
          word,
        ),
      );
    }
  }
  if (!svg.querySelector("defs")) svg.prepend(arrowDefs());
}

/**
 * On a phone, where a seat's aim word goes and how it is cut: at a size one can read, set in from the seat by its own
 * width (past the wound pips), further in or a line to either side until clear of the words `placed` before (and,
 * where it can, of the `marks`: the step's line, the crown).
 * @param {SVGSVGElement} svg
 * @param {Frame} frame
 * @param {{ x: number, y: number }} from
 * @param {string} said
 * @param {any[]} placed
 * @param {any[]} marks
 */
function placeWord(svg, frame, from, said, placed, marks) {
  const family = getComputedStyle(svg).fontFamily;
  const word = ellipsize(said, AIM_WORD_MAX_PX, AIM_WORD_PX, family);
  const k = frame.k;
  const d = Math.hypot(from.x, from.y) || 1;
  const ux = from.x / d;
  const uy = from.y / d;
  // its box, with a little air around it
  const w = textWidth(word, AIM_WORD_PX, family) + 4;
  const h = LINE * AIM_WORD_PX + 2;
  const inset = SEAT_R * k + 18 + (w / 2) * Math.abs(ux) + (h / 2) * Math.abs(uy);
  // further in, or a line to either side, until clear of the words placed before
  const rect = (inward, aside) => {
    const cx = from.x * k - ux * (inset + inward) - uy * aside;
    const cy = from.y * k - uy * (inset + inward) + ux * aside;
    return { left: cx - w / 2, right: cx + w / 2, top: cy - h / 2, bottom: cy + h / 2 };
  };
  const tries = [0, 1, 2, 3].flatMap((i) => [0, h, -h, 2 * h, -2 * h].map((aside) => rect((i * h) / 2, aside)));
  const clear = (x, of) => !of.some((y) => overlaps(x, y));
  const r = tries.find((x) => clear(x, placed) && clear(x, marks)) ?? tries.find((x) => clear(x, placed)) ?? tries[0];
  placed.push(r);
  return { word, at: { x: (r.left + r.right) / 2 / k, y: (r.top + r.bottom) / 2 / k + (0.35 * AIM_WORD_PX) / k } };
}

/**
 * The arrow from a seat to the seat its gun names, short of both.
 * @param {{ x: number, y: number }} from
 * @param {{ x: number, y: number }} to
 * @param {string} colour
 * @param {string} cls
 * @param {number} seat
 * @param {number} target
 */
function aimArrow(from, to, colour, cls, seat, target) {
  const d = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const k = 0.15 / d;
  return s("line", {
    x1: from.x + (to.x - from.x) * k,
    y1: from.y + (to.y - from.y) * k,
    x2: to.x - (to.x - from.x) * k,
    y2: to.y - (to.y - from.y) * k,
    stroke: colour,
    class: cls,
    "marker-end": "url(#arrow)",
    "data-from": seat,
    "data-to": target,
  });
}

/** The arrowhead the aims' lines end in. */
const arrowDefs = () =>
  s(
    "defs",
    {},
    s(
      "marker",
      {
        id: "arrow",
        viewBox: "0 0 10 10",
        refX: 8,
        refY: 5,
        markerWidth: 5,
        markerHeight: 5,
        orient: "auto-start-reverse",
      },
      s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" }),
    ),
  );

/**
 * Draws the count or the open window; returns true while something runs on the clock.
 * @param {Link} link
 */
function drawCount(svg, link) {
  const count = svg.querySelector("text.count");
  const sub = svg.querySelector("text.count-sub");
  const ring = svg.querySelector("circle.count-ring");
  if (!count || !sub || !ring) return false;
  const act = link.state?.table?.activity;
  const now = link.hubNow();
  let big = "";
  let small = "";
  let frac = 0;
  let running = false;
  if (act?.kind === "count") {
    const purpose =
      { aim: t("count.aim"), reaim: t("count.reaim"), courage: t("count.courage") }[act.purpose] ?? act.purpose;
    if (act.goAt === null) {
      big = "…";
      small = act.waitingGun?.length
        ? t("count.waitingGun", { n: act.waitingGun.length, seats: list(act.waitingGun.map((x) => x + 1)) })
        : act.lagging?.length
          ? t("count.lagging", { n: act.lagging.length, seats: list(act.lagging.map((x) => x + 1)) })
          : purpose;
    } else {
      const p = act.paceMs || 1000;
      const draw = act.drawMs || 0;
      const since = now - (act.goAt - 2 * p);
      running = since < 2 * p + draw + 1500;
      if (since < 0) {
        big = "";
        small = t("count.ready", { purpose });
      } else if (since < p) big = "1";
      else if (since < 2 * p) big = "2";
      else big = "3";
      if (since >= 0) small = act.purpose === "courage" ? t("count.stayOrLie") : purpose;
      // the ring fills to "3", then empties over the reaction window the table reads a draw in
      frac =
        since < 2 * p || draw <= 0
          ? Math.max(0, Math.min(1, since / (2 * p)))
          : Math.max(0, 1 - (since - 2 * p) / draw);
    }
  } else if (act?.kind === "reveal") {
    running = now < act.closesAt + 500;
    const left = Math.max(0, act.closesAt - now);
    big = now < act.opensAt ? "…" : `${Math.ceil(left / 1000)}`;
    small = t("count.reveal", { card: bulletName(act.window === "bbb" ? "bbb" : "bang") });
    frac = act.closesAt > act.opensAt ? Math.min(1, (now - act.opensAt) / (act.closesAt - act.opensAt)) : 1;
  } else if (act?.kind === "privilege") {
    running = now < act.until + 500;
    big = `${Math.max(0, Math.ceil((act.until - now) / 1000))}`;
    small = t("count.privilege");
  } else if (act?.kind === "phone") {
    big = t("count.phone");
    small = t("count.phoneWith", { name: link.seats()[act.seat]?.name ?? t("seat.n", { n: act.seat + 1 }) });
  }
  count.textContent = big;
  count.setAttribute("data-count", big);
  sub.textContent = small;
  ring.style.strokeDashoffset = String(1.885 * (1 - frac));
  ring.classList.toggle("on", big !== "");
  return running;
}

// ---- the side panel: step, waiting, loot, draft turn, round result (the host's controls: host.js) ----

/**
 * The loot on the table: the bills (classic), or the cards and the New Godfather token (second).
 * @param {any} g
 * @param {(i: number | null) => string} name
 */
function lootOnTable(g, name) {
  const loot = h("div", { class: "loot", id: "loot" }, h("h3", {}, t("loot.onTable")));
  if ("bills" in g.table) {
    const total = g.table.bills.reduce((a, b) => a + b, 0);
    loot.append(
      h(
        "div",
        { class: "chips" },
        g.table.bills.map((b) => h("span", { class: "chip bill" }, money(b))),
      ),
      h("div", { class: "note" }, t("loot.billsNote", { money: money(total), n: g.deckLeft })),
    );
  } else {
    loot.append(
      h(
        "div",
        { class: "chips" },
        g.table.cards.map((c) => h("span", { class: `chip card` }, cardName(c))),
      ),
      h(
        "div",
        { class: "note" },
        g.table.token === null ? t("loot.tokenFree") : t("loot.tokenTaken", { name: name(g.table.token) }),
        " · ",
        t("loot.cardsLeft", { n: g.deckLeft }),
      ),
    );
  }
  return loot;
}

/** @param {Link} link */
function drawSide(side, link) {
  const st = link.state;
  const g = st?.game;
  const seats = link.seats();
  const name = (i) => (i === null || i === undefined ? t("who.nobody") : (seats[i]?.name ?? t("seat.n", { n: i + 1 })));
  side.replaceChildren();
  if (!g) {
    side.append(h("h2", {}, t("side.noGame")), h("p", { class: "note" }, t("side.hostStarts")));
    return;
  }
  side.append(
    h(
      "div",
      { class: "step-box", id: "step" },
      h("div", { class: "round" }, g.over ? t("side.gameOver") : t("side.round", { n: g.round })),
      h("div", { class: "step" }, stepName(g.step)),
      h("div", { class: "edition" }, editionName(g.edition)),
    ),
  );
  if (g.over) {
    side.append(
      h(
        "div",
        { class: "winners" },
        t("side.winners", { n: g.winners.length, names: list(g.winners.map(name)) }),
        " ",
        h("a", { href: "#/games" }, t("side.scoresLink")),
      ),
    );
  }
  // who the table waits for
  const waits = st.table?.waiting ?? [];
  if (waits.length) {
    const parts = waits.map((w) =>
      w.for === "start"
        ? t("wait.start")
        : w.for === "secret"
          ? t("wait.secret", { name: name(w.seat) })
          : w.for === "gun"
            ? t("wait.gun", { name: name(w.seat) })
            : t("wait.host", { name: name(w.seat), decision: decisionName(w.decision) }),
    );
    side.append(h("div", { class: "waiting", id: "waiting" }, t("wait.line", { list: parts.join("; ") })));
  }
  if (g.turn !== null && g.turn !== undefined) {
    side.append(
      h(
        "div",
        { class: "turn", id: "turn" },
        g.step === "draft" ? t("turn.picks", { name: name(g.turn) }) : t("turn.phone", { name: name(g.turn) }),
      ),
    );
  }
  side.append(seatLines(link, g));
  side.append(lootOnTable(g, name));
  side.append(roundResult(link, name));
}

/**
 * Each seat's lines in full, for a phone's drawing that shows only names and money (the stylesheet shows them there
 * only).
 * @param {Link} link
 * @param {NonNullable<Link["state"]>["game"]} game
 */
function seatLines(link, game) {
  const lines = h("ul", {});
  for (const seat of link.seats()) {
    const pl = seat.player;
    const bits = [];
    if (pl) {
      bits.push(statsText(pl));
      if (game?.edition === "classic") {
        if (pl.shame) bits.push(t("table.shame", { n: pl.shame }));
      } else if (pl.loot) bits.push(lootText(pl));
      const extra = extraText(pl, game?.turn === seat.seat);
      if (extra) bits.push(extra);
    } else if (seat.gun) bits.push(t("table.gun", { gun: seat.gun }));
    lines.append(
      h(
        "li",
        { "data-seat": seat.seat, class: pl && !pl.alive ? "dead" : null },
        h("span", { class: "swatch", style: `background:${css(seat.colour)}` }),
        " ",
        h("b", {}, seat.name),
        " ",
        bits.join(" · "),
      ),
    );
  }
  return h("div", { class: "seat-lines", id: "seat-lines" }, h("h3", {}, t("side.players")), lines);
}

/**
 * A pick's effect (the engine's words: "lost", "takes a bang", "heals N") as a whole sentence.
 * @param {Extract<GameEvent, {type: "pick"}>} e
 * @param {NameOf} name
 */
function pickText(e, name) {
  const who = name(e.seat);
  const card = cardName(e.card);
  if (e.effect === "lost") return t("event.pickClipLost", { name: who, card, bang: bulletName("bang") });
  if (e.effect === "takes a bang") return t("event.pickClip", { name: who, card, bang: bulletName("bang") });
  const heals = /^heals (\d+)$/.exec(e.effect ?? "");
  if (heals) return t("event.pickHeals", { name: who, card, n: Number(heals[1]) });
  return t("event.pick", { name: who, card });
}

/**
 * One event as a sentence, or null when it says nothing to the table.
 * @param {GameEvent} e
 * @param {NameOf} name
 */
export function eventText(e, name) {
  switch (e.type) {
    case "shot":
      return e.target === null
        ? t("event.shotNobody", { name: name(e.seat), card: bulletName(e.card) })
        : t("event.shot", { name: name(e.seat), target: name(e.target), card: bulletName(e.card) });
    case "wound":
      return e.by === null
        ? t("event.wound", { name: name(e.seat), n: e.wounds })
        : t("event.woundBy", { name: name(e.seat), by: name(e.by), n: e.wounds });
    case "wound-blocked":
      return t("event.woundBlocked", { name: name(e.seat) });
    case "death":
      return t("event.death", { name: name(e.seat) });
    case "lie-down":
      return t("event.lieDown", { name: name(e.seat) });
    case "split":
      if (e.sharers.length === 0) return t("event.splitNobody");
      // no equal share exists: everything stays on the table
      if (e.each === 0) return t("event.splitStays", { n: e.sharers.length, names: list(e.sharers.map(name)) });
      return t("event.split", { n: e.sharers.length, names: list(e.sharers.map(name)), money: money(e.each) });
    case "pick":
      return pickText(e, name);
    case "godfather":
      return t("event.godfather", { name: name(e.seat) });
    case "power-revealed":
      return t("event.powerRevealed", { name: name(e.seat), power: powerName(e.power) });
    case "grenade":
      return t("event.grenade", { name: name(e.seat) });
    case "gun-taken":
      return t("event.gunTaken", { name: name(e.seat), from: name(e.from) });
    case "phone":
      return e.alerted ? t("event.phoneAlerted") : t("event.phone", { n: e.flips });
    case "specialist":
      return t("event.specialist", { name: name(e.seat), card: bulletName("bbb") });
    case "game-over":
      return t("event.gameOver", { n: e.winners.length, names: list(e.winners.map(name)) });
    default:
      return null;
  }
}

/**
 * This round's events, or the last round's when this one has shown nothing yet.
 * @param {Link} link
 * @param {NameOf} name
 */
function roundResult(link, name) {
  const all = link.gameEvents();
  /** @type {any[][]} */
  const rounds = [[]];
  for (const e of all) {
    if (e.type === "round-start") rounds.push([e]);
    else rounds[rounds.length - 1].push(e);
  }
  let pick = rounds[rounds.length - 1];
  const said = (evs) => evs.filter((e) => e.type !== "round-start" && e.type !== "step" && eventText(e, name));
  if (said(pick).length === 0 && rounds.length > 1) pick = rounds[rounds.length - 2];
  const lines = said(pick);
  const head = pick[0]?.type === "round-start" ? t("side.round", { n: pick[0].round }) : t("result.title");
  const box = h("div", { class: "result", id: "result" }, h("h3", {}, head));
  if (lines.length === 0) box.append(h("p", { class: "note" }, t("result.nothingYet")));
  else
    box.append(
      h(
        "ul",
        {},
        lines.slice(-14).map((e) => h("li", { class: `ev ev-${e.type}` }, eventText(e, name))),
      ),
    );
  return box;
}
