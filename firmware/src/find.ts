// Finding the hub (boards with "find"): when the hub in gun.json does not answer (two connects in a row without a
// session), a paired gun asks the local network every 5 s by UDP broadcast, "CNG1? <table> <id> <nonce>" to port 18830
// (gun.json hub.find; 0 = never ask). Its hub answers "CNG1! <table> <host> <port> <proof>" (hub/src/net/discovery.ts),
// the proof an HMAC (mac.ts) over the answer and this look's nonce, keyed by what only the gun and its hub hold: the
// gun connects there and keeps it in gun.json, so it starts there next time. An answer without that proof is anyone's
// on the network (a player's laptop answering first) and is ignored. A gun not yet paired has no key its hub knows:
// it does not look, and stays on the address it was flashed with (that one came over USB). One socket while looking,
// closed once connected; one query per look.
import { DISCOVERY_PORT } from "@cng/protocol";
import type { Cfg } from "./config";
import { keepCfg } from "./keep";
import { mac, nonce, sha } from "./mac";
import { mq, mqTo } from "./mqtt";

export function find(c: Cfg): void {
  var h = c.hub;
  var fp = h.find === undefined ? DISCOVERY_PORT : h.find;
  /** the HMAC key: SHA-256 of the gun's key, as the hub keeps it */
  var k: string;
  /** this look's nonce: an answer proven over it is fresh, not one recorded earlier */
  var n: string;
  var q: string;
  var u: any;
  if (fp > 0)
    setInterval(function () {
      try {
        // paired: its key came from its hub, or it runs an update its hub vouched for (ota.ts)
        if (mq.up || mq.fails < 2 || !(c.paired || (HAS_OTA && (global as any).CNGS))) {
          if (u) u.close();
          u = undefined;
          return;
        }
        if (!u) {
          k = sha(c.secret);
          n = nonce(k);
          q = "CNG1? " + c.table + " " + c.id + " " + n;
          // biome-ignore lint/style/useNodejsImportProtocol: Espruino's built-in module, not Node's
          u = require("dgram").createSocket("udp4");
          u.on("message", function (m: string) {
            var i = m.lastIndexOf(" ");
            var a = m.substr(0, i).split(" ");
            var p = +a[3];
            // not while connected (a late answer), not where it already tries, not without the hub's proof
            if (mq.up || (a[2] === h.host && p === h.port) || mac(k, m.substr(0, i) + " " + n) !== m.substr(i + 1))
              return;
            console.log("CNG hub " + a[2] + ":" + p);
            // one answer per question: another answer coming too is not taken as well
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
