// `cng venue`: watches every table on a broker (venue.ts) and serves a live page of them with a leaderboard.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { connectMqtt, type MqttClient } from "../bus/connect.js";
import { VENUE_FILTERS, Venue } from "./venue.js";

export interface VenueOptions {
  /** the broker, mqtt://host:port */
  url: string;
  /** anonymous by default: the public topics are enough */
  username?: string;
  password?: string;
  port: number;
  bind: string;
}

export interface VenueServer {
  readonly venue: Venue;
  readonly port: number;
  close(): Promise<void>;
}

export async function startVenue(o: VenueOptions): Promise<VenueServer> {
  const venue = new Venue();
  const client: MqttClient = await connectMqtt(o.url, {
    clientId: `cng-venue-${process.pid}-${randomBytes(2).toString("hex")}`,
    ...(o.username ? { username: o.username, password: o.password } : {}),
  });
  client.on("message", (topic, payload) => venue.take(topic, payload));
  // mqtt.js rejects a SUBACK holding a refusal (0x80); either way, name what was refused
  const codes = await client.subscribeAsync(VENUE_FILTERS, { qos: 0 }).then(
    (g) => g.map((x) => x.qos as number),
    (e: { packet?: { granted?: number[] } }) => e.packet?.granted ?? VENUE_FILTERS.map(() => 128),
  );
  const refused = VENUE_FILTERS.filter((_, i) => codes[i] === 128);
  if (refused.length > 0) {
    client.end(true);
    throw new Error(
      `the broker refused ${refused.join(", ")}: a broker from \`cng broker init\` lets anonymous clients read them; ` +
        "on a password-file broker add them to the ACL (README, External broker) or log in with --user; " +
        "a hub's embedded broker holds one table only (its dashboard shows it)",
    );
  }
  const http: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/api/venue") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(venue.snapshot()));
    } else if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(o.port, o.bind, () => resolve());
  });
  const port = (http.address() as { port: number }).port;
  return {
    venue,
    port,
    close: async () => {
      await new Promise<void>((r) => http.close(() => r()));
      await client.endAsync();
    },
  };
}

// One small page: polls /api/venue each second; every text goes in with textContent (names are players' input).
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Cash'n Guns — venue</title>
<style>
body{font-family:system-ui,sans-serif;margin:1rem;background:#111;color:#eee}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}
td,th{border-bottom:1px solid #333;padding:.35rem .5rem;text-align:left;vertical-align:top}
.over{color:#9c9}.dead{text-decoration:line-through;color:#888}
</style></head><body>
<h1>Cash'n Guns — every table</h1>
<table><thead><tr><th>table</th><th>game</th><th>round</th><th>step</th><th>ahead</th><th>players</th><th>guns online</th></tr></thead>
<tbody id="tables"></tbody></table>
<h1>Finished games</h1>
<table><thead><tr><th>table</th><th>game</th><th>winners</th><th>money</th></tr></thead><tbody id="board"></tbody></table>
<script>
function cell(tr, text, cls) { var td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; tr.appendChild(td); return td; }
function money(n) { return "$" + Number(n).toLocaleString("en-US"); }
async function tick() {
  try {
    var v = await (await fetch("/api/venue", { cache: "no-store" })).json();
    var tb = document.getElementById("tables"); tb.textContent = "";
    for (var t of v.tables) {
      var tr = document.createElement("tr");
      cell(tr, t.table); cell(tr, t.game === null ? "—" : (t.edition || "") + " #" + t.game);
      cell(tr, t.round ? String(t.round) : "—"); cell(tr, t.over ? "over" : (t.step || "—"), t.over ? "over" : "");
      cell(tr, t.leaders.join(", ") || "—");
      var td = cell(tr, "");
      t.players.forEach(function (p, i) { var s = document.createElement("span"); s.textContent = (i ? ", " : "") + p.name + " " + money(p.money); if (!p.alive) s.className = "dead"; td.appendChild(s); });
      cell(tr, t.guns.online + " / " + t.guns.paired);
      tb.appendChild(tr);
    }
    var bd = document.getElementById("board"); bd.textContent = "";
    for (var g of v.leaderboard) {
      var r = document.createElement("tr");
      var best = Math.max.apply(null, [0].concat(g.players.filter(function (p) { return g.winners.indexOf(p.name) >= 0; }).map(function (p) { return p.money; })));
      cell(r, g.table); cell(r, g.edition + " #" + g.game); cell(r, g.winners.join(", ") || "nobody"); cell(r, money(best));
      bd.appendChild(r);
    }
  } catch (e) {}
}
tick(); setInterval(tick, 1000);
</script></body></html>
`;
