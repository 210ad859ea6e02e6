// What the hub says of a gun from its info (hub/src/guns/warnings.ts).
import { describe, expect, it } from "vitest";
import { infoWarnings } from "../../hub/src/guns/warnings.js";

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
