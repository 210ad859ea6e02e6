// Static checks on a firmware bundle: what Espruino would refuse or run differently than Node.
// Each returns a list of problems (empty = fine).
import { parse } from "acorn";
import { base, simple } from "acorn-walk";

/** Globals Espruino does not have. */
const MISSING = ["Map", "Set", "WeakMap", "WeakSet", "Symbol", "Proxy", "Reflect", "globalThis"];
/** Methods Espruino does not have (on anything: the check cannot know the type). */
const MISSING_METHODS = ["finally", "race", "allSettled", "any"];

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
    MemberExpression(n) {
      if (!n.computed && MISSING_METHODS.includes(n.property.name)) {
        out.push(`uses .${n.property.name}() (Espruino has none) at ${n.start}`);
      }
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
  const out = [...checkMissing(ast), ...checkUseBeforeDefine(ast)];
  const bytes = Buffer.byteLength(code);
  if (budget !== undefined && bytes > budget) out.push(`${bytes} bytes, over the budget of ${budget}`);
  return out;
}
