// What a gun's report says the host should know about.
import { type InfoMsg, PROTOCOL_VERSION } from "@cng/protocol";

/** a gun's WiFi signal at or below this (dBm) gets a warning */
export const WEAK_WIFI = -80;

export function infoWarnings(info: InfoMsg, lowBattery: number): string[] {
  const w: string[] = [];
  // no battery figure (no divider: a power bank), no warning
  if (info.bat !== undefined && info.bat <= lowBattery)
    w.push(`low battery: ${Math.round(info.bat)}%${info.bv !== undefined ? ` (${info.bv} V)` : ""}`);
  if (info.mem !== undefined && info.mem < 200) w.push(`low memory: ${info.mem} JsVars free`);
  // below about -80 dBm, ESP WiFi drops packets: aim stutters and cues come late
  if (info.rs !== undefined && info.rs <= WEAK_WIFI)
    w.push(`weak WiFi: ${info.rs} dBm (move the hub or the access point closer)`);
  // beats that came after their time stay silent on that gun: its WiFi was slower than the count's lead-in
  if (info.lc !== undefined && info.lc > 0)
    w.push(`${info.lc} late cue${info.lc === 1 ? "" : "s"} dropped since it started (a slow WiFi to this gun)`);
  return w;
}

export function versionWarning(v: unknown): string {
  return `speaks protocol version ${String(v).slice(0, 16)}, the hub speaks ${PROTOCOL_VERSION}: update its firmware`;
}

/** The `v` of a payload a decoder refused for its version, if it has one. */
export function payloadVersion(payload: Buffer): unknown {
  try {
    const o = JSON.parse(payload.toString("utf8")) as { v?: unknown };
    return o && typeof o === "object" ? o.v : undefined;
  } catch {
    return undefined;
  }
}
