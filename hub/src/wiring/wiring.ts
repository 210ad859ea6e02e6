// What every step of `startHub` is given, and what it hands on: the settings, the logger, the hub's time, the stack
// of parts to close, and the late-bound parts the broker and the web server reach for.
import type { HubConfig } from "../config.js";
import type { GameHost } from "../game/host.js";
import type { BrokerMode, GunService } from "../guns/service.js";
import type { StreamStats } from "../guns/streams.js";
import type { Logger } from "../log.js";
import type { Venue } from "../venue/venue.js";

export interface Wiring {
  readonly config: HubConfig;
  readonly mode: BrokerMode;
  readonly log: Logger;
  /** the hub's time in ms */
  readonly now: () => number;
  /** each step adds what it started; the hub closes them all, in reverse */
  readonly closers: Closers;
}

/**
 * Parts that start after the broker and the web server, which reach for them: null until each is up (the broker's
 * presence events go to the guns service, /api/voice names the game's players, /venue shows the venue view,
 * /api/hub counts the streams).
 */
export interface Later {
  guns: GunService | null;
  game: GameHost | null;
  venue: Venue | null;
  streamStats: StreamStats | null;
}

/** What the hub has started, closed in reverse: each part closes before the parts it was started on. */
export class Closers {
  private readonly list: (() => Promise<void> | void)[] = [];

  constructor(private readonly log: Logger) {}

  add(close: () => Promise<void> | void): void {
    this.list.push(close);
  }

  /** Closes everything, a failure logged and passed over: the rest still closes. */
  async closeAll(): Promise<void> {
    for (const c of this.list.reverse()) {
      try {
        await c();
      } catch (e) {
        this.log.warn({ err: (e as Error).message }, "error while closing");
      }
    }
    this.list.length = 0;
  }
}

/** Where this machine's own clients reach a server bound to `bind`. */
export function localHost(bind: string): string {
  return bind === "0.0.0.0" || bind === "::" ? "127.0.0.1" : bind;
}
