// Partial deep match for scenario expectations: every field the expectation names must equal the output's;
// fields it leaves out are not checked. Returns the paths that differ.
export function mismatches(expected: unknown, actual: unknown, path = "$"): string[] {
  if (expected !== null && typeof expected === "object" && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    const out: string[] = [];
    for (const [k, v] of Object.entries(expected))
      out.push(...mismatches(v, (actual as Record<string, unknown>)[k], `${path}.${k}`));
    return out;
  }
  return JSON.stringify(expected) === JSON.stringify(actual)
    ? []
    : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}
