import { celEnv, celList, celMap, CelScalar, isCelError, mapType, parse, plan, type CelInput, type CelType } from '@bufbuild/cel';

/**
 * Rule conditions (`when`) of intent-card rules, shared by the policy registry (checked at
 * install) and the decision proxy (compiled once per card version, evaluated per call).
 *
 * Rule conditions (`when`) are CEL over three variables, each a JSON object:
 * `action` (the normalized tool call), `context` (free-form caller context) and `mandate`
 * (the verified mandate claims). Fields of these objects are `dyn`.
 *
 * @bufbuild/cel parses and evaluates CEL but (in 0.6) exposes no type checker, so this module
 * checks the parsed AST against the environment's own declarations: every identifier must be
 * declared, every function/method must exist in the standard library with an overload that
 * accepts the argument types, field selection only on maps, and the whole expression must yield
 * a bool — statically: a bare `dyn` (a field on its own) is refused, since only decision time
 * would tell. Unknown (`dyn`) operands are accepted, as CEL's gradual typing does.
 */
const DYN_OBJECT = mapType(CelScalar.STRING, CelScalar.DYN);

export const RULE_CONDITION_VARIABLES = { action: DYN_OBJECT, context: DYN_OBJECT, mandate: DYN_OBJECT } as const;

/** The CEL environment rule conditions are written against (standard library only). */
export function ruleConditionEnv() {
  return celEnv({ variables: RULE_CONDITION_VARIABLES });
}

const env = ruleConditionEnv();

type Expr = ReturnType<typeof parse>['expr'];
type ParsedExpr = ReturnType<typeof parse>;

/** The checker's view of a type: scalars by name, lists, maps, and named objects. */
type T = { kind: 'scalar'; name: string } | { kind: 'list'; elem: T } | { kind: 'map'; key: T; value: T } | { kind: 'object'; name: string };

const scalar = (name: string): T => ({ kind: 'scalar', name });
const DYN = scalar('dyn');
const BOOL = scalar('bool');
const INT = scalar('int');
const TYPE = scalar('type');
const NULL = scalar('null_type');
const NUMERIC = new Set(['int', 'uint', 'double']);
const TYPE_IDENTS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

function fromCel(t: CelType): T {
  switch (t.kind) {
    case 'scalar':
      return scalar(t.scalar);
    case 'list':
      return { kind: 'list', elem: fromCel(t.element) };
    case 'map':
      return { kind: 'map', key: fromCel(t.key), value: fromCel(t.value) };
    default:
      return { kind: 'object', name: t.name };
  }
}

function show(t: T): string {
  switch (t.kind) {
    case 'scalar':
    case 'object':
      return t.name;
    case 'list':
      return `list(${show(t.elem)})`;
    case 'map':
      return `map(${show(t.key)}, ${show(t.value)})`;
  }
}

const isDyn = (t: T) => t.kind === 'scalar' && t.name === 'dyn';

/** Whether a value of type `arg` may be passed where `param` is declared (dyn fits anything). */
function assignable(param: T, arg: T): boolean {
  if (isDyn(param) || isDyn(arg)) return true;
  if (param.kind === 'list' && arg.kind === 'list') return assignable(param.elem, arg.elem);
  if (param.kind === 'map' && arg.kind === 'map') return assignable(param.key, arg.key) && assignable(param.value, arg.value);
  if ((param.kind === 'scalar' && arg.kind === 'scalar') || (param.kind === 'object' && arg.kind === 'object')) return param.name === arg.name;
  return false;
}

function sameType(a: T, b: T): boolean {
  return show(a) === show(b);
}

/** The common type of several values (list elements, conditional branches), else dyn. */
function join(types: T[]): T {
  const [first] = types;
  if (first === undefined) return DYN;
  return types.every((t) => sameType(t, first)) ? first : DYN;
}

class CheckError extends Error {
  constructor(
    message: string,
    readonly exprId: bigint,
  ) {
    super(message);
  }
}

class Checker {
  private scopes: Map<string, T>[] = [];

  check(expr: Expr): T {
    const id = expr.id;
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return this.constant(kind.value.constantKind.case, id);
      case 'identExpr':
        return this.ident(kind.value.name, id);
      case 'selectExpr': {
        const operand = kind.value.operand;
        if (!operand) throw new CheckError('field selection without an operand', id);
        const t = this.check(operand);
        if (kind.value.testOnly) {
          if (isDyn(t) || t.kind === 'map' || t.kind === 'object') return BOOL;
          throw new CheckError(`has() cannot test a field of type '${show(t)}'`, id);
        }
        if (isDyn(t)) return DYN;
        if (t.kind === 'map' && (isDyn(t.key) || (t.key.kind === 'scalar' && t.key.name === 'string'))) return t.value;
        throw new CheckError(`type '${show(t)}' does not support field selection (.${kind.value.field})`, id);
      }
      case 'callExpr':
        return this.call(kind.value.function, kind.value.target, kind.value.args, id);
      case 'listExpr':
        return { kind: 'list', elem: join(kind.value.elements.map((e) => this.check(e))) };
      case 'structExpr': {
        if (kind.value.messageName) throw new CheckError(`unknown type '${kind.value.messageName}'`, id);
        const keys: T[] = [];
        const values: T[] = [];
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case !== 'mapKey') throw new CheckError('map literal entries need a key', entry.id);
          const k = this.check(entry.keyKind.value);
          if (!(isDyn(k) || (k.kind === 'scalar' && ['int', 'uint', 'bool', 'string'].includes(k.name)))) {
            throw new CheckError(`unsupported map key type '${show(k)}'`, entry.id);
          }
          keys.push(k);
          if (entry.value) values.push(this.check(entry.value));
        }
        return { kind: 'map', key: join(keys), value: join(values) };
      }
      case 'comprehensionExpr':
        return this.comprehension(kind.value, id);
      default:
        throw new CheckError('unsupported expression', id);
    }
  }

  private constant(kind: string | undefined, id: bigint): T {
    switch (kind) {
      case 'boolValue':
        return BOOL;
      case 'bytesValue':
        return scalar('bytes');
      case 'doubleValue':
        return scalar('double');
      case 'int64Value':
        return INT;
      case 'uint64Value':
        return scalar('uint');
      case 'stringValue':
        return scalar('string');
      case 'nullValue':
        return NULL;
      case 'durationValue':
        return { kind: 'object', name: 'google.protobuf.Duration' };
      case 'timestampValue':
        return { kind: 'object', name: 'google.protobuf.Timestamp' };
      default:
        throw new CheckError(`unsupported constant ${kind ?? ''}`.trim(), id);
    }
  }

  private ident(name: string, id: bigint): T {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i]?.get(name);
      if (t) return t;
    }
    const declared = env.variables.find(name);
    if (declared) return fromCel(declared);
    if (TYPE_IDENTS.has(name)) return TYPE;
    throw new CheckError(`undeclared reference to '${name}'`, id);
  }

  private call(fn: string, target: Expr | undefined, args: Expr[], id: bigint): T {
    const targetType = target ? this.check(target) : undefined;
    const argTypes = args.map((a) => this.check(a));
    const noOverload = () => {
      const sig = `${targetType ? `${show(targetType)}.` : ''}(${argTypes.map(show).join(', ')})`;
      return new CheckError(`found no matching overload for '${fn}' applied to '${sig}'`, id);
    };
    const boolLike = (t: T) => isDyn(t) || (t.kind === 'scalar' && t.name === 'bool');

    // Operators the planner implements itself rather than through the function registry.
    switch (fn) {
      case '_&&_':
      case '_||_':
        if (targetType || !argTypes.every(boolLike)) throw noOverload();
        return BOOL;
      case '@not_strictly_false':
        if (targetType || argTypes.length !== 1 || argTypes[0] === undefined || !boolLike(argTypes[0])) throw noOverload();
        return BOOL;
      case '_?_:_':
        if (targetType || argTypes.length !== 3 || argTypes[0] === undefined || !boolLike(argTypes[0])) throw noOverload();
        return join(argTypes.slice(1));
      case '_[_]': {
        if (targetType || argTypes.length !== 2) throw noOverload();
        const [operand, index] = argTypes as [T, T];
        if (isDyn(operand)) return DYN;
        if (operand.kind === 'list') {
          if (isDyn(index) || (index.kind === 'scalar' && NUMERIC.has(index.name))) return operand.elem;
          throw noOverload();
        }
        if (operand.kind === 'map') {
          if (assignable(operand.key, index)) return operand.value;
          throw noOverload();
        }
        throw noOverload();
      }
      case '_==_':
      case '_!=_': {
        if (targetType || argTypes.length !== 2) throw noOverload();
        const [a, b] = argTypes as [T, T];
        const numeric = (t: T) => t.kind === 'scalar' && NUMERIC.has(t.name);
        const isNull = (t: T) => t.kind === 'scalar' && t.name === 'null_type';
        if (assignable(a, b) || assignable(b, a) || (numeric(a) && numeric(b)) || isNull(a) || isNull(b)) return BOOL;
        throw noOverload();
      }
    }

    const group = env.funcs.find(fn);
    if (!group) throw new CheckError(`undeclared reference to '${fn}'`, id);
    const results: T[] = [];
    for (const overload of group) {
      if (Boolean(overload.target) !== Boolean(targetType)) continue;
      if (overload.arguments.length !== argTypes.length) continue;
      if (overload.target && targetType && !assignable(fromCel(overload.target), targetType)) continue;
      if (!overload.arguments.every((p, i) => argTypes[i] !== undefined && assignable(fromCel(p), argTypes[i]))) continue;
      results.push(fromCel(overload.result));
    }
    if (results.length === 0) throw noOverload();
    return join(results);
  }

  private comprehension(c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'], id: bigint): T {
    if (!c.iterRange || !c.accuInit || !c.loopCondition || !c.loopStep || !c.result) throw new CheckError('incomplete comprehension', id);
    const range = this.check(c.iterRange);
    let first: T;
    let second: T | undefined;
    if (isDyn(range)) {
      first = DYN;
      second = DYN;
    } else if (range.kind === 'list') {
      first = c.iterVar2 ? INT : range.elem;
      second = range.elem;
    } else if (range.kind === 'map') {
      first = range.key;
      second = range.value;
    } else {
      throw new CheckError(`expression of type '${show(range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`, c.iterRange.id);
    }
    const accu = this.check(c.accuInit);
    const accuScope = new Map<string, T>([[c.accuVar, accu]]);
    const iterScope = new Map<string, T>([[c.iterVar, first]]);
    if (c.iterVar2) iterScope.set(c.iterVar2, second);
    this.scopes.push(accuScope, iterScope);
    try {
      const condition = this.check(c.loopCondition);
      if (!(isDyn(condition) || (condition.kind === 'scalar' && condition.name === 'bool'))) {
        throw new CheckError(`comprehension condition must be a bool, not '${show(condition)}'`, c.loopCondition.id);
      }
      this.check(c.loopStep);
    } finally {
      this.scopes.pop();
    }
    try {
      return this.check(c.result);
    } finally {
      this.scopes.pop();
    }
  }
}

/** `<input>:line:column` of an expression, in the parser's own error format. */
function position(source: string, parsed: ParsedExpr, exprId: bigint): string {
  const offset = parsed.sourceInfo?.positions[exprId.toString() as unknown as number];
  if (offset === undefined) return '<input>';
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `<input>:${line}:${column}`;
}

/**
 * Parses and type-checks a rule condition. Returns null when it is a valid boolean CEL
 * expression over `action`, `context` and `mandate`, else the reason (the library's parse
 * message, or the checker's, with its position).
 */
export function checkRuleCondition(source: string): string | null {
  let parsed: ParsedExpr;
  try {
    parsed = parse(source);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  try {
    const type = new Checker().check(parsed.expr);
    // Only a bool is a decision: a bare field (`dyn`) could be anything at decision time, where a
    // non-bool would fail the call, so it is refused here, with how to say what was meant.
    if (isDyn(type)) return "expression must evaluate to a bool, not 'dyn': compare the field (for example `action.arguments.flag == true`)";
    if (!(type.kind === 'scalar' && type.name === 'bool')) return `expression must evaluate to a bool, not '${show(type)}'`;
    // The evaluator must also accept it: planning resolves names the way evaluation will.
    plan(env, parsed);
    return null;
  } catch (err) {
    if (err instanceof CheckError) return `${position(source, parsed, err.exprId)}: ${err.message}`;
    return err instanceof Error ? err.message : String(err);
  }
}

/** The values a condition is evaluated against: JSON objects (values that are `undefined` are left out). */
export interface RuleConditionVars {
  action: Record<string, unknown>;
  context: Record<string, unknown>;
  mandate: Record<string, unknown>;
}

/**
 * A condition that cannot be compiled (it does not check) or that failed while being evaluated
 * (a missing field, a type mismatch at run time, a non-bool result). It is thrown, never turned
 * into `false`: a caller that wants to skip a broken rule has to say so explicitly, and the
 * decision proxy does not (it fails closed, see decision-engine.ts).
 */
export class RuleConditionError extends Error {
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(message);
    this.name = 'RuleConditionError';
  }
}

const PREPARED = Symbol('prepared rule condition vars');

/**
 * Vars converted to CEL values once (prepareRuleConditionVars), for evaluating many conditions
 * over the same call: @bufbuild/cel otherwise wraps every object again for every condition.
 */
export interface PreparedRuleConditionVars {
  readonly [PREPARED]: { action: CelInput; context: CelInput; mandate: CelInput };
}

/** Deep conversion of a JSON value to CEL maps and lists (`undefined` members left out). */
function toCelDeep(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return celList(v.map(toCelDeep) as CelInput[]);
  const entries = new Map<string, unknown>();
  for (const key of Object.keys(v)) {
    const value = (v as Record<string, unknown>)[key];
    if (value !== undefined) entries.set(key, toCelDeep(value));
  }
  return celMap(entries as Map<string, CelInput>);
}

export function prepareRuleConditionVars(vars: RuleConditionVars): PreparedRuleConditionVars {
  return {
    [PREPARED]: { action: toCelDeep(vars.action) as CelInput, context: toCelDeep(vars.context) as CelInput, mandate: toCelDeep(vars.mandate) as CelInput },
  };
}

/** A compiled condition: true when it matches. Throws RuleConditionError when evaluation fails. */
export type CompiledRuleCondition = (vars: RuleConditionVars | PreparedRuleConditionVars) => boolean;

/** Drops `undefined` members (CEL has no undefined; JSON never carries one). */
function defined(obj: Record<string, unknown>): Record<string, unknown> {
  let clean: Record<string, unknown> | null = null;
  for (const key of Object.keys(obj)) {
    if (obj[key] === undefined) {
      clean ??= { ...obj };
      delete clean[key];
    }
  }
  return clean ?? obj;
}

/**
 * Parses, checks and plans a condition once; the returned function only evaluates. Throws
 * RuleConditionError when the condition does not check (as checkRuleCondition reports it).
 *
 * Evaluation errors are CEL's own (`field not found: x` for `action.arguments.x` on a call without
 * that argument, `no matching overload` for `"a" < 1` at run time) or a result that is not a bool;
 * they throw. Write `has(action.arguments.x) && ...` to make a condition total.
 */
export function compileRuleCondition(when: string): CompiledRuleCondition {
  const problem = checkRuleCondition(when);
  if (problem !== null) throw new RuleConditionError(`condition does not compile: ${problem}`, when);
  const program = plan(env, parse(when));
  return (vars) => {
    let result: unknown;
    try {
      const input =
        PREPARED in vars
          ? vars[PREPARED]
          : { action: defined(vars.action) as CelInput, context: defined(vars.context) as CelInput, mandate: defined(vars.mandate) as CelInput };
      result = program(input as Parameters<typeof program>[0]);
    } catch (err) {
      throw new RuleConditionError(`condition failed: ${err instanceof Error ? err.message : String(err)}`, when);
    }
    if (isCelError(result)) throw new RuleConditionError(`condition failed: ${result.message}`, when);
    if (typeof result !== 'boolean') throw new RuleConditionError('condition did not evaluate to a bool', when);
    return result;
  };
}
