// The trigger on the vm's board: a button on a pin as Espruino reads it (firmware/espruino/chips/button.mjs, the model
// both boards run), on the vm's clock.
import { Button } from "../../../../firmware/espruino/chips/button.mjs";
import type { BoardProfile } from "../../boards/profile.js";
import type { VirtualClock } from "./clock.js";
import type { Gun } from "./gun.js";
import { pinName } from "./vm-context.js";

export interface VmTrigger {
  /** the harness's finger on it */
  button: Gun["button"];
  setWatch(fn: (e: unknown) => void, p: unknown, opts?: { debounce?: number }): number;
  clearWatch(id?: number): void;
  digitalRead(p: unknown): number;
}

export function vmTrigger(trig: BoardProfile["trig"], clock: VirtualClock): VmTrigger {
  const b = new Button(
    trig.pin,
    trig.pressed,
    (fn, ms) => clock.set(fn, ms, false),
    (id) => clock.clear(id),
    () => clock.now() / 1000,
  );
  return {
    button: { press: () => b.set(true), release: () => b.set(false), isDown: () => b.isDown() },
    setWatch: (fn, p, opts) => b.watch(fn, pinName(p), opts),
    clearWatch: (id) => b.clear(id),
    digitalRead: (p) => b.read(pinName(p)),
  };
}
