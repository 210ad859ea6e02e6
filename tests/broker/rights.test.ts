// The broker's pure parts: topic rights per role (acl.ts) and the packet size guard (size-guard.ts).
import { describe, expect, it } from "vitest";
import { covers, mayPublish, maySubscribe } from "../../hub/src/broker/acl.js";
import { PacketSizeScanner } from "../../hub/src/broker/size-guard.js";

describe("topic rights", () => {
  const gun = { role: "gun" as const, gun: "g1" };
  const viewer = { role: "viewer" as const };
  it("a filter is allowed only when a pattern covers all it matches", () => {
    expect(covers("gun/+/status", "gun/g1/status")).toBe(true);
    expect(covers("gun/+/status", "gun/+/status")).toBe(true);
    expect(covers("gun/+/status", "gun/+/#")).toBe(false);
    expect(covers("gun/+/status", "gun/g1/cmd")).toBe(false);
    expect(covers("#", "anything/at/all")).toBe(true);
  });
  it("guns publish only their own leaves, within size", () => {
    expect(mayPublish(gun, "g1", "t", "cng/v1/t/gun/g1/aim", 50, false).ok).toBe(true);
    expect(mayPublish(gun, "g1", "t", "cng/v1/t/gun/g1/aim", 97, false).ok).toBe(false);
    expect(mayPublish(gun, "g1", "t", "cng/v1/t/gun/g2/aim", 50, false).ok).toBe(false);
    expect(mayPublish(gun, "g1", "t", "cng/v1/t/gun/g1/cmd", 50, false).ok).toBe(false);
    expect(mayPublish(gun, "g1", "t", "cng/v1/other/gun/g1/aim", 50, false).ok).toBe(false);
    expect(mayPublish(gun, "g1", "t", "cng/v1/t/gun/g1/trig", 50, true).ok).toBe(false);
  });
  it("viewers read public topics of their own table only", () => {
    expect(maySubscribe(viewer, "c1", "t", "cng/v1/t/table/+").ok).toBe(true);
    expect(maySubscribe(viewer, "c1", "t", "cng/v1/t/cmd/c1/res").ok).toBe(true);
    expect(maySubscribe(viewer, "c1", "t", "cng/v1/t/cmd/c2/res").ok).toBe(false);
    expect(maySubscribe(viewer, "c1", "t", "cng/v1/u/table/+").ok).toBe(false);
  });
});

describe("packet size scanner", () => {
  const packet = (len: number) => {
    const head = [0x30];
    let x = len;
    do {
      let b = x % 128;
      x = Math.floor(x / 128);
      if (x > 0) b |= 0x80;
      head.push(b);
    } while (x > 0);
    return Buffer.concat([Buffer.from(head), Buffer.alloc(len)]);
  };
  it("lets packets up to the limit through, in any chunking, and stops a larger one at its header", () => {
    const s = new PacketSizeScanner(1000);
    const stream = Buffer.concat([packet(10), packet(1000), packet(0), packet(300)]);
    for (let i = 0; i < stream.length; i += 7) expect(s.feed(stream.subarray(i, i + 7))).toBe(true);
    expect(s.feed(packet(1001).subarray(0, 3))).toBe(false);
  });
});
