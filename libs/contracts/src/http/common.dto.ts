import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';

export class ErrorDetailDto {
  @ApiProperty({ example: 'label' }) path!: string;
  @ApiProperty({ example: 'label must match ^[a-z0-9][a-z0-9_.-]{0,62}$' }) message!: string;
}

/** Every error answer (DESIGN 6.2). */
export class ErrorDto {
  @ApiProperty({ example: 'invalid_request' }) code!: string;
  @ApiProperty({ example: 'label must match ^[a-z0-9][a-z0-9_.-]{0,62}$' }) message!: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto] }) details?: ErrorDetailDto[];
}

export const LABEL_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

/**
 * A keyset page (DESIGN 6.12) of `item`: the list DTOs extend it, so each keeps its own schema name
 * while `data` and `next_cursor` are written once. `cursorDescription` documents `next_cursor`.
 */
export function PageOf<T>(item: Type<T>, cursorDescription?: string) {
  class Page {
    @ApiProperty({ type: [item] }) data!: T[];
    @ApiProperty({ nullable: true, type: String, ...(cursorDescription === undefined ? {} : { description: cursorDescription }) })
    next_cursor!: string | null;
  }
  return Page;
}
