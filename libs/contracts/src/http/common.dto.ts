import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
