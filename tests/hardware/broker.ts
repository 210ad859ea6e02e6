// A bare aedes broker on a free port and a client that records what arrives: enough to see
// what the serial bridge publishes, without a whole hub.
import { createServer, type Socket } from "node:net";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";

export interface Seen {
  topic: string;
  text: string;
  retain: boolean;
}

export async function bareBroker() {
  const aedes = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    aedes.handle(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const url = `mqtt://127.0.0.1:${port}`;
  const seen: Seen[] = [];
  const watcher: MqttClient = await mqtt.connectAsync(url, { clientId: "watcher" });
  watcher.on("message", (topic, payload, packet) =>
    seen.push({ topic, text: payload.toString(), retain: packet.retain }),
  );
  await watcher.subscribeAsync("cng/#", { qos: 1 });
  return {
    url,
    seen,
    watcher,
    async close() {
      await watcher.endAsync();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => aedes.close(() => r()));
    },
  };
}

/** Waits until `check` returns something truthy, polling. */
export async function until<T>(check: () => T | undefined | null | false, what: string, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
