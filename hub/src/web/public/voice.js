// The table's voice, on the laptop that shows the table: the Godfather's "1, 2, 3!" on the beat — each word
// scheduled with Web Audio at the hub time the guns beep — then "Bang!", who is hit, who dies, whose pick it is,
// the round's result and the winner, one after the other. The hub renders the words (espeak-ng, /api/voice) in the
// table's language; without espeak-ng on the hub the browser's own speech synthesis says them (best effort on the
// beat). Muted and volume are this browser's (localStorage). A phone starts muted: the players' phones around the
// table would each say the count a little apart from the laptop and from each other (docs/playing.md).
// `window.cngVoice.log` keeps what was scheduled when.

import { lang, onLangChange } from "./i18n.js";
import { PHONE } from "./ui.js";

const MUTE_KEY = "cng-voice-muted";
const VOLUME_KEY = "cng-voice-volume";
/** a word due longer ago than this is not said at all (late is worse than silent) */
const TOO_LATE_MS = 60;
/** the gap between two announcements */
const GAP_MS = 150;
const COUNT_WORDS = ["one", "two", "three", "courage"];

const stored = (k, dflt) => {
  try {
    return localStorage.getItem(k) ?? dflt;
  } catch {
    return dflt;
  }
};

export class Voice {
  /** @param {import("./mqtt-link.js").Link} link */
  constructor(link) {
    this.link = link;
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {GainNode | null} */
    this.gain = null;
    /** lang|game|phrase → Promise<AudioBuffer | null> */
    this.buffers = new Map();
    this.countKey = "";
    this.turnKey = "";
    this.seenBatches = 0;
    this.pickers = new Set();
    this.lastStep = null;
    /** hub ms when the last announcement ends */
    this.tail = 0;
    /** what was scheduled: {phrase, lang, due (hub ms wanted, or null), at (hub ms it starts)} */
    this.log = [];
    const phone = matchMedia(`${PHONE}, (pointer: coarse)`).matches;
    this.muted = stored(MUTE_KEY, phone ? "1" : "0") === "1";
    this.volume = Number(stored(VOLUME_KEY, "0.8"));
    this.onChange = (e) => this.changed(e.detail);
    window.cngVoice = this;
  }

  /** "espeak-ng" (the hub's words), "browser" (the browser's own voice) or "off" */
  get engine() {
    return this.link.facts?.voice?.engine ?? "browser";
  }

  start() {
    this.link.addEventListener("change", this.onChange);
    this.offLang = onLangChange(() => this.preload());
    // a browser starts audio only after the page was touched: the first click or key wakes it
    const wake = () => this.audio()?.resume();
    addEventListener("pointerdown", wake);
    addEventListener("keydown", wake);
    this.preload();
    return () => {
      this.link.removeEventListener("change", this.onChange);
      this.offLang?.();
      removeEventListener("pointerdown", wake);
      removeEventListener("keydown", wake);
    };
  }

  setMuted(m) {
    this.muted = m;
    localStorage.setItem(MUTE_KEY, m ? "1" : "0");
    if (!m) this.preload();
  }

  setVolume(v) {
    this.volume = Math.max(0, Math.min(1, v));
    localStorage.setItem(VOLUME_KEY, String(this.volume));
    if (this.gain) this.gain.gain.value = this.volume;
  }

  audio() {
    if (this.engine !== "espeak-ng" || !globalThis.AudioContext) return null;
    if (!this.ctx) {
      this.ctx = new AudioContext({ latencyHint: "interactive" });
      this.gain = this.ctx.createGain();
      this.gain.gain.value = this.volume;
      this.gain.connect(this.ctx.destination);
    }
    return this.ctx;
  }

  /** The count's words in the current language, fetched and decoded before any count needs them. */
  preload() {
    // a muted browser fetches nothing (and makes no audio context) until it is unmuted
    if (this.muted) return;
    for (const w of COUNT_WORDS) void this.buffer(w);
  }

  buffer(phrase) {
    const ctx = this.audio();
    if (!ctx) return Promise.resolve(null);
    const l = lang();
    // names differ from game to game: a named phrase is the game's
    const key = `${l}|${/\./.test(phrase) ? this.link.state?.id : ""}|${phrase}`;
    let p = this.buffers.get(key);
    if (!p) {
      p = fetch(`/api/voice/${l}/${phrase}`)
        .then((r) => (r.ok ? r.arrayBuffer() : null))
        .then((b) => (b ? ctx.decodeAudioData(b) : null))
        .catch(() => null);
      this.buffers.set(key, p);
    }
    return p;
  }

  changed(what) {
    if (this.engine === "off") return;
    if (what === "state" || what === "all") this.fromState();
    if (what === "events" || what === "all") this.fromEvents();
  }

  /** Counts and the draft's turn come from table/state. */
  fromState() {
    const st = this.link.state;
    const a = st?.table?.activity;
    if (a?.kind === "count" && a.goAt) {
      const key = `${st?.id}:${a.purpose}:${a.goAt}`;
      if (key !== this.countKey) {
        this.countKey = key;
        const pace = a.paceMs;
        const last = a.purpose === "courage" ? "courage" : "three";
        this.sayAt("one", a.goAt - 2 * pace);
        this.sayAt("two", a.goAt - pace);
        this.sayAt(last, a.goAt);
      }
    }
    const g = st?.game;
    if (g?.step === "draft" && g.turn !== null && g.turn !== undefined) {
      const key = `${st?.id}:${g.round}:${g.turn}`;
      if (key !== this.turnKey) {
        this.turnKey = key;
        this.say(`turn.${g.turn}`);
      }
    }
    // second edition: when the draft is over, who shared the loot
    if (this.lastStep === "draft" && g?.step !== "draft" && this.pickers.size > 0) {
      this.say(`share.${[...this.pickers].join(".")}`);
      this.pickers.clear();
    }
    this.lastStep = g?.step ?? null;
  }

  /** The round's happenings come on table/events, in batches. */
  fromEvents() {
    const fresh = Math.min(this.link.eventBatches - this.seenBatches, this.link.events.length);
    this.seenBatches = this.link.eventBatches;
    if (fresh <= 0) return;
    for (const batch of this.link.events.slice(-fresh)) {
      const ev = batch.events;
      if (ev.some((e) => e.type === "shot" && e.target !== null && e.card !== "click")) this.say("bang");
      const wounded = [...new Set(ev.filter((e) => e.type === "wound").map((e) => e.seat))];
      if (wounded.length) this.say(`wound.${wounded.join(".")}`);
      const dead = ev.filter((e) => e.type === "death").map((e) => e.seat);
      if (dead.length) this.say(`dead.${dead.join(".")}`);
      for (const e of ev) {
        if (e.type === "split") this.say(e.sharers.length ? `split.${e.each}.${e.sharers.join(".")}` : "nosplit");
        if (e.type === "pick") this.pickers.add(e.seat);
        if (e.type === "game-over" && e.winners.length) this.say(`win.${e.winners.join(".")}`);
      }
    }
  }

  /** Says a phrase as soon as the one before has ended. */
  say(phrase) {
    this.sayAt(phrase, null);
  }

  /** Says `phrase` at hub time `due` (null: next in line); a word too late is dropped. */
  async sayAt(phrase, due) {
    const l = lang();
    const hub = () => this.link.hubNow();
    if (this.muted) return;
    if (this.engine === "browser") return this.speakWithBrowser(phrase, due, l);
    const ctx = this.audio();
    const buf = await this.buffer(phrase);
    if (!ctx || !buf || !this.gain) return;
    const now = hub();
    let at = due ?? Math.max(now, this.tail + GAP_MS);
    if (due !== null && now - due > TOO_LATE_MS) return;
    at = Math.max(at, now);
    // the output's own delay: a word meant for the beat leaves the speakers on it
    const latency = ((ctx.outputLatency || ctx.baseLatency || 0) * 1000) | 0;
    const src = ctx.createBufferSource();
    src.buffer = buf;
    src.connect(this.gain);
    const when = ctx.currentTime + Math.max(0, at - latency - now) / 1000;
    src.start(when);
    if (due === null) this.tail = at + buf.duration * 1000;
    // when the audio pipeline says it will leave the speakers, on the hub's clock (where the browser reports it)
    const ts = ctx.getOutputTimestamp?.();
    const out =
      ts?.performanceTime && ts.contextTime !== undefined
        ? now - performance.now() + ts.performanceTime + (when - ts.contextTime) * 1000 + latency
        : null;
    this.log.push({ phrase, lang: l, due, at, out });
  }

  async speakWithBrowser(phrase, due, l) {
    const synth = globalThis.speechSynthesis;
    if (!synth) return;
    let text;
    try {
      const r = await fetch(`/api/voice/${l}/${phrase}?as=text`);
      if (!r.ok) return;
      text = (await r.json()).text;
    } catch {
      return;
    }
    const u = new SpeechSynthesisUtterance(text);
    u.lang = l;
    u.volume = this.volume;
    const wait = due === null ? 0 : due - this.link.hubNow();
    if (wait < -TOO_LATE_MS) return;
    setTimeout(() => synth.speak(u), Math.max(0, wait));
    this.log.push({ phrase, lang: l, due, at: this.link.hubNow() + Math.max(0, wait) });
  }
}
