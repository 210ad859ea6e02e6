// The venue view inside a hub (`/venue` and `/api/venue` on its web port): the tables on its broker, read by the
// hub's own MQTT client. With the embedded broker that is its own table; with an external one every table on it
// (a login that may not read the other tables — a password-file broker's hub user — shows its own table only).
import { tableRoot } from "@cng/protocol";
import type { Logger } from "../log.js";
import { leaderboardFile } from "./store.js";
import { VENUE_FILTERS, Venue } from "./venue.js";

export { VENUE_PAGE } from "./page.js";

/** What the hub's client gives (Bus fits): a subscription that rejects when the broker refuses it. */
export interface VenueLink {
  subscribe(filter: string, handler: (topic: string, payload: Buffer) => void, qos?: 0 | 1): Promise<unknown>;
}

export interface WatchOptions {
  table: string;
  /** every table on the broker (external broker), or only `table` */
  everyTable: boolean;
  /** the leaderboard's file; absent = in memory only */
  file?: string;
  log: Logger;
}

/** The hub's venue file in its data folder, beside the table's database. */
export const hubVenueFile = (table: string) => `${table}.venue.json`;

export async function watchVenue(link: VenueLink, o: WatchOptions): Promise<Venue> {
  const venue = new Venue(Date.now, o.file ? leaderboardFile(o.file, (m) => o.log.warn(m)) : undefined);
  const take = (topic: string, payload: Buffer) => venue.take(topic, payload);
  const own = [`${tableRoot(o.table)}/table/state`, `${tableRoot(o.table)}/gun/+/status`];
  if (o.everyTable) {
    try {
      for (const f of VENUE_FILTERS) await link.subscribe(f, take, 0);
      return venue;
    } catch (e) {
      o.log.warn(
        { err: (e as Error).message },
        "venue view: the broker does not let this hub read every table; it shows its own",
      );
    }
  }
  for (const f of own) await link.subscribe(f, take, 0);
  return venue;
}
