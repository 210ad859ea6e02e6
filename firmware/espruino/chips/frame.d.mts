export function wrap180(d: number): number;
export function rotation(yaw: number, pitch: number, roll: number): number[];
export function gravity(pitch: number, roll: number): [number, number, number];
export function toChip(v: readonly number[], axes: readonly number[]): [number, number, number];
export function chipAttitude(yaw: number, pitch: number, roll: number, axes: readonly number[]): number[];
