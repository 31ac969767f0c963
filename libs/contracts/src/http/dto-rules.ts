import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/**
 * Decorators stacked on a property apply bottom-up; applying these first to last in reverse keeps
 * the validation and OpenAPI metadata in the order the stacked form had (so error messages and the
 * document do not move).
 */
const stacked =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of [...decorators].reverse()) d(target, key);
  };

/** A required, non-empty string of at most `maxLength` characters. */
export function NonEmptyString(maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return stacked(ApiProperty(docs), IsString(), IsNotEmpty(), MaxLength(maxLength));
}

/** A required list of non-empty strings: at most `maxItems` of them (at least `minItems` when set), each at most `maxLength` long. */
export function StringList(docs: ApiPropertyOptions, limits: { maxItems: number; maxLength: number; minItems?: number }): PropertyDecorator {
  const size = limits.minItems === undefined ? [ArrayMaxSize(limits.maxItems)] : [ArrayMinSize(limits.minItems), ArrayMaxSize(limits.maxItems)];
  return stacked(ApiProperty(docs), IsArray(), ...size, IsString({ each: true }), IsNotEmpty({ each: true }), MaxLength(limits.maxLength, { each: true }));
}

/** A required nested object of `type` under `name`, with the messages clients see when it is missing or not an object. */
export function RequiredNested(type: new () => object, name: string): PropertyDecorator {
  return stacked(
    ApiProperty({ type }),
    IsDefined({ message: `${name} is required` }),
    IsObject({ message: `${name} must be an object` }),
    ValidateNested(),
    Type(() => type),
  );
}

/** An optional list of nested `type` objects, empty by default, at most `maxItems`. */
export function OptionalNestedList(type: new () => object, maxItems: number): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ type: [type], default: [] }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(() => type),
  );
}

/** An optional integer from `minimum` to `maximum`, `fallback` when absent (documented as the default). */
export function OptionalIntRange(minimum: number, maximum: number, fallback: number): PropertyDecorator {
  return stacked(ApiPropertyOptional({ default: fallback, minimum, maximum }), IsOptional(), IsInt(), Min(minimum), Max(maximum));
}

/** An optional flag, false when absent. */
export function OptionalFlag(): PropertyDecorator {
  return stacked(ApiPropertyOptional({ default: false }), IsOptional(), IsBoolean());
}

/** A server-assigned field a client may echo back: documented read-only, accepted and ignored. */
export function ServerAssigned(): PropertyDecorator {
  return stacked(ApiPropertyOptional({ readOnly: true }), Allow());
}
