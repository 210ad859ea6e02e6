export const POWERSAVE_MODES: Readonly<Record<string, readonly string[]>>;
export const POWERSAVE_REPORTED: Readonly<Record<string, Readonly<Record<string, string>>>>;
export const AP_AT_BOOT: Readonly<Record<string, boolean>>;
export function wifiModule(
  chip: string,
  o: {
    fails?: number;
    rssi: number;
    later(fn: () => void, ms: number): unknown;
    joined(ssid: string, password: string | undefined): void;
    mode(m: string): void;
    ap?(up: boolean): void;
  },
): Record<string, unknown>;
