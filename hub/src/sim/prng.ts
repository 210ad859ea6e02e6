// Seeded randomness for simulated people and sensors: a uniform draw in [0, 1) as a plain function, so
// models take any source (the rules' mulberry32 here), plus the few distributions they need.
import { Rng } from "../rules/rng.js";

/** A uniform draw in [0, 1). */
export type Random = () => number;

const TWO_32 = 4294967296;

/** A deterministic Random from a seed. */
export function seededRandom(seed: number): Random {
  const rng = new Rng(seed);
  return () => rng.next() / TWO_32;
}

/** Standard normal draw (Box–Muller; one of the pair is thrown away to keep this stateless). */
export function gaussian(random: Random): number {
  const u = 1 - random(); // (0, 1]: log stays finite
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Log-normal draw with the given median and log-spread σ. */
export function logNormal(random: Random, median: number, sigma: number): number {
  return median * Math.exp(sigma * gaussian(random));
}

/** Uniform in [a, b). */
export function uniform(random: Random, a: number, b: number): number {
  return a + (b - a) * random();
}
