// The dashboard's static files, read once at start (only these names are ever served): the public folder's top
// level, the vendored browser bundles (mqtt.js, EspruinoTools, the table's seal), the protocol's build for the
// flasher; and each page's security headers (its scripts by hash, connections to this hub only, no framing).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

export interface StaticFile {
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

/** The public folder's files (top level only), read once: only these names are ever served. */
export function staticFiles(): Map<string, StaticFile> {
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
