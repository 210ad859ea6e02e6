// Host controls, behind the host PIN: start each round, draft picks and the inputs sensors cannot give, and the
// #/host page (PIN, secrets entered for a seat, seat console links). The hub checks the PIN on every request;
// the page only hides what it knows the hub would refuse.

import { HOST_CHOICES, hostDecision } from "/protocol/index.js";
import { lang, list, t } from "./i18n.js";
import { bulletName, cardName, decisionName, flash, h, redrawOnChange, sendRequest, stillState } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** Sends one host request from a button, showing the hub's answer in `msg`. */
/**
 * A request from a button, typed by the op.
 * @template {import("/protocol/index.js").OpName} K
 * @param {import("./mqtt-link.js").Link} link
 * @param {HTMLElement} msg
 * @param {K} op
 * @param {import("./mqtt-link.js").OpArgs<K>} a
 * @param {HTMLButtonElement} [button]
 */
const act = (link, msg, op, a, button) => sendRequest(link, msg, op, a, button);

const btn = (label, attrs, onclick) => h("button", { ...attrs, onclick }, label);

/** Why a host control is off, shown on it (title) and next to it. */
const off = (label, why, id) => h("button", { disabled: true, title: why, "data-why": why, id }, label);

/** A message line that lives across redraws (the answer to a click must stay on screen). */
export const messageLine = (id) => h("div", { class: "msg", id, role: "status" });

/**
 * The host's controls for the game as it stands; `msg` is kept by the caller across redraws.
 * @param {Link} link
 */
export function hostPanel(link, msg = messageLine("host-msg")) {
  const panel = h("div", { class: "host-panel", id: "host-panel" }, h("h3", {}, t("host.title")));
  const st = link.state;
  const g = st?.game;
  if (!link.isHost) {
    panel.append(h("p", { class: "note" }, t("host.locked")));
    return panel;
  }
  if (!g) {
    panel.append(h("p", {}, h("a", { href: "#/setup" }, t("host.setUp"))), msg);
    return panel;
  }
  const hasTable = !!st.table;
  const decideOp = hasTable ? "host.decide" : "game.decide";
  const seats = link.seats();
  const waits = st.table?.waiting ?? [];
  /** @type {Panel} */
  const p = {
    link,
    msg,
    st,
    g,
    hasTable,
    decide: (decision, button) => act(link, msg, decideOp, { decision }, button),
    seats,
    name: (i) => seats[i]?.name ?? t("seat.n", { n: i + 1 }),
    waits,
    hostWaits: waits.filter((w) => w.for === "host"),
  };
  /** @type {HTMLElement[]} */
  const rows = [];
  roundRows(p, rows);
  draftRow(p, rows);
  privilegeRow(p, rows);
  inputRows(p, rows);
  laterRows(p, rows);
  panel.append(...rows, msg);
  return panel;
}

/**
 * What the host panel's rows are made from.
 * @typedef {{ link: Link, msg: HTMLElement, st: any, g: any, hasTable: boolean,
 *   decide: (decision: import("/protocol/index.js").Decision, button?: any) => unknown, seats: any[],
 *   name: (i: number) => string, waits: any[], hostWaits: any[] }} Panel
 */

/**
 * The round start, and going on without the guns a restarted count waits for.
 * @param {Panel} p
 * @param {HTMLElement[]} rows
 */
function roundRows(p, rows) {
  const { link, msg, g, hasTable, name, waits } = p;
  // Round start
  if (!hasTable) rows.push(off(t("host.startRound"), t("host.noTable"), "start-round"));
  else if (g.over) rows.push(off(t("host.startRound"), t("host.over"), "start-round"));
  else {
    const waitsStart = waits.some((w) => w.for === "start");
    const b = btn(
      waitsStart ? t("host.startRoundN", { n: g.round }) : t("host.startRound"),
      { id: "start-round", class: "primary", disabled: !waitsStart, title: waitsStart ? "" : t("host.roundRuns") },
      () => act(link, msg, "round.start", {}, b),
    );
    rows.push(b);
  }

  // After a restart the count waits for the guns to come back; the host may go on without them
  const gunWaits = waits.filter((w) => w.for === "gun");
  if (gunWaits.length) {
    const b = btn(
      t("host.goOnWithout", { n: gunWaits.length, names: list(gunWaits.map((w) => name(w.seat))) }),
      { id: "release-count", title: t("host.goOnWithoutWhy") },
      () => act(link, msg, "game.resume", {}, b),
    );
    rows.push(b);
  }
}

/**
 * Draft (second edition): whose turn, the cards on the table.
 * @param {Panel} p
 * @param {HTMLElement[]} rows
 */
function draftRow(p, rows) {
  const { g, decide, name } = p;
  // Draft (second edition): whose turn, the cards on the table
  if (g.step === "draft" && g.turn !== null && g.turn !== undefined) {
    const seat = g.turn;
    /** @type {(import("/protocol/index.js").LootCard | "godfather")[]} */
    const cards = [];
    if ("cards" in g.table) {
      cards.push(...new Set(g.table.cards));
      if (g.table.token === null) cards.push("godfather");
    }
    // a clip takes a Bang! from the discard pile and the picker discards another card from hand: which one is the
    // picker's secret choice, so the host enters it with the pick (none with an empty hand)
    const inHand = g.players[seat]?.cards ?? 0;
    /** @param {import("/protocol/index.js").LootCard | "godfather"} c @param {"bang" | "click" | undefined} discard */
    const pick = (c, discard) => {
      const label =
        discard === undefined
          ? cardName(c)
          : t("host.clipDiscarding", { clip: cardName(c), card: bulletName(discard) });
      const attrs = {
        class: "card-btn",
        "data-card": c,
        ...(discard ? { "data-discard": discard } : {}),
        ...(c === "clip" ? { title: t("host.clipWhy", { name: name(seat) }) } : {}),
      };
      const b = btn(label, attrs, () => decide({ type: "pick", seat, card: c, ...(discard ? { discard } : {}) }, b));
      return b;
    };
    rows.push(
      h(
        "div",
        { class: "draft", id: "draft" },
        h("div", { class: "label" }, t("host.pickFor", { name: name(seat) })),
        cards.flatMap((c) => (c === "clip" && inHand > 0 ? [pick(c, "bang"), pick(c, "click")] : [pick(c, undefined)])),
      ),
    );
  }
}

/**
 * The Godfather's privilege, when entered by hand (no gun, or the host decides).
 * @param {Panel} p
 * @param {HTMLElement[]} rows
 */
function privilegeRow(p, rows) {
  const { st, g, hasTable, hostWaits, decide, seats, name } = p;
  // The Godfather's privilege, when entered by hand (no gun, or the host decides)
  // (open while the table's privilege window runs: the Godfather may also point and pull)
  const priv =
    st.table?.activity?.kind === "privilege" ||
    hostWaits.some((w) => w.decision === "privilege") ||
    (!hasTable && g.step === "privilege");
  if (priv) {
    const gf = g.godfather;
    rows.push(
      h(
        "div",
        { class: "privilege" },
        h("div", { class: "label" }, t("host.privilegeOf", { name: name(gf) })),
        btn(t("host.privilegePass"), {}, (e) => decide({ type: "privilege", seat: gf, order: null }, e.target)),
        seats
          .filter((x) => x.seat !== gf && x.player?.alive)
          .map((x) =>
            btn(t("host.privilegeOrder", { name: x.name }), {}, (e) =>
              decide({ type: "privilege", seat: gf, order: x.seat }, e.target),
            ),
          ),
      ),
    );
  }
}

/**
 * Other inputs the sensors cannot give: the host choices of each decision waited for.
 * @param {Panel} p
 * @param {HTMLElement[]} rows
 */
function inputRows(p, rows) {
  const { hostWaits, decide, seats, name } = p;
  // Other inputs the sensors cannot give
  for (const w of hostWaits) {
    const who = w.seat;
    const row = h(
      "div",
      { class: "host-input" },
      h("div", { class: "label" }, t("host.decisionFor", { name: name(who), decision: decisionName(w.decision) })),
    );
    if (w.decision === "pick" || w.decision === "privilege") continue;
    const choices = HOST_CHOICES[w.decision];
    if (choices === undefined) row.append(h("span", { class: "note" }, t("host.enterOnHostPage")));
    for (const c of choices ?? []) {
      /** @type {Record<string, string>} */
      const words = {};
      for (const [k, card] of Object.entries(c.cards ?? {})) words[k] = bulletName(card);
      /** @param {number} seat */
      const send = (seat) => (/** @type {MouseEvent} */ e) => decide(hostDecision(w.decision, who, c, seat), e.target);
      if (c.each === "dead")
        for (const x of seats.filter((x) => x.player && !x.player.alive))
          row.append(btn(t(`host.${c.word}`, { ...words, name: x.name }), {}, send(x.seat)));
      else row.append(btn(t(`host.${c.word}`, words), {}, send(who)));
    }
    rows.push(row);
  }
}

/**
 * Pause or resume, and undo.
 * @param {Panel} p
 * @param {HTMLElement[]} rows
 */
function laterRows(p, rows) {
  const { link, msg, st, g, hasTable } = p;
  if (st.table?.paused) rows.push(h("p", { class: "note", id: "paused-note" }, t("host.pausedNote")));
  rows.push(
    h(
      "div",
      { class: "later" },
      !hasTable
        ? off(t("host.pause"), t("host.pauseNoTable"), "pause")
        : st.table?.paused
          ? btn(t("host.resume"), { id: "pause", class: "primary" }, (e) => act(link, msg, "game.resume", {}, e.target))
          : btn(t("host.pause"), { id: "pause", disabled: g.over }, (e) => act(link, msg, "game.pause", {}, e.target)),
      btn(t("host.undo"), { id: "undo", title: t("host.undoWhy") }, (e) => act(link, msg, "game.undo", {}, e.target)),
    ),
  );
}

/**
 * #/host: the PIN, the panel, secrets entered for a seat, console links.
 * @param {Link} link
 */
export function hostPage(root, link) {
  let pinNote = ["", "info"];
  const hostMsg = messageLine("host-msg");
  const secretsMsg = messageLine("secrets-msg");
  const consoleMsg = messageLine("console-links-msg");
  const consoleList = h("ul", { id: "console-links" });
  const draw = () => {
    const page = h("div", { class: "page host-page" }, h("h2", {}, t("host.title")));
    if (!link.isHost) {
      const input = h("input", {
        type: "password",
        inputmode: "numeric",
        autocomplete: "off",
        id: "pin",
        placeholder: t("host.pinPlaceholder"),
        size: 10,
      });
      const msg = h("div", { class: "msg", id: "pin-msg" });
      flash(msg, pinNote[0], pinNote[1]);
      const form = h(
        "form",
        {
          class: "pin-form",
          onsubmit: async (e) => {
            e.preventDefault();
            flash(msg, t("host.checking"));
            const why = await link.login(input.value.trim());
            pinNote = why === null ? ["", "info"] : [why, "error"];
            draw();
          },
        },
        h("label", { for: "pin" }, t("host.pinLabel"), " "),
        input,
        h("button", { type: "submit", class: "primary", id: "pin-go" }, t("host.unlock")),
        msg,
      );
      page.append(h("p", {}, t("host.pinWhere")), form, hostPanel(link, hostMsg));
      root.replaceChildren(page);
      return;
    }
    page.append(
      h(
        "p",
        {},
        t("host.unlocked"),
        " ",
        btn(t("host.lock"), { id: "logout" }, () => link.logout()),
      ),
      hostPanel(link, hostMsg),
      secretsBox(link, secretsMsg),
      consoleLinks(link, consoleMsg, consoleList),
    );
    root.replaceChildren(page);
  };
  // redraw only when what the page shows changes (the language included); not under what the host is typing
  return redrawOnChange(
    link,
    () => [stillState(link.state), [...(link.guns?.entries?.() ?? [])], link.isHost, link.status, lang()],
    draw,
    () => root.contains(document.activeElement) && document.activeElement?.tagName === "INPUT",
  );
}

/**
 * Secret bullets and power reveals entered by the host for a seat (a player without a phone).
 * @param {Link} link
 */
function secretsBox(link, msg) {
  const st = link.state;
  const g = st?.game;
  const box = h("div", { class: "secrets" }, h("h3", {}, t("secrets.title")));
  if (!g || !st?.table) {
    box.append(h("p", { class: "note" }, t("secrets.onlyTable")));
    return box;
  }
  /** @type {import("/protocol/index.js").Bullet[]} */
  const cards = g.edition === "classic" ? ["bang", "click", "bbb"] : ["bang", "click"];
  const waiting = new Set(st.table.waiting.filter((w) => w.for === "secret").map((w) => w.seat));
  for (const seat of link.seats()) {
    if (!seat.player?.alive) continue;
    box.append(
      h(
        "div",
        { class: "host-input" },
        h("span", { class: "label" }, waiting.has(seat.seat) ? t("secrets.waitedFor", { name: seat.name }) : seat.name),
        cards.map((c) =>
          btn(bulletName(c), { "data-card": c }, (e) =>
            act(link, msg, "secret.bullet", { card: c, seat: seat.seat }, e.target),
          ),
        ),
      ),
    );
  }
  box.append(msg);
  return box;
}

/**
 * Where a phone reaches this dashboard: this page's origin, unless that is loopback (then the hub's LAN address).
 * @param {Link} link
 */
function phoneOrigin(link) {
  const lan = link.facts?.lan ?? [];
  const local = /^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
  return local && lan.length ? lan[0].replace(/\/$/, "") : location.origin;
}

/**
 * Seat console links: each opens a phone page for one seat (the token is made on first use).
 * @param {Link} link
 */
function consoleLinks(link, msg, list) {
  const box = h("div", { class: "consoles" }, h("h3", {}, t("consoles.title")));
  for (const seat of link.seats()) {
    const b = btn(t("consoles.linkFor", { name: seat.name }), { "data-seat": seat.seat }, async () => {
      const res = await act(link, msg, "seat.token", { seat: seat.seat }, b);
      if (!res.ok) return;
      const url = `${phoneOrigin(link)}/#/console?seat=${seat.seat}&token=${encodeURIComponent(res.r.token)}`;
      list.append(h("li", {}, `${seat.name}: `, h("a", { href: url, target: "_blank", class: "console-url" }, url)));
    });
    box.append(b);
  }
  box.append(list, msg);
  return box;
}
