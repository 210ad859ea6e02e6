// The proofs' nonces seen lately: a proof heard on the WiFi and sent again is refused. A proof is only taken within
// its time window, so a nonce need be kept no longer than twice that.
import { PROOF_WINDOW_MS } from "../seal/index.js";

/** nonces kept at most: far more logins than a table makes in two minutes */
const MAX_NONCES = 100_000;

export class SeenNonces {
  private readonly seen = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** True the first time `nonce` is given (within the window). */
  fresh(nonce: string): boolean {
    const now = this.clock();
    for (const [n, at] of this.seen) {
      if (now - at <= 2 * PROOF_WINDOW_MS && this.seen.size < MAX_NONCES) break;
      this.seen.delete(n);
    }
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, now);
    return true;
  }
}
