// Domain names for guns and seats.

/** A gun's id: its MQTT username and topic level (`NAME_RE` from the protocol). */
export type GunId = string;
/** A seat at the table, 0..N-1 clockwise (the rules engine's `Seat`). */
export type SeatNo = number;
