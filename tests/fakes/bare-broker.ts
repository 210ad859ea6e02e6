// A bare aedes broker (anyone may log in) and a client that records what arrives: enough to see what the
// serial bridge publishes, without a whole hub. The firmware tests' broker.
import { hubClient, startBroker } from "./broker.js";

export async function bareBroker() {
  const b = await startBroker(0, new Map(), true);
  const watcher = await hubClient(b.port);
  return {
    url: `mqtt://127.0.0.1:${b.port}`,
    aedes: b.aedes,
    /** what arrived under cng/ */
    seen: watcher.got,
    watcher: watcher.c,
    async close() {
      await watcher.close();
      await b.close();
    },
  };
}
