// The live table, drawn from above: seats (name, colour, wounds, shame, money or loot, alive/dead, Godfather),
// live aim lines, the count, the step, the loot, the draft turn and the round's result.

import { hostPanel, messageLine } from "./host.js";
import { lang, list, money, t } from "./i18n.js";
import {
  bulletName,
  cardName,
  css,
  decisionName,
  editionName,
  h,
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
const AIM_FRESH_MS = 3000;

/**
 * Mounts the table view into `root`; returns a cleanup function.
 * @param {HTMLElement} root
 * @param {Link} link
 */
export function tableView(root, link) {
  const svg = s("svg", {
    viewBox: `${-VIEW_X} ${-VIEW_Y} ${2 * VIEW_X} ${2 * VIEW_Y}`,
    class: "table-svg",
    role: "img",
  });
  // the side panel: what the table shows, and below it the host's controls, each drawn on its own
  const info = h("section", { class: "side-part" });
  const controls = h("section", { class: "side-part" });
  const side = h("aside", { class: "side" }, info, controls);
  root.replaceChildren(h("div", { class: "table-page" }, h("section", { class: "table-wrap" }, svg), side));
  let raf = 0;
  const hostMsg = messageLine("host-msg");

  // Each part is redrawn only when what it shows changes, never for the live aim that rides along in table/state:
  // a button replaced under a click would swallow the click. The round's result comes on table/events, which may
  // arrive after the state it belongs to: it is part of what the table shows, not of the host's controls (a late
  // event batch landing as the host clicks a draft pick lost the click).
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
  const draw = () => {
    drawTable(svg, link);
    tick();
  };
  const onChange = (e) => {
    if (e.detail === "aim") drawAims(svg, link);
    else draw();
  };
  // The count and the reveal window run on the hub's clock, drawn every frame while one runs.
  const tick = () => {
    cancelAnimationFrame(raf);
    if (drawCount(svg, link)) raf = requestAnimationFrame(tick);
  };
  link.addEventListener("change", onChange);
  draw();
  const stale = setInterval(() => drawAims(svg, link), 1000);
  return () => {
    stopInfo();
    stopControls();
    link.removeEventListener("change", onChange);
    cancelAnimationFrame(raf);
    clearInterval(stale);
  };
}

const pt = (p) => ({ x: p.x, y: -p.y });

/** @param {Link} link */
function drawTable(svg, link) {
  const seats = link.seats();
  const game = link.state?.game;
  svg.replaceChildren();
  if (seats.length === 0) {
    svg.append(
      s("text", { x: 0, y: 0, class: "big-note", "text-anchor": "middle" }, t("table.noGame")),
      s("text", { x: 0, y: 0.14, class: "note", "text-anchor": "middle" }, t("table.setUpOne")),
    );
    return;
  }
  const pos = link.layout(seats.length).map(pt);
  const layout = link.state?.layout;
  const isRound = !layout || !("points" in layout);
  svg.append(
    isRound
      ? s("circle", { cx: 0, cy: 0, r: 0.62, class: "felt" })
      : s("polygon", { points: pos.map((p) => `${p.x * 0.78},${p.y * 0.78}`).join(" "), class: "felt" }),
  );
  svg.append(s("g", { class: "aims" }));
  const turn = game?.turn ?? null;
  for (const seat of seats) {
    const p = pos[seat.seat];
    const pl = seat.player;
    const out = Math.hypot(p.x, p.y) || 1;
    const ux = p.x / out;
    const uy = p.y / out;
    const dead = pl && !pl.alive;
    const g = s("g", {
      class: `seat${dead ? " dead" : ""}${pl?.waiting ? " waiting" : ""}${turn === seat.seat ? " turn" : ""}`,
      "data-seat": seat.seat,
    });
    g.append(
      s("circle", { cx: p.x, cy: p.y, r: 0.13, fill: "#111", stroke: css(seat.colour), "stroke-width": 0.035 }),
      // people count seats from 1
      s("text", { x: p.x, y: p.y + 0.045, class: "seat-no", "text-anchor": "middle" }, String(seat.seat + 1)),
    );
    if (game && game.godfather === seat.seat) {
      g.append(
        s("text", { x: p.x - ux * 0.21, y: p.y - uy * 0.21 + 0.04, class: "godfather", "text-anchor": "middle" }, "♛"),
      );
    }
    if (!seat.online && seat.gun) {
      g.append(s("text", { x: p.x - 0.11, y: p.y - 0.1, class: "offline-mark", "text-anchor": "middle" }, "⚠"));
    }
    // The label block, outside the seat
    const lx = p.x + ux * 0.26;
    const ly = p.y + uy * 0.26 + (uy > 0.3 ? 0.06 : uy < -0.3 ? -0.12 : -0.03);
    const anchor = ux > 0.35 ? "start" : ux < -0.35 ? "end" : "middle";
    const lines = [s("tspan", { x: lx, dy: 0, class: "name" }, seat.name)];
    if (pl) {
      const bits = [];
      bits.push(dead ? t("table.dead") : `♥ ${"●".repeat(pl.wounds)}${"○".repeat(Math.max(0, pl.deadly - pl.wounds))}`);
      bits.push(money(pl.money));
      if (game?.edition === "classic") {
        if (pl.shame) bits.push(t("table.shame", { n: pl.shame }));
      } else if (pl.loot) {
        const l = pl.loot;
        lines.push(
          s(
            "tspan",
            { x: lx, dy: 0.075, class: "sub" },
            t("table.loot", { cash: l.cash, diamonds: l.diamonds, paintings: l.paintings }),
          ),
        );
      }
      lines.splice(1, 0, s("tspan", { x: lx, dy: 0.075, class: "stats" }, bits.join("  ")));
      const extra = [];
      if (pl.power) extra.push(powerName(pl.power));
      if (pl.role) extra.push(roleName(pl.role));
      if (pl.lyingDown) extra.push(t("table.lyingDown"));
      if (pl.hurt) extra.push(t("table.hurt", { n: pl.hurt }));
      if (pl.score !== undefined) extra.push(t("table.score", { money: money(pl.score) }));
      if (pl.waiting) extra.push(t("table.choosing"));
      if (turn === seat.seat) extra.push(t("table.picks"));
      if (extra.length) lines.push(s("tspan", { x: lx, dy: 0.07, class: "sub" }, extra.join(" · ")));
    } else if (seat.gun) {
      lines.push(s("tspan", { x: lx, dy: 0.075, class: "sub" }, t("table.gun", { gun: seat.gun })));
    }
    g.append(s("text", { x: lx, y: ly, "text-anchor": anchor, class: "label" }, lines));
    svg.append(g);
  }
  svg.append(
    s(
      "g",
      { class: "centre" },
      s("circle", { cx: 0, cy: 0, r: 0.3, class: "count-ring", "stroke-dasharray": "1.885 1.885" }),
      s("text", { x: 0, y: 0.1, class: "count", "text-anchor": "middle" }, ""),
      s("text", { x: 0, y: 0.22, class: "count-sub", "text-anchor": "middle" }, ""),
      s("text", { x: 0, y: -0.12, class: "centre-step", "text-anchor": "middle" }, centreStep(link)),
    ),
  );
  drawAims(svg, link);
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

/** @param {Link} link */
function drawAims(svg, link) {
  const layer = svg.querySelector("g.aims");
  if (!layer) return;
  layer.replaceChildren();
  const seats = link.seats();
  const pos = link.layout(seats.length).map(pt);
  for (const [seat, a] of aimsNow(link)) {
    const from = pos[seat];
    if (!from) continue;
    const colour = css(seats[seat].colour);
    const cls = a.committed ? "aim committed" : "aim";
    if (a.target !== null && pos[a.target]) {
      const to = pos[a.target];
      const d = Math.hypot(to.x - from.x, to.y - from.y) || 1;
      const k = 0.15 / d;
      layer.append(
        s("line", {
          x1: from.x + (to.x - from.x) * k,
          y1: from.y + (to.y - from.y) * k,
          x2: to.x - (to.x - from.x) * k,
          y2: to.y - (to.y - from.y) * k,
          stroke: colour,
          class: cls,
          "marker-end": "url(#arrow)",
          "data-from": seat,
          "data-to": a.target,
        }),
      );
    } else {
      // nobody or ambiguous: a short ray where the gun points (when known), and the word
      const rad = a.yaw === null ? Math.atan2(-from.y, -from.x) : (-a.yaw * Math.PI) / 180;
      const x2 = from.x + Math.cos(rad) * 0.32;
      const y2 = from.y + Math.sin(rad) * 0.32;
      if (a.yaw !== null)
        layer.append(s("line", { x1: from.x, y1: from.y, x2, y2, stroke: colour, class: `${cls} nobody` }));
      const word = a.committed ? t("who.nobody") : a.yaw === null ? t("aim.none") : t("aim.nobodyOrAmbiguous");
      // the word sits on the table side of the seat, clear of the names outside
      layer.append(
        s(
          "text",
          {
            x: from.x * 0.68,
            y: from.y * 0.68 + 0.02,
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
  if (!svg.querySelector("defs")) {
    svg.prepend(
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
      ),
    );
  }
}

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
  // the loot on the table
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
  side.append(loot);
  side.append(roundResult(link, name));
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
