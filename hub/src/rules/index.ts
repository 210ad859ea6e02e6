// The rules engine: pure, deterministic, no I/O. See docs/rules.md for the rules, docs/scenarios.md for scenario files.
export { decide, RANDOM_STYLE, randomDecision } from "./bot.js";
export { apply } from "./engine.js";
export { HOLDUP_STEPS, holdupBefore } from "./holdup.js";
export { optionalReveals, owedDecisions, pending } from "./pending.js";
export { DEADLY_WOUNDS } from "./players.js";
export { aimsLast, canTakeGun, chosenReveal, POWER_RULES, type PowerRules, picksLast } from "./powers.js";
export { type ReplayResult, replay } from "./replay.js";
export { Rng } from "./rng.js";
export { PLAYER_COUNT, ROUNDS } from "./round.js";
export { money, paintingValue, scores, winners } from "./score.js";
export { classicDeck, newGame, type SetupResult, secondDeck, setup } from "./setup.js";
export { canCut, equalSplit } from "./split.js";
export { HOST_DECISIONS, isSensed, SENSED_DECISIONS } from "./steps/index.js";
export type { BotStyle } from "./steps/rule.js";
export * from "./types.js";
export { type PlayerView, type PublicPlayer, type PublicView, playerView, publicView } from "./views.js";
