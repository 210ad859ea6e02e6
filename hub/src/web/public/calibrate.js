// #/calibrate: the calibration wizard. Each gun aims at named seats and pulls; the hub keeps its yaw offset when
// the poses agree (residual error ≤ 5°) and asks for a redo otherwise. Follows table/state's `calibration`.

import { css, errText, flash, h } from "./ui.js";

export function calibratePage(root, link) {
  let poses = 2;
  const msg = h("div", { class: "msg", id: "cal-msg", role: "status" });
  const act = async (op, a, button) => {
    if (button) button.disabled = true;
    const res = await link.request(op, a);
    flash(msg, res.ok ? `${op}: done` : `refused: ${errText(res)}`, res.ok ? "ok" : "error");
    if (button) button.disabled = false;
  };
  const draw = () => {
    const host = link.isHost;
    const seats = link.seats();
    const name = (i) => seats[i]?.name ?? `seat ${i}`;
    const colour = (i) => css(seats[i]?.colour ?? 0xffffff);
    const cal = link.state?.calibration ?? [];
    const why = host ? "" : "needs the host PIN (Host page)";
    const posesSel = h(
      "select",
      { id: "cal-poses", onchange: (e) => (poses = Number(e.target.value)) },
      [1, 2, 3].map((n) => h("option", { value: n, selected: n === poses }, `${n} pose${n > 1 ? "s" : ""}`)),
    );
    const steps = h(
      "ol",
      { class: "cal-steps" },
      h("li", {}, "Every player sits at their seat with their paired gun (Setup)."),
      h("li", {}, "Press Start. Each gun lights in the colour of the seat to aim at, shown below."),
      h("li", {}, "Aim at that player, hold still, and pull the trigger. Repeat for each pose."),
      h("li", {}, "A gun whose poses disagree by more than 5° is asked to redo them."),
    );
    const list = h("div", { class: "cal-list", id: "cal-list" });
    if (cal.length === 0) list.append(h("p", { class: "note" }, "No calibration running."));
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
          `gun ${c.gun ?? "–"} · pose ${Math.min(c.poses ?? 0, c.targets.length)} of ${c.targets.length}`,
        ),
      );
      if (c.next !== null && c.next !== undefined) {
        card.append(
          h(
            "div",
            { class: "aim-at" },
            "aim at ",
            h("span", { class: "swatch big", style: `background:${colour(c.next)}` }),
            h("strong", {}, ` ${name(c.next)}`),
            " and pull",
          ),
        );
      }
      if (r) {
        card.append(
          h(
            "div",
            { class: "cal-result" },
            r.verdict === "ok"
              ? `✓ residual error ${r.spread.toFixed(1)}° (offset ${r.offset.toFixed(1)}°)`
              : `✗ residual error ${Number(r.spread ?? 0).toFixed(1)}° is too large: redo`,
          ),
        );
        if (r.reasons?.length) card.append(h("div", { class: "note" }, r.reasons.join("; ")));
        if (r.verdict !== "ok" && c.next === null)
          card.append(
            h(
              "button",
              { disabled: !host, onclick: (e) => act("calibrate.start", { seat: c.seat, poses }, e.target) },
              "redo",
            ),
          );
      }
      list.append(card);
    }
    const offsets = h(
      "table",
      { class: "gun-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, "gun"), h("th", {}, "kept offset"), h("th", {}, ""))),
      h(
        "tbody",
        {},
        seats.map((x) => {
          const calMsg = x.gun ? link.cals.get(x.gun) : null;
          return h(
            "tr",
            {},
            h("td", {}, x.name),
            h("td", {}, x.gun ?? "no gun"),
            h("td", {}, calMsg && typeof calMsg.off === "number" ? `${calMsg.off.toFixed(1)}°` : "not calibrated"),
            h(
              "td",
              {},
              h(
                "button",
                {
                  disabled: !host || !x.gun,
                  title: why || (x.gun ? "" : "no gun at this seat"),
                  onclick: (e) => act("calibrate.start", { seat: x.seat, poses }, e.target),
                },
                "calibrate",
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
        h("h2", {}, "Calibration"),
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
            "Start: every gun",
          ),
          h(
            "button",
            { id: "cal-cancel", disabled: !host, title: why, onclick: (e) => act("calibrate.cancel", {}, e.target) },
            "Cancel",
          ),
        ),
        list,
        h("h3", {}, "Guns and their offsets"),
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
