// The hub's settings (hub/src/config.ts): flags, environment, file and defaults, and what is refused.
import { describe, expect, it } from "vitest";
import { ConfigError, readEnv, resolveConfig } from "../hub/src/config.js";

describe("configuration layers", () => {
  it("flags beat environment beat file beat defaults", () => {
    const file = { table: "fromfile", mqttPort: 1111, httpPort: 2222 };
    const env = readEnv({ CNG_MQTT_PORT: "3333", CNG_TABLE: "fromenv" });
    const c = resolveConfig(file, env, { table: "fromflag", data: undefined });
    expect(c).toMatchObject({ table: "fromflag", mqttPort: 3333, httpPort: 2222, bind: "0.0.0.0" });
  });
  it("refuses bad values with a message naming the setting", () => {
    expect(() => resolveConfig({ mqttPort: 70000 })).toThrow(ConfigError);
    expect(() => resolveConfig({ table: "Bad Table" })).toThrow(/table/);
    expect(() => resolveConfig({ broker: "localhost" })).toThrow(/broker/);
  });
});
