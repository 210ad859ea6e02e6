// `cng venue`: watches every table on a broker (venue.ts) and serves a live page of them with a leaderboard.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { connectMqtt, type MqttClient } from "../bus/connect.js";
import { VENUE_PAGE } from "./page.js";
import { leaderboardFile } from "./store.js";
import { VENUE_FILTERS, Venue } from "./venue.js";

/** The leaderboard's file in `cng venue --data DIR`. */
export const VENUE_FILE = "venue.json";

export interface VenueOptions {
  /** the broker, mqtt://host:port */
  url: string;
  /** anonymous by default: the public topics are enough */
  username?: string;
  password?: string;
  port: number;
  bind: string;
  /** a folder to keep the leaderboard in (DIR/venue.json), across restarts; absent = in memory only */
  data?: string;
  /** where a leaderboard file that cannot be read or written is reported (default: stderr) */
  warn?: (msg: string) => void;
}

export interface VenueServer {
  readonly venue: Venue;
  readonly port: number;
  close(): Promise<void>;
}

export async function startVenue(o: VenueOptions): Promise<VenueServer> {
  const warn = o.warn ?? ((msg: string) => process.stderr.write(`cng venue: ${msg}\n`));
  const venue = new Venue(Date.now, o.data ? leaderboardFile(join(o.data, VENUE_FILE), warn) : undefined);
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
        "on a password-file broker add them to the ACL (docs/external-broker.md) or log in with --user; " +
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
      res.end(VENUE_PAGE);
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
