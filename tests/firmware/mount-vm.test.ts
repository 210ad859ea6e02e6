// Any IMU mounting in the vm runtime (manual clock, deterministic): the 60 s seat-hopping run of fusion.test.ts with
// the chip upside down, on its side, standing on an edge: the gun named its mounting in gun.json and holds its
// heading as well as one mounted as designed (same seed, same bias on the chip's axes). And `cng flash --mount`.
import { afterEach, expect, it } from "vitest";
import { planFlash } from "../../hub/src/flash/flash.js";
import { seatHoppingMinute } from "./seat-hopping.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** worst heading, pitch and roll error over 60 s of a gun whose chip sits `mount` (named in gun.json) */
async function run(board: string, mount: string, i: number) {
  const r = await seatHoppingMinute(board, `v${i}`, cleanup, mount);
  expect(r.errors).toEqual([]);
  return r;
}

for (const board of ["esp32-mpu6050", "esp32-bno085"]) {
  it(`${board}: upside down, sideways, on an edge: the heading, pitch and roll hold like a normal gun's over 60 s`, async () => {
    const mounts = ["+x+z", "+x-z", "+x+y", "-z-y", "-y+x"];
    const r: Awaited<ReturnType<typeof run>>[] = [];
    for (const [i, m] of mounts.entries()) r.push(await run(board, m, i));
    console.log(
      `${board} (vm): worst yaw / still pitch / still roll by mounting: ` +
        mounts
          .map((m, i) => `${m} ${r[i]!.yaw.toFixed(2)}/${r[i]!.pitch.toFixed(2)}/${r[i]!.roll.toFixed(2)}`)
          .join(", "),
    );
    for (const [i, x] of r.entries()) {
      expect(x.n, mounts[i]).toBeGreaterThan(1300);
      expect(x.yaw, mounts[i]).toBeLessThanOrEqual(2);
      expect(x.pitch, mounts[i]).toBeLessThanOrEqual(2);
      expect(x.roll, mounts[i]).toBeLessThanOrEqual(2);
      // as well as the normal one: within half a degree of its worst heading error
      expect(x.yaw, mounts[i]).toBeLessThanOrEqual(r[0]!.yaw + 0.5);
    }
  }, 120_000);
}

it("cng flash --mount: checked, and refused on a board whose firmware cannot turn its IMU", () => {
  const config = { id: "g1", secret: "s", hub: { host: "10.0.0.2" } };
  expect(JSON.parse(planFlash("esp32-mpu6050", { ...config, mount: "+x-z" }).configText).mount).toBe("+x-z");
  expect(() => planFlash("esp32-mpu6050", { ...config, mount: "+x+x" })).toThrow(/--mount is the chip axis/);
  expect(() => planFlash("esp8266-mpu6050", { ...config, mount: "+x-z" })).toThrow(/cannot turn its IMU/);
  expect(planFlash("esp8266-mpu6050", { ...config, mount: "+x+z" }).configText).toMatch(/"mount":"\+x\+z"/);
});
