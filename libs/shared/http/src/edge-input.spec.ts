import { AppError } from '@igw/kernel';
import { MAX_BODY_DEPTH, findUnstorableString, parseJsonBody, pathBeyondDepth, pathParamsError, queryError, urlInputError } from './edge-input';

/** `levels` nested containers around `leaf`, as raw JSON text (objects with key `k`, or arrays). */
const nestedText = (levels: number, kind: 'object' | 'array' = 'object', leaf = '1') =>
  kind === 'object' ? `${'{"k":'.repeat(levels)}${leaf}${'}'.repeat(levels)}` : `${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`;

/** The AppError `fn` throws (fails the test when it throws nothing or something else). */
function refusal(fn: () => unknown): AppError & { extra: { details?: { path: string; message: string }[] } } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError & { extra: { details?: { path: string; message: string }[] } };
  }
  throw new Error('expected a refusal');
}

describe('edge input: JSON nesting', () => {
  it(`accepts ${MAX_BODY_DEPTH} levels and refuses ${MAX_BODY_DEPTH + 1}, objects and arrays alike`, () => {
    for (const kind of ['object', 'array'] as const) {
      expect(pathBeyondDepth(nestedText(MAX_BODY_DEPTH, kind))).toBeNull();
      expect(() => parseJsonBody(nestedText(MAX_BODY_DEPTH, kind))).not.toThrow();
      expect(pathBeyondDepth(nestedText(MAX_BODY_DEPTH + 1, kind))).not.toBeNull();
    }
  });

  it('names the first container that is too deep, keys and indexes included', () => {
    const body = `{"action":{"arguments":${nestedText(40)}},"b":[1]}`;
    // body = 1, action = 2, arguments = 3 (the first {"k":…}), so the 33rd level is arguments + 30 × k.
    expect(pathBeyondDepth(body)).toBe(`action.arguments.${Array(30).fill('k').join('.')}`);
    expect(pathBeyondDepth(`[0,{"x":[5,6,${nestedText(40, 'array')}]}]`)).toBe(`[1].x[2]${'[0]'.repeat(29)}`);
    expect(pathBeyondDepth(`{"a\\"b.c\\u0041":${nestedText(40)}}`)).toMatch(/^a"b\.cA\.k/);
    const err = refusal(() => parseJsonBody(body));
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBe(`body is nested deeper than 32 levels (at action.arguments.${Array(30).fill('k').join('.')})`);
    expect(err.extra.details).toEqual([{ path: `action.arguments.${Array(30).fill('k').join('.')}`, message: 'nests deeper than 32 levels' }]);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const brackets = '[{'.repeat(100);
    expect(pathBeyondDepth(JSON.stringify({ s: brackets, t: `\\"${brackets}`, u: ['"', '\\', brackets] }))).toBeNull();
    expect(pathBeyondDepth(`{"k":"\\\\"}${nestedText(5)}`)).toBeNull();
  });

  it('refuses 10,000 levels (and 1,000,000) linearly, without recursion, before parsing', () => {
    const huge = nestedText(1_000_000, 'array');
    const started = process.hrtime.bigint();
    const err = refusal(() => parseJsonBody(huge));
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
    expect(err.extra.details![0]!.path).toBe('[0]'.repeat(32));
    expect(refusal(() => parseJsonBody(Buffer.from(nestedText(10_000)))).message).toMatch(/^body is nested deeper than 32 levels/);
    // Not JSON either (unclosed, no keys): still a depth refusal naming the body.
    expect(refusal(() => parseJsonBody('{'.repeat(10_000))).extra.details![0]!.path).toBe('body');
  });
});

describe('edge input: strings the store cannot hold', () => {
  const refused = (text: string) => refusal(() => parseJsonBody(Buffer.from(text)));

  it.each([
    ['a lone high surrogate in a value', '{"user_id":"a\\ud800b"}', 'user_id'],
    ['a lone low surrogate in a value', '{"user_id":"\\uDC00"}', 'user_id'],
    ['a high surrogate at the end', '{"name":"x\\ud83d"}', 'name'],
    ['two high surrogates', '{"name":"\\ud83d\\ud83d"}', 'name'],
    ['reversed pair', '{"name":"\\ude00\\ud83d"}', 'name'],
    ['a nested argument', '{"tool_call":{"name":"t","arguments":{"x":"\\ud800"}}}', 'tool_call.arguments.x'],
    ['an array element', '{"data_elements":[{"data_source_id":"ok","path":"p"},{"data_source_id":"\\udbff","path":"p"}]}', 'data_elements[1].data_source_id'],
    ['the body itself', '"\\ud800"', 'body'],
  ])('refuses %s, naming the field', (_name, text, path) => {
    const err = refused(text);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toContain('lone surrogate');
    expect(err.extra.details).toEqual([{ path, message: err.message }]);
  });

  it('refuses a lone surrogate in an object key, naming the key', () => {
    const err = refused('{"context":{"ok":1,"\\ud800k":"v"}}');
    expect(err.extra.details![0]!.path).toBe('context.\ud800k');
    expect(err.message).toMatch(/^key context\..*k is not valid Unicode/);
    expect(refused('{"\\udc00":1}').extra.details![0]!.path).toBe('\udc00');
  });

  it('accepts valid surrogate pairs and emoji, escaped or raw', () => {
    for (const text of ['{"s":"\\ud83d\\ude00"}', '{"s":"😀 ok"}', '{"\\uD83D\\uDE00":["\\ud83d\\ude00"]}', '{"s":"\\\\ud800"}', '{"s":"\\u00e9\\u20ac"}']) {
      expect(() => parseJsonBody(Buffer.from(text))).not.toThrow();
    }
    expect(parseJsonBody(Buffer.from('{"s":"\\ud83d\\ude00"}'))).toEqual({ s: '😀' });
  });

  it('still refuses NUL in values and keys, naming the field', () => {
    const err = refused('{"label":"x","description":"a\\u0000b"}');
    expect(err.message).toBe('description must not contain the NUL character (\\u0000)');
    expect(err.extra.details).toEqual([{ path: 'description', message: err.message }]);
    expect(refused('{"a":{"b\\u0000":1}}').extra.details![0]!.path).toBe('a.b\u0000');
  });

  it('reports the first problem in document order', () => {
    expect(findUnstorableString({ a: { deep: ['ok', '\ud800'] }, z: 'x\u0000' })).toEqual({ path: 'a.deep[1]', problem: 'lone_surrogate', key: false });
    expect(findUnstorableString({ a: 'fine', ['\udc00']: 'fine' })).toEqual({ path: '\udc00', problem: 'lone_surrogate', key: true });
    expect(findUnstorableString({ a: [1, true, null, 2.5, 'ok'] })).toBeNull();
  });

  it('walks deep values without recursion', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableString(deep)).toMatchObject({ problem: 'lone_surrogate' });
  });

  it('refuses a body that is not UTF-8, bad JSON and proto poisoning; an empty body is undefined', () => {
    expect(refusal(() => parseJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]))).message).toBe(
      'request body is not valid UTF-8',
    );
    expect(refusal(() => parseJsonBody(Buffer.from('{"a":')))).toMatchObject({
      code: 'invalid_request',
      message: 'request body is not valid JSON: it ends too early',
    });
    expect(refusal(() => parseJsonBody(Buffer.from('{"a" 1}'))).message).toBe('request body is not valid JSON: syntax error at byte 5');
    expect(refusal(() => parseJsonBody(Buffer.from('{"__proto__":{"x":1}}'))).message).toBe(
      'request body is not valid JSON here: keys named __proto__, or constructor holding prototype, are refused',
    );
    expect(parseJsonBody(Buffer.from('  '))).toBeUndefined();
  });
});

describe('edge input: query strings and path parameters', () => {
  it.each([
    ['an encoded surrogate (invalid UTF-8)', 'user_id=%ED%A0%80', 'user_id', 'is not valid percent-encoded UTF-8'],
    ['a byte that is never UTF-8', 'limit=10&status=%FF', 'status', 'is not valid percent-encoded UTF-8'],
    ['a truncated sequence', 'cursor=%E2%82', 'cursor', 'is not valid percent-encoded UTF-8'],
    ['malformed escapes', 'q=100%', 'q', 'is not valid percent-encoded UTF-8'],
    ['NUL', 'user_id=a%00', 'user_id', 'must not contain the NUL character'],
    ['an encoded name', 'user%5Fid=%00', 'user_id', 'must not contain the NUL character'],
  ])('refuses %s, naming the parameter', (_name, query, path, message) => {
    const err = queryError(query)!;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBe(`${path} ${message}${message.includes('NUL') ? ' (%00)' : ''}`);
    expect(err.extra).toEqual({ details: [{ path, message: err.message }] });
  });

  it('refuses a bad parameter name, naming it as sent', () => {
    expect(queryError('%FF=1')!.extra).toEqual({ details: [{ path: '%FF', message: 'query parameter name %FF is not valid percent-encoded UTF-8' }] });
  });

  it('accepts valid encodings, emoji, plus signs and bare names', () => {
    for (const q of ['', 'limit=10', 'q=%F0%9F%98%80&r=caf%C3%A9', 'a+b=c+d', 'flag', 'x=%25', 'cursor=eyJ0IjoiMjAyNiJ9']) expect(queryError(q)).toBeNull();
  });

  it('refuses NUL or a lone surrogate in a decoded path parameter; a wildcard is named path', () => {
    expect(pathParamsError({ id: 'int_1\u0000' })!.extra).toEqual({ details: [{ path: 'id', message: 'id must not contain the NUL character (%00)' }] });
    expect(pathParamsError({ id: 'ok', name: '\ud800' })!.extra).toMatchObject({ details: [{ path: 'name' }] });
    expect(pathParamsError({ '*': 'v1/intentions/\u0000' })!.extra).toMatchObject({ details: [{ path: 'path' }] });
    expect(pathParamsError({ id: 'int_1', n: 5 })).toBeNull();
    expect(pathParamsError(undefined)).toBeNull();
  });

  it('checks both from the request URL', () => {
    expect(urlInputError('/v1/intentions?status=%FF', { id: 'ok' })!.extra).toMatchObject({ details: [{ path: 'status' }] });
    expect(urlInputError('/v1/intentions/x', { id: '\u0000' })!.extra).toMatchObject({ details: [{ path: 'id' }] });
    expect(urlInputError('/v1/intentions/x?limit=5', { id: 'x' })).toBeNull();
  });
});
