// #/games: after the game — final standings with the scoring broken down, money (or loot value) per round per
// player, who shot whom — and past games with a round-by-round replay of their events. Lists and histories come
// from the hub (game.list, game.history: replayed from its logs); the events this browser saw are the fallback.

import { moneyChart, shotsPicture } from "./charts.js";
import { date, list, money, num, t } from "./i18n.js";
import { eventText } from "./table-view.js";
import { editionName, h, onLinkChange, powerName } from "./ui.js";

/** @typedef {import("./mqtt-link.js").Link} Link */

/** @param {Link} link */
export function gamesPage(root, link, params) {
  let replayRound = null;
  let hubGames = null; // the hub's list, when it has the op
  let hubNote = () => "";
  /** game id → {hist, rounds, decisions} from game.history */
  const histories = new Map();
  const loading = new Set();
  const loadHistory = async (id, decisions) => {
    if (loading.has(id)) return;
    loading.add(id);
    const res = await link.request("game.history", { game: id });
    loading.delete(id);
    if (res.ok) histories.set(id, { ...fromHub(res.r), decisions });
    else histories.set(id, { failed: true, decisions });
    draw();
  };
  const loadList = async () => {
    const res = await link.request("game.list", {});
    if (res.ok) hubGames = res.r.games ?? [];
    else {
      const code = res.e?.code ?? "no-answer";
      hubNote = () => t("games.listFailed", { code });
    }
    draw();
  };
  const draw = () => {
    const st = link.state;
    const chosen = params.get("game") !== null ? Number(params.get("game")) : st?.id;
    const page = h("div", { class: "page games-page" }, h("h2", {}, t("games.title")));
    if (chosen !== null && chosen !== undefined && link.connected) {
      // the current game changes with each decision: ask again when it has
      const want = chosen === st?.id ? st.decisions : null;
      const have = histories.get(chosen);
      if (!have || (want !== null && have.decisions !== want)) loadHistory(chosen, want);
    }
    if (chosen !== null && chosen !== undefined)
      page.append(
        gameReport(link, chosen, histories.get(chosen), replayRound, (r) => {
          replayRound = r;
          draw();
        }),
      );
    else page.append(h("p", {}, t("games.noGame")));
    page.append(h("h3", {}, t("games.past")));
    if (hubNote()) page.append(h("p", { class: "note", id: "games-note" }, hubNote()));
    page.append(pastGames(hubGames, st?.id));
    root.replaceChildren(page);
  };
  const off = onLinkChange(link, (e) => {
    if (e.detail === "state" || e.detail === "link" || e.detail === "lang") draw();
  });
  draw();
  if (link.connected) loadList();
  else
    link.addEventListener("change", function once(/** @type {CustomEvent} */ e) {
      if (e.detail === "link" && link.connected) {
        link.removeEventListener("change", once);
        loadList();
      }
    });
  return off;
}

/** game.history's answer → the chart's history (money per round by seat) and the replay's rounds. */
function fromHub(r) {
  const players = r.view?.players ?? [];
  const hist = {
    names: players.map((p) => p.name),
    edition: r.view?.edition,
    rounds: {},
    over: !!r.view?.over,
    final: r.view?.over ? players.map((p) => ({ score: p.score ?? p.money, alive: p.alive })) : null,
  };
  for (const x of r.rounds ?? []) hist.rounds[x.round] = (x.view?.players ?? []).map((p) => p.money);
  return { hist, rounds: (r.rounds ?? []).map((x) => ({ round: x.round, events: x.events ?? [] })) };
}

/** @param {Link} link */
function gameReport(link, id, fromServer, replayRound, setRound) {
  const st = link.state;
  const live = st && st.id === id ? st.game : null;
  const server = fromServer && !fromServer.failed ? fromServer : null;
  const hist = server?.hist ?? null;
  const events = server ? server.rounds.flatMap((r) => r.events) : link.gameEvents(id);
  const names = live?.players.map((p) => p.name) ?? hist?.names ?? [];
  const colours = link.seats().map((x) => x.colour);
  const box = h(
    "div",
    { class: "report", id: "report" },
    h(
      "h3",
      {},
      live?.over
        ? t("games.final", { id: String(id) })
        : live
          ? t("games.soFar", { id: String(id) })
          : t("games.game", { id: String(id) }),
    ),
  );
  if (live) box.append(...standings(live));
  else if (hist?.final)
    box.append(h("p", {}, hist.names.map((n, i) => `${n} ${money(hist.final[i].score)}`).join(" · ")));
  const charts = h("div", { class: "charts" });
  if (hist && Object.keys(hist.rounds).length) {
    charts.append(
      h(
        "figure",
        {},
        moneyChart(hist, colours),
        h("figcaption", {}, hist.edition === "second" ? t("games.lootChart") : t("games.moneyChart")),
      ),
    );
  } else charts.append(h("p", { class: "note" }, t("games.noHistory")));
  const shots = events.filter((e) => e.type === "shot" && e.target !== null && e.card !== "click");
  if (names.length)
    charts.append(
      h(
        "figure",
        {},
        shotsPicture(names, shots, colours),
        h("figcaption", {}, t("games.shotsChart", { n: shots.length })),
      ),
    );
  box.append(charts);

  const replay = replayBox(server, events, live, names, replayRound, setRound);
  if (replay) box.append(replay);
  return box;
}

/**
 * The hub's past games, newest first: when, edition, decisions, players, and who won.
 * @param {any[] | null} hubGames
 * @param {number | null | undefined} current
 */
function pastGames(hubGames, current) {
  const ids = hubGames ? hubGames.map((g) => g.id) : [];
  return h(
    "ul",
    { class: "game-list", id: "game-list" },
    [...ids].reverse().map((id) => {
      const meta = hubGames?.find((g) => g.id === id);
      const hist = meta ? { names: meta.players, over: meta.over } : null;
      const bits = [];
      if (meta?.createdAt) bits.push(date(meta.createdAt));
      if (meta) bits.push(editionName(meta.edition), t("games.decisions", { n: meta.decisions }));
      if (hist) bits.push(hist.names.join(", "));
      if (hist?.over) bits.push(t("games.over"));
      if (meta?.over)
        bits.push(
          t("games.wonBy", {
            n: meta.winners.length,
            names: list(meta.winners.map((w) => meta.players[w] ?? w)),
          }),
        );
      return h(
        "li",
        { "data-game": id },
        h("a", { href: `#/games?game=${id}` }, t("games.game", { id: String(id) })),
        bits.map((b) => ` · ${b}`),
        id === current ? ` ${t("games.current")}` : "",
      );
    }),
  );
}

/**
 * The replay: the events of one round at a time (events before the first round-start this browser saw belong to the
 * round before it, or the current one); null with no round to show.
 * @param {any} server
 * @param {any[]} events
 * @param {any} live
 * @param {string[]} names
 * @param {number | null} replayRound
 * @param {(r: number) => void} setRound
 */
function replayBox(server, events, live, names, replayRound, setRound) {
  const rounds = server ? server.rounds.filter((r) => r.events.length > 0) : [];
  const firstStart = events.find((e) => e.type === "round-start");
  for (const e of server ? [] : events) {
    if (e.type === "round-start") rounds.push({ round: e.round, events: [] });
    else if (rounds.length === 0)
      rounds.push({ round: firstStart ? firstStart.round - 1 : (live?.round ?? "?"), events: [] });
    rounds[rounds.length - 1].events.push(e);
  }
  if (!rounds.length) return null;
  const i = replayRound === null ? rounds.length - 1 : Math.min(replayRound, rounds.length - 1);
  const name = (s) => (s === null || s === undefined ? t("who.nobody") : (names[s] ?? t("seat.n", { n: s + 1 })));
  const r = rounds[i];
  return h(
    "div",
    { class: "replay", id: "replay" },
    h("h3", {}, t("games.replay")),
    h("button", { disabled: i === 0, onclick: () => setRound(i - 1) }, t("games.roundBefore")),
    " ",
    h("strong", {}, t("side.round", { n: r.round })),
    " ",
    h("button", { disabled: i === rounds.length - 1, onclick: () => setRound(i + 1) }, t("games.roundAfter")),
    h(
      "ul",
      {},
      r.events
        .map((e) => eventText(e, name))
        .filter(Boolean)
        .map((t) => h("li", {}, t)),
    ),
  );
}

/** second edition: the most diamond cards among the living, alone, at the end (docs/rules.md) */
const DIAMOND_BONUS = 60000;

/**
 * What each player's score is as far as everyone can see. At the end it is the hub's. During a classic game:
 * money − $5,000 per shame marker (a hidden Super Power — Super Coward, Six Feet Under — counts only at the end);
 * during a second-edition game everything is public: the loot's value and the diamond bonus as it stands.
 */
function publicScores(g) {
  if (g.over) return g.players.map((p) => p.score ?? p.money);
  if (g.edition === "classic") return g.players.map((p) => (p.alive ? p.money - 5000 * p.shame : 0));
  const alive = g.players.filter((p) => p.alive && (p.loot?.diamonds ?? 0) > 0);
  const most = Math.max(0, ...alive.map((p) => p.loot.diamonds));
  const leaders = alive.filter((p) => p.loot.diamonds === most);
  const bonusSeat = leaders.length === 1 ? leaders[0].seat : -1;
  return g.players.map((p) => (p.alive ? p.money + (p.seat === bonusSeat ? DIAMOND_BONUS : 0) : 0));
}

/** The standings table, and during the game a note on what its scores are. */
function standings(g) {
  const scores = publicScores(g);
  const rows = g.players.map((p, i) => ({ p, score: scores[i] })).sort((a, b) => b.score - a.score);
  const classic = g.edition === "classic";
  const head = classic
    ? ["", t("games.player"), t("games.money"), t("games.shame"), t("games.other"), t("games.score")]
    : ["", t("games.player"), t("games.lootHeld"), t("games.lootValue"), t("games.bonus"), t("games.score")];
  const table = h(
    "table",
    { class: "standings", id: "standings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((x) => h("th", {}, x)),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map(({ p, score }, i) => {
        const win = g.winners.includes(p.seat);
        const who = p.alive ? p.name : t("games.dead", { name: p.name });
        if (classic) {
          // a Super Coward is known only at the end: until then every marker counts as the rule's −$5,000
          const shameAmt = (p.power === "super-coward" ? 5000 : -5000) * p.shame;
          const other = p.alive && p.score !== undefined ? p.score - p.money - shameAmt : 0;
          return h(
            "tr",
            { class: win ? "winner" : "" },
            h("td", {}, win ? "★" : `${i + 1}`),
            h("td", {}, who),
            h("td", {}, money(p.money)),
            h("td", {}, p.shame ? `${num(p.shame)} (${money(shameAmt)})` : "–"),
            h("td", {}, other ? money(other) : "–"),
            h("td", { class: "score" }, money(score)),
          );
        }
        const l = p.loot ?? { cash: 0, diamonds: 0, paintings: 0 };
        return h(
          "tr",
          { class: win ? "winner" : "" },
          h("td", {}, win ? "★" : `${i + 1}`),
          h("td", {}, who),
          h("td", {}, `${l.cash}/${l.diamonds}/${l.paintings}`),
          h("td", {}, money(p.money)),
          h("td", {}, p.alive && score > p.money ? money(score - p.money) : "–"),
          h("td", { class: "score" }, money(score)),
        );
      }),
    ),
  );
  if (g.over) return [table];
  const note = classic
    ? t("games.scoreNoteClassic", {
        money: money(5000),
        coward: powerName("super-coward"),
        sixFeet: powerName("six-feet-under"),
      })
    : t("games.scoreNoteSecond");
  return [table, h("p", { class: "note", id: "score-note" }, note)];
}
