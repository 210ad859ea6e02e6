// WiFi weather: what the air between a station (a gun, a phone) and the laptop does to a TCP stream, by name. The
// relay (relay.ts) applies it; the figures are one-way, per TCP segment.
//
// - delay and jitter: the air's floor and its queueing (exponential: most segments quick, a tail of slow ones);
// - stalls: a lost frame that the MAC gave up on is resent by TCP after its retransmission timeout, and everything
//   behind it on the connection waits (head-of-line blocking): a probability per segment and how long it holds;
// - modem sleep: a station in power save wakes only at the access point's DTIM beacons (every DTIM × 102.4 ms), and
//   frames to it wait in the access point until then. Which stations sleep is the station's business (a gun's board
//   says whether its firmware keeps the radio awake): the profile gives the access point's DTIM;
// - drop-outs: now and then a station loses its link for a few seconds; past the station's beacon-loss timeout it
//   disassociates, its own sockets die and it connects again, while the laptop's end sees only silence.

/** One direction of a station's link. */
export interface LinkWeather {
  /** fixed one-way delay, ms */
  baseMs: number;
  /** mean of the exponential extra delay per segment, ms */
  jitterMs: number;
  /** probability that a segment is lost and resent (it and what follows it wait `stallMs`) */
  stallP: number;
  /** how long a lost segment holds the stream, ms */
  stallMs: number;
}

export interface DropoutWeather {
  /** mean time between a station's drop-outs, ms (exponential) */
  meanEveryMs: number;
  /** a drop-out lasts uniformly between these, ms */
  minMs: number;
  maxMs: number;
  /** a link lost this long makes the station disassociate: its sockets close, it connects again */
  disassociateMs: number;
}

export interface WeatherProfile {
  name: WeatherName;
  /** one line for `--help` and the bench's rows */
  summary: string;
  /** station → laptop */
  up: LinkWeather;
  /** laptop → station */
  down: LinkWeather;
  /** the access point's DTIM period in beacons (102.4 ms each): a sleeping station's frames wait for its wake */
  dtim: number | null;
  dropouts: DropoutWeather | null;
}

/** A beacon interval, 100 TU of 1.024 ms: what nearly every access point and phone hotspot uses. */
export const BEACON_MS = 102.4;

export const WEATHER_NAMES = ["clean", "home", "party", "sleep1", "sleep3", "dropout"] as const;
export type WeatherName = (typeof WEATHER_NAMES)[number];

const STILL: LinkWeather = Object.freeze({ baseMs: 0, jitterMs: 0, stallP: 0, stallMs: 0 });
/** a quiet home access point, few stations */
const HOME: LinkWeather = Object.freeze({ baseMs: 2, jitterMs: 3, stallP: 0.002, stallMs: 200 });
/** a busy 2.4 GHz channel: phones streaming, neighbours' networks, people in the way */
const PARTY: LinkWeather = Object.freeze({ baseMs: 3, jitterMs: 8, stallP: 0.01, stallMs: 250 });
/** the air of the sleep profiles: a party's delays without its losses, so the sleep is what shows */
const AIR: LinkWeather = Object.freeze({ baseMs: 3, jitterMs: 8, stallP: 0, stallMs: 0 });

export const WEATHERS: Readonly<Record<WeatherName, WeatherProfile>> = Object.freeze({
  clean: { name: "clean", summary: "loopback: no delay", up: STILL, down: STILL, dtim: null, dropouts: null },
  home: {
    name: "home",
    summary: "a quiet home access point: 2 ms + jitter (mean 3 ms), 0.2 % of segments held 200 ms",
    up: HOME,
    down: HOME,
    dtim: 1,
    dropouts: null,
  },
  party: {
    name: "party",
    summary: "a busy channel: 3 ms + jitter (mean 8 ms), 1 % of segments held 250 ms",
    up: PARTY,
    down: PARTY,
    dtim: 1,
    dropouts: null,
  },
  sleep1: {
    name: "sleep1",
    summary: "3 ms + jitter (mean 8 ms); DTIM 1: a sleeping station's frames wait up to 102 ms",
    up: AIR,
    down: AIR,
    dtim: 1,
    dropouts: null,
  },
  sleep3: {
    name: "sleep3",
    summary: "3 ms + jitter (mean 8 ms); DTIM 3 (many access points, phone hotspots): waits up to 307 ms",
    up: AIR,
    down: AIR,
    dtim: 3,
    dropouts: null,
  },
  dropout: {
    name: "dropout",
    summary: "party, and every station loses its link for 2-8 s about once a minute (past 6 s it reconnects)",
    up: PARTY,
    down: PARTY,
    dtim: 1,
    dropouts: { meanEveryMs: 60_000, minMs: 2000, maxMs: 8000, disassociateMs: 6000 },
  },
});

export function isWeatherName(s: string): s is WeatherName {
  return (WEATHER_NAMES as readonly string[]).includes(s);
}

/** The profile of that name, or an error that lists the names. */
export function weatherNamed(name: string): WeatherProfile {
  if (!isWeatherName(name)) throw new Error(`unknown weather "${name}"; known: ${WEATHER_NAMES.join(", ")}`);
  return WEATHERS[name];
}
