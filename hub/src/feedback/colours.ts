// The LEDs' colours: each seat's (the protocol's palette, the same the dashboard draws with), and off.
import type { Rgb } from "@cng/protocol";

export { type Rgb, SEAT_COLOURS, seatColour } from "@cng/protocol";

export const OFF: Rgb = 0x000000;
