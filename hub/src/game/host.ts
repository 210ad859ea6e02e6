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
      const seats = e.seats(game.state);
      const pub = events.filter((ev) => e.eventAudience(ev) === null);
      const views = [];
      for (let s = 0; s < seats; s++) {
        views.push(
          this.bus.publish(
            playerTopic(this.table, s, "view"),
            { v: 1, game: game.id, seat: s, view: e.playerView(game.state, s) } satisfies PlayerViewMsg,
            { retain: true },
          ),
        );
      }
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
