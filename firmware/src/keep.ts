// gun.json kept up to date with what the gun learns (the pairing key, the hub found on the network, a new mounting).

/**
 * Keeps `v` as gun.json's `k` (the pairing key, the hub found on the network): JSON.stringify, not writeJSON —
 * Espruino's writeJSON writes JS notation ({id:"g1"}), and gun.json stays JSON.
 */
export function keepCfg(k: string, v: any): void {
  var st = require("Storage");
  var j = st.readJSON("gun.json", true) || {};
  j[k] = v;
  st.write("gun.json", JSON.stringify(j));
}
