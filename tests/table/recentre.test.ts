// The round-start re-centre pose: drifted guns point at the Godfather and pull; their offset is re-learned. Every
// gun each round ("pose"), a gun in doubt alone ("snapshots"), or never ("none").
import { describe, expect, it } from "vitest";
import { aimOptions, type OffsetTrack, startTrack } from "../../hub/src/aim/index.js";
import { seatColour } from "../../hub/src/feedback/index.js";
import { newGame } from "../../hub/src/rules/index.js";
import type { SecretSource } from "../../hub/src/table/index.js";
import { PowerRig } from "./power-rig.js";

describe("recentre: pose", () => {
  it("cues `turn` in the Godfather's colour, re-centres the guns that pull, then runs the hold-up", () => {
    const g = newGame({ edition: "classic", players: ["A", "B", "C", "D"], seed: 5 });
    if (!g.ok) throw new Error(g.error.message);
    const secrets: SecretSource[] = [0, 1, 2, 3].map(() => ({ kind: "console" }));
    const rig = new PowerRig(g.state, secrets, { recentre: "pose" });
    const gf = g.state.godfather;
    const opts = aimOptions();
    // every gun's offset was calibrated as 0 but has drifted 30° since: snapshots alone would not read the seat meant
    for (let slot = 0; slot < 4; slot++) {
      rig.bias[slot] = 30;
      rig.table.calibrate(slot, startTrack(0, rig.clock.now() - rig.gunDelta(slot), opts, 2));
    }
    rig.table.begin();
    for (let s = 0; s < 4; s++) rig.table.secret(s, "click");
    expect(rig.table.startRound().ok).toBe(true);
    const act = rig.table.status.activity;
    expect(act?.kind).toBe("recentre");
    const others = [0, 1, 2, 3].filter((s) => s !== gf);
    for (const s of others)
      expect(rig.cues).toContainEqual(
        expect.objectContaining({ to: s, name: "turn", opts: { colour: seatColour(gf) } }),
      );
    for (const s of others) rig.aim(s, s, gf);
    const silent = others[0]!;
    const pulled = new Set<number>();
    const from = rig.clock.now();
    rig.run(
      () => rig.table.status.activity?.kind === "count",
      () => {
        if (rig.clock.now() < from + 400) return; // the pose is held for a moment first
        for (const s of others) {
          if (s === silent || pulled.has(s)) continue;
          pulled.add(s);
          rig.pull(s);
        }
      },
    );
    expect(rig.records).toContainEqual({ kind: "recentred", round: 1 });
    // re-centred guns now aim true; the silent gun kept its (drifted) offset
    for (const s of others) rig.aim(s, s, (s + 1) % 4);
    rig.aim(gf, gf, (gf + 1) % 4);
    rig.run(() => rig.table.state.step !== "aim" && rig.table.state.step !== "bullet");
    for (const s of others.filter((x) => x !== silent))
      expect(rig.decisions).toContainEqual({ type: "aim", seat: s, target: (s + 1) % 4 });
    expect(rig.decisions).not.toContainEqual({ type: "aim", seat: silent, target: (silent + 1) % 4 });
  });
});

describe("recentre: snapshots", () => {
  it("asks only the gun in doubt to point at the Godfather; the others go straight to the count", () => {
    const g = newGame({ edition: "classic", players: ["A", "B", "C", "D"], seed: 5 });
    if (!g.ok) throw new Error(g.error.message);
    const secrets: SecretSource[] = [0, 1, 2, 3].map(() => ({ kind: "console" }));
    const rig = new PowerRig(g.state, secrets);
    const gf = g.state.godfather;
    const opts = aimOptions();
    const doubtful = (gf + 1) % 4;
    for (let slot = 0; slot < 4; slot++) {
      const track = startTrack(0, rig.clock.now() - rig.gunDelta(slot), opts, 3);
      // its history fits a reading 20° away nearly as well: the gun may have drifted a seat's share
      const doubt: OffsetTrack = { ...track, runnerUp: { offsetDeg: 20, rateDegPerS: 0.08, costMore: 2 } };
      if (slot === doubtful) rig.bias[slot] = 20;
      rig.table.calibrate(slot, slot === doubtful ? doubt : track);
    }
    rig.table.begin();
    for (let s = 0; s < 4; s++) rig.table.secret(s, "click");
    expect(rig.table.startRound().ok).toBe(true);
    expect(rig.table.status.activity).toMatchObject({ kind: "recentre", godfather: gf, seats: [doubtful] });
    expect(rig.cues.filter((c) => c.name === "turn").map((c) => c.to)).toEqual([doubtful]);
    rig.aim(doubtful, doubtful, gf);
    const from = rig.clock.now();
    rig.run(
      () => rig.table.status.activity?.kind === "count",
      () => {
        if (rig.clock.now() >= from + 400 && rig.table.status.activity?.kind === "recentre") rig.pull(doubtful);
      },
    );
    expect(rig.records).toContainEqual({ kind: "recentred", round: 1 });
    // re-centred: the gun that was 20° off aims true, like the others
    for (let s = 0; s < 4; s++) rig.aim(s, s, (s + 1) % 4);
    rig.run(() => rig.table.state.step !== "aim" && rig.table.state.step !== "bullet");
    for (let s = 0; s < 4; s++) expect(rig.decisions).toContainEqual({ type: "aim", seat: s, target: (s + 1) % 4 });
  });

  it("with no gun in doubt, the round goes straight to the count, no pose", () => {
    const g = newGame({ edition: "classic", players: ["A", "B", "C", "D"], seed: 5 });
    if (!g.ok) throw new Error(g.error.message);
    const rig = new PowerRig(
      g.state,
      [0, 1, 2, 3].map(() => ({ kind: "console" })),
    );
    for (let slot = 0; slot < 4; slot++)
      rig.table.calibrate(slot, startTrack(0, rig.clock.now() - rig.gunDelta(slot), aimOptions(), 3));
    rig.table.begin();
    for (let s = 0; s < 4; s++) rig.table.secret(s, "click");
    expect(rig.table.startRound().ok).toBe(true);
    expect(rig.table.status.activity?.kind).toBe("count");
    expect(rig.cues.filter((c) => c.name === "turn")).toEqual([]);
    expect(rig.records.filter((r) => r.kind === "recentred")).toEqual([]);
  });
});

describe("recentre: none", () => {
  it("never asks for the pose, not even of a gun in doubt: the round goes straight to the count", () => {
    const g = newGame({ edition: "classic", players: ["A", "B", "C", "D"], seed: 5 });
    if (!g.ok) throw new Error(g.error.message);
    const rig = new PowerRig(
      g.state,
      [0, 1, 2, 3].map(() => ({ kind: "console" })),
      { recentre: "none" },
    );
    const opts = aimOptions();
    for (let slot = 0; slot < 4; slot++) {
      const track = startTrack(0, rig.clock.now() - rig.gunDelta(slot), opts, 3);
      rig.table.calibrate(slot, { ...track, runnerUp: { offsetDeg: 20, rateDegPerS: 0.08, costMore: 2 } });
    }
    rig.table.begin();
    for (let s = 0; s < 4; s++) rig.table.secret(s, "click");
    expect(rig.table.startRound().ok).toBe(true);
    expect(rig.table.status.activity?.kind).toBe("count");
    expect(rig.cues.filter((c) => c.name === "turn")).toEqual([]);
  });
});
