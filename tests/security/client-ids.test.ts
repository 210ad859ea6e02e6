// Attack: a client id that is a topic pattern. The ACL puts the client id into `cmd/%c/res`; an id "#" or "+" read as
// a wildcard let an anonymous client read every command request and response (the host PIN in `auth`, seat tokens,
// private views). Such ids are refused at CONNECT, and a substituted id is compared literally in any case.
import { cmdTopic } from "@cng/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maySubscribe } from "../../hub/src/broker/acl.js";
import { connect, connectRefused, granted, request, sleep, testHub } from "../fakes/hub.js";

describe("client ids that are topic patterns", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  beforeAll(async () => {
    hub = await testHub();
  });
  afterAll(() => hub.stop());

  it("are refused at CONNECT, over TCP and WebSocket, whoever logs in", async () => {
    for (const url of [hub.urls.mqtt, hub.urls.ws!]) {
      for (const clientId of ["#", "+", "a/b", "cmd/#", "x+", "\u0001ctl"]) {
        const e = await connectRefused(url, { clientId, reconnectPeriod: 0 });
        expect(e.message, `${url} ${JSON.stringify(clientId)}`).toMatch(/identifier rejected|Identifier rejected/i);
        const h = await connectRefused(url, { clientId, username: "host", password: hub.pin });
        expect(h.message).toMatch(/identifier rejected/i);
      }
    }
  });

  it("never let a reader see another client's requests, even with a wildcard id past the door", async () => {
    const root = `cng/v1/${hub.table}/`;
    // the rights alone: a substituted client id is a literal, never a pattern
    for (const id of ["#", "+"]) {
      expect(maySubscribe({ role: "viewer" }, id, hub.table, `${root}cmd/#`).ok).toBe(false);
      expect(maySubscribe({ role: "viewer" }, id, hub.table, `${root}cmd/+/res`).ok).toBe(false);
      // its "own" topic is a wildcard filter: refused too
      expect(maySubscribe({ role: "viewer" }, id, hub.table, `${root}cmd/${id}/res`).ok).toBe(false);
    }
    expect(maySubscribe({ role: "viewer" }, "v1", hub.table, `${root}cmd/v1/res`).ok).toBe(true);
    expect(maySubscribe({ role: "viewer" }, "v1", hub.table, `${root}cmd/v2/res`).ok).toBe(false);

    // and on the wire: a snooper with a plain id is refused cmd/#, and sees nothing of the host's requests
    const snoop = await connect(hub.urls.mqtt, { clientId: "snoop1" });
    const seen: string[] = [];
    snoop.on("message", (t, p) => seen.push(`${t} ${p}`));
    expect(await granted(snoop, `${root}cmd/#`)).toBe(128);
    expect(await granted(snoop, `${root}cmd/+/req`)).toBe(128);
    const host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    expect(await request(host, hub.table, "guns.list", undefined, hub.pin)).toMatchObject({ ok: true });
    await sleep(200);
    expect(
      seen.filter((s) => s.includes(hub.pin) || s.startsWith(cmdTopic(hub.table, host.options.clientId!, "res"))),
    ).toEqual([]);
    host.end(true);
    snoop.end(true);
  });
});
