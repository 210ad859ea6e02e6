// Every round step and every decision, one entry each (rule.ts says what an entry holds). A step new to the
// protocol's STEPS, or a decision new to DECISION_TYPES, fails `tsc` here until it has its entry.
import type { DecisionType } from "../types.js";
import { AIM, AIM_STEP, KID_AIM_STEP, REAIM_STEP } from "./aim.js";
import { BULLET, BULLET_STEP, CUNNING_BULLET_STEP } from "./bullet.js";
import { COURAGE, COURAGE_STEP } from "./courage.js";
import { DRAFT_STEP, PICK } from "./draft.js";
import { PHONE, PHONE_STEP } from "./phone.js";
import { PRIVILEGE, PRIVILEGE_STEP } from "./privilege.js";
import { REVEAL } from "./reveal.js";
import type { DecisionRule, RoundStep, ScenarioField, StepRule } from "./rule.js";
import { SPECIALIST, SPECIALIST_STEP } from "./specialist.js";
import { DOESNT_HURT, SPLIT_STEP } from "./split.js";
import { TAKE_GUN, TAKE_GUN_STEP } from "./take-gun.js";

export const STEP_RULES: { readonly [S in RoundStep]: StepRule } = {
  bullet: BULLET_STEP,
  aim: AIM_STEP,
  "kid-aim": KID_AIM_STEP,
  "cunning-bullet": CUNNING_BULLET_STEP,
  privilege: PRIVILEGE_STEP,
  reaim: REAIM_STEP,
  courage: COURAGE_STEP,
  split: SPLIT_STEP,
  phone: PHONE_STEP,
  specialist: SPECIALIST_STEP,
  "take-gun": TAKE_GUN_STEP,
  draft: DRAFT_STEP,
};

export const DECISION_RULES: { readonly [K in DecisionType]: DecisionRule<K> } = {
  reveal: REVEAL,
  bullet: BULLET,
  aim: AIM,
  privilege: PRIVILEGE,
  courage: COURAGE,
  "doesnt-hurt": DOESNT_HURT,
  phone: PHONE,
  specialist: SPECIALIST,
  "take-gun": TAKE_GUN,
  pick: PICK,
};

const DECISIONS = Object.keys(DECISION_RULES) as DecisionType[];

/** Decisions only the guns make at a physical table: bots, consoles and the host make the others. */
export const SENSED_DECISIONS: readonly DecisionType[] = DECISIONS.filter((k) => DECISION_RULES[k].made === "guns");

/** Decisions the host enters for a player (and may take back). */
export const HOST_DECISIONS: readonly DecisionType[] = DECISIONS.filter((k) => DECISION_RULES[k].made === "host");

export const isSensed = (d: DecisionType): boolean => SENSED_DECISIONS.includes(d);

/** Every field a scenario round may hold for the decisions read from it, in the order of DECISION_RULES. */
export const SCENARIO_FIELDS: readonly ScenarioField[] = DECISIONS.flatMap(
  (k) => DECISION_RULES[k].scenario?.fields ?? [],
);
