// #/console?seat=N&token=…: one player's phone page. Connects as seat-N with the seat token, so the broker sends
// it that seat's private view only. Secret choices go to the hub with the token.

import { BULLETS, CHOSEN_POWERS, isOneOf, seatColour } from "/protocol/index.js";
import { lang, money, t } from "./i18n.js";
import { bulletName, css, h, powerName, redrawOnChange, roleName, sendRequest, stepName, stillState } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */
/** @typedef {import("/protocol/index.js").Bullet} Bullet */

/**
 * A hand as [card, count] pairs, in the protocol's order of cards.
 * @param {Record<Bullet, number>} hand
 * @returns {[Bullet, number][]}
 */
const handOf = (hand) => BULLETS.map((k) => [k, hand[k]]);

/**
 * The player's own view: the step, the hand, the card chosen, the power and role, wounds and money.
 * @param {any} view
 * @param {any} me
 * @param {any} mine
 */
function privateView(view, me, mine) {
  return h(
    "div",
    { class: "private", id: "private" },
    h("div", { class: "step" }, t("console.step", { n: view.round, step: stepName(view.step) })),
    h(
      "div",
      { class: "hand", id: "hand" },
      t("console.hand"),
      " ",
      handOf(me.hand)
        .filter(([k, n]) => n > 0 || k !== "bbb" || view.edition === "classic")
        .map(([k, n]) => h("span", { class: `chip ${k}` }, t("console.cardCount", { card: bulletName(k), n }))),
    ),
    me.card ? h("div", { class: "chosen", id: "chosen" }, t("console.chosen", { card: bulletName(me.card) })) : null,
    me.power ? h("div", { class: "power", id: "power" }, t("console.power", { power: powerName(me.power) })) : null,
    me.role ? h("div", { class: "role", id: "role" }, t("console.role", { role: roleName(me.role) })) : null,
    mine
      ? h(
          "div",
          { class: "note" },
          mine.alive ? t("console.wounds", { n: mine.wounds }) : t("console.dead"),
          " · ",
          money(mine.money),
        )
      : null,
  );
}

/**
 * What a console's choices are made with.
 * @typedef {{ seat: number, me: any, mine: any, hasTable: boolean,
 *   send: (op: any, a: any, button?: any) => unknown }} Choosing
 */

/**
 * The secret bullet, while the round wants it.
 * @param {any} view
 * @param {Choosing} c
 */
function bulletChoice(view, c) {
  const { seat, me, mine, hasTable, send } = c;
  if (!(view.step === "bullet" && mine?.alive)) return null;
  const cards = handOf(me.hand).filter(([, n]) => n > 0);
  return h(
    "div",
    { class: "choose", id: "choose" },
    h("h3", {}, me.card ? t("console.change") : t("console.choose")),
    cards.map(([k]) =>
      h(
        "button",
        {
          class: `big-btn ${k}`,
          "data-card": k,
          onclick: (e) =>
            hasTable
              ? send("secret.bullet", { card: k }, e.target)
              : send("game.decide", { decision: { type: "bullet", seat, card: k } }, e.target),
        },
        bulletName(k),
      ),
    ),
  );
}

/**
 * A power revealed by choice at a round's start.
 * @param {any} view
 * @param {Choosing} c
 */
function chosenReveal(view, c) {
  const { seat, me, mine, hasTable, send } = c;
  const power = me.power;
  if (!(power && isOneOf(CHOSEN_POWERS, power) && mine && !mine.power && view.step === "bullet")) return null;
  return h(
    "button",
    {
      class: "big-btn reveal",
      id: "reveal",
      onclick: (e) =>
        hasTable
          ? send("power.reveal", { power }, e.target)
          : send("game.decide", { decision: { type: "reveal", seat, power } }, e.target),
    },
    t("console.reveal", { power: powerName(power) }),
  );
}

/**
 * The Specialist's choice, after her bbb was used: take it back, or keep the power for later.
 * @param {Link} link
 * @param {Choosing} c
 */
function specialistChoice(link, c) {
  const { seat, me, hasTable, send } = c;
  const asked = (link.state?.table?.waiting ?? []).some(
    (w) => w.seat === seat && w.for === "host" && w.decision === "specialist",
  );
  if (!(hasTable && asked)) return null;
  const spare = ["bang", "click"].filter((k) => me.hand[k] > 0);
  return h(
    "div",
    { class: "choose", id: "specialist" },
    h("h3", {}, t("console.specialistAsk", { power: powerName("the-specialist"), card: bulletName("bbb") })),
    (spare.length ? spare : [null]).map((k) =>
      h(
        "button",
        {
          class: "big-btn",
          "data-discard": k ?? "none",
          onclick: (e) => send("power.specialist", { use: true, discard: k }, e.target),
        },
        k ? t("console.specialistGiveUp", { card: bulletName(k) }) : t("console.specialistYes"),
      ),
    ),
    h(
      "button",
      {
        class: "big-btn",
        "data-discard": "keep",
        onclick: (e) => send("power.specialist", { use: false }, e.target),
      },
      t("console.specialistKeep"),
    ),
  );
}

/** @param {Link} link */
export function consolePage(root, link) {
  let hidden = false;
  const msg = h("div", { class: "msg", id: "console-msg", role: "status" });
  /**
   * A request from a button, typed by the op.
   * @template {import("/protocol/index.js").OpName} K
   * @param {K} op
   * @param {import("./mqtt-link.js").OpArgs<K>} a
   * @param {HTMLButtonElement} [button]
   */
  const send = (op, a, button) => sendRequest(link, msg, op, a, button, t("console.sent"));
  const draw = () => {
    const seat = link.seat;
    const pv = link.playerView;
    const view = pv?.view;
    const me = view?.me;
    const st = link.state;
    const hasTable = !!st?.table;
    const name =
      view?.players?.[seat]?.name ?? st?.seats?.find((x) => x.seat === seat)?.name ?? t("seat.n", { n: seat + 1 });
    const page = h(
      "div",
      { class: "page console-page", style: `--seat:${css(seatColour(seat))}` },
      // the connection's line is the header's
      h("h2", { class: "console-name" }, name, h("span", { class: "note" }, " ", t("seat.n", { n: seat + 1 }))),
    );
    if (!me) {
      page.append(h("p", {}, link.connected ? t("console.waitingGame") : t("link.connecting")), msg);
      root.replaceChildren(page);
      return;
    }
    const hide = h(
      "button",
      {
        id: "hide",
        onclick: () => {
          hidden = !hidden;
          draw();
        },
      },
      hidden ? t("console.show") : t("console.hide"),
    );
    page.append(hide);
    if (hidden) {
      page.append(msg);
      root.replaceChildren(page);
      return;
    }
    const mine = view.players[seat];
    page.append(privateView(view, me, mine));
    const c = { seat, me, mine, hasTable, send };
    page.append(...[bulletChoice(view, c), chosenReveal(view, c), specialistChoice(link, c)].filter((x) => x !== null));
    page.append(msg);
    root.replaceChildren(page);
  };
  link.addEventListener("token-refused", draw);
  const stop = redrawOnChange(
    link,
    () => [link.seat, link.playerView, stillState(link.state), link.connected, lang()],
    draw,
  );
  return () => {
    stop();
    link.removeEventListener("token-refused", draw);
  };
}
