// The table's setup as the host sends it: the re-centre choice is one of the table's three, anything else is refused
// with the choices named.
import { describe, expect, it } from "vitest";
import { parseTableSetup, tableConfig } from "../../hub/src/play/setup.js";

describe("table setup: recentre", () => {
  it("takes pose, snapshots (the default) and none", () => {
    for (const recentre of ["pose", "snapshots", "none"] as const) {
      const r = parseTableSetup({ recentre });
      if (!r.ok) throw new Error(r.error.message);
      expect(tableConfig(r.value, 8, 1).recentre).toBe(recentre);
    }
    const d = parseTableSetup({});
    if (!d.ok) throw new Error(d.error.message);
    expect(tableConfig(d.value, 8, 1).recentre).toBe("snapshots");
  });

  it("refuses anything else, naming the choices", () => {
    for (const recentre of ["sometimes", 1, true, "POSE"]) {
      const r = parseTableSetup({ recentre });
      expect(r).toEqual({
        ok: false,
        error: { code: "bad-args", message: 'table.recentre is "pose", "snapshots", "none"' },
      });
    }
  });
});
