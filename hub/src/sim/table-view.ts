// What a client sees of the table: the `table/state` and `player/<n>/view` payloads (commands README, "Table
// topics"), typed for the simulator's bots and the demo.
import type { PlayerView, PublicView, Seat } from "../rules/index.js";
import type { TableStatus } from "../table/ports.js";

export interface SeatInfo {
  seat: Seat;
  name: string;
  gun: string | null;
  colour: number;
  online: boolean;
}

export interface CalibrationInfo {
  seat: Seat;
  gun: string;
  targets: Seat[];
  next: Seat | null;
  poses: number;
  result: null | { verdict: "ok" | "redo"; offset: number; spread: number; reasons?: string[] };
}

export interface TableState {
  v: 1;
  id: number | null;
  decisions: number;
  game: PublicView | null;
  table: TableStatus | null;
  seats: SeatInfo[];
  calibration: CalibrationInfo[];
}

export interface SeatView {
  v: 1;
  game: number;
  seat: Seat;
  view: PlayerView;
}

/** A retained gun status (`gun/<id>/status`). */
export interface GunStatus {
  paired: boolean;
  on: boolean;
  seat?: Seat | null;
  why?: string;
}
