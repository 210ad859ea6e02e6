import { describe, expect, it } from "vitest";
import { covers, mayPublish, maySubscribe } from "../../hub/src/broker/acl.js";
import { PacketSizeScanner } from "../../hub/src/broker/size-guard.js";
import { ConfigError, readEnv, resolveConfig } from "../../hub/src/config.js";
import { infoWarnings } from "../../hub/src/guns/warnings.js";

describe("configuration layers", () => {
  it("flags beat environment beat file beat defaults", () => {
    const file = { table: "fromfile", mqttPort: 1111, httpPort: 2222 };
    const env = readEnv({ CNG_MQTT_PORT: "3333", CNG_TABLE: "fromenv" });
    const c = resolveConfig(file, env, { table: "fromflag", data: undefined });
    expect(c).toMatchObject({ table: "fromflag", mqttPort: 3333, httpPort: 2222, bind: "0.0.0.0" });
  });
  it("refuses bad values with a message naming the setting", () => {
    expect(() => resolveConfig({ mqttPort: 70000 })).toThrow(ConfigError);
    expect(() => resolveConfig({ table: "Bad Table" })).toThrow(/table/);
    expect(() => resolveConfig({ broker: "localhost" })).toThrow(/broker/);
  });
});

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

describe("a gun's warnings", () => {
  const info = { v: 1 as const, fw: "0.1.0", b: "esp32-mpu6050", i: "mpu6050" as const, up: 60 };
  it("say how many timed cues came too late to play, and nothing while none did", () => {
    expect(infoWarnings({ ...info, lc: 3 }, 20)).toEqual([
      "3 late cues dropped since it started (a slow WiFi to this gun)",
    ]);
    expect(infoWarnings({ ...info, lc: 1 }, 20)[0]).toMatch(/^1 late cue dropped/);
    expect(infoWarnings(info, 20)).toEqual([]);
  });
});
