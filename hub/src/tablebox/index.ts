// The optional table box: `startTableBox`, and `mirrorGunCues` to feed it the guns' cues.

export {
  FIRMATA_BAUD,
  playableHz,
  startTableBox,
  TABLE_BOX_MAX_HZ,
  TABLE_BOX_PINS,
  type TableBox,
  type TableBoxOptions,
  type TableBoxPins,
} from "./box.js";
export { TABLE_BOX_CUES, type TableCue, toTableCue, type WireCue } from "./cue.js";
export { type FollowOptions, followFeedback, mirrorGunCues } from "./mirror.js";
