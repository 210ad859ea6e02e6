// The floods `cng bench flood` sends (its module is loaded only when it runs; `cng bench --help` lists these).
export const FLOODS = [
  "none",
  "ids",
  "ws-partial",
  "connections",
  "subscriptions",
  "requests",
  "pin",
  "pairing",
  "voice",
] as const;
export type FloodKind = (typeof FLOODS)[number];
