// Strict decoders for what the hub publishes about a game (table.ts): any payload becomes a value or a typed error
// (the codes of errors.ts), never a throw. These messages nest, so the checks are small functions that compose,
// each told where in the message it stands: an error names the path, e.g. `game.players[2].alive`.
import {
  among,
  type Check,
  type Fields,
  fieldsFit,
  flag,
  gunId,
  isObj,
  listOf,
  no,
  numberIn,
  opt,
  orNull,
  own,
  path,
  SEAT,
  SEAT_OR_NULL,
  SEATS,
  shape,
  text,
  variant,
  whenGodfather,
  whenHas,
  whenNumber,
  word,
} from "./checks.js";
import { type Decoded, fail } from "./errors.js";
import { PRESENCE_REASONS } from "./messages.js";
import {
  COUNT_PURPOSES,
  type GameEventType,
  type HubGunStatusMsg,
  OTA_STAGES,
  type PlayerViewMsg,
  REVEAL_WINDOWS,
  TABLE_MAX_BYTES,
  type TableAimMsg,
  type TableEventsMsg,
  type TableStateMsg,
} from "./table.js";
import { MAX_SEATS } from "./topics.js";
import { decodeInfo, type Payload } from "./validate.js";
import { PROTOCOL_VERSION } from "./version.js";
import { BILLS, BULLETS, DECISION_TYPES, EDITIONS, LOOT_CARDS, POWERS, ROLES, STEPS, TABLE_LANGS } from "./vocab.js";

const COUNT = numberIn(0, 1e6, true);
const MONEY = numberIn(-1e12, 1e12, true);
const GAME_NO = numberIn(0, 1e15, true);
const HUB_TIME = numberIn(0, 1e14, false);
const STEP = word(STEPS);
const BULLET = word(BULLETS);
const POWER = orNull(word(POWERS));
const ROLE = orNull(word(ROLES));
const BILL = among(BILLS);
const LOOT_CARD = word(LOOT_CARDS);
const VERSION: Check = () => null; // checked before the fields
const HAND = shape({ bbb: COUNT, bang: COUNT, click: COUNT });

const PLAYER = shape({
  seat: SEAT,
  name: text(4096),
  alive: flag,
  wounds: COUNT,
  deadly: numberIn(1, 9, true),
  shame: COUNT,
  money: MONEY,
  loot: opt(shape({ cash: COUNT, diamonds: COUNT, paintings: COUNT })),
  cards: COUNT,
  gun2Cards: opt(COUNT),
  power: POWER,
  role: ROLE,
  aim: opt(SEAT_OR_NULL),
  aim2: opt(SEAT_OR_NULL),
  lyingDown: opt(flag),
  hurt: COUNT,
  waiting: flag,
  score: opt(MONEY),
});
const PUBLIC_FIELDS: Fields = {
  edition: word(EDITIONS),
  round: COUNT,
  step: STEP,
  over: flag,
  winners: SEATS,
  godfather: SEAT,
  table: whenHas(
    "bills",
    shape({ bills: listOf(BILL, 256) }),
    shape({ cards: listOf(LOOT_CARD, 256), token: SEAT_OR_NULL }),
  ),
  deckLeft: COUNT,
  discardPile: COUNT,
  switchboard: opt(COUNT),
  sharers: SEATS,
  turn: SEAT_OR_NULL,
  players: listOf(PLAYER, MAX_SEATS),
};
const PUBLIC_VIEW = shape(PUBLIC_FIELDS);
const ME = shape({
  seat: SEAT,
  hand: HAND,
  gun2: orNull(HAND),
  card: orNull(BULLET),
  card2: orNull(BULLET),
  power: POWER,
  role: ROLE,
});
const PLAYER_VIEW: Fields = { me: ME };
for (const k in PUBLIC_FIELDS) if (own(PUBLIC_FIELDS, k)) PLAYER_VIEW[k] = PUBLIC_FIELDS[k];

const GUN_NO = numberIn(1, 2, true);
const EVENTS: { [k in GameEventType]: Fields } = {
  "round-start": { round: COUNT, godfather: SEAT, loot: listOf(whenNumber(BILL, LOOT_CARD), 256) },
  step: { step: STEP },
  "power-revealed": { seat: SEAT, power: word(POWERS) },
  "lie-down": { seat: SEAT },
  "lower-gun": { seat: SEAT, gun: GUN_NO, target: SEAT },
  shot: { seat: SEAT, gun: GUN_NO, card: BULLET, target: SEAT_OR_NULL },
  wound: { seat: SEAT, by: SEAT_OR_NULL, wounds: COUNT },
  "wound-blocked": { seat: SEAT, by: SEAT_OR_NULL },
  grenade: { seat: SEAT },
  death: { seat: SEAT },
  split: { sharers: SEATS, each: MONEY, took: listOf(BILL, 256) },
  phone: { flips: COUNT, alerted: flag },
  specialist: { seat: SEAT },
  "gun-taken": { seat: SEAT, from: SEAT },
  pick: { seat: SEAT, card: whenGodfather(LOOT_CARD), effect: opt(text(32)) },
  godfather: { seat: SEAT },
  "game-over": { winners: SEATS, scores: listOf(MONEY, MAX_SEATS) },
};

const ACTIVITY = variant("kind", {
  count: {
    purpose: word(COUNT_PURPOSES),
    seats: SEATS,
    goAt: orNull(HUB_TIME),
    paceMs: numberIn(0, 1e7, false),
    drawMs: numberIn(0, 1e7, false),
    waitingGun: SEATS,
    lagging: SEATS,
  },
  privilege: { godfather: SEAT, until: HUB_TIME },
  reveal: {
    window: word(REVEAL_WINDOWS),
    seats: SEATS,
    opensAt: HUB_TIME,
    closesAt: HUB_TIME,
    waitingGun: SEATS,
    lagging: SEATS,
  },
  phone: { seat: SEAT },
  recentre: { godfather: SEAT, seats: SEATS, until: HUB_TIME },
});
const WAITING = variant("for", {
  secret: { seat: SEAT },
  start: { seat: SEAT_OR_NULL },
  host: { seat: SEAT, decision: word(DECISION_TYPES) },
  gun: { seat: SEAT },
});
const TABLE_STATUS = shape({
  round: COUNT,
  step: STEP,
  over: flag,
  activity: orNull(ACTIVITY),
  waiting: listOf(WAITING, 4 * MAX_SEATS),
  live: listOf(SEAT_OR_NULL, MAX_SEATS),
  online: listOf(flag, MAX_SEATS),
  guns2: listOf(shape({ seat: SEAT, from: SEAT }), MAX_SEATS),
  paused: flag,
});
const SEAT_INFO = shape({
  seat: SEAT,
  name: orNull(text(4096)),
  gun: orNull(gunId),
  colour: numberIn(0, 0xffffff, true),
  online: flag,
  gun2Of: SEAT_OR_NULL,
});
const CALIBRATION = shape({
  seat: SEAT,
  gun: gunId,
  targets: SEATS,
  next: SEAT_OR_NULL,
  poses: COUNT,
  result: orNull(
    shape({
      verdict: word(["ok", "redo"]),
      offset: numberIn(-360, 360, false),
      spread: numberIn(0, 360, false),
      reasons: listOf(text(200), 16),
    }),
  ),
});
const METRES = numberIn(-1e6, 1e6, false);
const LAYOUT = whenHas(
  "round",
  shape({ round: numberIn(2, MAX_SEATS, true) }),
  shape({ points: listOf(shape({ x: METRES, y: METRES }), MAX_SEATS) }),
);

const TABLE_STATE: Fields = {
  v: VERSION,
  id: orNull(GAME_NO),
  decisions: COUNT,
  game: orNull(PUBLIC_VIEW),
  table: orNull(TABLE_STATUS),
  seats: listOf(SEAT_INFO, MAX_SEATS),
  calibration: listOf(CALIBRATION, MAX_SEATS),
  layout: orNull(LAYOUT),
  pairing: orNull(shape({ seat: SEAT, until: HUB_TIME })),
  lang: orNull(word(TABLE_LANGS)),
};
const PLAYER_VIEW_MSG: Fields = { v: VERSION, game: GAME_NO, seat: SEAT, view: shape(PLAYER_VIEW) };
const TABLE_EVENTS: Fields = { v: VERSION, game: GAME_NO, events: listOf(variant("type", EVENTS), 1000) };
const TABLE_AIM: Fields = {
  v: VERSION,
  at: HUB_TIME,
  aims: listOf(shape({ seat: SEAT, target: SEAT_OR_NULL, yaw: orNull(numberIn(-180, 180, false)) }), MAX_SEATS),
};

/** the gun's last info, held to the gun's own decoder (validate.ts) */
const GUN_INFO: Check = (x, at) => {
  if (!isObj(x)) return no("type", at, "must be an object");
  const d = decodeInfo(JSON.stringify(x));
  if (d.ok) return null;
  const e = d.error;
  return e.field ? no(e.code, path(at, e.field), e.message.replace(e.field + " ", "")) : no(e.code, at, e.message);
};
const BYTES = numberIn(0, 1e8, true);
const GUN_STATUS: Fields = {
  v: VERSION,
  on: flag,
  at: HUB_TIME,
  why: word(PRESENCE_REASONS),
  info: opt(GUN_INFO),
  warn: opt(listOf(text(500), 16)),
  paired: flag,
  seat: SEAT_OR_NULL,
  ota: opt(
    shape({
      stage: word(OTA_STAGES),
      fw: text(24),
      from: orNull(text(24)),
      o: BYTES,
      n: BYTES,
      why: opt(text(500)),
      at: HUB_TIME,
    }),
  ),
};

/** Size, JSON, version, then the fields. */
function decodeTable<T>(kind: keyof typeof TABLE_MAX_BYTES, p: Payload, fields: Fields): Decoded<T> {
  const what = kind === "view" ? "player view" : kind === "status" ? "gun status" : "table/" + kind;
  const n = p === null || p === undefined ? 0 : p.length;
  if (typeof n !== "number" || n === 0) return fail("json", what + " payload is empty");
  if (n > TABLE_MAX_BYTES[kind]) {
    return fail("size", what + " payload is " + n + " bytes, at most " + TABLE_MAX_BYTES[kind] + " allowed");
  }
  let o: unknown;
  try {
    o = JSON.parse(typeof p === "string" ? p : p.toString("utf8"));
  } catch (_e) {
    return fail("json", what + " payload is not JSON");
  }
  if (!isObj(o)) return fail("json", what + " payload must be a JSON object");
  if (o.v !== PROTOCOL_VERSION) {
    const why =
      o.v === undefined ? "missing protocol version v" : "unknown protocol version " + String(o.v).substr(0, 16);
    return fail("version", why, "v");
  }
  const bad = fieldsFit(o, fields, "");
  return bad ? { ok: false, error: bad } : { ok: true, value: o as T };
}

/** `table/state` */
export function decodeTableState(p: Payload): Decoded<TableStateMsg> {
  return decodeTable<TableStateMsg>("state", p, TABLE_STATE);
}
/** `player/<seat>/view` */
export function decodePlayerView(p: Payload): Decoded<PlayerViewMsg> {
  return decodeTable<PlayerViewMsg>("view", p, PLAYER_VIEW_MSG);
}
/** `table/events` */
export function decodeTableEvents(p: Payload): Decoded<TableEventsMsg> {
  return decodeTable<TableEventsMsg>("events", p, TABLE_EVENTS);
}
/** `table/aim` */
export function decodeTableAim(p: Payload): Decoded<TableAimMsg> {
  return decodeTable<TableAimMsg>("aim", p, TABLE_AIM);
}
/** `gun/<id>/status`, as the hub writes it (retained) */
export function decodeGunStatus(p: Payload): Decoded<HubGunStatusMsg> {
  return decodeTable<HubGunStatusMsg>("status", p, GUN_STATUS);
}
