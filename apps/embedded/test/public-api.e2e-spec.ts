import {
  describeFailSafeClassification,
  describeIntentEvaluation,
  describeMandates,
  describeMcpProxy,
  describePublicApi,
  describeWebhooks,
  startEmbeddedSystem,
} from '@igw/testing';

describePublicApi('embedded', () => startEmbeddedSystem());
describeIntentEvaluation('embedded', () => startEmbeddedSystem());
describeFailSafeClassification('embedded', () => startEmbeddedSystem());
describeMandates('embedded', () => startEmbeddedSystem());
describeMcpProxy('embedded', () => startEmbeddedSystem());
describeWebhooks('embedded', (env) => startEmbeddedSystem({ env }));
