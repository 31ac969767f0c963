import { Type } from 'class-transformer';
import { IsArray, IsInt, IsISO8601, IsString, Min, ValidateNested } from 'class-validator';
import type { OrgIdsDto } from './policy-registry-api';

/** One revoked mandate a verifier must refuse: its `cred_id` (the JWT `jti`) and when it expires anyway. */
export class RevokedCredentialDto {
  @IsString() cred_id!: string;
  /** The mandate's `exp`; a verifier may drop it from its revocation set once this is past (plus its clock leeway). */
  @IsISO8601() expires_at!: string;
}

/**
 * An org's revocations after one version of its revocation counter, read in one consistent
 * snapshot: `version` is the org's counter (0 when it never revoked a mandate) and `revoked` every
 * mandate of the org whose revocation numbered above the asked version and that has not been
 * expired for more than 5 minutes. A verifier that applies it is current up to `version`.
 */
export class RevocationsDto {
  @IsInt() @Min(0) version!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => RevokedCredentialDto) revoked!: RevokedCredentialDto[];
}

/**
 * How a verifier (the decision proxy) reads the mandate issuer's revocations synchronously when the
 * version board's `revocations:{org}` is ahead of what it applied: in-process in embedded mode
 * (MANDATE_ISSUER_API, exported by MandateIssuerModule), over HTTP in distributed mode
 * (`GET /internal/mandates/revocations?after=N`, internal token, caller headers naming the org —
 * the org is the caller's, never a parameter).
 */
export interface MandateIssuerApi {
  /** Revocations of the org numbered above `afterVersion` (a non-negative integer), with the org's current counter. */
  revocationsSince(orgId: string, afterVersion: number): Promise<RevocationsDto>;
  /** Every org that ever revoked a mandate (`GET /internal/mandates/revocation-orgs`, a service route). */
  orgsWithRevocations(): Promise<OrgIdsDto>;
}

export const MANDATE_ISSUER_API = Symbol('MANDATE_ISSUER_API');
