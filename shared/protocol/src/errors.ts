import type { Result } from "./result.js";

/** Why a payload was refused. */
export type ProtocolErrorCode =
  /** not JSON, or not a JSON object */
  | "json"
  /** larger than the kind allows */
  | "size"
  /** missing or different `v` */
  | "version"
  /** a field has the wrong type */
  | "type"
  /** a number or string outside its range */
  | "range"
  /** a required field is missing, or an unknown one is present */
  | "field"
  /** the topic is not one the receiver handles */
  | "topic";

export interface ProtocolError {
  code: ProtocolErrorCode;
  /** the offending field, when there is one */
  field?: string;
  message: string;
}

/** What a strict decoder answers: the value, or a typed error. */
export type Decoded<T> = Result<T, ProtocolError>;

export function fail<T>(code: ProtocolErrorCode, message: string, field?: string): Decoded<T> {
  const error: ProtocolError = { code: code, message: message };
  if (field !== undefined) error.field = field;
  return { ok: false, error: error };
}
