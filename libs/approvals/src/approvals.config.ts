import { BaseConfig, ServiceUrlSetting } from '@igw/config';

/**
 * Settings of the approvals service: the registry's URL (distributed), where deciding with
 * `remember` or `intent_label` (DESIGN 6.15) checks intentions and stores examples.
 */
export class ApprovalsConfig extends BaseConfig {
  /** Where the policy-registry service answers (distributed); several comma-separated URLs are balanced. */
  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;
}
