import { chooseLogFormat, prettyDestination, prettyLogLine } from './log-format';
import { createLogger } from './logger';

describe('LOG_FORMAT', () => {
  it.each([
    [undefined, true, 'pretty'],
    [undefined, false, 'json'],
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['json', true, 'json'],
    ['json', false, 'json'],
    ['pretty', false, 'pretty'],
    ['pretty', true, 'pretty'],
  ])('LOG_FORMAT=%s with a terminal %s writes %s', (setting, tty, format) => {
    expect(chooseLogFormat(setting, tty)).toBe(format);
  });
});

describe('createLogger by terminal and LOG_FORMAT', () => {
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  let written: string[];
  beforeEach(() => {
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });
  const onTerminal = (isTTY: boolean) => Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });

  it('writes readable lines on a terminal, with secrets still redacted', () => {
    onTerminal(true);
    createLogger('info', 'intent-gateway').info({ port: 8080, token: 's3cret' }, 'intent gateway listening');
    expect(written).toHaveLength(1);
    expect(written[0]).not.toMatch(/^\{/);
    const ESC = String.fromCharCode(27);
    expect(written[0]?.startsWith(`${ESC}[2m`)).toBe(true);
    expect(written[0]?.replaceAll(ESC, '')).toMatch(/^\[2m\d\d:\d\d:\d\d\.\d{3}\[0m .*INFO .*intent-gateway:.* intent gateway listening .*port=.*8080/);
    expect(written[0]).toContain('[redacted]');
    expect(written[0]).not.toContain('s3cret');
  });

  it('writes JSON on a terminal when LOG_FORMAT is json, and JSON elsewhere by default', () => {
    onTerminal(true);
    createLogger('info', 'igw', 'json').info('one');
    onTerminal(false);
    createLogger('info', 'igw').info('two');
    createLogger('info', 'igw', 'auto').info('three');
    expect(written.map((l) => JSON.parse(l).msg)).toEqual(['one', 'two', 'three']);
  });

  it('writes readable lines off a terminal when LOG_FORMAT is pretty', () => {
    onTerminal(false);
    createLogger('info', 'igw', 'pretty').warn({ n: 1 }, 'careful');
    expect(written).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}igw: careful n=1\n$/)]);
  });
});

describe('prettyLogLine', () => {
  it('puts time, level, service and message first, the other fields after, the error stack below', () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-11-27T12:04:05.123Z',
      pid: 1,
      hostname: 'h',
      service: 'approvals',
      name: 'approvals',
      msg: 'relay failed',
      schema: 'approvals',
      reason: 'two words',
      detail: { a: 1 },
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.js:1:1)' },
    });
    expect(prettyLogLine(line)).toBe(
      '12:04:05.123 ERROR approvals: relay failed schema=approvals reason="two words" detail={ a: 1 }\n    Error: boom\n        at x (y.js:1:1)\n',
    );
  });

  it('passes a line that is not JSON through', () => {
    expect(prettyLogLine('plain text')).toBe('plain text\n');
  });

  it('colours only for a terminal', () => {
    const out: string[] = [];
    prettyDestination({ write: (s: string) => out.push(s), isTTY: false }).write('{"level":30,"msg":"m"}');
    expect(out).toEqual(['INFO  m\n']);
  });
});
