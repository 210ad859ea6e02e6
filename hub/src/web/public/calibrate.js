// #/calibrate: the calibration wizard. Each gun aims at named seats and pulls; the hub keeps its yaw offset when
// the poses agree (residual error ≤ 5°) and asks for a redo otherwise. Follows table/state's `calibration`.

import { lang, num, t } from "./i18n.js";
import { css, errText, flash, h, redrawOnChange, sendRequest, stillState } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** A table's head row. */
const thead = (...labels) => h("thead", {}, h("tr", {}, ...labels.map((l) => h("th", {}, l))));

/** What the wizard asks of the players, in order. */
const calSteps = () =>
  h(
    "ol",
    { class: "cal-steps" },
    h("li", {}, t("cal.step1")),
    h("li", {}, t("cal.step2")),
    h("li", {}, t("cal.step3")),
    h("li", {}, t("cal.step4", { degrees: t("degrees", { n: 5 }) })),
  );

/** @param {Link} link */
export function calibratePage(root, link) {
  /** calibrate.start's choices */
  const POSES = /** @type {const} */ ([1, 2, 3]);
  /** @type {1 | 2 | 3} */
  let poses = 2;
  const msg = h("div", { class: "msg", id: "cal-msg", role: "status" });
  /** the IMU mounting step, per gun: what the last answer said */
  const mountNotes = new Map();
  /**
   * A request from a button, typed by the op.
   * @template {import("/protocol/index.js").OpName} K
   * @param {K} op
   * @param {import("./mqtt-link.js").OpArgs<K>} a
   * @param {HTMLButtonElement} [button]
   */
  const act = (op, a, button) => sendRequest(link, msg, op, a, button);
  const draw = () => {
    const host = link.isHost;
    const seats = link.seats();
    const name = (i) => seats[i]?.name ?? t("seat.n", { n: i + 1 });
    const colour = (i) => css(seats[i]?.colour ?? 0xffffff);
    const cal = link.state?.calibration ?? [];
    const why = host ? "" : t("needsPin");
    const posesSel = h(
      "select",
      { id: "cal-poses", onchange: (e) => (poses = POSES.find((n) => n === Number(e.target.value)) ?? 1) },
      POSES.map((n) => h("option", { value: n, selected: n === poses }, t("cal.poses", { n }))),
    );
    const list = h("div", { class: "cal-list", id: "cal-list" });
    if (cal.length === 0) list.append(h("p", { class: "note" }, t("cal.none")));
    /** @type {CalView} */
    const view = { host, name, colour, act, poses: () => poses };
    for (const c of cal) list.append(calCard(c, view));
    const offsets = offsetsTable(link, seats, view, why);
    const mounting = mountSection(link, seats, mountNotes, msg, draw);
    root.replaceChildren(
      h(
        "div",
        { class: "page cal-page" },
        h("h2", {}, t("cal.title")),
        calSteps(),
        h(
          "div",
          { class: "row" },
          posesSel,
          h(
            "button",
            {
              class: "primary",
              id: "cal-start",
              disabled: !host,
              title: why,
              onclick: (e) => act("calibrate.start", { poses }, e.target),
            },
            t("cal.startAll"),
          ),
          h(
            "button",
            { id: "cal-cancel", disabled: !host, title: why, onclick: (e) => act("calibrate.cancel", {}, e.target) },
            t("cal.cancel"),
          ),
        ),
        list,
        h("h3", {}, t("cal.offsets")),
        offsets,
        mounting,
        msg,
      ),
    );
  };
  return redrawOnChange(
    link,
    () => [link.isHost, stillState(link.state), [...link.cals], [...(link.guns?.entries?.() ?? [])], lang()],
    draw,
  );
}

/**
 * What a calibrate page's parts are drawn with.
 * @typedef {{ host: boolean, name: (i: number) => string, colour: (i: number) => string,
 *   act: (op: any, a: any, button?: any) => unknown, poses: () => 1 | 2 | 3 }} CalView
 */

/**
 * One gun's calibration as it goes: whom to aim at next, then its result (and a redo button).
 * @param {any} c
 * @param {CalView} v
 */
function calCard(c, v) {
  const { host, name, colour, act } = v;
  const r = c.result;
  const state = r ? (r.verdict === "ok" ? "ok" : "redo") : "running";
  const card = h(
    "div",
    { class: `cal-card ${state}`, "data-seat": c.seat },
    h(
      "div",
      { class: "who" },
      h("span", { class: "swatch", style: `background:${colour(c.seat)}` }),
      ` ${name(c.seat)}`,
    ),
    h(
      "div",
      { class: "note" },
      t("cal.progress", { gun: c.gun ?? "–", pose: Math.min(c.poses ?? 0, c.targets.length), n: c.targets.length }),
    ),
  );
  if (c.next !== null && c.next !== undefined) {
    card.append(
      h(
        "div",
        { class: "aim-at" },
        h("span", { class: "swatch big", style: `background:${colour(c.next)}` }),
        " ",
        t("cal.aimAt", { name: name(c.next) }),
      ),
    );
  }
  if (r) {
    card.append(
      h(
        "div",
        { class: "cal-result" },
        r.verdict === "ok"
          ? t("cal.ok", {
              error: t("degrees", { n: num(r.spread, 1) }),
              offset: t("degrees", { n: num(r.offset, 1) }),
            })
          : t("cal.redo", { error: t("degrees", { n: num(Number(r.spread ?? 0), 1) }) }),
      ),
    );
    if (r.reasons?.length) card.append(h("div", { class: "note" }, r.reasons.map(reasonText).join("; ")));
    if (r.verdict !== "ok" && c.next === null)
      card.append(
        h(
          "button",
          { disabled: !host, onclick: (e) => act("calibrate.start", { seat: c.seat, poses: v.poses() }, e.target) },
          t("cal.redoButton"),
        ),
      );
  }
  return card;
}

/**
 * The offsets kept per seat's gun, each with a button to calibrate it alone.
 * @param {Link} link
 * @param {any[]} seats
 * @param {CalView} v
 * @param {string} why
 */
function offsetsTable(link, seats, v, why) {
  const { host, act } = v;
  return h(
    "table",
    { class: "gun-table" },
    thead(t("guns.seat"), t("guns.gun"), t("cal.keptOffset"), ""),
    h(
      "tbody",
      {},
      seats.map((x) => {
        const calMsg = x.gun ? link.cals.get(x.gun) : null;
        return h(
          "tr",
          {},
          h("td", {}, x.name),
          h("td", {}, x.gun ?? t("cal.noGun")),
          h(
            "td",
            {},
            calMsg && typeof calMsg.off === "number" ? t("degrees", { n: num(calMsg.off, 1) }) : t("cal.notCalibrated"),
          ),
          h(
            "td",
            {},
            h(
              "button",
              {
                disabled: !host || !x.gun,
                title: why || (x.gun ? "" : t("cal.noGunHere")),
                onclick: (e) => act("calibrate.start", { seat: x.seat, poses: v.poses() }, e.target),
              },
              t("cal.calibrate"),
            ),
          ),
        );
      }),
    ),
  );
}

/** Why the hub asks for a redo (hub/src/aim/calibration.ts RedoReason). */
function reasonText(reason) {
  const words = {
    spread: t("cal.reasonSpread"),
    "too-close": t("cal.reasonTooClose"),
    mirrored: t("cal.reasonMirrored"),
    "bad-pose": t("cal.reasonBadPose"),
  };
  return words[reason] ?? reason;
}

/**
 * The IMU mounting step (calibrate.mount): per gun, pose 1 level and pointing forward, pose 2 pointing straight up;
 * the hub works out how the sensor sits in the gun and stores it in the gun.
 * @param {Link} link
 */
function mountSection(link, seats, notes, msg, redraw) {
  const host = link.isHost;
  const step = async (gun, pose, button) => {
    button.disabled = true;
    const res = await link.request("calibrate.mount", { gun, pose });
    if (res.ok) {
      const r = res.r;
      notes.set(
        gun,
        r.pose === "level"
          ? t("cal.mountLevelDone", { axis: r.up })
          : r.pose === "up"
            ? t("cal.mountDone", { mount: r.mount, was: r.was })
            : "",
      );
      flash(msg, notes.get(gun), "ok");
    } else {
      notes.set(gun, t("cal.mountRefused", { error: errText(res) }));
      flash(msg, notes.get(gun), "error");
    }
    redraw();
  };
  const rows = seats
    .filter((x) => x.gun)
    .map((x) =>
      h(
        "tr",
        { "data-gun": x.gun },
        h("td", {}, x.name),
        h("td", {}, x.gun),
        h(
          "td",
          {},
          h(
            "button",
            { class: "mount-level", disabled: !host, onclick: (e) => step(x.gun, "level", e.target) },
            t("cal.mountLevel"),
          ),
          " ",
          h(
            "button",
            { class: "mount-up", disabled: !host, onclick: (e) => step(x.gun, "up", e.target) },
            t("cal.mountUp"),
          ),
        ),
        h("td", { class: "mount-note" }, notes.get(x.gun) ?? ""),
      ),
    );
  return h(
    "div",
    { class: "cal-mount", id: "cal-mount" },
    h("h3", {}, t("cal.mountTitle")),
    h("p", { class: "note" }, t("cal.mountHow")),
    rows.length
      ? h(
          "table",
          { class: "gun-table" },
          thead(t("guns.seat"), t("guns.gun"), t("cal.mountPoses"), ""),
          h("tbody", {}, rows),
        )
      : h("p", { class: "note" }, t("cal.mountNoGun")),
  );
}
