// One limiter for every wrong secret the hub is given — at MQTT CONNECT (TCP and WebSocket) and in requests' `auth`
// — kept per source address and for the whole hub. A source gets a few tries, then waits: 1 s, 2 s, 4 s … up to a
// minute per wrong secret, until a quiet quarter of an hour forgives it. The hub as a whole gets a larger handful,
// then the same doubling from 3 s: an attacker who takes many addresses (any free one of a home network; IPv6
// gives a device millions, so those count per /64) gets no more checks in total than one address would, about
// one a minute once the handful is spent. Only the PIN waits: the secrets the hub made (gun keys, seat tokens,
// host devices' tokens) are too long to guess and are checked at any time, so the host and the table are never
// locked out by someone else's guessing. A right secret does not clear the count: an attacker holding one valid
// secret (a seat token, their own gun's key) must not buy fresh guesses at the PIN with it.

export interface LimiterOptions {
  /** wrong secrets a source may give before it must wait */
  free: number;
  /** the first wait, ms; each further wrong secret doubles it */
  baseMs: number;
  /** the longest wait, ms */
  maxMs: number;
  /** a source with no wrong secret for this long starts afresh, ms */
  forgetMs: number;
  /** sources remembered at most (the oldest go first) */
  maxSources: number;
}

export const DEFAULT_LIMITS: LimiterOptions = {
  free: 5,
  baseMs: 1000,
  maxMs: 60_000,
  forgetMs: 15 * 60_000,
  maxSources: 10_000,
};

/** The whole hub's budget: enough for a table of people mistyping the PIN, then one check a minute at most. */
export const HUB_LIMITS: Omit<LimiterOptions, "maxSources"> = {
  free: 20,
  baseMs: 3000,
  maxMs: 60_000,
  forgetMs: 15 * 60_000,
};

/** Whose wait it is: this source's own guessing, or everyone's together. */
export type WaitScope = "source" | "hub";

interface Record {
  /** wrong secrets since the source was last forgiven */
  failures: number;
  /** no secret from it is checked before this time */
  until: number;
  /** the last wrong secret */
  last: number;
}

function waitAfter(r: Record, o: Omit<LimiterOptions, "maxSources">, now: number): void {
  const over = r.failures - o.free;
  if (over >= 0) r.until = now + Math.min(o.maxMs, o.baseMs * 2 ** Math.min(over, 30));
}

export class SecretLimiter {
  private readonly sources = new Map<string, Record>();
  /** every source's wrong secrets together: not kept per source, so no number of sources resets it */
  private total: Record = { failures: 0, until: 0, last: 0 };
  readonly o: LimiterOptions;
  readonly hub: Omit<LimiterOptions, "maxSources">;

  constructor(
    o: Partial<LimiterOptions> = {},
    private readonly clock: () => number = Date.now,
    hub: Partial<Omit<LimiterOptions, "maxSources">> = {},
  ) {
    this.o = { ...DEFAULT_LIMITS, ...o };
    this.hub = { ...HUB_LIMITS, ...hub };
  }

  private get(source: string): Record | undefined {
    const r = this.sources.get(source);
    if (r && this.clock() - r.last > this.o.forgetMs) {
      this.sources.delete(source);
      return undefined;
    }
    return r;
  }

  private whole(): Record {
    if (this.total.failures > 0 && this.clock() - this.total.last > this.hub.forgetMs) {
      this.total = { failures: 0, until: 0, last: 0 };
    }
    return this.total;
  }

  /** ms `source` must still wait before a PIN of its is checked (its own wait, or the hub's); 0 = go ahead */
  wait(source: string): number {
    return this.waitOf(source).ms;
  }

  waitOf(source: string): { ms: number; scope: WaitScope } {
    const now = this.clock();
    const own = Math.max(0, (this.get(source)?.until ?? 0) - now);
    // whoever spends the hub's budget from the WiFi, the host at the laptop itself still gets its PIN checked
    const all = isOwnMachine(source) ? 0 : Math.max(0, this.whole().until - now);
    return all > own ? { ms: all, scope: "hub" } : { ms: own, scope: "source" };
  }

  /**
   * A wrong secret from `source`. Only a wrong PIN (`pin`) counts in the hub's budget: a gun flashed again while
   * still paired, or a console on an old seat token, must not lock the host out.
   */
  failed(source: string, pin = true): void {
    const now = this.clock();
    let r = this.get(source);
    if (!r) {
      if (this.sources.size >= this.o.maxSources) this.sources.delete(this.sources.keys().next().value!);
      r = { failures: 0, until: 0, last: now };
      this.sources.set(source, r);
    }
    r.failures++;
    r.last = now;
    waitAfter(r, this.o, now);
    if (!pin) return;
    const t = this.whole();
    t.failures++;
    t.last = now;
    waitAfter(t, this.hub, now);
  }

  /** sources now waiting (for the log and tests) */
  blocked(): number {
    const now = this.clock();
    let n = 0;
    for (const r of this.sources.values()) if (r.until > now) n++;
    return n;
  }
}

/** Why a PIN was not checked, in words for the one who gave it. */
export function waitText(w: { ms: number; scope: WaitScope }): string {
  const s = Math.ceil(w.ms / 1000);
  return w.scope === "hub"
    ? `too many wrong PINs at this hub: try again in ${s} s (a device that logged in before needs no PIN)`
    : `too many wrong secrets from this address: try again in ${s} s`;
}

/** A source on the hub's own machine (its USB guns' bridge, the host at the laptop, a simulator beside it). */
export function isOwnMachine(source: string): boolean {
  // ::1 as sourceOf has it: its /64
  return source === "127.0.0.1" || source === "::1" || source === "0:0:0:0::/64";
}

/**
 * An address as one source: `::ffff:10.0.0.5` and `10.0.0.5` are the same device, and an IPv6 address counts by
 * its /64 (one device, or one home network, has them all).
 */
export function sourceOf(address: string | undefined, fallback: string): string {
  if (!address) return fallback;
  const a = address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
  if (!a.includes(":")) return a;
  const groups = expandIpv6(a.split("%")[0]!);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : a;
}

/** The eight groups of an IPv6 address (no leading zeros), or null if it is not one. */
function expandIpv6(a: string): string[] | null {
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const part = (h: string) => (h === "" ? [] : h.split(":"));
  let head = part(halves[0]!);
  let tail = halves.length === 2 ? part(halves[1]!) : [];
  // an embedded IPv4 tail (::ffff:1.2.3.4 aside) is two groups
  const last = (halves.length === 2 ? tail : head).at(-1);
  if (last?.includes(".")) {
    const o = last.split(".").map(Number);
    if (o.length !== 4 || o.some((x) => !(x >= 0 && x <= 255))) return null;
    const v4 = [((o[0]! << 8) | o[1]!).toString(16), ((o[2]! << 8) | o[3]!).toString(16)];
    if (halves.length === 2) tail = [...tail.slice(0, -1), ...v4];
    else head = [...head.slice(0, -1), ...v4];
  }
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...tail];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return all.map((g) => Number.parseInt(g, 16).toString(16));
}
