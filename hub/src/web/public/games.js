// #/games: after the game — final standings with the scoring broken down, money (or loot value) per round per
// player, who shot whom — and past games with a round-by-round replay of their events. Lists and histories come
// from the hub (game.list, game.history: replayed from its logs); what this browser saw is only the fallback.

import { moneyChart, shotsPicture } from "./charts.js";
import { eventText } from "./table-view.js";
import { dollars, h } from "./ui.js";

export function gamesPage(root, link, params) {
  let replayRound = null;
  let hubGames = null; // the hub's list, when it has the op
  let hubNote = "";
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
    else
      hubNote =
        res.e?.code === "unknown-op"
          ? "The hub has no game.list op yet: listed below are the games this browser followed."
          : `game.list: ${res.e?.code ?? "no answer"}`;
    draw();
  };
  const draw = () => {
    const st = link.state;
    const chosen = params.get("game") !== null ? Number(params.get("game")) : st?.id;
    const page = h("div", { class: "page games-page" }, h("h2", {}, "Scores and games"));
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
    else page.append(h("p", {}, "No game yet."));
    page.append(h("h3", {}, "Past games"));
    if (hubNote) page.append(h("p", { class: "note", id: "games-note" }, hubNote));
    const ids = hubGames ? hubGames.map((g) => g.id) : link.seenGames();
    page.append(
      h(
        "ul",
        { class: "game-list", id: "game-list" },
        [...ids].reverse().map((id) => {
          const meta = hubGames?.find((g) => g.id === id);
          const hist = meta ? { names: meta.players, over: meta.over } : link.history(id);
          const won = meta?.over ? ` · won by ${meta.winners.map((w) => meta.players[w] ?? w).join(" & ")}` : "";
          return h(
            "li",
            { "data-game": id },
            h("a", { href: `#/games?game=${id}` }, `game ${id}`),
            meta?.createdAt ? ` · ${new Date(meta.createdAt).toLocaleString()}` : "",
            meta ? ` · ${meta.edition} · ${meta.decisions} decisions` : "",
            hist ? ` · ${hist.names.join(", ")}${hist.over ? " · over" : ""}` : "",
            won,
            id === st?.id ? " (current)" : "",
          );
        }),
      ),
    );
    root.replaceChildren(page);
  };
  const onChange = (e) => {
    if (e.detail === "state" || e.detail === "link") draw();
  };
  link.addEventListener("change", onChange);
  draw();
  if (link.connected) loadList();
  else
    link.addEventListener("change", function once(e) {
      if (e.detail === "link" && link.connected) {
        link.removeEventListener("change", once);
        loadList();
      }
    });
  return () => link.removeEventListener("change", onChange);
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

function gameReport(link, id, fromServer, replayRound, setRound) {
  const st = link.state;
  const live = st?.id === id ? st.game : null;
  const server = fromServer && !fromServer.failed ? fromServer : null;
  const hist = server?.hist ?? link.history(id);
  const events = server ? server.rounds.flatMap((r) => r.events) : link.gameEvents(id);
  const names = live?.players.map((p) => p.name) ?? hist?.names ?? [];
  const colours = link.seats().map((x) => x.colour);
  const box = h(
    "div",
    { class: "report", id: "report" },
    h("h3", {}, `Game ${id}${live?.over ? ": final standings" : live ? ": so far" : ""}`),
  );
  if (live) box.append(standings(live));
  else if (hist?.final)
    box.append(h("p", {}, hist.names.map((n, i) => `${n} ${dollars(hist.final[i].score)}`).join(" · ")));
  const charts = h("div", { class: "charts" });
  if (hist && Object.keys(hist.rounds).length) {
    charts.append(
      h(
        "figure",
        {},
        moneyChart(hist, colours),
        h("figcaption", {}, hist.edition === "second" ? "loot value per round" : "money per round"),
      ),
    );
  } else charts.append(h("p", { class: "note" }, "No per-round history for this game yet."));
  const shots = events.filter((e) => e.type === "shot" && e.target !== null && e.card !== "click");
  if (names.length)
    charts.append(
      h(
        "figure",
        {},
        shotsPicture(names, shots, colours),
        h("figcaption", {}, `who shot whom (${shots.length} shots)`),
      ),
    );
  box.append(charts);

  // the replay: the events of one round at a time
  // events before the first round-start this browser saw belong to the round before it (or the current one)
  const rounds = server ? server.rounds.filter((r) => r.events.length > 0) : [];
  const firstStart = events.find((e) => e.type === "round-start");
  for (const e of server ? [] : events) {
    if (e.type === "round-start") rounds.push({ round: e.round, events: [] });
    else if (rounds.length === 0)
      rounds.push({ round: firstStart ? firstStart.round - 1 : (live?.round ?? "?"), events: [] });
    rounds[rounds.length - 1].events.push(e);
  }
  if (rounds.length) {
    const i = replayRound === null ? rounds.length - 1 : Math.min(replayRound, rounds.length - 1);
    const name = (s) => (s === null || s === undefined ? "nobody" : (names[s] ?? `seat ${s}`));
    const r = rounds[i];
    box.append(
      h(
        "div",
        { class: "replay", id: "replay" },
        h("h3", {}, "Replay"),
        h("button", { disabled: i === 0, onclick: () => setRound(i - 1) }, "◀ round before"),
        h("strong", {}, ` Round ${r.round} `),
        h("button", { disabled: i === rounds.length - 1, onclick: () => setRound(i + 1) }, "round after ▶"),
        h(
          "ul",
          {},
          r.events
            .map((e) => eventText(e, name))
            .filter(Boolean)
            .map((t) => h("li", {}, t)),
        ),
      ),
    );
  }
  return box;
}

function standings(g) {
  const rows = g.players.map((p) => ({ p, score: p.score ?? p.money })).sort((a, b) => b.score - a.score);
  const classic = g.edition === "classic";
  const head = classic
    ? ["", "player", "money", "shame", "other", "score"]
    : ["", "player", "cash / diamonds / paintings", "loot value", "bonus", "score"];
  return h(
    "table",
    { class: "standings", id: "standings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((t) => h("th", {}, t)),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map(({ p, score }, i) => {
        const win = g.winners.includes(p.seat);
        const status = p.alive ? "" : " (dead)";
        if (classic) {
          const shameAmt = (p.power === "super-coward" ? 5000 : -5000) * p.shame;
          const other = p.alive && p.score !== undefined ? p.score - p.money - shameAmt : 0;
          return h(
            "tr",
            { class: win ? "winner" : "" },
            h("td", {}, win ? "★" : `${i + 1}`),
            h("td", {}, p.name + status),
            h("td", {}, dollars(p.money)),
            h("td", {}, p.shame ? `${p.shame} (${dollars(shameAmt)})` : "–"),
            h("td", {}, other ? dollars(other) : "–"),
            h("td", { class: "score" }, dollars(score)),
          );
        }
        const l = p.loot ?? { cash: 0, diamonds: 0, paintings: 0 };
        return h(
          "tr",
          { class: win ? "winner" : "" },
          h("td", {}, win ? "★" : `${i + 1}`),
          h("td", {}, p.name + status),
          h("td", {}, `${l.cash}/${l.diamonds}/${l.paintings}`),
          h("td", {}, dollars(p.money)),
          h("td", {}, p.score !== undefined && p.score > p.money ? dollars(p.score - p.money) : "–"),
          h("td", { class: "score" }, dollars(score)),
        );
      }),
    ),
  );
}
