// The hub's HTTP port (and HTTPS beside it): the API (api-routes.ts), the dashboard's static files (static-files.ts)
// and MQTT over WebSocket at /mqtt (mqtt-upgrade.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { WebSocketServer } from "ws";
import { OncePerKey } from "../log.js";
import { apiRoutes, beforeRedirect } from "./api-routes.js";
import { mqttUpgrade } from "./mqtt-upgrade.js";
import type { WebOptions } from "./options.js";
import { type StaticFile, securityHeaders, staticFiles } from "./static-files.js";

export type { WebOptions } from "./options.js";

export interface WebServer {
  readonly port: number;
  /** where the HTTPS listener is, when there is one */
  readonly httpsPort: number | null;
  close(): Promise<void>;
}

export async function startWeb(o: WebOptions): Promise<WebServer> {
  const files = staticFiles();
  const routes = apiRoutes(o.venue ? securityHeaders(o.venue.page) : {});
  let httpsPort = 0;
  const handler = (req: IncomingMessage, res: ServerResponse, secure: boolean) => {
    try {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      if (beforeRedirect(o, path, req, res)) return;
      // with HTTPS on, a phone on the WiFi is sent there (the laptop itself is no one's to listen to)
      if (o.tls && !secure && !isLoopbackAddress(req.socket.remoteAddress)) {
        const host = (req.headers.host ?? "").replace(/:\d+$/, "");
        res.writeHead(301, { location: `https://${host}:${httpsPort}${req.url ?? "/"}` }).end();
        return;
      }
      for (const route of routes) if (route(o, path, req, res)) return;
      serveFile(files.get(path), req, res);
    } catch (e) {
      o.log.error({ err: e }, "http handler failed");
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxWsPayload });
  const upgrade = mqttUpgrade(wss, o.mqtt, new OncePerKey(o.log));
  const servers: Server[] = [];
  const closeAll = async (): Promise<void> => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    await Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    );
  };
  try {
    const serve = (server: Server, port: number, secure: boolean) => {
      server.on("request", (req, res) => handler(req, res, secure));
      server.on("upgrade", upgrade);
      servers.push(server);
      return listen(server, port, o.bind);
    };
    if (o.tls) httpsPort = await serve(createHttpsServer({ key: o.tls.key, cert: o.tls.cert }), o.tls.port, true);
    const port = await serve(createServer(), o.port, false);
    return { port, httpsPort: o.tls ? httpsPort : null, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** Listens; resolves with the port it got. */
async function listen(server: Server, port: number, bind: string): Promise<number> {
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, bind, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const a = server.address();
  return typeof a === "object" && a ? a.port : port;
}

/** One of the dashboard's files, or 404; a revalidation with the same etag is a 304. */
function serveFile(f: StaticFile | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (!f) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  const headers = {
    "content-type": f.type,
    "x-content-type-options": "nosniff",
    "cache-control": f.cache,
    etag: f.etag,
    ...f.headers,
  };
  if (req.headers["if-none-match"] === f.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, "content-length": f.body.length });
  res.end(req.method === "HEAD" ? undefined : f.body);
}

/** Whether a peer is this machine itself (127.0.0.1 or ::1, as the broker counts it: access/limiter.ts). */
function isLoopbackAddress(a: string | undefined): boolean {
  return a === "127.0.0.1" || a === "::1" || a === "::ffff:127.0.0.1";
}
