// The LED's second channel: a player holds the trigger while aiming and the gun blinks its target's seat number
// (1 for the first seat) in that seat's colour — a colour-blind player counts instead of naming a colour.
import type { GameNewArgs } from "@cng/protocol";
import { afterEach, expect, it } from "vitest";
import { seatColour } from "../../hub/src/feedback/index.js";
import type { TestGun } from "../fakes/gun.js";
import { request, waitFor } from "../fakes/hub.js";
import { closeTable, pairedTable, type TestHub } from "../fakes/paired-table.js";
import type { TableState } from "../fakes/players.js";

let t: { players: null; guns: TestGun[]; host: any; hub: TestHub | undefined } = {
  players: null,
  guns: [],
  host: undefined,
  hub: undefined,
};
afterEach(() => closeTable(t));

it("holding the trigger while aiming blinks the target's seat number in its colour; aiming at nobody says so", async () => {
  const { hub, host, guns } = await pairedTable(4);
  t = { players: null, guns, host, hub };
  const setup: GameNewArgs = {
    edition: "classic",
    players: ["Ann", "Bob", "Cid", "Dee"],
    seed: 3,
    table: { secrets: "console" },
  };
  expect((await request(host, hub.table, "game.new", setup, hub.pin)).ok).toBe(true);
  const gun = guns[1]!;
  gun.pose = { kind: "aim", target: 2 };
  await waitFor(
    async () => {
      const st = (await request(host, hub.table, "table.status")).r as TableState & {
        table: { live: (number | null)[] };
      };
      return st.table.live[1] === 2;
    },
    5000,
    "the live target",
  );
  const before = gun.cues.length;
  gun.pull("h");
  const blink = await waitFor(() => gun.cues.slice(before).find((c) => c.c === "ident"), 5000, "the blink");
  expect(blink.rp).toBe(3);
  expect(blink.l![0]).toBe(seatColour(2));
  // pointing at nobody (the gun held low): an amber "re-aim" instead
  gun.pose = { kind: "away" };
  await waitFor(
    async () => {
      const st = (await request(host, hub.table, "table.status")).r as TableState & {
        table: { live: (number | null)[] };
      };
      return st.table.live[1] === null;
    },
    5000,
    "no live target",
  );
  const mid = gun.cues.length;
  gun.pull("h");
  await waitFor(() => gun.cues.slice(mid).find((c) => c.c === "ambig"), 5000, "the amber blink");
});
