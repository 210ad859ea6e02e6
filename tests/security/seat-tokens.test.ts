// Attack: keeping a console open on someone else's seat. A seat token never rotated: a phone logged in on seat 2 kept
// receiving seat 2's private view through a new game with new players, and after the host renewed the token — the
// hand of whoever sat there next. Now a token belongs to the player it was made for: a new game with someone else at
// that seat voids it and closes its consoles, as renewing does; the same player at the same seat keeps theirs.
import type { GameSetup } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closed, connect, connectRefused, nextView, request, sleep, testHub } from "../fakes/hub.js";

const players = (third: string): GameSetup => ({ edition: "classic", players: ["Ann", "Bob", third, "Dee"], seed: 3 });

describe("seat tokens", () => {
  let hub: Awaited<ReturnType<typeof testHub>>;
  let host: MqttClient;
  const open: MqttClient[] = [];
  beforeAll(async () => {
    hub = await testHub();
    host = await connect(hub.urls.mqtt, { username: "host", password: hub.pin });
    open.push(host);
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await hub.stop();
  });

  const tokenOf = async (seat: number, renew = false) =>
    ((await request(host, hub.table, "seat.token", { seat, ...(renew ? { renew } : {}) }, hub.pin)).r as any)
      .token as string;
  const consoleOn = async (seat: number, token: string) => {
    const c = await connect(hub.urls.mqtt, { username: `seat-${seat}`, password: token });
    open.push(c);
    return c;
  };
  const newGame = async (setup: GameSetup) =>
    expect((await request(host, hub.table, "game.new", setup, hub.pin)).ok).toBe(true);

  it("a token made before the game goes to the player who sits there, and stays theirs in the next game", async () => {
    const early = await tokenOf(2);
    const phone = await consoleOn(2, early);
    await newGame(players("Cid"));
    expect((await nextView(phone, hub.table, 2, early)).seat).toBe(2);
    // the same players again: Cid's phone goes on
    await newGame(players("Cid"));
    await sleep(200);
    expect(phone.connected).toBe(true);
    expect(await tokenOf(2)).toBe(early);
  });

  it("a new game with someone else at the seat closes the console and voids its token", async () => {
    const cids = await tokenOf(2);
    const phone = await consoleOn(2, cids);
    const shut = closed(phone);
    await newGame(players("Eve"));
    await shut;
    expect((await connectRefused(hub.urls.mqtt, { username: "seat-2", password: cids })).message).toMatch(
      /bad username or password/i,
    );
    // Eve's token is a new one, and reads Eve's view
    const eves = await tokenOf(2);
    expect(eves).not.toBe(cids);
    const evePhone = await consoleOn(2, eves);
    expect((await nextView(evePhone, hub.table, 2, eves)).seat).toBe(2);
    // another seat's console, whose player stayed, is left alone
    expect(evePhone.connected).toBe(true);
  });

  it("renewing a token closes the consoles on the old one at once", async () => {
    const old = await tokenOf(1);
    const phone = await consoleOn(1, old);
    const shut = closed(phone);
    const fresh = await tokenOf(1, true);
    expect(fresh).not.toBe(old);
    await shut;
    await connectRefused(hub.urls.mqtt, { username: "seat-1", password: old });
    expect((await consoleOn(1, fresh)).connected).toBe(true);
  });
});
