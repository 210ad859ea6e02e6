// #/calibrate: the calibration wizard. Each gun aims at named seats and pulls; the hub keeps its yaw offset when
// the poses agree (residual error ≤ 5°) and asks for a redo otherwise. Follows table/state's `calibration`.

import { num, t } from "./i18n.js";
import { css, errText, flash, h } from "./ui.js";

export function calibratePage(root, link) {
  let poses = 2;
  const msg = h("div", { class: "msg", id: "cal-msg", role: "status" });
  const act = async (op, a, button) => {
    if (button) button.disabled = true;
    const res = await link.request(op, a);
    flash(msg, res.ok ? t("msg.done", { op }) : t("msg.refused", { error: errText(res) }), res.ok ? "ok" : "error");
    if (button) button.disabled = false;
  };
  const draw = () => {
    const host = link.isHost;
    const seats = link.seats();
    const name = (i) => seats[i]?.name ?? t("seat.n", { n: i + 1 });
    const colour = (i) => css(seats[i]?.colour ?? 0xffffff);
    const cal = link.state?.calibration ?? [];
    const why = host ? "" : t("needsPin");
    const posesSel = h(
      "select",
      { id: "cal-poses", onchange: (e) => (poses = Number(e.target.value)) },
      [1, 2, 3].map((n) => h("option", { value: n, selected: n === poses }, t("cal.poses", { n }))),
    );
    const steps = h(
      "ol",
      { class: "cal-steps" },
      h("li", {}, t("cal.step1")),
      h("li", {}, t("cal.step2")),
      h("li", {}, t("cal.step3")),
      h("li", {}, t("cal.step4", { degrees: t("degrees", { n: 5 }) })),
    );
    const list = h("div", { class: "cal-list", id: "cal-list" });
    if (cal.length === 0) list.append(h("p", { class: "note" }, t("cal.none")));
    for (const c of cal) {
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
              { disabled: !host, onclick: (e) => act("calibrate.start", { seat: c.seat, poses }, e.target) },
              t("cal.redoButton"),
            ),
          );
      }
      list.append(card);
    }
    const offsets = h(
      "table",
      { class: "gun-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("guns.seat")),
          h("th", {}, t("guns.gun")),
          h("th", {}, t("cal.keptOffset")),
          h("th", {}, ""),
        ),
      ),
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
              calMsg && typeof calMsg.off === "number"
                ? t("degrees", { n: num(calMsg.off, 1) })
                : t("cal.notCalibrated"),
            ),
            h(
              "td",
              {},
              h(
                "button",
                {
                  disabled: !host || !x.gun,
                  title: why || (x.gun ? "" : t("cal.noGunHere")),
                  onclick: (e) => act("calibrate.start", { seat: x.seat, poses }, e.target),
                },
                t("cal.calibrate"),
              ),
            ),
          );
        }),
      ),
    );
    root.replaceChildren(
      h(
        "div",
        { class: "page cal-page" },
        h("h2", {}, t("cal.title")),
        steps,
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
        msg,
      ),
    );
  };
  const onChange = (e) => {
    if (e.detail !== "aim") draw();
  };
  link.addEventListener("change", onChange);
  draw();
  return () => link.removeEventListener("change", onChange);
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
