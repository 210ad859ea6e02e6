// What op handlers may reach.
import type { GunService } from "../guns/service.js";
import type { PlayService } from "../play/play.js";
import type { SecretStore } from "../store/secrets.js";
import type { GameHost } from "./game-host.js";

export interface OpContext {
  table: string;
  guns: GunService;
  secrets: SecretStore;
  game: GameHost;
  play: PlayService;
}
