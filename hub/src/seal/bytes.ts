// Bytes and text: UTF-8 and base64url, the same in Node and a browser (no Buffer, no node:crypto).
import { utf8ToBytes } from "@noble/hashes/utils.js";

export { utf8ToBytes };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 bytes as text; null when they are not UTF-8. */
export function bytesToUtf8(b: Uint8Array): string | null {
  try {
    return decoder.decode(b);
  } catch {
    return null;
  }
}

export function toB64u(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url (unpadded) to bytes; null for anything else. */
export function fromB64u(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Equal without telling where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}
