// One seed for every property test, so CI runs the same cases each time; change it (or set FC_SEED) to explore.
import fc from "fast-check";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261130) });
