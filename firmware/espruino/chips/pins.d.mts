export const LED_VF: Readonly<{ r: number; g: number; b: number }>;
export function dacLed(v: number, vf: number): number;
/** a gun's output parts, with pins as the runtime compares them (==) */
export interface OutputPins<P> {
  bz: P;
  kind: "neopixel" | "rgb" | string;
  pin?: P;
  pr?: P;
  pg?: P;
  pb?: P;
  inv?: boolean;
  dac: P[];
}
export class Outputs<P> {
  constructor(o: OutputPins<P>, show: (c: number) => void, sound: (f: number) => void, log: (line: string) => void);
  write(p: P, v: number, f?: number): void;
  analog(p: P, v: number, opts?: { freq?: number; soft?: boolean; forceSoft?: boolean }): void;
  neopixel(p: P, d: ArrayLike<number>): void;
}
export function serialClashes(
  name: string,
  opts: { tx?: unknown; rx?: unknown } | undefined,
  defaults: Readonly<Record<string, { tx: number; rx: number }>>,
  parts: Readonly<Record<string, string>>,
): string[];
