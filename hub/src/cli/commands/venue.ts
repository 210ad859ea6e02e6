// `cng venue`: a live page of every table on a broker, with a leaderboard of finished games.
import type { Command } from "commander";
import { startVenue } from "../../venue/server.js";

const HELP = `
Watches every table on the broker from their retained public topics (cng/v1/+/table/state and the guns'
statuses) and serves a page listing them: players, round, step, who is ahead, guns online, live; below, the
games seen finishing, best winning money first. Read-only: it logs in anonymously (a broker set up by
\`cng broker init\` lets anonymous clients read those topics) unless --user names a login (password in
CNG_BROKER_PASSWORD). The page polls /api/venue, the same data as JSON. The finished games are kept in
DATA/venue.json (--data, default ./data), so a restarted venue keeps its leaderboard. Every hub serves the
same view of the tables on its broker at http://HUB:8080/venue.

Examples:
  cng venue --broker mqtt://broker.local:1883            # page on http://THIS-MACHINE:8090/
  cng venue --broker mqtt://127.0.0.1:1883 --port 9000 --bind 127.0.0.1`;

export function registerVenue(program: Command): void {
  program
    .command("venue")
    .description("a live page of every table on a broker, with a leaderboard")
    .option("--broker <url>", "the broker", process.env.CNG_BROKER ?? "mqtt://127.0.0.1:1883")
    .option("--user <name>", "a login on the broker (default: anonymous)")
    .option("--port <port>", "the page's HTTP port, 0 = any", "8090")
    .option("--bind <address>", "address to listen on", "0.0.0.0")
    .option("-d, --data <dir>", "folder for the leaderboard (venue.json)", process.env.CNG_DATA ?? "data")
    .addHelpText("after", HELP)
    .action(async (f: { broker: string; user?: string; port: string; bind: string; data: string }) => {
      const port = Number(f.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be 0-65535");
      const v = await startVenue({
        url: f.broker,
        ...(f.user ? { username: f.user, password: process.env.CNG_BROKER_PASSWORD } : {}),
        port,
        bind: f.bind,
        data: f.data,
      });
      const host = f.bind === "0.0.0.0" || f.bind === "::" ? "127.0.0.1" : f.bind;
      process.stdout.write(
        `Cash'n Guns venue — http://${host}:${v.port}/ (broker ${f.broker}, leaderboard in ${f.data}); Ctrl-C to stop.\n`,
      );
      const stop = () => void v.close().finally(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
