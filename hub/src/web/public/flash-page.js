// Setup → "Flash a gun over USB" (host only): the browser does what `cng flash` does, over Web Serial through
// @espruino-tools/core (espruino-link.js). The form builds the same gun.json as `cng flash` with the same checks
// (shared/protocol's gun-config, served by the hub at /protocol/), the hub gives the board profiles and the built
// bundles (/api/boards, /api/firmware/<board>), and usb-flasher.js writes, reads back and restarts.

import { linkBlocker, openLink, preloadLink } from "./espruino-link.js";
import { t } from "./i18n.js";
import { flash, h } from "./ui.js";
import { FlashFailure, flashOverLink } from "./usb-flasher.js";

const FORM_KEY = "cng-flash";

/** shared/protocol (gunConfigProblem, gunConfigText, mountAxes, OTA_FILES), loaded once */
let protocol = null;
const loadProtocol = () => {
  protocol ??= import("/protocol/index.js").catch((e) => {
    protocol = null;
    throw e;
  });
  return protocol;
};

/** The 24 IMU mountings by name (+x+z first: the default, written only when another is chosen). */
function mountNames(p) {
  const out = [];
  for (const f of ["+x", "-x", "+y", "-y", "+z", "-z"])
    for (const u of ["+x", "-x", "+y", "-y", "+z", "-z"]) if (p.mountAxes(f + u)) out.push(f + u);
  return ["+x+z", ...out.filter((m) => m !== "+x+z")];
}

/** A random secret, as `cng flash` makes one (12 random bytes, base64url). */
function newSecret() {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The hub's address for guns: the host name of its first LAN dashboard address, and its MQTT port; with an external
 * broker (no MQTT port of its own) the host types the broker's address.
 */
function hubDefaults(facts) {
  let host = "";
  try {
    if (facts?.lan?.[0] && facts.mqttPort) host = new URL(facts.lan[0]).hostname;
  } catch {
    // none: the host types it
  }
  return { host, port: facts?.mqttPort ?? 1883 };
}

/** Words for what is wrong with the form (shared/protocol's gunConfigProblem codes). */
const problemText = (code, board) =>
  ({
    id: t("flash.badId"),
    secret: t("flash.badSecret"),
    link: t("flash.badLink"),
    hub: t("flash.needHub"),
    "hub-port": t("flash.badHubPort"),
    table: t("flash.badTable"),
    hz: t("flash.badHz"),
    wifi: t("flash.needSsid"),
    mount: t("flash.badMount"),
    bat: t("flash.badBat"),
    "no-bat": t("flash.noBat", { board }),
    "no-usb": t("flash.noUsb", { board }),
    "no-serial-link": t("flash.noSerialLink", { board }),
    "no-mount": t("flash.noMount", { board }),
  })[code] ?? code;

/** Words for a flash that stopped. */
function failureText(e) {
  if (!(e instanceof FlashFailure)) return t("flash.failed", { why: String(e?.message ?? e) });
  const why = {
    "no-answer": t("flash.noAnswer"),
    "wrong-board": t("flash.wrongBoard", { detail: e.detail }),
    "board-error": t("flash.boardError", { detail: e.detail }),
    verify: t("flash.verifyFailed", { detail: e.detail }),
    link: t("flash.linkLost", { detail: e.detail }),
  }[e.code];
  const text = why ?? t("flash.failed", { why: e.message });
  return e.half ? `${text} ${t("flash.halfWritten")}` : text;
}

/**
 * The section: built once (a flash under way survives the page's redraws); `update(link)` shows the form to the host
 * and only a note to everyone else.
 */
export function flashSection() {
  const box = h("section", { class: "flash-gun", id: "flash-gun" });
  let built = null;
  let busy = false;
  return {
    el: box,
    /** @param {boolean} [relabel] the language changed: build the form again (unless a flash is under way) */
    update(link, relabel = false) {
      if (busy) return;
      if (relabel) built = null;
      if (!link.isHost) {
        built = null;
        box.replaceChildren(h("h3", {}, t("flash.title")), h("p", { class: "note" }, t("flash.hostOnly")));
        return;
      }
      if (built) return;
      built = true;
      box.replaceChildren(h("h3", {}, t("flash.title")), h("p", { class: "note" }, t("flash.loading")));
      buildForm(box, link, (b) => {
        busy = b;
      }).catch((e) => {
        built = null;
        box.replaceChildren(
          h("h3", {}, t("flash.title")),
          h("p", { class: "msg error" }, t("flash.cannotLoad", { why: String(e?.message ?? e) })),
        );
      });
    },
  };
}

/**
 * The form's inputs, filled from the last flash (the secret never) and the hub's facts.
 * @typedef {{ board: HTMLSelectElement, id: HTMLInputElement, table: HTMLInputElement, linkSel: HTMLSelectElement,
 *   ssid: HTMLInputElement, pass: HTMLInputElement, hubHost: HTMLInputElement, hubPort: HTMLInputElement,
 *   mount: HTMLSelectElement, batSel: HTMLSelectElement, batK: HTMLInputElement }} Fields
 */

/**
 * @param {any} p the protocol module
 * @param {any[]} usb the boards flashed over USB
 * @param {any} facts
 * @returns {Fields}
 */
function formFields(p, usb, facts) {
  const hub = hubDefaults(facts);
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(FORM_KEY) ?? "{}") ?? {};
  } catch {
    // a fresh form
  }
  const input = (id, attrs = {}) => h("input", { id: `flash-${id}`, ...attrs });
  return {
    board: h(
      "select",
      { id: "flash-board" },
      usb.map((b) => h("option", { value: b.name, selected: saved.board === b.name }, `${b.name} (${b.chip})`)),
    ),
    id: input("id", { value: saved.id ?? "", placeholder: "g1", autocomplete: "off" }),
    table: input("table", { value: facts?.table ?? "main" }),
    linkSel: h(
      "select",
      { id: "flash-link" },
      h("option", { value: "wifi", selected: saved.link !== "serial" }, t("flash.linkWifi")),
      h("option", { value: "serial", selected: saved.link === "serial" }, t("flash.linkSerial")),
    ),
    ssid: input("ssid", { value: saved.ssid ?? "", autocomplete: "off" }),
    pass: input("pass", { type: "password", autocomplete: "off" }),
    hubHost: input("hub", { value: saved.hub ?? hub.host, placeholder: "192.168.1.10" }),
    hubPort: input("hub-port", { type: "number", min: 1, max: 65535, value: String(hub.port) }),
    mount: h(
      "select",
      { id: "flash-mount" },
      mountNames(p).map((m) => h("option", { value: m, selected: (saved.mount ?? "+x+z") === m }, m)),
    ),
    // the battery: measured through the profile's divider, or not (a power bank in the grip); a factor Setup gave
    batSel: h(
      "select",
      { id: "flash-bat" },
      h("option", { value: "" }, t("flash.batMeasured")),
      h("option", { value: "none", selected: saved.bat === "none" }, t("flash.batNone")),
    ),
    // no min/max: the browser would block the form without a word; the check below says what is wrong
    batK: input("batk", { type: "number", step: "any", placeholder: "1" }),
  };
}

/**
 * Shows the fields the board and the link need: WiFi's for a WiFi gun, the mounting where the board has it, the
 * battery where it has a divider.
 * @param {Fields} f
 * @param {any} b the board's profile
 */
function showFields(f, b) {
  const serialOk = (b?.links ?? ["wifi"]).includes("serial");
  const serialOpt = /** @type {HTMLOptionElement} */ (f.linkSel.querySelector('option[value="serial"]'));
  serialOpt.disabled = !serialOk;
  if (!serialOk) f.linkSel.value = "wifi";
  const wifi = f.linkSel.value !== "serial";
  for (const el of [f.ssid, f.pass, f.hubHost, f.hubPort]) {
    const label = /** @type {HTMLElement} */ (el.closest("label"));
    label.hidden = !wifi;
  }
  f.mount.disabled = !(b?.has ?? []).includes("mount");
  if (f.mount.disabled) f.mount.value = "+x+z";
  /** @type {HTMLElement} */ (f.batSel.closest("label")).hidden = !b?.bat;
  /** @type {HTMLElement} */ (f.batK.closest("label")).hidden = !b?.bat || f.batSel.value === "none";
}

/**
 * gun.json from the form, as `cng flash` builds it from its options, or what is wrong.
 * @param {any} p the protocol module
 * @param {Fields} f
 * @param {any} b the board's profile
 */
function formConfig(p, f, b) {
  const c = { id: f.id.value.trim(), secret: newSecret(), table: f.table.value.trim() };
  if (f.linkSel.value === "serial") c.link = "serial";
  else {
    if (f.hubHost.value.trim()) c.hub = { host: f.hubHost.value.trim(), port: Number(f.hubPort.value || 1883) };
    if (f.ssid.value) c.wifi = { ssid: f.ssid.value, pass: f.pass.value };
  }
  if (f.mount.value !== "+x+z") c.mount = f.mount.value;
  if (b?.bat) {
    if (f.batSel.value === "none") c.bat = false;
    else if (f.batK.value.trim()) c.bat = Number(f.batK.value);
  }
  const why = p.gunConfigProblem(c, b);
  return why ? problemText(why, f.board.value) : c;
}

/**
 * Flashes the board over the port the person picks: the bundle, then gun.json; the progress on `bar`, the steps and
 * the result (with the gun's new secret) in `msg`.
 * @param {any} p the protocol module
 * @param {any} b the board's profile
 * @param {any} c gun.json
 * @param {HTMLProgressElement} bar
 * @param {HTMLElement} msg
 */
async function flashBoard(p, b, c, bar, msg) {
  let l = null;
  try {
    // the chooser first, while the click still counts as one; then the bundle
    flash(msg, t("flash.choose"));
    l = await openLink("serial").catch((err) => {
      throw new Error(t("flash.noPort", { why: String(err?.message ?? err) }));
    });
    const res = await fetch(`/api/firmware/${encodeURIComponent(b.name)}`, { cache: "no-store" });
    if (!res.ok) throw new Error(t("flash.noBundle", { board: b.name }));
    const bytes = new Uint8Array(await res.arrayBuffer());
    let bundle = "";
    for (let i = 0; i < bytes.length; i += 8192) bundle += String.fromCharCode(...bytes.subarray(i, i + 8192));
    flash(msg, t("flash.connecting"));
    const r = await flashOverLink(
      l,
      { chip: b.chip, bundle, configText: p.gunConfigText(c), erase: p.OTA_FILES },
      (s) => {
        bar.value = s.total ? s.done / s.total : 0;
        if (s.step === "write" && s.done === 0) flash(msg, t("flash.writing"));
        if (s.step === "verify") flash(msg, t("flash.verifying"));
      },
    );
    bar.value = 1;
    flash(
      msg,
      `${t("flash.done", { id: c.id, version: r.version, bytes: bundle.length })} ${t("flash.secret", { id: c.id, secret: c.secret })}${
        c.link === "serial" ? ` ${t("flash.serialNext")}` : ""
      }`,
      "ok",
    );
  } catch (err) {
    flash(msg, failureText(err), "error");
  } finally {
    l?.close();
  }
}

async function buildForm(box, link, setBusy) {
  const [p, boards, facts] = await Promise.all([
    loadProtocol(),
    fetch("/api/boards", { cache: "no-store" }).then((r) => {
      if (!r.ok) throw new Error(`/api/boards: ${r.status}`);
      return r.json();
    }),
    link.facts ? Promise.resolve(link.facts) : fetch("/api/hub", { cache: "no-store" }).then((r) => r.json()),
  ]);
  // a board without USB (the Puck.js) is flashed over Bluetooth, not here
  const usb = boards.filter((b) => b.con !== "Bluetooth");
  const f = formFields(p, usb, facts);
  const bar = h("progress", { id: "flash-bar", max: "1", value: "0", hidden: true });
  const msg = h("div", { class: "msg", id: "flash-msg", role: "status" });
  const go = h("button", { class: "primary", id: "flash-go", type: "submit" }, t("flash.go"));
  const blocker = linkBlocker("serial");
  if (blocker) go.disabled = true;
  else preloadLink();

  const field = (label, el) => h("label", { class: "field" }, h("span", {}, label), el);
  const profile = () => usb.find((b) => b.name === f.board.value);
  const shown = () => showFields(f, profile());
  for (const el of [f.batSel, f.board, f.linkSel]) el.addEventListener("change", shown);
  const form = h(
    "form",
    {
      class: "flash-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const c = formConfig(p, f, profile());
        if (typeof c === "string") return flash(msg, c, "error");
        const { board, linkSel, ssid, hubHost, mount, batSel } = f;
        const last = { board: board.value, id: c.id, link: linkSel.value, ssid: ssid.value, hub: hubHost.value };
        localStorage.setItem(FORM_KEY, JSON.stringify({ ...last, mount: mount.value, bat: batSel.value }));
        setBusy(true);
        go.disabled = true;
        bar.hidden = false;
        bar.value = 0;
        try {
          await flashBoard(p, profile(), c, bar, msg);
        } finally {
          setBusy(false);
          go.disabled = !!blocker;
        }
      },
    },
    field(t("flash.board"), f.board),
    field(t("flash.id"), f.id),
    field(t("flash.table"), f.table),
    field(t("flash.link"), f.linkSel),
    field(t("flash.ssid"), f.ssid),
    field(t("flash.pass"), f.pass),
    field(t("flash.hub"), f.hubHost),
    field(t("flash.hubPort"), f.hubPort),
    field(t("flash.mount"), f.mount),
    field(t("flash.bat"), f.batSel),
    field(t("flash.batK"), f.batK),
    go,
    bar,
    msg,
  );
  shown();
  box.replaceChildren(
    h("h3", {}, t("flash.title")),
    h("p", { class: "note" }, t("flash.why")),
    // a board without USB: where it is flashed instead, and the physical step its console takes
    boards.length > usb.length ? h("p", { class: "note", id: "flash-puck" }, t("flash.puck")) : null,
    blocker
      ? h(
          "p",
          { class: "msg error", id: "flash-blocked" },
          blocker === "insecure" ? t("flash.insecure") : t("flash.unsupported"),
        )
      : null,
    form,
  );
}
