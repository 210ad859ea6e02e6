// What gun and hub share, to prove a message came from the hub (boards with "find" or "ota"; and on the serial link, a
// bridge the hub vouches for: serial.ts): the hub keeps only the SHA-256 of the gun's key (hub/src/store/secrets.ts
// hashSecret, hex), so the proof is HMAC-SHA256 keyed by that hex digest. 64 ASCII characters are exactly one SHA-256
// block: the HMAC key as it is, no padding. Espruino's ESP32 and Puck.js builds have SHA-256 (boards/ESP32.py,
// boards/PUCKJS.py: CRYPTO, SHA256); it gives an ArrayBuffer of 32 bytes.

/** Lower-case hex of the bytes. */
function hex(b: ArrayBuffer): string {
  var u = new Uint8Array(b);
  var s = "";
  var i: number;
  for (i = 0; i < u.length; i++) s += (256 + u[i]!).toString(16).substr(1);
  return s;
}

/** SHA-256 of a byte string. */
function H(m: string): ArrayBuffer {
  // biome-ignore lint/style/useNodejsImportProtocol: Espruino's built-in module, not Node's
  return require("crypto").SHA256(m);
}

/** SHA-256 of a byte string, hex. */
export function sha(m: string): string {
  return hex(H(m));
}

/** HMAC-SHA256 of the byte string `m` keyed by `k` (64 characters: a hex SHA-256), hex. */
export function mac(k: string, m: string): string {
  var i = "";
  var o = "";
  var j: number;
  for (j = 0; j < 64; j++) {
    i += String.fromCharCode(k.charCodeAt(j) ^ 0x36);
    o += String.fromCharCode(k.charCodeAt(j) ^ 0x5c);
  }
  return hex(H(o + E.toString(H(i + m))));
}

/**
 * A fresh nonce, 16 hex digits, for a proof over it (find.ts, serial.ts): unguessable without the key hash `k`, whatever
 * Math.random gives (Espruino's ESP builds start it from a fixed seed at every boot; the nRF52 from its hardware RNG).
 */
export function nonce(k: string): string {
  return sha(k + getTime() + Math.random()).substr(0, 16);
}
