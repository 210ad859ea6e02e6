// A chip's ADC as Espruino reads it (hardware/chips.json `adc`): analogRead() = count / counts. One definition for
// the firmware build (the transfer it bakes into each bundle), the builder's check, and both board models; the real
// interpreter's board (firmware/espruino/board.js) is given adcCount's own source, so it is ES5 and self-contained.

/**
 * The count the ADC gives for `volts` at its pin: its transfer inverted, rounded, clamped to the counts (an ESP32
 * bends towards 4095 above `linearToMv`, past anything a battery divider gives). `vref` (mV) is this chip's own
 * reference on an ESP32 (the typical `vrefMv` when not given: chips spread ± `vrefSpreadMv`).
 */
export function adcCount(adc, volts, vref) {
  var n =
    adc.kind === "esp32"
      ? (volts * 1000 - adc.offsetMv) / (adc.mvPerCount * ((vref || adc.vrefMv) / adc.vrefMv))
      : (volts / adc.fullScaleV) * adc.counts;
  return Math.max(0, Math.min(adc.counts - 1, Math.round(n)));
}

/**
 * The firmware's reading of a battery behind a divider of ratio `div`: volts = analogRead() × a + b, the chip's
 * typical transfer (an ESP32's at 11 dB, uncalibrated), to 6 significant digits as the bundle carries it.
 */
export function adcTransfer(adc, div) {
  const a = adc.kind === "esp32" ? (adc.counts * adc.mvPerCount * div) / 1000 : adc.fullScaleV * div;
  const b = adc.kind === "esp32" ? (adc.offsetMv * div) / 1000 : 0;
  return { a: Number(a.toPrecision(6)), b: Number(b.toPrecision(6)) };
}
