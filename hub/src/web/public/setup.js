// #/setup: players and seats, table shape, edition and options, secrets (cards, consoles, bots), pairing guns to
// seats and gun health. The form shows the running game, else the draft kept in this browser; it is built again
// only for a new language (what is typed stays). The table's language and the guns list follow the hub live.

import { seatColour } from "/protocol/index.js";
import { bluetoothSection } from "./bluetooth-section.js";
import { devicesSection } from "./devices-section.js";
import { flashSection } from "./flash-page.js";
import { LANG_NAMES, LANGS, lang, num, percent, t } from "./i18n.js";
import { colourName, css, errText, flash, h, onLinkChange, sendRequest } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

const DRAFT_KEY = "cng-setup";

function loadDraft() {
  try {
    const d = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? "null");
    if (d && Array.isArray(d.players)) return d;
  } catch {
    // a fresh form
  }
  return {
    players: ["Ann", "Bob", "Cid", "Dee"],
    edition: "classic",
    powers: false,
    cop: false,
    secrets: "physical",
    shape: "round",
    points: "",
    timing: "default",
    autoRound: false,
    table: true,
    godfather: 0,
    seed: "",
  };
}

/**
 * The running game's players, edition and options over the saved draft: Setup then shows the game that runs, not
 * the last form. Options show only as far as the public view does (a power once revealed, the cop's switchboard).
 */
function fromGame(d, g) {
  if (!g) return d;
  return {
    ...d,
    players: g.players.map((p) => p.name),
    edition: g.edition,
    powers: d.powers || g.players.some((p) => p.power !== null),
    cop: g.switchboard !== undefined,
  };
}

/** @param {Link} link */
export function setupPage(root, link) {
  let d = fromGame(loadDraft(), link.state?.game);
  let shownGame = link.state?.id ?? null;
  // once the form is touched, a game starting elsewhere does not overwrite it
  let touched = false;
  const save = () => {
    touched = true;
    localStorage.setItem(DRAFT_KEY, JSON.stringify(d));
  };
  const msg = h("div", { class: "msg", id: "setup-msg", role: "status" });
  const langMsg = h("div", { class: "msg", id: "lang-msg", role: "status" });
  const guns = h("div", { class: "guns", id: "guns" });
  const langBox = h("div", { class: "table-lang", id: "table-lang" });
  let start = null;
  // Flash a gun over USB (host only): its own section, kept across redraws (a flash under way goes on)
  const flasher = flashSection();
  // Connect Bluetooth guns (host only): its own section too; the guns it bridges outlive the page (ble-bridge.js)
  const bluetooth = bluetoothSection();
  // Host devices (host only): who logs in as the host with a token, and Revoke
  const devices = devicesSection();

  const build = () => {
    const playersBox = h("ol", { class: "players" });
    const drawPlayers = () => {
      playersBox.replaceChildren(
        ...d.players.map((name, i) =>
          h(
            "li",
            {},
            h("span", { class: "swatch", style: `background:${css(seatColour(i))}` }),
            h("input", {
              value: name,
              "aria-label": t("setup.playerAt", { n: i + 1 }),
              "data-seat": i,
              oninput: (e) => {
                d.players[i] = e.target.value;
                save();
              },
            }),
            h("span", { class: "note" }, " ", t("setup.seatColour", { n: i + 1, colour: colourName(i) })),
            h(
              "button",
              {
                type: "button",
                disabled: d.players.length <= 3,
                onclick: () => {
                  d.players.splice(i, 1);
                  save();
                  drawPlayers();
                },
              },
              t("setup.remove"),
            ),
          ),
        ),
      );
    };
    drawPlayers();

    const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), input);
    const select = (key, options) =>
      h(
        "select",
        {
          id: `setup-${key}`,
          onchange: (e) => {
            d[key] = e.target.value;
            save();
          },
        },
        options.map(([v, label]) => h("option", { value: v, selected: String(d[key]) === v }, label)),
      );
    const check = (key) =>
      h("input", {
        type: "checkbox",
        id: `setup-${key}`,
        checked: !!d[key],
        onchange: (e) => {
          d[key] = e.target.checked;
          save();
        },
      });
    const text = (key, attrs = {}) =>
      h(key === "points" ? "textarea" : "input", {
        id: `setup-${key}`,
        value: d[key],
        ...attrs,
        oninput: (e) => {
          d[key] = e.target.value;
          save();
        },
      });
    // the draft keeps the seat as the hub counts it (from 0); people type it from 1
    const godfather = h("input", {
      id: "setup-godfather",
      type: "number",
      min: 1,
      max: 8,
      value: String((Number(d.godfather) || 0) + 1),
      oninput: (e) => {
        d.godfather = e.target.value === "" ? 0 : Number(e.target.value) - 1;
        save();
      },
    });

    start = h("button", { class: "primary", id: "new-game", type: "submit" }, t("setup.start"));
    const form = h(
      "form",
      {
        class: "setup-form",
        onsubmit: async (e) => {
          e.preventDefault();
          const a = gameArgs(d);
          if (typeof a === "string") return flash(msg, a, "error");
          start.disabled = true;
          flash(msg, t("setup.starting"));
          const res = await link.request("game.new", a);
          start.disabled = !link.isHost;
          if (res.ok) {
            flash(msg, t("setup.started", { id: String(res.r.game) }), "ok");
            location.hash = "#/table";
          } else flash(msg, t("msg.refused", { error: errText(res) }), "error");
        },
      },
      h("h3", {}, t("setup.players")),
      playersBox,
      h(
        "button",
        {
          type: "button",
          id: "add-player",
          onclick: () => {
            if (d.players.length >= 8) return;
            d.players.push(t("setup.newPlayer", { n: d.players.length + 1 }));
            save();
            drawPlayers();
          },
        },
        t("setup.addPlayer"),
      ),
      h("h3", {}, t("setup.game")),
      field(
        t("setup.edition"),
        select("edition", [
          ["classic", t("setup.editionClassic")],
          ["second", t("edition.second")],
        ]),
      ),
      field(t("setup.powers"), check("powers")),
      field(t("setup.cop"), check("cop")),
      field(t("setup.godfather"), godfather),
      field(t("setup.seed"), text("seed", { type: "number" })),
      h("h3", {}, t("setup.table")),
      field(t("setup.byTable"), check("table")),
      field(
        t("setup.secrets"),
        select("secrets", [
          ["physical", t("setup.secretsPhysical")],
          ["console", t("setup.secretsConsole")],
          ["bot-random", t("setup.secretsBotRandom")],
          ["bot-cautious", t("setup.secretsBotCautious")],
          ["bot-aggressive", t("setup.secretsBotAggressive")],
        ]),
      ),
      field(
        t("setup.shape"),
        select("shape", [
          ["round", t("setup.shapeRound")],
          ["points", t("setup.shapePoints")],
        ]),
      ),
      field(t("setup.points"), text("points", { rows: 4, placeholder: "0,0.8\n0.8,0\n..." })),
      field(
        t("setup.timing"),
        select("timing", [
          ["default", t("setup.timingNormal")],
          ["fast", t("setup.timingFast")],
        ]),
      ),
      field(t("setup.autoRound"), check("autoRound")),
      start,
      msg,
    );
    root.replaceChildren(
      h(
        "div",
        { class: "page setup-page" },
        h("h2", {}, t("setup.title")),
        h(
          "div",
          { class: "cols" },
          h("section", {}, langBox, form),
          h("section", {}, guns, bluetooth.el, flasher.el, devices.el),
        ),
      ),
    );
  };

  const gunsMsg = h("div", { class: "msg", id: "pair-msg" });
  // Each live part is redrawn only when what it shows changed: a running table's live aim rides in every
  // table/state, and rows rebuilt ten times a second would take the host's hover, focus and clicks with them.
  let langShown = "";
  let gunsShown = "";
  const drawLive = () => {
    start.disabled = !link.isHost;
    start.title = link.isHost ? "" : t("needsPin");
    const langKey = JSON.stringify([link.state?.lang ?? null, link.isHost, lang()]);
    if (langKey !== langShown && !langBox.contains(document.activeElement)) {
      langShown = langKey;
      langBox.replaceChildren(...tableLangField(link, langMsg));
    }
    const gunsKey = JSON.stringify([
      [...link.guns],
      [...link.cals],
      link.seats(),
      link.state?.pairing ?? null,
      link.isHost,
      d.players,
      lang(),
    ]);
    // a seat being chosen in the guns list stays open
    if (
      gunsKey !== gunsShown &&
      !(guns.contains(document.activeElement) && document.activeElement?.tagName === "SELECT")
    ) {
      gunsShown = gunsKey;
      guns.replaceChildren(...gunsSection(link, d, gunsMsg));
    }
    flasher.update(link);
    bluetooth.update(link);
    devices.update(link);
  };
  const onChange = (e) => {
    if (e.detail === "aim") return;
    const id = link.state?.id ?? null;
    const prefill = id !== shownGame && !touched && link.state?.game;
    shownGame = id;
    if (prefill) d = fromGame(d, prefill);
    if (e.detail === "lang") {
      flasher.update(link, true);
      devices.update(link, true);
    }
    if (prefill || e.detail === "lang") build();
    drawLive();
  };
  const off = onLinkChange(link, onChange);
  build();
  drawLive();
  return () => {
    off();
    bluetooth.stop();
  };
}

/**
 * The table's language (table.lang, host only): what every page without its own choice reads.
 * @param {Link} link
 */
function tableLangField(link, msg) {
  const host = link.isHost;
  const sel = h(
    "select",
    {
      id: "setup-lang",
      disabled: !host,
      title: host ? "" : t("needsPin"),
      onchange: (e) => sendRequest(link, msg, "table.lang", { lang: e.target.value || null }),
    },
    h("option", { value: "", selected: !link.state?.lang }, t("setup.langEach")),
    LANGS.map((l) => h("option", { value: l, selected: link.state?.lang === l, lang: l }, LANG_NAMES[l])),
  );
  return [h("h3", {}, t("setup.langTitle")), h("label", { class: "field" }, h("span", {}, t("setup.lang")), sel), msg];
}

/** The game.new arguments from the form, or what is wrong with it. */
export function gameArgs(d) {
  const players = d.players.map((p) => p.trim());
  if (players.some((p) => !p)) return t("setup.needNames");
  const a = { edition: d.edition, players };
  if (d.edition === "classic") {
    if (d.powers) a.powers = true;
    if (d.cop) a.cop = true;
  }
  const gf = Number(d.godfather);
  if (Number.isInteger(gf) && gf > 0) a.godfather = gf;
  a.seed = d.seed === "" ? Math.floor(Math.random() * 2 ** 31) : Number(d.seed);
  if (d.table) {
    const tb = { timing: d.timing, autoRound: !!d.autoRound };
    tb.secrets = d.secrets.startsWith("bot-") ? { bot: d.secrets.slice(4) } : d.secrets;
    if (d.shape === "points") {
      const points = d.points
        .split(/\n+/)
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => l.split(/[ ,;]+/).map(Number));
      if (points.length !== players.length || points.some((p) => p.length !== 2 || !p.every(Number.isFinite)))
        return t("setup.needPoints", { n: players.length });
      tb.layout = { points: points.map(([x, y]) => ({ x, y })) };
    } else tb.layout = { round: players.length };
    a.table = tb;
  }
  return a;
}

/** "seat 3 · Cid": seats counted from 1 for people (the option values stay the hub's, from 0). */
const seatLabel = (i, name) => (name ? t("seat.nNamed", { n: i + 1, name }) : t("seat.n", { n: i + 1 }));

/** A gun's firmware update under way (a bar), or how its last one ended. */
function otaCell(p) {
  if (!p) return "";
  if (p.stage === "sending")
    return h("progress", { class: "ota-bar", max: String(p.n), value: String(p.o), title: p.why ?? p.fw });
  if (p.stage === "restarting") return h("span", { class: "note" }, " ", t("ota.restarting", { fw: p.fw }));
  if (p.stage === "failed") return h("span", { class: "warn" }, " ", t("ota.failed", { fw: p.fw, why: p.why ?? "" }));
  return "";
}

/**
 * A gun's battery: its charge and the volts it reads, or "not measured" (no divider: a power bank); for the host, the
 * one-time calibration (`gun.battery`): "full" just off the charger, or the volts a multimeter shows across the cell.
 * The volts are asked in a prompt: the list redraws on every gun status, and an input in it would lose what is typed.
 */
function batteryCell(id, g, info, host, act, msg) {
  if (info.bat === undefined) return info.fw ? t("bat.none") : "–";
  const text =
    info.bv !== undefined ? t("bat.reads", { pct: percent(info.bat), v: num(info.bv, 2) }) : percent(info.bat);
  if (!host || !g.paired || !g.on || info.bv === undefined) return text;
  const said = (res) => {
    if (!res?.ok) return;
    const r = res.r;
    if (r.flash) flash(msg, t("bat.flash", { gun: id, k: r.flash.bat }), "error");
    else
      flash(msg, t("bat.done", { gun: id, v: num(r.now.bv, 2), pct: percent(r.now.bat), was: num(r.was.bv, 2) }), "ok");
  };
  return [
    text,
    " ",
    h(
      "button",
      {
        class: "bat-full",
        title: t("bat.fullWhy"),
        onclick: async (e) => said(await act("gun.battery", { gun: id, full: true }, e.target)),
      },
      t("bat.full"),
    ),
    h(
      "button",
      {
        class: "bat-volts",
        title: t("bat.voltsWhy"),
        onclick: async (e) => {
          const v = Number(String(window.prompt(t("bat.prompt", { gun: id })) ?? "").replace(",", "."));
          if (!(v > 0)) return;
          said(await act("gun.battery", { gun: id, volts: v }, e.target));
        },
      },
      t("bat.volts"),
    ),
  ];
}

/** `msg` outlives each redraw (the list redraws on every gun status, an update's progress too): what an action
 * said stays on screen.
 * @param {Link} link
 */
function gunsSection(link, d, msg) {
  const nSeats = Math.max(d.players.length, link.seats().length);
  const seatOptions = (sel) =>
    [h("option", { value: "", selected: sel === null }, t("setup.noSeat"))].concat(
      Array.from({ length: nSeats }, (_, i) =>
        h("option", { value: String(i), selected: sel === i }, seatLabel(i, d.players[i])),
      ),
    );
  /**
   * A request from a button, typed by the op.
   * @template {import("/protocol/index.js").OpName} K
   * @param {K} op
   * @param {import("./mqtt-link.js").OpArgs<K>} a
   * @param {HTMLButtonElement} [button]
   */
  const act = (op, a, button) => sendRequest(link, msg, op, a, button);
  const host = link.isHost;
  const rows = [...link.guns].sort(([a], [b]) => (a < b ? -1 : 1));
  const requests = rows.filter(([, g]) => !g.paired && g.on);
  const out = [h("h3", {}, t("pair.requests"))];
  if (requests.length === 0) out.push(h("p", { class: "note" }, t("pair.none")));
  for (const [id] of requests) {
    // the next free seat by default
    const used = new Set(rows.filter(([, g]) => g.paired && g.seat !== null).map(([, g]) => g.seat));
    let free = 0;
    while (used.has(free)) free++;
    const sel = h("select", { "data-gun": id }, seatOptions(free < nSeats ? free : null));
    out.push(
      h(
        "div",
        { class: "pair-req", "data-gun": id },
        h("strong", {}, id),
        " → ",
        sel,
        h(
          "button",
          {
            class: "primary",
            disabled: !host,
            title: host ? "" : t("needsPin"),
            onclick: (e) =>
              act("pair.accept", sel.value === "" ? { gun: id } : { gun: id, seat: Number(sel.value) }, e.target),
          },
          t("pair.accept"),
        ),
        h("button", { disabled: !host, onclick: (e) => act("pair.reject", { gun: id }, e.target) }, t("pair.reject")),
      ),
    );
  }
  // pair by pulling: the seat lights here, its player pulls the trigger of the new gun
  const listening = link.state?.pairing ?? null;
  out.push(
    h(
      "div",
      { class: "pair-pull", id: "pair-pull" },
      h("strong", {}, t("pair.byPulling"), " "),
      Array.from({ length: nSeats }, (_, i) =>
        listening?.seat === i
          ? h(
              "button",
              {
                class: "primary lit",
                id: `pull-seat-${i}`,
                style: `outline: 3px solid ${css(seatColour(i))}`,
                disabled: !host,
                onclick: (e) => act("pair.listen", { seat: null }, e.target),
              },
              t("pair.lit", { n: i + 1 }),
            )
          : h(
              "button",
              {
                id: `pull-seat-${i}`,
                style: `border-left: 6px solid ${css(seatColour(i))}`,
                disabled: !host,
                title: host ? t("pair.pullWhy") : t("needsPin"),
                onclick: (e) => act("pair.listen", { seat: i }, e.target),
              },
              seatLabel(i, d.players[i]),
            ),
      ),
    ),
  );
  out.push(h("h3", {}, t("guns.title")));
  // updates over the air: the hub sends its own firmware build to every paired gun that runs another version
  out.push(
    h(
      "p",
      { class: "ota" },
      h(
        "button",
        {
          id: "ota-update",
          disabled: !host,
          title: host ? t("ota.why") : t("needsPin"),
          onclick: async (e) => {
            e.target.disabled = true;
            const res = await link.request("guns.update", { guns: "all" });
            e.target.disabled = false;
            if (!res.ok) return flash(msg, t("msg.refused", { error: errText(res) }), "error");
            const { started, refused } = res.r;
            const lines = [
              started.length ? t("ota.started", { n: started.length, fw: started[0].fw }) : t("ota.nothing"),
              ...refused.map((x) => `${x.gun}: ${x.why}`),
            ];
            flash(msg, lines.join(" · "), started.length ? "ok" : "error");
          },
        },
        t("ota.update"),
      ),
    ),
  );
  const table = h(
    "table",
    { class: "gun-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          t("guns.gun"),
          t("guns.seat"),
          t("guns.online"),
          t("guns.battery"),
          t("guns.signal"),
          t("guns.firmware"),
          t("guns.calibrated"),
          t("guns.warnings"),
          "",
        ].map((x) => h("th", {}, x)),
      ),
    ),
  );
  const body = h("tbody", {});
  for (const [id, g] of rows) {
    if (!g.paired && !g.on) continue;
    /** @type {Partial<import("/protocol/index.js").InfoMsg>} */
    const info = g.info ?? {};
    const cal = link.cals.get(id);
    const sel = h(
      "select",
      {
        disabled: !host || !g.paired,
        "data-gun": id,
        onchange: (e) => act("gun.seat", { gun: id, seat: e.target.value === "" ? null : Number(e.target.value) }),
      },
      seatOptions(g.seat ?? null),
    );
    body.append(
      h(
        "tr",
        { "data-gun": id, class: g.on ? "on" : "off" },
        h("td", {}, g.paired ? id : t("guns.request", { id })),
        h("td", {}, sel),
        h(
          "td",
          { class: g.on ? "on" : "off" },
          g.on ? t("guns.isOnline") : g.why ? t("guns.offlineWhy", { why: g.why }) : t("guns.offline"),
        ),
        h("td", { class: "bat" }, batteryCell(id, g, info, host, act, msg)),
        h("td", {}, info.rs !== undefined ? t("guns.dbm", { n: info.rs }) : "–"),
        h("td", { class: "fw" }, info.fw ?? "–", otaCell(g.ota)),
        h("td", {}, cal && typeof cal.off === "number" ? t("degrees", { n: num(cal.off, 1) }) : t("guns.no")),
        h("td", { class: "warn" }, (g.warn ?? []).join("; ")),
        h(
          "td",
          {},
          g.paired
            ? h(
                "button",
                { disabled: !host, onclick: (e) => act("gun.forget", { gun: id }, e.target) },
                t("guns.forget"),
              )
            : "",
        ),
      ),
    );
  }
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 9 }, t("guns.none"))));
  table.append(body);
  out.push(table, msg);
  return out;
}
