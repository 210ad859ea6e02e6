// IMU mounting: how the chip sits in the gun, one of the 24 axis-aligned orientations. Named by the chip axis that
// points along the barrel (forward), then the chip axis that points up, each with its sign: "+x+z" (the default:
// chip x forward, z up), "+x-z" (upside down), "+x+y" (on its side, y up), "-z+x" (standing on its edge, facing
// back). ES5-safe: bundled into the firmware, which remaps its readings with `mountAxes`.

/** chip x forward, z up: no remapping */
export var MOUNT_DEFAULT = "+x+z";

/**
 * The mounting as [i0, s0, i1, s1, i2, s2]: the gun's axis k (x forward, y left, z up) is s_k × the chip's axis
 * i_k (0 = x, 1 = y, 2 = z). `undefined` when `m` names none of the 24 (same axis twice, bad characters).
 */
export function mountAxes(m: unknown): number[] | undefined {
  if (typeof m !== "string" || m.length !== 4) return undefined;
  var i = "xyz".indexOf(m.charAt(1));
  var j = "xyz".indexOf(m.charAt(3));
  var a = "-+".indexOf(m.charAt(0));
  var b = "-+".indexOf(m.charAt(2));
  if (i < 0 || j < 0 || a < 0 || b < 0 || i === j) return undefined;
  a = a * 2 - 1;
  b = b * 2 - 1;
  // left = up × forward; e_j × e_i = −e_k when (i, j, k) is a cyclic order
  var e = (j - i + 3) % 3 === 1 ? -1 : 1;
  return [i, a, 3 - i - j, e * a * b, j, b];
}

/** The name of a mounting from the chip's forward and up axes (0..2) and signs (±1); `undefined` if they coincide. */
export function mountName(fi: number, fs: number, ui: number, us: number): string | undefined {
  if (fi === ui || fi < 0 || fi > 2 || ui < 0 || ui > 2) return undefined;
  return (fs < 0 ? "-" : "+") + "xyz".charAt(fi) + (us < 0 ? "-" : "+") + "xyz".charAt(ui);
}
