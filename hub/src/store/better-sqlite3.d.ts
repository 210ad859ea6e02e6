// The slice of better-sqlite3's API the store uses (the package ships no types and
// @types/better-sqlite3 is not installed).
declare module "better-sqlite3" {
  namespace Database {
    interface RunResult {
      changes: number;
      lastInsertRowid: number | bigint;
    }
    interface Statement<P extends unknown[] = unknown[], R = unknown> {
      run(...params: P): RunResult;
      get(...params: P): R | undefined;
      all(...params: P): R[];
    }
    interface Database {
      prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
      exec(sql: string): this;
      pragma(sql: string, opts?: { simple?: boolean }): unknown;
      transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
      close(): this;
      readonly open: boolean;
    }
  }
  interface DatabaseConstructor {
    new (path: string, opts?: { readonly?: boolean; fileMustExist?: boolean }): Database.Database;
  }
  const Database: DatabaseConstructor;
  export = Database;
}
