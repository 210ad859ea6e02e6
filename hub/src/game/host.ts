// The current game on the bus: after every change, `table/state` (retained: the game's public view, plus
// what the table adds: its status, the seats, calibration), each seat's private view (retained on
// player/<n>/view) and the new public events (table/events).
import {
  type Decision,
  type GameSetup,
  type PlayerViewMsg,
  playerTopic,
  type Result,
  type TableEventsMsg,
  type TableStateMsg,
  tableTopic,
} from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { GameEvent } from "../rules/index.js";
import { seal } from "../seal/index.js";
import type { Decided, Game, GameSession } from "./session.js";

/**
 * What the table adds to `table/state`: its status, the seats, calibration, layout, pairing and language, in the
 * contract's types (shared/protocol/src/table.ts), so what the play service gives here is checked against it.
 */
export type StateExtra = Omit<TableStateMsg, "v" | "id" | "decisions" | "game">;

export class GameHost {
  /** set by the play service; a game without a table adds nothing */
  extra: () => StateExtra = () => ({
    table: null,
    seats: [],
    calibration: [],
    layout: null,
    pairing: null,
    lang: null,
  });

  constructor(
    readonly session: GameSession,
    private readonly bus: Bus,
    private readonly table: string,
    private readonly log: Logger,
    /**
     * The key a seat's private view is sealed under for the player sitting there (from the seat's token); null when
     * no console may read it yet: then none is published, and an older one is taken back.
     */
    private readonly viewKey: (seat: number, player: string) => Uint8Array | null = () => null,
  ) {}

  get engine() {
    return this.session.engine;
  }

  /** The `table/state` payload now. */
  state(): TableStateMsg {
    const g = this.session.game;
    return {
      v: 1,
      id: g?.id ?? null,
      decisions: g?.decisions ?? 0,
      game: g ? this.engine.publicView(g.state) : null,
      ...this.extra(),
    };
  }

  async publishState(): Promise<void> {
    try {
      await this.bus.publish(tableTopic(this.table, "state"), this.state(), { retain: true });
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "could not publish the table state");
    }
  }

  /**
   * Views and events of a decision, and `table/state` unless `withState` is false: a running table publishes
   * that itself once it has taken the decision in, so `game` and `table` in one message always agree.
   */
  async publish(game: Game, events: readonly GameEvent[] = [], withState = true): Promise<void> {
    const e = this.session.engine;
    try {
      const pub = events.filter((ev) => e.eventAudience(ev) === null);
      const views = this.viewsOf(game);
      if (pub.length) {
        views.push(
          this.bus.publish(
            tableTopic(this.table, "events"),
            { v: 1, game: game.id, events: pub } satisfies TableEventsMsg,
            { qos: 1 },
          ),
        );
      }
      if (withState) views.push(this.publishState());
      await Promise.all(views);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "could not publish the game");
    }
  }

  /** Each seat's private view, again: a console was given a new token (its key seals them). */
  async publishViews(): Promise<void> {
    const g = this.session.game;
    if (!g) return;
    try {
      await Promise.all(this.viewsOf(g));
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "could not publish the private views");
    }
  }

  /**
   * Each seat's view, sealed under its console's key: on the air (a phone on the WiFi) it reads as noise to anyone
   * but that console, the player's hand and chosen card included.
   */
  private viewsOf(game: Game): Promise<void>[] {
    const e = this.session.engine;
    const out: Promise<void>[] = [];
    for (let s = 0; s < e.seats(game.state); s++) {
      const topic = playerTopic(this.table, s, "view");
      const key = this.viewKey(s, game.state.names[s] ?? "");
      if (key === null) {
        out.push(this.bus.clearRetained(topic));
        continue;
      }
      const msg = { v: 1, game: game.id, seat: s, view: e.playerView(game.state, s) } satisfies PlayerViewMsg;
      out.push(this.bus.publish(topic, seal(key, JSON.stringify(msg)), { retain: true }));
    }
    return out;
  }

  async start(setup: GameSetup): Promise<Result<Game>> {
    const r = this.session.start(setup);
    if (r.ok) this.log.info({ game: r.value.id }, "new game");
    return r;
  }

  async decide(decision: Decision, by: string): Promise<Result<Decided>> {
    const r = this.session.decide(decision, by);
    if (r.ok) await this.publish(r.value.game, r.value.events);
    return r;
  }
}
