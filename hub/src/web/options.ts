// What the hub's HTTP port is given: where to listen, what /api/hub says, the broker's WebSocket side, the voice, the
// venue view, the flasher's firmware and HTTPS.
import type { Duplex } from "node:stream";
import type { Logger } from "../log.js";

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
