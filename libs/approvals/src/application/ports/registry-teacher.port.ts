import type { PolicyRegistryApi } from '@igw/contracts';

/**
 * What deciding an approval needs of the policy registry (POLICY_REGISTRY_API: in-process in
 * embedded mode, its internal HTTP routes in distributed mode): the org's active intentions (to
 * check a corrected `intent_label`) and storing or forgetting what an operator taught (DESIGN 6.15).
 */
export type RegistryTeacher = Pick<PolicyRegistryApi, 'activeIntentions' | 'teach' | 'forgetTaught'>;
