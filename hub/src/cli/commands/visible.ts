// A secret given as a flag is part of the command line, which every user of this machine can read (`ps`, /proc): the
// commands take each secret from the environment too, and say so when one comes as a flag.

/** Warns on stderr that `flag` was seen by the machine's other users, and names the variable to use instead. */
export function warnVisible(flag: string, env: string): void {
  process.stderr.write(
    `warning: ${flag} on the command line can be read by anyone on this machine (ps); give it in ${env} instead\n`,
  );
}
