import { IsInt, Max, Min } from 'class-validator';

/**
 * A whole-number setting from `min` to `max`: the env text is converted to a number (so the
 * config holds a number, never a string) and anything else fails start-up with `message`.
 */
export function IntSetting(name: string, min: number, max: number, message = `${name} must be an integer between ${min} and ${max}`): PropertyDecorator {
  return (target, key) => {
    for (const rule of [IsInt({ message }), Min(min, { message }), Max(max, { message })]) rule(target, key as string);
  };
}
