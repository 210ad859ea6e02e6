// Broadcast on this machine, for the tests that find the hub (tests/net/discovery.test.ts, tests/espruino/find.test.ts).
import { createSocket } from "node:dgram";

/**
 * The address a broadcast sent here comes back from to a socket on 0.0.0.0 (the interface it left through: what the
 * hub names for a gun on this machine), or null when it does not come back (no LAN interface with a route).
 */
export async function broadcastSource(): Promise<string | null> {
  const r = createSocket({ type: "udp4", reuseAddr: true });
  const s = createSocket("udp4");
  try {
    await new Promise<void>((ok) => r.bind(0, "0.0.0.0", () => ok()));
    const got = new Promise<string | null>((ok) => {
      r.once("message", (_m, from) => ok(from.address));
      setTimeout(() => ok(null), 1000);
    });
    await new Promise<void>((ok) => s.bind(0, () => ok()));
    s.setBroadcast(true);
    s.on("error", () => {});
    s.send("x", r.address().port, "255.255.255.255");
    return await got;
  } catch {
    return null;
  } finally {
    r.close();
    s.close();
  }
}
