// What a gun's report says the host should know about.
import { type InfoMsg, PROTOCOL_VERSION } from "@cng/protocol";

export function infoWarnings(info: InfoMsg, lowBattery: number): string[] {
  const w: string[] = [];
  if (info.bat !== undefined && info.bat <= lowBattery) w.push(`low battery: ${Math.round(info.bat)}%`);
  if (info.mem !== undefined && info.mem < 200) w.push(`low memory: ${info.mem} JsVars free`);
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
