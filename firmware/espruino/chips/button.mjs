// A button on a pin as Espruino reads it, for both board models (ES5: the real interpreter's board is given this
// source): digitalRead, and setWatch with its debounce, where a change of level is reported once it has held for the
// watch's debounce. Pins are whatever the runtime compares with == (Espruino's Pin values, the vm's names).

/**
 * A button on `pin` that reads `pressed` (0 or 1) while held down; `later(fn, ms)` and `cancel(id)` are the board's
 * timer, `now()` its getTime() (s).
 */
export function Button(pin, pressed, later, cancel, now) {
  this.pin = pin;
  this.pressed = pressed;
  this.later = later;
  this.cancel = cancel;
  this.now = now;
  this.level = pressed ? 0 : 1;
  this.watches = [];
  this.lastEdge = 0;
}

/** setWatch(fn, p, {debounce}): its id. */
Button.prototype.watch = function (fn, p, opts) {
  this.watches.push({ fn: fn, pin: p, debounce: (opts && opts.debounce) || 0, timer: undefined });
  return this.watches.length;
};

/** clearWatch(id), or every watch without one. */
Button.prototype.clear = function (id) {
  if (id) this.watches[id - 1] = undefined;
  else this.watches = [];
};

/** digitalRead(p) */
Button.prototype.read = function (p) {
  return p == this.pin ? this.level : 0;
};

Button.prototype.isDown = function () {
  return this.level === this.pressed;
};

/** The finger presses it (true) or lets go (false). */
Button.prototype.set = function (down) {
  var v = down ? this.pressed : 1 - this.pressed;
  var i;
  if (v === this.level) return;
  this.level = v;
  for (i = 0; i < this.watches.length; i++) {
    if (this.watches[i] && this.watches[i].pin == this.pin) this.arm(this.watches[i], v, this.now());
  }
};

/** Watch `w` fires for level `v` seen at `edge` (s) once the level has held for its debounce. */
Button.prototype.arm = function (w, v, edge) {
  var self = this;
  if (w.timer !== undefined) this.cancel(w.timer);
  w.timer = this.later(function () {
    var e;
    w.timer = undefined;
    if (self.level !== v) return;
    e = { state: v === 1, time: edge, lastTime: self.lastEdge };
    self.lastEdge = edge;
    w.fn(e);
  }, w.debounce);
};
