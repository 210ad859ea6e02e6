// The people's side: the table's voice and the web server (the dashboard, /api/hub, the venue view, the browser
// flasher's firmware, MQTT over WebSocket with the embedded broker).
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { tableRoot } from "@cng/protocol";
import { boardNames, bundlePathFor, loadBoard } from "../boards/profile.js";
import { MAX_CLIENT_PAYLOAD } from "../broker/acl.js";
import type { EmbeddedBroker } from "../broker/embedded.js";
import { CLIENT_PACKET_BYTES } from "../broker/limits.js";
import { lanAddresses, lanUrls, onHttps } from "../net/lan.js";
import { isLang, type Settings } from "../store/settings.js";
import { VENUE_PAGE } from "../venue/watch.js";
import { Speaker } from "../voice/speaker.js";
import { type Issued, issueServerCert, makeCa } from "../web/certs.js";
import { startWeb, type WebOptions, type WebServer } from "../web/server.js";
import type { Later, Wiring } from "./wiring.js";

/** The table's voice: espeak-ng on this machine, else the browser's own; --voice LANG is the table's language too. */
export function tableVoice({ config, log }: Wiring, settings: Settings): Speaker {
  const speaker = new Speaker({ off: config.voice === "off" });
  if (speaker.engine === "browser") {
    log.warn(
      "espeak-ng not found: the dashboard speaks with the browser's own voice, less on the beat (apt-get install espeak-ng)",
    );
  }
  if (isLang(config.voice)) settings.setLang(config.voice);
  return speaker;
}

/** The web server; /api/hub tells the broker's ports, the voice, the LAN addresses and the streams' counters. */
export async function startWebServer(
  { config, mode, log, closers }: Wiring,
  broker: EmbeddedBroker | undefined,
  speaker: Speaker,
  later: Later,
): Promise<WebServer> {
  // where phones reach the dashboard from the local network (the host's phone console links use it)
  let phones: string[] = [];
  const tls =
    config.httpsPort === undefined
      ? undefined
      : { ...tableCerts(config.data, config.table, log), port: config.httpsPort };
  const web = await startWeb({
    tls,
    bind: config.bind,
    port: config.httpPort,
    log: log.child({ part: "web" }),
    // the hub itself never comes over WebSocket: nobody there sends more than a request
    maxWsPayload: CLIENT_PACKET_BYTES,
    mqtt: broker ? (s, address) => broker.handle(s, address) : undefined,
    voice: voiceAnswer(speaker, later),
    firmware: firmwareSource(),
    venue: { page: VENUE_PAGE, snapshot: () => later.venue?.snapshot() ?? { tables: [], leaderboard: [] } },
    facts: () => ({
      table: config.table,
      topicRoot: tableRoot(config.table),
      mode,
      mqttPort: broker?.port ?? null,
      ws: broker ? "/mqtt" : null,
      maxRequestBytes: MAX_CLIENT_PAYLOAD,
      voice: { engine: speaker.engine },
      lan: phones,
      streams: later.streamStats,
    }),
  });
  closers.add(() => web.close());
  // with HTTPS, phones are sent there
  const lan = lanUrls(config.bind, web.port, null).dashboard;
  phones = web.httpsPort === null ? lan : onHttps(lan, web.httpsPort);
  return web;
}

/** /api/voice: a phrase as WAV, or as its words, with the running game's player names. */
function voiceAnswer(speaker: Speaker, later: Later): NonNullable<WebOptions["voice"]> {
  return async (lang, phrase, asText) => {
    const names = (later.game?.session.game?.state as { names?: string[] } | undefined)?.names ?? [];
    const none = { status: 404, type: "text/plain", body: Buffer.from("no such phrase\n") };
    if (!isLang(lang)) return none;
    if (asText) {
      const text = speaker.text(lang, phrase, names);
      return text === null
        ? none
        : { status: 200, type: "application/json", body: Buffer.from(JSON.stringify({ text })) };
    }
    const r = await speaker.render(lang, phrase, names);
    return r.ok ? { status: 200, type: "audio/wav", body: r.wav } : { ...none, status: r.status };
  };
}

/** The board profiles and their built bundles, for the dashboard's browser flasher (/api/boards, /api/firmware). */
function firmwareSource() {
  return {
    boards: () =>
      boardNames().map((name) => {
        const b = loadBoard(name);
        // bat: the profile measures a LiPo through a divider (gun.json may say "bat": false, or a factor)
        return { name, chip: b.chip, links: b.links ?? ["wifi"], has: b.has ?? [], con: b.con, bat: !!b.bat };
      }),
    bundle: (board: string) => {
      if (!boardNames().includes(board)) return null;
      try {
        return readFileSync(bundlePathFor(board));
      } catch {
        return null;
      }
    },
  };
}

/** Names the hub's certificate covers: this machine by name and by each address, loopback included. */
function certNames(): string[] {
  const host = hostname().toLowerCase();
  const dns = /^[a-z0-9]([a-z0-9-]{0,62})$/.test(host) ? [host, `${host}.local`] : [];
  return [...new Set(["localhost", ...dns, "127.0.0.1", "::1", ...lanAddresses().map((a) => a.address)])];
}

/**
 * The table's CA and the hub's certificate, kept in the data folder's `tls/` (0700, files 0600): the CA is made once
 * (the phones keep trusting it), the hub's certificate again when this machine's addresses change or it has less
 * than 30 days left.
 */
function tableCerts(data: string, table: string, log: Wiring["log"]): { key: string; cert: string; ca: string } {
  const dir = join(data, "tls");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (n: string) => join(dir, n);
  const keep = (n: string, text: string) => writeFileSync(file(n), text, { mode: 0o600 });
  let ca: Issued;
  if (existsSync(file("ca.key")) && existsSync(file("ca.crt"))) {
    ca = { key: readFileSync(file("ca.key"), "utf8"), cert: readFileSync(file("ca.crt"), "utf8") };
  } else {
    ca = makeCa(table);
    keep("ca.key", ca.key);
    keep("ca.crt", ca.cert);
    log.info({ file: file("ca.crt") }, "made the table's certificate authority: install /ca.crt on the phones");
  }
  const names = certNames();
  let leaf: Issued | null = null;
  if (existsSync(file("hub.key")) && existsSync(file("hub.crt"))) {
    leaf = { key: readFileSync(file("hub.key"), "utf8"), cert: readFileSync(file("hub.crt"), "utf8") };
    const x = new X509Certificate(leaf.cert);
    const covered = names.every((n) => (isIP(n) ? x.checkIP(n) : x.checkHost(n)) !== undefined);
    const fresh = new Date(x.validTo).getTime() - Date.now() > 30 * 86_400_000;
    if (!covered || !fresh || !x.checkIssued(new X509Certificate(ca.cert))) leaf = null;
  }
  if (!leaf) {
    leaf = issueServerCert(ca, names);
    keep("hub.key", leaf.key);
    keep("hub.crt", leaf.cert);
  }
  return { key: leaf.key, cert: leaf.cert, ca: ca.cert };
}
