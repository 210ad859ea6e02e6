// The Setup form's data: the draft kept in this browser, the running game's players and options over it, and the
// game.new arguments made from it.

import { t } from "./i18n.js";

const DRAFT_KEY = "cng-setup";

/**
 * The form as this browser keeps it: `godfather` is the seat as the hub counts it (from 0), `seed` and `points` are
 * as typed.
 * @typedef {{
 *   players: string[], edition: string, powers: boolean, cop: boolean, secrets: string, shape: string, points: string,
 *   timing: string, autoRound: boolean, table: boolean, godfather: number, seed: string
 * }} Draft
 */

/** @returns {Draft} */
export function loadDraft() {
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

/** @param {Draft} d */
export function saveDraft(d) {
  localStorage.setItem(DRAFT_KEY, JSON.stringify(d));
}

/**
 * The running game's players, edition and options over the saved draft: Setup then shows the game that runs, not
 * the last form. Options show only as far as the public view does (a power once revealed, the cop's switchboard).
 * @param {Draft} d
 * @param {import("/protocol/index.js").PublicView | null | undefined} g
 * @returns {Draft}
 */
export function fromGame(d, g) {
  if (!g) return d;
  return {
    ...d,
    players: g.players.map((p) => p.name),
    edition: g.edition,
    powers: d.powers || g.players.some((p) => p.power !== null),
    cop: g.switchboard !== undefined,
  };
}

/**
 * The game.new arguments from the form, or what is wrong with it.
 * @param {Draft} d
 */
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
