import {
  cmdTopic,
  GUN_HUB_LEAVES,
  GUN_IN_LEAVES,
  GUN_OUT_LEAVES,
  gunTopic,
  MAX_TOPIC_LEVELS,
  PLAYER_LEAVES,
  parseTopic,
  playerTopic,
  TABLE_LEAVES,
  tableTopic,
} from "@cng/protocol";
import { describe, expect, it } from "vitest";

describe("topic tree", () => {
  it("builds versioned, per-table topics", () => {
    expect(gunTopic("main", "g1", "aim")).toBe("cng/v1/main/gun/g1/aim");
    expect(tableTopic("club-7", "state")).toBe("cng/v1/club-7/table/state");
    expect(playerTopic("main", 3, "view")).toBe("cng/v1/main/player/3/view");
    expect(cmdTopic("main", "dash-1", "req")).toBe("cng/v1/main/cmd/dash-1/req");
  });

  it("parses every topic it builds back to what it addresses", () => {
    for (const leaf of [...GUN_OUT_LEAVES, ...GUN_IN_LEAVES, ...GUN_HUB_LEAVES]) {
      expect(parseTopic(gunTopic("t1", "gun_2", leaf))).toEqual({ table: "t1", kind: "gun", gun: "gun_2", leaf });
    }
    for (const leaf of TABLE_LEAVES)
      expect(parseTopic(tableTopic("t1", leaf))).toEqual({ table: "t1", kind: "table", leaf });
    for (const leaf of PLAYER_LEAVES) {
      expect(parseTopic(playerTopic("t1", 7, leaf))).toEqual({ table: "t1", kind: "player", seat: 7, leaf });
    }
    expect(parseTopic(cmdTopic("t1", "c9", "res"))).toEqual({ table: "t1", kind: "cmd", client: "c9", leaf: "res" });
  });

  it("stays within the broker's topic depth", () => {
    expect(gunTopic("t", "g", "aim").split("/").length).toBeLessThanOrEqual(MAX_TOPIC_LEVELS);
    expect(playerTopic("t", 1, "view").split("/").length).toBeLessThanOrEqual(MAX_TOPIC_LEVELS);
  });

  it.each([
    "cng/v2/main/gun/g1/aim",
    "cng/v1/Main/gun/g1/aim",
    "cng/v1/main/gun/g1/fly",
    "cng/v1/main/gun/g1/aim/extra",
    "cng/v1/main/gun/+/aim",
    "cng/v1/main/gun/#",
    "cng/v1/main/table/secret",
    "cng/v1/main/player/x/view",
    "cng/v1/main/cmd/c1/other",
    "other/v1/main/gun/g1/aim",
    "",
    "cng/v1/main/gun/../aim",
  ])("refuses %s", (topic) => {
    expect(parseTopic(topic)).toBeNull();
  });
});
