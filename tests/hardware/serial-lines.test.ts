// The serial gun line protocol: what the hub accepts from a gun, and what it refuses.

import { linkProofText } from "@cng/protocol";
import { describe, expect, it } from "vitest";
import { LineSplitter, lineForGun, MAX_LINE, parseGunLine } from "../../hub/src/serial/index.js";

describe("serial gun lines", () => {
  it("takes a hello with the gun's id and secret", () => {
    expect(parseGunLine('hello {"v":1,"id":"g1","k":"s3cret_key-1","fw":"0.3.0"}')).toEqual({
      kind: "hello",
      hello: { id: "g1", k: "s3cret_key-1", fw: "0.3.0" },
    });
    expect(parseGunLine('hello {"v":1,"id":"g1"}')).toEqual({ kind: "hello", hello: { id: "g1" } });
  });

  it("takes a paired gun's hello: a nonce of 16 hex digits, no key; never both", () => {
    expect(parseGunLine('hello {"v":1,"id":"g1","n":"0123456789abcdef","fw":"0.3.0"}')).toEqual({
      kind: "hello",
      hello: { id: "g1", n: "0123456789abcdef", fw: "0.3.0" },
    });
    for (const bad of [
      'hello {"v":1,"id":"g1","n":"0123456789abcdef","k":"s3cret"}',
      'hello {"v":1,"id":"g1","n":"0123"}',
      'hello {"v":1,"id":"g1","n":"0123456789ABCDEF"}',
      'hello {"v":1,"id":"g1","n":1234567890123456}',
    ])
      expect(parseGunLine(bad), bad).toMatchObject({ kind: "bad", code: "field" });
    // what proves a link over it, as gun and hub make it (HMAC keyed by the key's hash)
    expect(linkProofText("0123456789abcdef")).toBe("link 0123456789abcdef");
    expect(lineForGun("auth", '{"v":1,"m":"ab"}')).toBe('auth {"v":1,"m":"ab"}\n');
  });

  it("refuses a hello with a bad id, a bad secret or a stray field", () => {
    for (const bad of [
      'hello {"v":1,"id":"G 1"}',
      'hello {"v":1}',
      'hello {"v":1,"id":"g1","k":"has space"}',
      'hello {"v":1,"id":"g1","x":1}',
      'hello {"id":"g1"}',
    ]) {
      expect(parseGunLine(bad).kind, bad).toBe("bad");
    }
  });

  it("passes a gun message that the protocol's strict decoder accepts, as is", () => {
    const aim = '{"v":1,"t":1234,"y":12.5,"p":-3.1,"r":0.4,"s":1}';
    const p = parseGunLine(`aim ${aim}`);
    expect(p).toMatchObject({ kind: "msg", leaf: "aim", payload: aim });
    expect(parseGunLine('trig {"v":1,"n":3,"k":"p","t":99}')).toMatchObject({ kind: "msg", leaf: "trig" });
  });

  it("says why it drops a bad line", () => {
    expect(parseGunLine('aim {"v":1,"t":1,"y":400,"p":0,"r":0}')).toMatchObject({
      kind: "bad",
      code: "range",
      why: expect.stringMatching(/aim: y must be between -180 and 180/),
    });
    expect(parseGunLine("aim {not json}")).toMatchObject({ kind: "bad", code: "json" });
    expect(parseGunLine('cue {"v":1,"n":1,"c":"beat"}')).toMatchObject({ kind: "bad", code: "leaf" });
    expect(parseGunLine('will {"v":1,"on":0}')).toMatchObject({ kind: "bad", code: "leaf" });
    expect(parseGunLine("ESP-ROM:esp32-20180921")).toMatchObject({ kind: "bad", code: "shape" });
    expect(parseGunLine(`aim {"v":1,"m":"${"x".repeat(MAX_LINE)}"}`)).toMatchObject({ kind: "bad", code: "size" });
  });

  it("splits lines across chunks, takes CRLF, and throws away a runaway line", () => {
    const lines: string[] = [];
    let overflows = 0;
    const s = new LineSplitter(
      (l) => lines.push(l),
      () => overflows++,
    );
    s.push("aim {");
    s.push('"a":1}\r\ntrig {}\n\n');
    s.push("x".repeat(MAX_LINE + 1));
    s.push("yyy\nsync {}\n");
    expect(lines).toEqual(['aim {"a":1}', "trig {}", "sync {}"]);
    expect(overflows).toBe(1);
  });
});
