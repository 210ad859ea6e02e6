/** Espruino's setWatch event */
export interface WatchEvent {
  state: boolean;
  time: number;
  lastTime: number;
}
export class Button<P, T> {
  constructor(
    pin: P,
    pressed: 0 | 1,
    later: (fn: () => void, ms: number) => T,
    cancel: (timer: T) => void,
    now: () => number,
  );
  watch(fn: (e: WatchEvent) => void, p: P, opts?: { debounce?: number }): number;
  clear(id?: number): void;
  read(p: P): number;
  isDown(): boolean;
  set(down: boolean): void;
}
