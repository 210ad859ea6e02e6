// The game and the table: the session (resumed from its log after a restart), the host that publishes it, and the
// play service that runs the real-time table on the guns.
import type { TimingPreset } from "@cng/protocol";
import type { Bus } from "../bus/bus.js";
import { type GameEngine, rulesEngine } from "../game/engine.js";
import { GameHost } from "../game/host.js";
import { type Game, GameSession } from "../game/session.js";
import { PlayService } from "../play/play.js";
import { viewKey } from "../seal/index.js";
import { CalibrationStore } from "../store/calibrations.js";
import { GameLog } from "../store/game-log.js";
import { TableLog } from "../store/table-log.js";
import type { Clock } from "../table/clock.js";
import type { GunParts } from "./guns.js";
import type { Stored } from "./store.js";
import type { Later, Wiring } from "./wiring.js";

export interface PlayInput {
  readonly bus: Bus;
  readonly store: Stored;
  readonly guns: GunParts;
  /** default: the rules engine in hub/src/rules */
  readonly engine: GameEngine | undefined;
  /** the table's timing when game.new's `table` names none (default: "default") */
  readonly timing: TimingPreset | undefined;
  readonly clock: Clock;
}

export interface Playing {
  readonly game: GameHost;
  readonly play: PlayService;
  /** the game the log held, replayed; null when there was none */
  readonly resumed: Game | null;
}

/** The game resumed and the table made, neither published nor started yet (see `startPlay`). */
export function setUpPlay({ config, log, now, closers }: Wiring, input: PlayInput, later: Later): Playing {
  const { bus, store } = input;
  const session = new GameSession(new GameLog(store.db), input.engine ?? (rulesEngine as GameEngine), now);
  const game = new GameHost(session, bus, config.table, log.child({ part: "game" }), (seat, player) => {
    const token = input.store.secrets.viewToken(seat, player);
    return token === null ? null : viewKey(token, config.table, seat);
  });
  later.game = game;
  const resumed = session.resume();
  if (resumed) log.info({ game: resumed.id, decisions: resumed.decisions }, "resumed the game from its log");
  const play = new PlayService({
    bus,
    streams: input.guns.streams,
    table: config.table,
    guns: input.guns.guns,
    game,
    tableLog: new TableLog(store.db),
    calibrations: new CalibrationStore(store.db),
    log: log.child({ part: "table" }),
    defaultTiming: input.timing ?? "default",
    settings: store.settings,
    clock: input.clock,
  });
  closers.add(() => play.close());
  return { game, play, resumed };
}

/** Publishes the resumed game, then starts the table (after what follows its cues has subscribed). */
export async function startPlay({ game, play, resumed }: Playing): Promise<void> {
  if (resumed) await game.publish(resumed);
  await play.start();
}
