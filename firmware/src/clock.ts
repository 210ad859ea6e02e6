// Gun time (integer ms since the firmware started) and the offset to the hub's clock. The hub measures the offset
// from this gun's own stream (the fastest of many samples) and says it in every `time` answer: far steadier than a
// round trip the gun could time itself, which assumes the way there and back take as long (on WiFi they do not).

var t0 = getTime();

/** getTime() seconds → gun ms. */
export function ms(t: number): number {
  return Math.floor((t - t0) * 1000);
}

export function now(): number {
  return ms(getTime());
}

/** off = hub ms − gun ms, valid once the hub gave one (ok); `h` and `a`: the last answer's hub ms and the gun ms it
 * arrived at (h = 0 before any), told back to the hub with the next probe: how long messages take to get here */
export var clk = { off: 0, ok: 0, h: 0, a: 0 };

/** A `time` answer: `h` the hub ms when the hub read our probe, `o` its measure of the offset (when it has one). */
export function onTime(h: number, o: number | undefined): void {
  clk.h = h;
  clk.a = now();
  if (typeof o === "number") {
    clk.off = o;
    clk.ok = 1;
  }
}

/** Hub ms → gun ms; `n` (now) when the clock is not synced yet or `h` is absent. */
export function toGun(h: number | undefined, n: number): number {
  return clk.ok && h! >= 0 ? h! - clk.off : n;
}
