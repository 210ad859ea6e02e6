// The trigger: a button on a pin, watched with debounce. Every press is reported at once ("p"),
// then "2" when it follows the previous press within DBL ms, "h" once held for HOLD ms, and
// "r" on release with the held time.
import type { TriggerKind } from "@cng/protocol";
import { ms, now } from "./clock";

var DBL = 400;
var HOLD = 700;

/** `ev(kind, gun ms of the edge, held ms or −1)` */
export function trigger(ev: (k: TriggerKind, t: number, d: number) => void): void {
  var T = BOARD.trig;
  var down = -1;
  var last = -1e9;
  var ht = 0;
  if (!T.pressed) pinMode(T.pin, "input_pullup");
  setWatch(
    function (e: WatchEvent) {
      var t = ms(e.time);
      if (e.state === !!T.pressed) {
        if (down >= 0) return;
        down = t;
        ev("p", t, -1);
        if (t - last < DBL) ev("2", t, -1);
        last = t;
        ht = setTimeout(function () {
          ht = 0;
          if (down >= 0) ev("h", now(), now() - down);
        }, HOLD);
      } else {
        if (down < 0) return;
        if (ht) clearTimeout(ht);
        ht = 0;
        ev("r", t, t - down);
        down = -1;
      }
    },
    T.pin,
    { repeat: true, edge: "both", debounce: 20 },
  );
}
