// #/setup: players and seats, table shape, edition and options, secrets (cards, consoles, bots), pairing guns to
// seats and gun health. The form is built once (what is typed stays); the guns list follows the hub live.

import { COLOUR_NAMES, css, errText, flash, h, seatColour } from "./ui.js";

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

export function setupPage(root, link) {
  const d = loadDraft();
  const save = () => localStorage.setItem(DRAFT_KEY, JSON.stringify(d));
  const msg = h("div", { class: "msg", id: "setup-msg", role: "status" });
  const playersBox = h("ol", { class: "players", start: 0 });

  const drawPlayers = () => {
    playersBox.replaceChildren(
      ...d.players.map((name, i) =>
        h(
          "li",
          {},
          h("span", { class: "swatch", style: `background:${css(seatColour(i))}` }),
          h("input", {
            value: name,
            "aria-label": `player at seat ${i}`,
            "data-seat": i,
            oninput: (e) => {
              d.players[i] = e.target.value;
              save();
            },
          }),
          h("span", { class: "note" }, ` seat ${i} (${COLOUR_NAMES[i % 8]})`),
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
            "remove",
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
      options.map(([v, t]) => h("option", { value: v, selected: String(d[key]) === v }, t)),
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

  const start = h("button", { class: "primary", id: "new-game", type: "submit" }, "Start a new game");
  const form = h(
    "form",
    {
      class: "setup-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const a = gameArgs(d);
        if (typeof a === "string") return flash(msg, a, "error");
        start.disabled = true;
        flash(msg, "starting…");
        const res = await link.request("game.new", a);
        start.disabled = !link.isHost;
        if (res.ok) {
          flash(msg, `game ${res.r.game} started`, "ok");
          location.hash = "#/table";
        } else flash(msg, `refused: ${errText(res)}`, "error");
      },
    },
    h("h3", {}, "Players (clockwise from seat 0)"),
    playersBox,
    h(
      "button",
      {
        type: "button",
        id: "add-player",
        onclick: () => {
          if (d.players.length >= 8) return;
          d.players.push(`Player ${d.players.length + 1}`);
          save();
          drawPlayers();
        },
      },
      "add a player",
    ),
    h("h3", {}, "Game"),
    field(
      "Edition",
      select("edition", [
        ["classic", "classic (1st edition)"],
        ["second", "2nd edition"],
      ]),
    ),
    field("Super Powers (classic)", check("powers")),
    field("Cop variant (classic)", check("cop")),
    field("First Godfather (seat)", text("godfather", { type: "number", min: 0, max: 7 })),
    field("Seed (blank: random)", text("seed", { type: "number" })),
    h("h3", {}, "Table"),
    field("Run by the table (guns, counts)", check("table")),
    field(
      "Secret bullets",
      select("secrets", [
        ["physical", "physical cards"],
        ["console", "phone consoles"],
        ["bot-random", "bots (random)"],
        ["bot-cautious", "bots (cautious)"],
        ["bot-aggressive", "bots (aggressive)"],
      ]),
    ),
    field(
      "Table shape",
      select("shape", [
        ["round", "round, even seats"],
        ["points", "custom seat positions"],
      ]),
    ),
    field("Seat positions (x,y metres per line)", text("points", { rows: 4, placeholder: "0,0.8\n0.8,0\n..." })),
    field(
      "Timing",
      select("timing", [
        ["default", "normal"],
        ["fast", "fast"],
      ]),
    ),
    field("Start rounds automatically", check("autoRound")),
    start,
    msg,
  );

  const guns = h("div", { class: "guns", id: "guns" });
  root.replaceChildren(
    h(
      "div",
      { class: "page setup-page" },
      h("h2", {}, "Setup"),
      h("div", { class: "cols" }, h("section", {}, form), h("section", {}, guns)),
    ),
  );
  const drawGuns = () => {
    start.disabled = !link.isHost;
    start.title = link.isHost ? "" : "needs the host PIN (Host page)";
    guns.replaceChildren(...gunsSection(link, d));
  };
  const onChange = (e) => {
    if (e.detail === "aim") return;
    if (guns.contains(document.activeElement) && document.activeElement?.tagName === "SELECT") return;
    drawGuns();
  };
  link.addEventListener("change", onChange);
  drawGuns();
  return () => link.removeEventListener("change", onChange);
}

/** The game.new arguments from the form, or what is wrong with it. */
export function gameArgs(d) {
  const players = d.players.map((p) => p.trim());
  if (players.some((p) => !p)) return "every player needs a name";
  const a = { edition: d.edition, players };
  if (d.edition === "classic") {
    if (d.powers) a.powers = true;
    if (d.cop) a.cop = true;
  }
  const gf = Number(d.godfather);
  if (Number.isInteger(gf) && gf > 0) a.godfather = gf;
  a.seed = d.seed === "" ? Math.floor(Math.random() * 2 ** 31) : Number(d.seed);
  if (d.table) {
    const t = { timing: d.timing, autoRound: !!d.autoRound };
    t.secrets = d.secrets.startsWith("bot-") ? { bot: d.secrets.slice(4) } : d.secrets;
    if (d.shape === "points") {
      const points = d.points
        .split(/\n+/)
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => l.split(/[ ,;]+/).map(Number));
      if (points.length !== players.length || points.some((p) => p.length !== 2 || !p.every(Number.isFinite)))
        return `give one "x,y" line per player (${players.length})`;
      t.layout = { points: points.map(([x, y]) => ({ x, y })) };
    } else t.layout = { round: players.length };
    a.table = t;
  }
  return a;
}

function gunsSection(link, d) {
  const msg = h("div", { class: "msg", id: "pair-msg" });
  const nSeats = Math.max(d.players.length, link.seats().length);
  const seatOptions = (sel) =>
    [h("option", { value: "", selected: sel === null }, "no seat")].concat(
      Array.from({ length: nSeats }, (_, i) =>
        h("option", { value: String(i), selected: sel === i }, `seat ${i} ${d.players[i] ?? ""}`),
      ),
    );
  const act = async (op, a, button) => {
    if (button) button.disabled = true;
    const res = await link.request(op, a);
    flash(msg, res.ok ? `${op}: done` : `refused: ${errText(res)}`, res.ok ? "ok" : "error");
    if (button) button.disabled = false;
  };
  const host = link.isHost;
  const rows = [...link.guns].sort(([a], [b]) => (a < b ? -1 : 1));
  const requests = rows.filter(([, g]) => !g.paired && g.on);
  const out = [h("h3", {}, "Pairing requests")];
  if (requests.length === 0) out.push(h("p", { class: "note" }, "none: a new gun shows here when switched on"));
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
            title: host ? "" : "needs the host PIN",
            onclick: (e) =>
              act("pair.accept", sel.value === "" ? { gun: id } : { gun: id, seat: Number(sel.value) }, e.target),
          },
          "accept",
        ),
        h("button", { disabled: !host, onclick: (e) => act("pair.reject", { gun: id }, e.target) }, "reject"),
      ),
    );
  }
  // pair by pulling: the seat lights here, its player pulls the trigger of the new gun
  const listening = link.state?.pairing ?? null;
  out.push(
    h(
      "div",
      { class: "pair-pull", id: "pair-pull" },
      h("strong", {}, "Pair by pulling: "),
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
              `seat ${i} is lit: pull the new gun's trigger (click to stop)`,
            )
          : h(
              "button",
              {
                id: `pull-seat-${i}`,
                style: `border-left: 6px solid ${css(seatColour(i))}`,
                disabled: !host,
                title: host ? "then pull the trigger of the gun asking to be paired" : "needs the host PIN",
                onclick: (e) => act("pair.listen", { seat: i }, e.target),
              },
              `seat ${i} ${d.players[i] ?? ""}`.trim(),
            ),
      ),
    ),
  );
  out.push(h("h3", {}, "Guns"));
  const table = h(
    "table",
    { class: "gun-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["gun", "seat", "online", "battery", "signal", "firmware", "calibrated", "warnings", ""].map((t) =>
          h("th", {}, t),
        ),
      ),
    ),
  );
  const body = h("tbody", {});
  for (const [id, g] of rows) {
    if (!g.paired && !g.on) continue;
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
        h("td", {}, id, g.paired ? "" : " (request)"),
        h("td", {}, sel),
        h("td", { class: g.on ? "on" : "off" }, g.on ? "online" : `offline${g.why ? ` (${g.why})` : ""}`),
        h("td", {}, info.bat !== undefined ? `${Math.round(info.bat)}%` : "–"),
        h("td", {}, info.rs !== undefined ? `${info.rs} dBm` : "–"),
        h("td", {}, info.fw ?? "–"),
        h("td", {}, cal && typeof cal.off === "number" ? `${cal.off.toFixed(1)}°` : "no"),
        h("td", { class: "warn" }, (g.warn ?? []).join("; ")),
        h(
          "td",
          {},
          g.paired
            ? h("button", { disabled: !host, onclick: (e) => act("gun.forget", { gun: id }, e.target) }, "forget")
            : "",
        ),
      ),
    );
  }
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 9 }, "no guns yet")));
  table.append(body);
  out.push(table, msg);
  return out;
}
