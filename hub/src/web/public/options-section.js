// Setup → Game and Table: the edition and its options, the Godfather, the seed; whether a table runs the game, where
// the secrets come from, the table's shape, its timing and rounds.

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** @typedef {import("./setup-draft.js").Draft} Draft */
/** @typedef {ReturnType<typeof draftInputs>} Inputs */

/**
 * The two headings and their fields, for the form; each edit goes into `d`, then `save`.
 * @param {Draft} d
 * @param {() => void} save
 */
export function optionsSection(d, save) {
  const inputs = draftInputs(d, save);
  return [...gameOptions(d, save, inputs), ...tableOptions(inputs)];
}

const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), input);

/**
 * The form's inputs, each showing one key of the draft and writing it back.
 * @param {Draft} d
 * @param {() => void} save
 */
function draftInputs(d, save) {
  /** @param {string} key @param {Record<string, string>} options value → label, in order */
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
      Object.entries(options).map(([v, label]) => h("option", { value: v, selected: String(d[key]) === v }, label)),
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
  return { select, check, text };
}

/**
 * @param {Draft} d
 * @param {() => void} save
 * @param {Inputs} inputs
 */
function gameOptions(d, save, { select, check, text }) {
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
  return [
    h("h3", {}, t("setup.game")),
    field(t("setup.edition"), select("edition", { classic: t("setup.editionClassic"), second: t("edition.second") })),
    field(t("setup.powers"), check("powers")),
    field(t("setup.cop"), check("cop")),
    field(t("setup.godfather"), godfather),
    field(t("setup.seed"), text("seed", { type: "number" })),
  ];
}

/** @param {Inputs} inputs */
function tableOptions({ select, check, text }) {
  return [
    h("h3", {}, t("setup.table")),
    field(t("setup.byTable"), check("table")),
    field(
      t("setup.secrets"),
      select("secrets", {
        physical: t("setup.secretsPhysical"),
        console: t("setup.secretsConsole"),
        "bot-random": t("setup.secretsBotRandom"),
        "bot-cautious": t("setup.secretsBotCautious"),
        "bot-aggressive": t("setup.secretsBotAggressive"),
      }),
    ),
    field(t("setup.shape"), select("shape", { round: t("setup.shapeRound"), points: t("setup.shapePoints") })),
    field(t("setup.points"), text("points", { rows: 4, placeholder: "0,0.8\n0.8,0\n..." })),
    field(t("setup.timing"), select("timing", { default: t("setup.timingNormal"), fast: t("setup.timingFast") })),
    field(t("setup.autoRound"), check("autoRound")),
  ];
}
