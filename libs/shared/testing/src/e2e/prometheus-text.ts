/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests: every line must be
 * a HELP, a TYPE, a blank or a sample of a declared family, or it throws naming the line.
 */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** family name → type (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: MetricSample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

function parseValue(text: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): NaN and Inf in any case; prom-client writes `Nan`.
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a sample value: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const m = LABEL.exec(rest);
    if (!m) throw new Error(`malformed labels: ${line}`);
    if (m[1]! in labels) throw new Error(`label ${m[1]} repeated: ${line}`);
    labels[m[1]!] = m[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: MetricSample[] = [];
  const familyOf = (name: string): string | undefined => {
    if (types.has(name) && types.get(name) !== 'histogram') return name;
    for (const [family, type] of types) for (const suffix of SUFFIXES[type] ?? []) if (name === family + suffix) return family;
    return undefined;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      if (!new RegExp(`^# HELP ${NAME} `).test(line)) throw new Error(`malformed HELP: ${line}`);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      if (!m) throw new Error(`malformed TYPE: ${line}`);
      if (types.has(m[1]!)) throw new Error(`family ${m[1]} declared twice`);
      types.set(m[1]!, m[2]!);
      continue;
    }
    if (line.startsWith('#')) throw new Error(`unknown comment line: ${line}`);
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`malformed sample: ${line}`);
    if (!familyOf(m[1]!)) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2] ?? '', line), value: parseValue(m[3]!, line) });
  }
  return { types, samples };
}

/** Sum of the samples named `name` whose labels include `match`. */
export function sumOf(expo: Exposition, name: string, match: Record<string, string> = {}): number {
  return expo.samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((total, s) => total + s.value, 0);
}
