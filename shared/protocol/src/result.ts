// "Ok, or a coded error": the one shape the decoders, the hub's seams and its ops answer with. `code` is short and
// stable (what a program tests), `message` is for people. A response on `cmd/<client>/res` carries the same as
// `ok`, `r`, `e: {code, msg}`.

export interface CodedError {
  code: string;
  message: string;
}

export type Result<T, E extends CodedError = CodedError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value: value };
}

export function refuse(code: string, message: string): { ok: false; error: CodedError } {
  return { ok: false, error: { code: code, message: message } };
}
