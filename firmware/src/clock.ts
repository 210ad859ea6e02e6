// Gun time (integer ms since the firmware started) and the offset to the hub's clock.
// The offset comes from sync round trips; the answer with the lowest round trip wins,
// and a kept best slowly ages so clock drift gets corrected.

var t0 = getTime();

/** getTime() seconds → gun ms. */
export function ms(t: number): number {
  return Math.floor((t - t0) * 1000);
}

export function now(): number {
  return ms(getTime());
}

/** off = hub ms − gun ms, valid once an answer came (rtt < 1e9). */
export var clk = { off: 0, rtt: 1e9, at: 0 };

/** A `time` answer: `g` the gun ms echoed from our sync, `h` the hub ms when the hub read it. */
export function onTime(g: number, h: number): boolean {
  var n = now();
  var rtt = n - g;
  if (rtt < 0 || rtt > 5000) return false;
  // the best round trip ages 1 ms per 10 s so a fresh answer can replace an old one
  if (rtt <= clk.rtt + (n - clk.at) / 10000) {
    clk.off = h + rtt / 2 - n;
    clk.rtt = rtt;
    clk.at = n;
  }
  return true;
}

/** Hub ms → gun ms (now, when the clock is not synced yet). */
export function toGun(h: number): number {
  return clk.rtt < 1e9 ? h - clk.off : now();
}
