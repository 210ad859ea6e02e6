// The venue page: served by `cng venue` at / and by every hub at /venue; it polls /api/venue (venue.ts' snapshot).
// One small page: polls /api/venue each second; every text goes in with textContent (names are players' input).
export const VENUE_PAGE = `<!doctype html>
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
