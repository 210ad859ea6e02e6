// The hub's HTTP API: /api/time (its clock), /api/hub (public facts), the venue view (/venue, /api/venue), the browser
// flasher's boards and bundles (/api/boards, /api/firmware/<board>), the voice (/api/voice/<lang>/<phrase>) and the
// table's CA (/ca.crt). Each answers GET and HEAD; a path none of them knows falls through to the static files.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebOptions } from "./options.js";

type Route = (o: WebOptions, path: string, req: IncomingMessage, res: ServerResponse) => boolean;

const head = (req: IncomingMessage) => req.method === "HEAD";

const json = (res: ServerResponse, req: IncomingMessage, body: unknown) => {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(head(req) ? undefined : JSON.stringify(body));
};

const caCert: Route = (o, path, req, res) => {
  if (!o.tls || path !== "/ca.crt") return false;
  res.writeHead(200, {
    "content-type": "application/x-x509-ca-cert",
    "content-disposition": 'attachment; filename="cng-table-ca.crt"',
    "cache-control": "no-cache",
  });
  res.end(head(req) ? undefined : o.tls.ca);
  return true;
};

const time: Route = (_o, path, _req, res) => {
  if (path !== "/api/time") return false;
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ now: Date.now() }));
  return true;
};

const hub: Route = (o, path, _req, res) => {
  if (path !== "/api/hub") return false;
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(o.facts()));
  return true;
};

const venue =
  (headers: Record<string, string>): Route =>
  (o, path, req, res) => {
    if (!o.venue || (path !== "/venue" && path !== "/api/venue")) return false;
    const api = path === "/api/venue";
    res.writeHead(200, {
      "content-type": api ? "application/json" : "text/html; charset=utf-8",
      "cache-control": api ? "no-store" : "no-cache",
      ...(api ? {} : headers),
    });
    res.end(head(req) ? undefined : api ? JSON.stringify(o.venue.snapshot()) : o.venue.page);
    return true;
  };

const boards: Route = (o, path, req, res) => {
  if (!o.firmware || path !== "/api/boards") return false;
  json(res, req, o.firmware.boards());
  return true;
};

const firmware: Route = (o, path, req, res) => {
  const fw = /^\/api\/firmware\/([a-z0-9][a-z0-9_-]{0,63})$/.exec(path);
  if (!o.firmware || !fw) return false;
  const body = o.firmware.bundle(fw[1]!);
  if (!body) {
    res.writeHead(404, { "content-type": "text/plain" }).end(`no firmware built for ${fw[1]}\n`);
    return true;
  }
  res.writeHead(200, {
    "content-type": "application/octet-stream",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-length": body.length,
  });
  res.end(head(req) ? undefined : body);
  return true;
};

const voice: Route = (o, path, req, res) => {
  const v = /^\/api\/voice\/([a-z]{2})\/([a-z0-9.]{1,64})$/.exec(path);
  if (!v || !o.voice) return false;
  const asText = new URLSearchParams((req.url ?? "").split("?")[1] ?? "").get("as") === "text";
  o.voice(v[1]!, v[2]!, asText).then(
    (r) => {
      res.writeHead(r.status, { "content-type": r.type, "cache-control": "no-cache" });
      res.end(head(req) ? undefined : r.body);
    },
    () => res.writeHead(500).end(),
  );
  return true;
};

/** The API's routes after the redirect to HTTPS, in order; the venue page carries its own security headers. */
export function apiRoutes(venueHeaders: Record<string, string>): Route[] {
  return [time, hub, venue(venueHeaders), boards, firmware, voice];
}

/** The one route that serves before the redirect to HTTPS: the CA a phone needs to trust it. */
export const beforeRedirect: Route = caCert;
