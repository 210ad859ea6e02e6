/** Protocol version carried in every message as `v`. Bump on any incompatible change. */
export const PROTOCOL_VERSION = 1;
/** First path segments of every topic: `cng/v1/<table>/...`. */
export const TOPIC_ROOT = "cng";

/**
 * Whether firmware version `a` is older than `b`: dot-separated numbers compared in turn ("0.9.1" < "0.10.0"), a part
 * that is no number (or missing) counting 0, what follows a part's digits ("1-rc") ignored. ES5: the gun checks
 * updates with it.
 */
export function fwOlder(a: string, b: string): boolean {
  var x = a.split(".");
  var y = b.split(".");
  var i: number;
  var d: number;
  for (i = 0; i < 3; i++) {
    d = (parseInt(x[i]!, 10) || 0) - (parseInt(y[i]!, 10) || 0);
    if (d) return d < 0;
  }
  return false;
}
