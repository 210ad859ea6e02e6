/** An ADC as Espruino reads it: analogRead() = count / counts (hardware/chips.json `adc`). */
export type ChipAdc =
  | {
      /** ESP32 at 11 dB: mV = count × mvPerCount × (vref / vrefMv) + offsetMv, up to linearToMv */
      kind: "esp32";
      counts: number;
      mvPerCount: number;
      offsetMv: number;
      vrefMv: number;
      vrefSpreadMv: number;
      linearToMv: number;
    }
  /** count = volts / fullScaleV × counts */
  | { kind: "linear"; counts: number; fullScaleV: number };

export function adcCount(adc: ChipAdc, volts: number, vref?: number): number;
export function adcTransfer(adc: ChipAdc, div: number): { a: number; b: number };
