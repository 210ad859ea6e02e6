// The current game on the bus: after every change, the public view (retained on table/state),
// each seat's private view (retained on player/<n>/view) and the new events (table/events).
import { playerTopic, tableTopic } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import type { Logger } from "../log.js";
import type { DecideResult, Game, GameSession } from "../store/game-session.js";

export class GameHost<S = unknown> {
  constructor(
    readonly session: GameSession<S>,
    private readonly bus: Bus,
    private readonly table: string,
    private readonly log: Logger,
  ) {}

  get engine() {
    return this.session.engine;
  }

  async publish(game: Game<S>, events: readonly unknown[] = []): Promise<void> {
    const e = this.session.engine;
    try {
      await this.bus.publish(
        tableTopic(this.table, "state"),
        { v: 1, game: game.id, decisions: game.decisions, view: e.publicView(game.state) },
        { retain: true },
      );
      const seats = e.seats(game.state);
      for (let s = 0; s < seats; s++) {
        await this.bus.publish(
          playerTopic(this.table, s, "view"),
          { v: 1, game: game.id, seat: s, view: e.playerView(game.state, s) },
          { retain: true },
        );
      }
      const pub = events.filter((ev) => e.eventAudience(ev) === null);
      if (pub.length) {
        await this.bus.publish(tableTopic(this.table, "events"), { v: 1, game: game.id, events: pub }, { qos: 1 });
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "could not publish the game");
    }
  }

  async start(setup: unknown) {
    const r = this.session.start(setup);
    if (r.ok) {
      this.log.info({ game: r.game.id }, "new game");
      await this.publish(r.game);
    }
    return r;
  }

  async decide(decision: unknown, by: string): Promise<DecideResult<S>> {
    const r = this.session.decide(decision, by);
    if (r.ok) await this.publish(r.game, r.events);
    return r;
  }
}
