// Finding the hub (boards with "find"): when the hub in gun.json does not answer (two connects in a row without a
// session), ask the local network every 5 s by UDP broadcast, "CNG1? <table> <id>" to port 18830 (gun.json
// hub.find; 0 = never ask). The hub of this table answers "CNG1! <table> <host> <port>" (hub/src/net/discovery.ts):
// the gun connects there and keeps it in gun.json, so it starts there next time. Another table's answer is ignored,
// and the gun's credentials still decide whether the broker lets it in. One socket while looking, closed once
// connected; one query string, made once.
import { DISCOVERY_PORT } from "@cng/protocol";
import { type Cfg, keepCfg } from "./config";
import { mq, mqTo } from "./mqtt";

export function find(c: Cfg): void {
  var h = c.hub;
  var fp = h.find === undefined ? DISCOVERY_PORT : h.find;
  var q = "CNG1? " + c.table + " " + c.id;
  var u: any;
  if (fp > 0)
    setInterval(function () {
      try {
        if (mq.up || mq.fails < 2) {
          if (u) u.close();
          u = undefined;
          return;
        }
        if (!u) {
          // biome-ignore lint/style/useNodejsImportProtocol: Espruino's built-in module, not Node's
          u = require("dgram").createSocket("udp4");
          u.on("message", function (m: string) {
            var a = m.split(" ");
            var p = +a[3];
            // not while connected (a late answer), not another table's, not where it already tries
            if (mq.up || a[0] !== "CNG1!" || a[1] !== c.table || !(p > 0) || (a[2] === h.host && p === h.port)) return;
            console.log("CNG hub " + a[2] + ":" + p);
            // one answer per question: another hub of the same name answering too is not taken as well
            u.close();
            u = undefined;
            h.host = a[2];
            h.port = p;
            keepCfg("hub", h);
            mqTo(h.host, p);
          });
        }
        u.send(q, fp, "255.255.255.255");
      } catch (_e) {
        // WiFi gone under the socket: a new one next time
        u = undefined;
      }
    }, 5000);
}
