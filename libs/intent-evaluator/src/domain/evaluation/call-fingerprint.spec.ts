import { AppError } from '@igw/kernel';
import { canonicalCall, canonicalJson, canonicalToolCall, MAX_ARGUMENT_DEPTH, type CallIdentity } from './call-fingerprint';

const call = (over: Partial<CallIdentity> = {}): CallIdentity => ({
  orgId: 'org_1',
  userId: 'u1',
  sessionId: 's1',
  toolName: 'crm.search',
  arguments: { query: 'acme', limit: 10 },
  ...over,
});

const nest = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

describe('call fingerprint', () => {
  describe('canonical JSON', () => {
    it('sorts keys at every level and keeps array order', () => {
      expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    });

    it('sorts by UTF-16 code units (RFC 8785), not by locale', () => {
      expect(canonicalJson({ b: 1, B: 2, é: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"B":2,"b":1,"é":3}');
    });

    it('writes scalars as JSON does', () => {
      expect(canonicalJson(['a"\n', 1.5, 1e21, -0, true, null])).toBe('["a\\"\\n",1.5,1e+21,0,true,null]');
      expect(canonicalJson({ n: NaN, i: Infinity, u: undefined, f: () => 1 })).toBe('{"i":null,"n":null}');
      expect(canonicalJson([undefined])).toBe('[null]');
    });

    it('is JSON that parses back to the same value', () => {
      const value = { x: [1, { y: 'é' }], a: { '': true } };
      expect(JSON.parse(canonicalJson(value))).toEqual(value);
    });

    it(`accepts ${MAX_ARGUMENT_DEPTH} levels of nesting and refuses deeper ones with 400 naming the arguments`, () => {
      expect(() => canonicalJson(nest(MAX_ARGUMENT_DEPTH))).not.toThrow();
      let error: unknown;
      try {
        canonicalJson(nest(100_000));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_request');
      expect((error as AppError).extra['details']).toEqual([{ path: 'tool_call.arguments', message: expect.stringContaining(`${MAX_ARGUMENT_DEPTH}`) }]);
      expect(() => canonicalJson(nest(MAX_ARGUMENT_DEPTH + 1))).toThrow(AppError);
    });
  });

  describe('the same call', () => {
    it('does not depend on argument key order', () => {
      expect(canonicalCall(call({ arguments: { limit: 10, query: 'acme' } }))).toBe(canonicalCall(call()));
      expect(canonicalCall(call({ arguments: { a: { y: 1, x: 2 } } }))).toBe(canonicalCall(call({ arguments: { a: { x: 2, y: 1 } } })));
    });

    it('treats absent and empty arguments alike, and absent and null user or session alike', () => {
      expect(canonicalCall(call({ arguments: undefined }))).toBe(canonicalCall(call({ arguments: {} })));
      expect(canonicalCall(call({ userId: undefined, sessionId: undefined }))).toBe(canonicalCall(call({ userId: null, sessionId: null })));
    });

    it.each<[string, Partial<CallIdentity>]>([
      ['org', { orgId: 'org_2' }],
      ['user', { userId: 'u2' }],
      ['anonymous user', { userId: null }],
      ['session', { sessionId: 's2' }],
      ['no session', { sessionId: null }],
      ['tool', { toolName: 'crm.export' }],
      ['argument value', { arguments: { query: 'acme', limit: 11 } }],
      ['argument type', { arguments: { query: 'acme', limit: '10' } }],
      ['extra argument', { arguments: { query: 'acme', limit: 10, x: null } }],
    ])('differs when the %s differs', (_what, over) => {
      expect(canonicalCall(call(over))).not.toBe(canonicalCall(call()));
    });

    it('differs when array order differs (arrays are ordered data)', () => {
      expect(canonicalCall(call({ arguments: { query: ['b', 'a'] } }))).not.toBe(canonicalCall(call({ arguments: { query: ['a', 'b'] } })));
    });

    it('cannot be forged by values that look like the framing', () => {
      const a = canonicalCall(call({ userId: 'u1","session":"s9', sessionId: 's1' }));
      const b = canonicalCall(call({ userId: 'u1', sessionId: 's9' }));
      expect(a).not.toBe(b);
    });

    it('is itself canonical JSON, stable across releases', () => {
      const text = canonicalCall(call());
      expect(canonicalJson(JSON.parse(text))).toBe(text);
      expect(text).toBe('{"args":{"limit":10,"query":"acme"},"org":"org_1","session":"s1","tool":"crm.search","user":"u1","v":1}');
    });
  });

  describe('the tool call alone (what a grant is bound to)', () => {
    it('is the tool name and canonical arguments, itself canonical JSON, stable across releases', () => {
      const text = canonicalToolCall({ toolName: 'crm.search', arguments: { query: 'acme', limit: 10 } });
      expect(text).toBe('{"args":{"limit":10,"query":"acme"},"tool":"crm.search","v":1}');
      expect(canonicalJson(JSON.parse(text))).toBe(text);
    });

    it('does not depend on key order; absent and empty arguments are the same call', () => {
      expect(canonicalToolCall({ toolName: 't', arguments: { b: 1, a: [{ y: 1, x: 2 }] } })).toBe(
        canonicalToolCall({ toolName: 't', arguments: { a: [{ x: 2, y: 1 }], b: 1 } }),
      );
      expect(canonicalToolCall({ toolName: 't' })).toBe(canonicalToolCall({ toolName: 't', arguments: {} }));
    });

    it('differs with the tool name or any argument, and cannot be forged through the name', () => {
      const base = canonicalToolCall({ toolName: 't', arguments: { a: 1 } });
      expect(canonicalToolCall({ toolName: 'u', arguments: { a: 1 } })).not.toBe(base);
      expect(canonicalToolCall({ toolName: 't', arguments: { a: '1' } })).not.toBe(base);
      expect(canonicalToolCall({ toolName: 't', arguments: { a: 1, b: null } })).not.toBe(base);
      expect(canonicalToolCall({ toolName: 't","v":1}', arguments: {} })).not.toBe(canonicalToolCall({ toolName: 't' }));
    });

    it('refuses arguments nested too deep with the same 400 as the approval fingerprint', () => {
      expect(() => canonicalToolCall({ toolName: 't', arguments: nest(MAX_ARGUMENT_DEPTH) })).not.toThrow();
      expect(() => canonicalToolCall({ toolName: 't', arguments: nest(MAX_ARGUMENT_DEPTH + 1) })).toThrow(AppError);
    });
  });
});
