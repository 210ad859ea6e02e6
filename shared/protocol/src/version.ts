/** Protocol version carried in every message as `v`. Bump on any incompatible change. */
export const PROTOCOL_VERSION = 1;
/** First path segments of every topic: `cng/v1/<table>/...`. */
export const TOPIC_ROOT = "cng";
