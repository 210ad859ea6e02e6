// The bench load helpers: hand-written PUBLISH packets parse as MQTT, percentiles are nearest-rank.
import mqttPacket from "mqtt-packet";
import { describe, expect, it } from "vitest";
import { publishLength, publishPacket, writePublish } from "../../hub/src/bench/load/packet.js";
import { percentile, Samples, spread } from "../../hub/src/bench/load/stats.js";

function parseAll(buf: Buffer, protocolVersion = 4): mqttPacket.Packet[] {
  const parser = mqttPacket.parser({ protocolVersion });
  const out: mqttPacket.Packet[] = [];
  parser.on("packet", (p) => out.push(p));
  parser.on("error", (e) => {
    throw e;
  });
  parser.parse(buf);
  return out;
}

describe("QoS 0 PUBLISH encoder", () => {
  it("encodes what mqtt-packet decodes, short and long (2-byte remaining length)", () => {
    const topic = "cng/v1/bench/gun/g001/aim";
    for (const payload of ['{"v":1,"t":12345,"y":-12.5,"p":3.1,"r":0}', "x".repeat(300), ""]) {
      const b = publishPacket(topic, payload);
      expect(b.length).toBe(publishLength(topic, payload));
      expect(b).toEqual(mqttPacket.generate({ cmd: "publish", topic, payload, qos: 0, dup: false, retain: false }));
      const [p] = parseAll(b) as mqttPacket.IPublishPacket[];
      expect(p).toMatchObject({ cmd: "publish", topic, qos: 0, retain: false });
      expect(p!.payload.toString()).toBe(payload);
    }
  });

  it("packs several packets into one buffer back to back; v5 carries an empty property length", () => {
    const buf = Buffer.alloc(1000);
    let o = 0;
    for (let i = 0; i < 5; i++) o = writePublish(buf, o, `t/${i}`, `{"i":${i}}`);
    const ps = parseAll(buf.subarray(0, o)) as mqttPacket.IPublishPacket[];
    expect(ps.map((p) => [p.topic, p.payload.toString()])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`t/${i}`, `{"i":${i}}`]),
    );
    const [v5] = parseAll(publishPacket("a/b", "hi", true), 5) as mqttPacket.IPublishPacket[];
    expect(v5).toMatchObject({ topic: "a/b" });
    expect(v5!.payload.toString()).toBe("hi");
  });
});

describe("percentiles", () => {
  it("are nearest-rank over the values given", () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(spread(v)).toEqual({ n: 100, p50: 50, p99: 99, max: 100 });
    expect(percentile([7], 99)).toBe(7);
    expect(spread([]).p99).toBeNaN();
  });

  it("Samples grows past its capacity and clears", () => {
    const s = new Samples(2);
    for (let i = 1; i <= 1000; i++) s.push(i);
    expect(s.spread()).toEqual({ n: 1000, p50: 500, p99: 990, max: 1000 });
    s.clear();
    s.push(3);
    expect(s.spread()).toEqual({ n: 1, p50: 3, p99: 3, max: 3 });
  });
});
