// A rights check that throws is a refusal, never the broker's fault.
export function safe<T extends { ok: boolean }>(fn: () => T): T | { ok: false; reason: string } {
  try {
    return fn();
  } catch (e) {
    return { ok: false, reason: `internal error: ${(e as Error).message}` };
  }
}
