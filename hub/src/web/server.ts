// The hub's HTTP port: the dashboard's static files, /api/hub (public facts, no secrets), /api/time (the hub's
// clock, for the dashboard's countdown), /api/voice (the table's voice), the venue view (/venue, /api/venue), the
// browser flasher's boards and bundles (/api/boards, /api/firmware/<board>, /protocol/*.js) and MQTT over WebSocket
// at /mqtt.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";
import { extname, join } from "node:path";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { createWebSocketStream, WebSocketServer } from "ws";
import { type Logger, OncePerKey } from "../log.js";

export const PUBLIC_DIR = fileURLToPath(new URL("../../src/web/public/", import.meta.url));
const MQTT_BROWSER_BUNDLE = fileURLToPath(new URL("../../../node_modules/mqtt/dist/mqtt.min.js", import.meta.url));
/** @espruino-tools/core's browser build: Web Bluetooth and Web Serial to Espruino boards (public/espruino-link.js) */
const ESPRUINO_TOOLS_BUNDLE = fileURLToPath(
  new URL("../../../node_modules/@espruino-tools/core/min/main.min.js", import.meta.url),
);

/** hub/src/seal for the browser (hub/build/seal.mjs): proofs, sealed messages, the PIN exchange */
const SEAL_BUNDLE = fileURLToPath(new URL("../../dist/web/seal.js", import.meta.url));

/** shared/protocol's build: served at /protocol/ for the dashboard (gun.json's checks, the OTA file names) */
const PROTOCOL_DIR = fileURLToPath(new URL("../../../shared/protocol/dist/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".ico": "image/x-icon",
};

interface StaticFile {
  type: string;
  body: Buffer;
  etag: string;
  /** the page's own files revalidate (a hub update shows at once); the vendored client is kept a day */
  cache: string;
  /** a page's own: what it may do (securityHeaders) */
  headers?: Record<string, string>;
}

const file = (type: string, body: Buffer, cache = "no-cache"): StaticFile => ({
  type,
  body,
  cache,
  etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 20)}"`,
  ...(type.startsWith("text/html") ? { headers: securityHeaders(body.toString("utf8")) } : {}),
});

export interface WebOptions {
  bind: string;
  port: number;
  log: Logger;
  /** what /api/hub says */
  facts: () => object;
  /** MQTT over WebSocket; absent = no /mqtt (external broker mode) */
  mqtt?: (stream: Duplex, address: string | undefined) => void;
  /** /api/voice/<lang>/<phrase>: the table's voice, as WAV (or `?as=text`, the words) */
  voice?: (lang: string, phrase: string, asText: boolean) => Promise<{ status: number; type: string; body: Buffer }>;
  maxWsPayload: number;
  /** /venue and /api/venue: the tables on the hub's broker (hub/src/venue), the page and its data */
  venue?: { page: string; snapshot: () => unknown };
  /** /api/boards and /api/firmware/<board>: the board profiles and their built bundles, for the browser flasher */
  firmware?: FirmwareSource;
  /** HTTPS beside HTTP, with the hub's certificate (web/certs.ts), and the CA that vouches for it at /ca.crt */
  tls?: { key: string; cert: string; ca: string; port: number };
}

/** The boards a gun can be built on and their firmware bundles (public: the same files as firmware/dist). */
export interface FirmwareSource {
  /** each profile's name and what the page needs: its chip, links, optional features, console device */
  boards: () => { name: string; chip: string; links?: string[]; has?: string[]; con?: string }[];
  /** the built bundle (Storage `.bootcde`), or null when it is not built */
  bundle: (board: string) => Buffer | null;
}

export interface WebServer {
  readonly port: number;
  /** where the HTTPS listener is, when there is one */
  readonly httpsPort: number | null;
  close(): Promise<void>;
}

/** The public folder's files (top level only), read once: only these names are ever served. */
function staticFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const ent of readdirSync(PUBLIC_DIR, { withFileTypes: true })) {
    const type = TYPES[extname(ent.name)];
    if (type && ent.isFile() && /^[a-z0-9][a-z0-9._-]*$/i.test(ent.name)) {
      files.set(`/${ent.name}`, file(type, readFileSync(join(PUBLIC_DIR, ent.name))));
    }
  }
  try {
    files.set("/vendor/mqtt.min.js", file(TYPES[".js"]!, readFileSync(MQTT_BROWSER_BUNDLE), "public, max-age=86400"));
  } catch {
    // without the bundle the page says it cannot connect
  }
  try {
    files.set(
      "/vendor/espruino-tools.min.js",
      file(TYPES[".js"]!, readFileSync(ESPRUINO_TOOLS_BUNDLE), "public, max-age=86400"),
    );
  } catch {
    // without it the Setup page says it cannot reach boards from this browser
  }
  try {
    files.set("/vendor/seal.js", file(TYPES[".js"]!, readFileSync(SEAL_BUNDLE)));
  } catch {
    // not built: the dashboard says it cannot log in
  }
  // shared/protocol's build (ES modules, ES5 inside): the browser flasher checks and writes gun.json with it
  try {
    for (const name of readdirSync(PROTOCOL_DIR)) {
      if (/^[a-z0-9-]+\.js$/.test(name))
        files.set(`/protocol/${name}`, file(TYPES[".js"]!, readFileSync(join(PROTOCOL_DIR, name))));
    }
  } catch {
    // not built: the flasher says it cannot load
  }
  const index = files.get("/index.html");
  if (index) files.set("/", index);
  return files;
}

/**
 * What a page may do, for a page of ours: its own scripts only (an inline one by its hash), style attributes (the
 * dashboard colours seats with them), connections to this hub only, and never inside another site's frame — a page
 * elsewhere in a guest's browser cannot drive the dashboard, or read it.
 */
export function securityHeaders(html: string): Record<string, string> {
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map(
      (m) => `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`,
    );
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${hashes("script").join(" ")}`.trim(),
    `style-src 'self' 'unsafe-inline'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' blob:",
    // mqtt.js keeps its keepalive timer in a worker made from a blob (timers in a background tab are slowed)
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { "content-security-policy": csp, "x-frame-options": "DENY", "referrer-policy": "no-referrer" };
}

/**
 * A WebSocket from a page of another site (a guest's browser on the table's WiFi, visiting a page that wants to act
 * on the hub) is refused: a browser always says where the page came from. Clients that are no browser say nothing.
 */
export function foreignOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export async function startWeb(o: WebOptions): Promise<WebServer> {
  const files = staticFiles();
  const venueHeaders = o.venue ? securityHeaders(o.venue.page) : {};
  const refusals = new OncePerKey(o.log);
  const handler = (req: IncomingMessage, res: ServerResponse, secure: boolean) => {
    try {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      if (o.tls && path === "/ca.crt") {
        res.writeHead(200, {
          "content-type": "application/x-x509-ca-cert",
          "content-disposition": 'attachment; filename="cng-table-ca.crt"',
          "cache-control": "no-cache",
        });
        res.end(req.method === "HEAD" ? undefined : o.tls.ca);
        return;
      }
      // with HTTPS on, a phone on the WiFi is sent there (the laptop itself is no one's to listen to)
      if (o.tls && !secure && !isLoopbackAddress(req.socket.remoteAddress)) {
        const host = (req.headers.host ?? "").replace(/:\d+$/, "");
        res.writeHead(301, { location: `https://${host}:${httpsPort}${req.url ?? "/"}` }).end();
        return;
      }
      if (path === "/api/time") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ now: Date.now() }));
        return;
      }
      if (path === "/api/hub") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(o.facts()));
        return;
      }
      if (o.venue && (path === "/venue" || path === "/api/venue")) {
        const api = path === "/api/venue";
        res.writeHead(200, {
          "content-type": api ? "application/json" : "text/html; charset=utf-8",
          "cache-control": api ? "no-store" : "no-cache",
          ...(api ? {} : venueHeaders),
        });
        res.end(req.method === "HEAD" ? undefined : api ? JSON.stringify(o.venue.snapshot()) : o.venue.page);
        return;
      }
      if (o.firmware && path === "/api/boards") {
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : JSON.stringify(o.firmware.boards()));
        return;
      }
      const fw = /^\/api\/firmware\/([a-z0-9][a-z0-9_-]{0,63})$/.exec(path);
      if (o.firmware && fw) {
        const body = o.firmware.bundle(fw[1]!);
        if (!body) {
          res.writeHead(404, { "content-type": "text/plain" }).end(`no firmware built for ${fw[1]}\n`);
          return;
        }
        res.writeHead(200, {
          "content-type": "application/octet-stream",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "content-length": body.length,
        });
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      const v = /^\/api\/voice\/([a-z]{2})\/([a-z0-9.]{1,64})$/.exec(path);
      if (v && o.voice) {
        const asText = new URLSearchParams((req.url ?? "").split("?")[1] ?? "").get("as") === "text";
        o.voice(v[1]!, v[2]!, asText).then(
          (r) => {
            res.writeHead(r.status, { "content-type": r.type, "cache-control": "no-cache" });
            res.end(req.method === "HEAD" ? undefined : r.body);
          },
          () => res.writeHead(500).end(),
        );
        return;
      }
      const f = files.get(path);
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
    } catch (e) {
      o.log.error({ err: e }, "http handler failed");
      if (!res.headersSent) res.writeHead(500).end();
    }
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxWsPayload });
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mqtt" || !o.mqtt) {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    if (foreignOrigin(req.headers.origin, req.headers.host)) {
      const from = req.socket.remoteAddress;
      refusals.warn(
        `origin:${from}`,
        { origin: req.headers.origin?.slice(0, 120), from },
        "refused /mqtt: a page of another site",
      );
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    (socket as Socket).setNoDelay?.(true);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on("error", () => stream.destroy());
      o.mqtt?.(stream, req.socket.remoteAddress);
    });
  };

  const servers: Server[] = [];
  const serve = async (server: Server, port: number, secure: boolean): Promise<number> => {
    server.on("request", (req, res) => handler(req, res, secure));
    server.on("upgrade", upgrade);
    server.on("clientError", (_err, socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, o.bind, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const a = server.address();
    return typeof a === "object" && a ? a.port : port;
  };
  let httpsPort = 0;
  try {
    if (o.tls) httpsPort = await serve(createHttpsServer({ key: o.tls.key, cert: o.tls.cert }), o.tls.port, true);
    const port = await serve(createServer(), o.port, false);
    return {
      port,
      httpsPort: o.tls ? httpsPort : null,
      close: closeAll,
    };
  } catch (e) {
    await closeAll();
    throw e;
  }

  async function closeAll(): Promise<void> {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    await Promise.all(
      servers.map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    );
  }
}

/** Whether a peer is this machine itself (127.0.0.1 or ::1, as the broker counts it: access/limiter.ts). */
function isLoopbackAddress(a: string | undefined): boolean {
  return a === "127.0.0.1" || a === "::1" || a === "::ffff:127.0.0.1";
}
