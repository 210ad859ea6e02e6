// Static checks on a firmware bundle: what Espruino would refuse or run differently than Node.
// Each returns a list of problems (empty = fine). What they know of Espruino was found on the real interpreter
// (tests/espruino/language.test.ts runs each refused sample there and shows it misbehave).
import { readFileSync } from "node:fs";
import { parse } from "acorn";
import { base, simple } from "acorn-walk";

/** Globals Espruino does not have. */
const MISSING = ["Map", "Set", "WeakMap", "WeakSet", "Symbol", "Proxy", "Reflect", "globalThis"];

/** V8's built-in methods and which of them Espruino lacks, per built-in (firmware/espruino/api.mjs writes it). */
export const LACKS = JSON.parse(readFileSync(new URL("./espruino-lacks.json", import.meta.url), "utf8"));

/**
 * Methods Espruino lacks on every built-in that has them in V8: a call of one of these cannot work, whatever it is
 * called on. (A method only some built-ins lack, such as arrays' `lastIndexOf`, is beyond a check without types.)
 */
export function definitelyLacking(lacks = LACKS) {
  const has = new Set();
  const lacking = new Set();
  for (const t of Object.values(lacks.targets)) {
    for (const m of t.v8) (t.lacks.includes(m) ? lacking : has).add(m);
  }
  return [...lacking].filter((m) => !has.has(m)).sort();
}
const MISSING_METHODS = definitelyLacking();

/** The bundle must be plain ES5: no default parameters, spread, destructuring, generators, async, `**`, `?.`. */
export function parseEs5(code) {
  try {
    return { ast: parse(code, { ecmaVersion: 5, sourceType: "script" }), problems: [] };
  } catch (e) {
    return { ast: null, problems: [`not ES5: ${e.message}`] };
  }
}

export function checkMissing(ast) {
  const out = [];
  simple(ast, {
    Identifier(n) {
      if (MISSING.includes(n.name)) out.push(`uses ${n.name} (Espruino has none) at ${n.start}`);
    },
    CallExpression(n) {
      const c = n.callee;
      if (c.type === "MemberExpression" && !c.computed && MISSING_METHODS.includes(c.property.name)) {
        out.push(`uses .${c.property.name}() (Espruino ${LACKS.espruino} has none) at ${c.start}`);
      }
    },
  });
  return out;
}

/**
 * What Espruino's RegExp engine (a small backtracking matcher) runs differently from JS, in one pattern. It has
 * characters, `.`, classes, the escapes \d \D \s \S \w \W \f \n \r \t \v \0 \xHH, `*` and `+` on one
 * character or class, `^`, `$`, capture groups (9) and `|` between whole alternatives, flags g and i. Everything
 * else is refused with the reason.
 */
export function regexProblems(pattern, flags) {
  const out = [];
  for (const f of flags) {
    if (f === "m") out.push("flag m: ^ and $ never match at line ends on Espruino");
    else if (f !== "g" && f !== "i") out.push(`flag ${f}: Espruino knows only g and i`);
  }
  let depth = 0;
  let groups = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const next = pattern[i + 1];
    if (c === "\\") {
      if (next === "b" || next === "B") out.push(`\\${next}: no word boundaries (Espruino reads \\b as a backspace)`);
      else if (next >= "1" && next <= "9") out.push(`\\${next}: no back-references`);
      else if ("cukpP".includes(next)) out.push(`\\${next}: not an escape Espruino knows`);
      i++;
    } else if (c === "[") {
      // a class: anything goes inside but a class in a class; skip to its end
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
    } else if (c === "(") {
      if (next === "?") {
        const kind = pattern.slice(i, i + 4);
        if (kind.startsWith("(?:")) out.push("(?: no non-capturing groups");
        else if (kind.startsWith("(?<=") || kind.startsWith("(?<!")) out.push(`${kind}: no lookbehind`);
        else if (kind.startsWith("(?<")) out.push("(?<name>: no named groups");
        else out.push(`${kind.slice(0, 3)}: no lookahead`);
        i++;
      }
      depth++;
      if (++groups > 9) out.push("more than 9 groups");
    } else if (c === ")") {
      depth--;
      if (next === "*" || next === "+") out.push(`)${next}: a quantifier on a group (Espruino repeats one character)`);
    } else if (c === "|" && depth > 0) {
      out.push("| inside a group: Espruino's | splits the whole pattern, not the group");
    } else if (c === "?") {
      out.push("?: no optional or lazy quantifier");
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
      out.push(`${/^\{\d+(,\d*)?\}/.exec(pattern.slice(i))[0]}: no counted quantifiers`);
    } else if (c === ".") {
      out.push(". outside a class: it matches line ends on Espruino, not in JS (write [^\\n])");
    }
  }
  return out;
}

/** RegExp literals and `RegExp(...)` calls in a bundle, with what Espruino runs differently in each. */
export function checkRegExps(ast) {
  const out = [];
  const at = (n, what, why) => out.push(`${what} at ${n.start}: ${why}`);
  simple(ast, {
    Literal(n) {
      if (!n.regex) return;
      for (const p of regexProblems(n.regex.pattern, n.regex.flags)) at(n, `/${n.regex.pattern}/${n.regex.flags}`, p);
    },
    NewExpression(n) {
      regexCall(n);
    },
    CallExpression(n) {
      regexCall(n);
    },
  });
  function regexCall(n) {
    if (n.callee.type !== "Identifier" || n.callee.name !== "RegExp") return;
    const [src, fl] = n.arguments;
    const lit = (a) => a && a.type === "Literal" && typeof a.value === "string";
    if (!lit(src) || (fl && !lit(fl))) {
      at(n, "RegExp(…)", "built at run time: the build cannot check it (write a literal)");
      return;
    }
    for (const p of regexProblems(src.value, fl ? fl.value : "")) at(n, `RegExp(${JSON.stringify(src.value)})`, p);
  }
  return out;
}

/** Words Espruino's parser reserves that ES5 lets a program use as names. */
const RESERVED = ["let", "static", "of"];

/** Variables, parameters and functions named with a word Espruino reserves: a syntax error there. */
export function checkReservedNames(ast) {
  const out = [];
  const hit = (n) => {
    if (RESERVED.includes(n.name)) out.push(`the name "${n.name}" at ${n.start}: a reserved word to Espruino's parser`);
  };
  simple(ast, {
    // declared names (var, parameters, functions)
    VariablePattern: hit,
    Identifier: hit,
  });
  return out;
}

/** Calls that exist on Espruino but do something else than in V8. */
export function checkDifferences(ast) {
  const out = [];
  const member = (c, obj, prop) =>
    c.type === "MemberExpression" &&
    !c.computed &&
    c.property.name === prop &&
    (obj === undefined || (c.object.type === "Identifier" && c.object.name === obj));
  simple(ast, {
    CallExpression(n) {
      const c = n.callee;
      if (member(c, undefined, "writeJSON"))
        out.push(`.writeJSON() at ${n.start}: Espruino writes JS notation ({id:"g1"}), not JSON; write JSON.stringify`);
      if (member(c, "JSON", "stringify") && n.arguments.length > 2)
        out.push(`JSON.stringify(…, …, space) at ${n.start}: Espruino lays the text out differently`);
      if (member(c, undefined, "split") && n.arguments.length > 1)
        out.push(`.split(…, limit) at ${n.start}: Espruino ignores the limit`);
      if (member(c, undefined, "toFixed"))
        out.push(`.toFixed() at ${n.start}: Espruino rounds halves differently ((-1.5).toFixed(0) is "-1")`);
      if (member(c, "Date", "parse")) out.push(`Date.parse() at ${n.start}: Espruino parses few date formats`);
      const r = n.arguments[1];
      if (member(c, undefined, "replace") && r?.type === "Literal" && /\$[&`']/.test(String(r.value)))
        out.push(`.replace(…, "${r.value}") at ${n.start}: Espruino has no $& $\` $' in replacements`);
    },
    NewExpression(n) {
      const a = n.arguments[0];
      if (
        n.callee.type === "Identifier" &&
        n.callee.name === "Date" &&
        a &&
        !(a.type === "Literal" && typeof a.value === "number")
      )
        out.push(`new Date(…) at ${n.start}: Espruino parses few date formats (give it a number)`);
    },
  });
  return out;
}

/** Names a statement declares in its own scope (var, function). */
function declared(stmt) {
  if (stmt.type === "FunctionDeclaration") return [stmt.id.name];
  const names = [];
  // vars anywhere in the statement but not inside nested functions
  const walk = (n) => {
    if (!n || typeof n.type !== "string") return;
    if (n.type === "VariableDeclaration") for (const d of n.declarations) names.push(d.id.name);
    if (n.type === "FunctionExpression" || n.type === "FunctionDeclaration") return;
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v.type === "string") walk(v);
    }
  };
  walk(stmt);
  return names;
}

/** Identifiers referenced when `node` runs, not counting bodies of functions it only creates. */
function refsNow(node, fnRefs) {
  const out = new Set();
  const visitor = {
    ...base,
    Function(n, st, c) {
      // an immediately called function expression runs now
      if (st.iife === n) c(n.body, st, "BlockStatement");
    },
    CallExpression(n, st, c) {
      const callee = n.callee.type === "SequenceExpression" ? n.callee.expressions.at(-1) : n.callee;
      if (callee.type === "FunctionExpression") {
        c(callee, { iife: callee }, "Expression");
      } else c(n.callee, st, "Expression");
      for (const a of n.arguments) c(a, st, "Expression");
    },
    Identifier(n) {
      out.add(n.name);
      for (const r of fnRefs.get(n.name) ?? []) out.add(r);
    },
  };
  const walk = (n) => {
    const c = (node2, st, type) => visitor[type ?? node2.type](node2, st, c);
    c(n, {});
  };
  walk(node);
  return out;
}

/** Every identifier inside a function (deep), minus what it declares itself: a conservative "may use". */
function freeRefs(fn) {
  const used = new Set();
  const decl = new Set();
  simple(fn.body, {
    Identifier(n) {
      used.add(n.name);
    },
    VariablePattern(n) {
      decl.add(n.name);
    },
    Function(n) {
      if (n.id) decl.add(n.id.name);
      for (const p of n.params) decl.add(p.name);
    },
  });
  for (const p of fn.params) decl.add(p.name);
  return [...used].filter((u) => !decl.has(u));
}

/**
 * Espruino does not hoist functions: in every body, a statement may only use (directly, or through a
 * local function it calls) names declared by earlier statements of that body.
 */
export function checkUseBeforeDefine(ast) {
  const out = [];
  const bodies = [ast.body];
  simple(ast, {
    Function(n) {
      if (n.body.type === "BlockStatement") bodies.push(n.body.body);
    },
  });
  for (const body of bodies) {
    const at = new Map();
    body.forEach((s, i) => {
      for (const name of declared(s)) if (!at.has(name)) at.set(name, i);
    });
    // local functions: what calling them may touch
    const fnRefs = new Map();
    for (const s of body) if (s.type === "FunctionDeclaration") fnRefs.set(s.id.name, []);
    for (const s of body) {
      if (s.type === "FunctionDeclaration")
        fnRefs.set(
          s.id.name,
          freeRefs(s).filter((r) => at.has(r)),
        );
    }
    // close over calls between local functions
    let grew = true;
    while (grew) {
      grew = false;
      for (const [f, refs] of fnRefs) {
        for (const r of [...refs]) {
          for (const rr of fnRefs.get(r) ?? []) {
            if (!refs.includes(rr)) {
              refs.push(rr);
              grew = true;
            }
          }
        }
        fnRefs.set(f, refs);
      }
    }
    body.forEach((s, i) => {
      if (s.type === "FunctionDeclaration") return;
      for (const name of refsNow(s, fnRefs)) {
        const j = at.get(name);
        if (j !== undefined && j > i) out.push(`${name} is used at ${s.start} before its definition`);
      }
    });
  }
  return out;
}

/** All checks on one bundle. */
export function checkBundle(code, budget) {
  const { ast, problems } = parseEs5(code);
  if (!ast) return problems;
  const out = [
    ...checkMissing(ast),
    ...checkRegExps(ast),
    ...checkDifferences(ast),
    ...checkReservedNames(ast),
    ...checkUseBeforeDefine(ast),
  ];
  const bytes = Buffer.byteLength(code);
  if (budget !== undefined && bytes > budget) out.push(`${bytes} bytes, over the budget of ${budget}`);
  return out;
}
