import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** One message per bad setting (its first failed rule), in one line. */
function problems(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => {
    const constraint = Object.values(e.constraints ?? {})[0];
    return constraint ? [constraint] : problems(e.children ?? []);
  });
}

/** Validates `env` against the schema class; throws ConfigError naming the first bad setting. */
export function parseConfig<T extends object>(schema: new () => T, env: Record<string, string | undefined>): T {
  // Empty strings count as unset so `FOO=` in a .env file does not sneak past a default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(schema, cleaned, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: true });
  if (errors.length > 0) throw new ConfigError(problems(errors).join('; '));
  return config;
}

/** Start-up entry: a bad or missing setting prints one clear line and exits non-zero. */
export function loadConfigOrExit<T extends object>(schema: new () => T, env = process.env): T {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`intent-gateway: configuration error: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
