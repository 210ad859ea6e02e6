// The table's own cryptography, the same code in the hub and in the dashboard (bundled for the browser as
// /vendor/seal.js): proofs of secrets instead of the secrets, sealed messages, and the PIN exchange. Pure: the
// audited @noble primitives only, no node:crypto, no I/O.

export { deriveKey, isSealed, open, SEALED_PREFIX, seal } from "./box.js";
export { bytesToUtf8, fromB64u, toB64u, utf8ToBytes } from "./bytes.js";
export { type PakeKeys, pakeAnswer, pakeStart, sameTag } from "./pake.js";
export {
  checkProof,
  keyOfHash,
  makeProof,
  PROOF_PREFIX,
  PROOF_WINDOW_MS,
  type Proof,
  parseProof,
  secretKey,
  sessionKey,
  viewKey,
} from "./proof.js";
