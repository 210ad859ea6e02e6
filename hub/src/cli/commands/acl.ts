// `cng acl`: print (or write) the mosquitto ACL file for a table, for external-broker mode.
import { writeFileSync } from "node:fs";
import { isName } from "@cng/protocol";
import { type Command, InvalidArgumentError } from "commander";
import { hubUserFor, mosquittoAcl } from "../../broker/mosquitto-acl.js";

const HELP = `
With an external broker (cng hub --broker mqtt://HOST:PORT) the broker enforces topic rights.
This prints the mosquitto ACL equivalent to the embedded broker's rules. In mosquitto.conf:

  listener 1883
  password_file /etc/mosquitto/cng.passwd     # users: the hub, guns, seat-<n>
  acl_file /etc/mosquitto/cng.acl             # this file
  allow_anonymous true                        # dashboards as read-only viewers

Create the hub's user with \`mosquitto_passwd -b /etc/mosquitto/cng.passwd cng-hub-TABLE SECRET\`
and start the hub with --broker-user cng-hub-TABLE and CNG_BROKER_PASSWORD=SECRET. Guns need a
password-file entry too: the gun id with the secret it was flashed with (\`cng flash\` prints it),
then reload mosquitto (SIGHUP). With an external broker the hub sends no key at pairing: the gun keeps
that secret. Several tables: concatenate the files of each table.

Examples:
  cng acl --table main > /etc/mosquitto/cng.acl
  cng acl --table t2 --out t2.acl`;

function tableName(v: string): string {
  if (!isName(v)) throw new InvalidArgumentError("a table name is a-z, 0-9, _ and -, up to 32");
  return v;
}

export function registerAcl(program: Command): void {
  program
    .command("acl")
    .description("print the mosquitto ACL file for a table (external-broker mode)")
    .option("-t, --table <name>", "table name", tableName, "main")
    .option("--hub-user <name>", "the hub's username on the broker (default cng-hub-TABLE)")
    .option("-o, --out <file>", "write to a file instead of stdout")
    .addHelpText("after", HELP)
    .action((opts: { table: string; hubUser?: string; out?: string }) => {
      const text = mosquittoAcl({ table: opts.table, hubUser: opts.hubUser ?? hubUserFor(opts.table) });
      if (opts.out) writeFileSync(opts.out, text);
      else process.stdout.write(text);
    });
}
