// The hub's HTTP port: the dashboard's static files, /api/hub (public facts, no secrets),
// and MQTT over WebSocket at /mqtt (embedded broker).
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { extname, join } from "node:path";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { createWebSocketStream, WebSocketServer } from "ws";
import type { Logger } from "../log.js";

export const PUBLIC_DIR = fileURLToPath(new URL("../../src/web/public/", import.meta.url));
const MQTT_BROWSER_BUNDLE = fileURLToPath(new URL("../../../node_modules/mqtt/dist/mqtt.min.js", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export interface WebOptions {
  bind: string;
  port: number;
  log: Logger;
  /** what /api/hub says */
  facts: () => object;
  /** MQTT over WebSocket; absent = no /mqtt (external broker mode) */
  mqtt?: (stream: Duplex) => void;
  maxWsPayload: number;
}

export interface WebServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The public folder's files, read once: only these names are ever served. */
function staticFiles(): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const name of readdirSync(PUBLIC_DIR)) {
    const type = TYPES[extname(name)];
    if (type) files.set(`/${name}`, { type, body: readFileSync(join(PUBLIC_DIR, name)) });
  }
  try {
    files.set("/vendor/mqtt.min.js", { type: TYPES[".js"]!, body: readFileSync(MQTT_BROWSER_BUNDLE) });
  } catch {
    // without the bundle the page says it cannot connect
  }
  const index = files.get("/index.html");
  if (index) files.set("/", index);
  return files;
}

export async function startWeb(o: WebOptions): Promise<WebServer> {
  const files = staticFiles();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    try {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      if (path === "/api/hub") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(o.facts()));
        return;
      }
      const f = files.get(path);
      if (!f) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
        return;
      }
      res.writeHead(200, { "content-type": f.type, "x-content-type-options": "nosniff" });
      res.end(req.method === "HEAD" ? undefined : f.body);
    } catch (e) {
      o.log.error({ err: e }, "http handler failed");
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  server.on("clientError", (_err, socket) => socket.destroy());

  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxWsPayload });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mqtt" || !o.mqtt) {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    (socket as Socket).setNoDelay?.(true);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on("error", () => stream.destroy());
      o.mqtt?.(stream);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.bind, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const a = server.address();
  const port = typeof a === "object" && a ? a.port : o.port;
  return {
    port,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
