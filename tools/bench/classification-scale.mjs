// Classification latency against the number of active intentions (in process, no system).
//
// For each N (default 10, 100, 1000, 10000) it generates N distinct, operator-style intentions
// from a seeded PRNG, builds the lexical index from the built dist/ output, then times
// `LexicalClassifier.classify` one call at a time over a fixed mix of realistic tool calls (some
// of them ambient: covered by no intention). One JSON line per N on stdout; diagnostics (the
// slowest calls, the commonest query terms) on stderr.
//
//   node tools/bench/classification-scale.mjs        (after `npm run build`)
//   BENCH_SCENARIOS=classification npm run bench     (builds first; no system is started)
//
// Environment: BENCH_CLASSIFICATION_SIZES (comma list, default 10,100,1000,10000),
// BENCH_CLASSIFICATION_CALLS (measured calls per N, default 20000), BENCH_CLASSIFICATION_WARMUP
// (unrecorded calls first, default 5000), BENCH_CLASSIFICATION_SEED (default 1).
//
// The corpus is one deterministic stream and each N takes its first N intentions, so the sets
// nest (10 ⊂ 100 ⊂ 1000 ⊂ 10000) the way an org's catalogue grows. Most words come from a fixed
// business vocabulary (sources, objects, fields, teams, purposes) drawn with skew, so common words
// get long posting lists; a tail of org-specific words (project code names, custom fields) keeps
// the vocabulary growing with N.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODULE = join(ROOT, 'dist/libs/intent-evaluator/src/domain/classification/index.js');
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

// ---- settings ------------------------------------------------------------------------------

function settings(env) {
  const int = (name, def, min) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}`);
    return v;
  };
  const sizes = (env.BENCH_CLASSIFICATION_SIZES ?? '10,100,1000,10000')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('BENCH_CLASSIFICATION_SIZES must be a comma list of positive integers');
  return {
    sizes,
    calls: int('BENCH_CLASSIFICATION_CALLS', 20_000, 1),
    warmup: int('BENCH_CLASSIFICATION_WARMUP', 5_000, 0),
    seed: int('BENCH_CLASSIFICATION_SEED', 1, 0),
  };
}

// ---- deterministic randomness --------------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks from `items` with Zipf-like skew `s` (0 = uniform): the first items are the common ones. */
function zipf(items, s) {
  const cum = [];
  let total = 0;
  for (let i = 0; i < items.length; i++) cum.push((total += 1 / (i + 1) ** s));
  return (rand) => {
    const x = rand() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}

/** An unbounded power-law rank (0, 1, 2, …): P(rank ≥ r) = (r + 1)^-alpha. */
const powerRank = (rand, alpha) => Math.floor((1 - rand()) ** (-1 / alpha)) - 1;

/** Pronounceable made-up word for rank r (project code names, in-house product names). */
function coinedWord(r, salt) {
  const onset = ['b', 'br', 'c', 'cr', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'kr', 'l', 'm', 'n', 'p', 'pr', 'qu', 'r', 's', 'st', 't', 'tr', 'v', 'z'];
  const vowel = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'y'];
  const coda = ['', '', '', 'n', 'r', 'l', 'x', 'k', 'm', 'th'];
  const rand = mulberry32((r + 1) * 2654435761 + salt);
  const syllables = 2 + (rand() < 0.45 ? 1 : 0);
  let w = '';
  for (let i = 0; i < syllables; i++) w += onset[Math.floor(rand() * onset.length)] + vowel[Math.floor(rand() * vowel.length)];
  return w + coda[Math.floor(rand() * coda.length)];
}

const pick = (rand, xs) => xs[Math.floor(rand() * xs.length)];
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const words = (id) => id.replace(/_/g, ' ');

// ---- the business vocabulary ---------------------------------------------------------------

// domain → sources [id, display name, the objects it has (default: all of the domain's)] and
// objects { key: 'plural|field,field,…' } (most common first).
const DOMAINS = {
  crm: {
    sources: [['salesforce', 'Salesforce'], ['hubspot', 'HubSpot'], ['pipedrive', 'Pipedrive'], ['dynamics', 'Dynamics 365'], ['attio', 'Attio'], ['close', 'Close']],
    objects: {
      contact: 'contacts|email,first_name,last_name,phone,job_title,owner,lifecycle_stage,lead_source,mailing_address,linkedin_url',
      account: 'accounts|name,owner,tier,industry,annual_revenue,employee_count,region,parent_account,billing_address,health_score',
      deal: 'deals|name,stage,amount,close_date,owner,probability,next_step,forecast_category,competitor,loss_reason',
      lead: 'leads|email,company,status,rating,lead_score,source,campaign,converted_date',
      activity: 'activities|type,subject,due_date,owner,outcome,related_to',
      note: 'notes|body,author,created_at,pinned',
      quote: 'quotes|number,line_items,discount,expiration_date,total,approval_status',
      territory: 'territories|name,owner,region,quota,accounts',
    },
  },
  billing: {
    sources: [['stripe', 'Stripe'], ['chargebee', 'Chargebee'], ['zuora', 'Zuora'], ['recurly', 'Recurly'], ['paddle', 'Paddle']],
    objects: {
      invoice: 'invoices|number,amount_due,status,due_date,customer,currency,line_items,tax_amount',
      subscription: 'subscriptions|plan,status,current_period_end,quantity,mrr,trial_end,cancel_at',
      customer: 'customers|email,name,payment_method,balance,tax_id,billing_address,currency',
      payment: 'payments|amount,status,card_last4,failure_code,receipt_url,captured_at',
      refund: 'refunds|amount,reason,status,charge,created_at',
      coupon: 'coupons|code,percent_off,duration,redemptions,expires_at',
      plan: 'plans|name,price,interval,features,trial_days',
    },
  },
  finance: {
    sources: [['netsuite', 'NetSuite'], ['quickbooks', 'QuickBooks'], ['xero', 'Xero'], ['brex', 'Brex', 'card_transaction,expense,budget'], ['expensify', 'Expensify', 'expense'], ['ramp', 'Ramp', 'card_transaction,expense,budget,bill'], ['billcom', 'Bill.com', 'bill,vendor']],
    objects: {
      expense: 'expenses|amount,category,merchant,receipt,employee,cost_center,submitted_at,policy_violation',
      vendor: 'vendors|name,tax_id,payment_terms,bank_account,contact_email,risk_rating',
      journal_entry: 'journal_entries|account,debit,credit,period,memo,subsidiary',
      purchase_order: 'purchase_orders|number,amount,status,approver,vendor,delivery_date',
      bill: 'bills|vendor,amount,due_date,status,gl_account,approver',
      budget: 'budgets|department,amount,period,owner,variance',
      card_transaction: 'card_transactions|amount,merchant,cardholder,category,receipt_status',
    },
  },
  support: {
    sources: [['zendesk', 'Zendesk'], ['intercom', 'Intercom'], ['freshdesk', 'Freshdesk'], ['servicenow', 'ServiceNow'], ['front', 'Front']],
    objects: {
      ticket: 'tickets|subject,status,priority,requester,assignee,tags,satisfaction_rating,first_response_time,group',
      conversation: 'conversations|subject,assignee,state,customer,channel,transcript',
      article: 'articles|title,body,section,locale,author,views',
      macro: 'macros|title,actions,restriction,usage_count',
      sla_policy: 'sla_policies|name,targets,business_hours,conditions',
      end_user: 'end_users|email,name,organization,phone,locale',
    },
  },
  eng: {
    sources: [['github', 'GitHub', 'issue,pull_request,repository,commit,build,release'], ['jira', 'Jira', 'issue,sprint,release'], ['gitlab', 'GitLab', 'issue,pull_request,repository,commit,build,release'], ['linear', 'Linear', 'issue,sprint'], ['confluence', 'Confluence', 'page'], ['circleci', 'CircleCI', 'build'], ['bitbucket', 'Bitbucket', 'pull_request,repository,commit,build']],
    objects: {
      issue: 'issues|title,status,assignee,priority,labels,sprint,story_points,reporter,component',
      pull_request: 'pull_requests|title,author,reviewers,state,branch,diff,checks,merged_at',
      repository: 'repositories|name,visibility,default_branch,topics,collaborators,branch_protection',
      commit: 'commits|sha,author,message,files_changed,committed_at',
      build: 'builds|status,branch,duration,logs,artifacts,triggered_by',
      release: 'releases|tag,notes,author,published_at,assets',
      page: 'pages|title,body,space,author,labels,last_updated',
      sprint: 'sprints|name,goal,start_date,end_date,velocity',
    },
  },
  incident: {
    sources: [['pagerduty', 'PagerDuty', 'incident,alert,on_call_schedule'], ['sentry', 'Sentry', 'error,alert'], ['datadog', 'Datadog', 'metric,monitor,log,alert,incident'], ['opsgenie', 'Opsgenie', 'alert,on_call_schedule,incident'], ['grafana', 'Grafana', 'metric,alert,log'], ['statuspage', 'Statuspage', 'incident']],
    objects: {
      incident: 'incidents|title,severity,status,responders,timeline,service,postmortem',
      alert: 'alerts|name,priority,status,monitor,triggered_at,acknowledged_by',
      error: 'errors|message,stack_trace,release,environment,user_count,first_seen',
      metric: 'metrics|name,tags,service,host,value,unit',
      monitor: 'monitors|name,query,thresholds,notify,muted',
      on_call_schedule: 'on_call_schedules|name,layers,users,rotation,timezone',
      log: 'logs|service,level,message,host,trace_id',
    },
  },
  comms: {
    sources: [['slack', 'Slack', 'message,channel'], ['gmail', 'Gmail', 'email,draft'], ['outlook', 'Outlook', 'email,calendar_event,draft'], ['msteams', 'Microsoft Teams', 'message,channel,meeting'], ['zoom', 'Zoom', 'meeting'], ['gcal', 'Google Calendar', 'calendar_event']],
    objects: {
      message: 'messages|channel,text,sender,thread,attachments,reactions,sent_at',
      email: 'emails|subject,body,recipients,sender,attachments,labels,thread',
      channel: 'channels|name,members,topic,purpose,visibility',
      calendar_event: 'calendar_events|title,attendees,start_time,end_time,location,description',
      meeting: 'meetings|topic,participants,duration,recording,transcript,host',
      draft: 'drafts|subject,body,recipients,scheduled_at',
    },
  },
  data: {
    sources: [['snowflake', 'Snowflake', 'table,query,dataset,job'], ['postgres', 'PostgreSQL', 'table,query'], ['bigquery', 'BigQuery', 'table,query,dataset,job'], ['redshift', 'Redshift', 'table,query'], ['databricks', 'Databricks', 'table,query,job,model'], ['mongodb', 'MongoDB', 'query,dataset'], ['dbt', 'dbt', 'model,job'], ['looker', 'Looker', 'dashboard,query'], ['tableau', 'Tableau', 'dashboard,dataset']],
    objects: {
      table: 'tables|schema,columns,row_count,owner,freshness,description',
      query: 'queries|sql,warehouse,result,runtime,user',
      dashboard: 'dashboards|title,tiles,filters,owner,schedule',
      model: 'models|name,sql,tests,materialization,owner',
      dataset: 'datasets|name,tables,access,location,retention',
      job: 'jobs|name,schedule,status,last_run,cluster',
    },
  },
  hr: {
    sources: [['workday', 'Workday'], ['bamboohr', 'BambooHR'], ['rippling', 'Rippling'], ['hibob', 'HiBob'], ['lattice', 'Lattice', 'performance_review'], ['personio', 'Personio']],
    objects: {
      employee: 'employees|name,email,department,manager,job_title,start_date,location,employment_type,home_address',
      time_off_request: 'time_off_requests|type,start_date,end_date,status,balance,approver',
      performance_review: 'performance_reviews|rating,goals,feedback,reviewer,cycle',
      compensation: 'compensation|salary,bonus,equity,pay_band,effective_date',
      org_chart: 'org_charts|manager,reports,department,cost_center',
      onboarding_task: 'onboarding_tasks|title,assignee,due_date,status,checklist',
    },
  },
  recruiting: {
    sources: [['greenhouse', 'Greenhouse'], ['lever', 'Lever'], ['ashby', 'Ashby'], ['workable', 'Workable']],
    objects: {
      candidate: 'candidates|name,email,resume,stage,source,recruiter,interview_feedback',
      job_posting: 'job_postings|title,department,hiring_manager,status,location,salary_range',
      interview: 'interviews|candidate,interviewers,scheduled_at,scorecard,stage',
      offer: 'offers|candidate,salary,start_date,status,approvers',
      referral: 'referrals|candidate,referrer,job,status',
    },
  },
  payroll: {
    sources: [['gusto', 'Gusto'], ['adp', 'ADP'], ['deel', 'Deel', 'contractor_payment,payslip,benefit'], ['remote', 'Remote', 'contractor_payment,payslip,benefit']],
    objects: {
      payroll_run: 'payroll_runs|period,gross_pay,net_pay,deductions,tax,status',
      payslip: 'payslips|employee,period,gross_pay,net_pay,tax_withheld',
      contractor_payment: 'contractor_payments|contractor,amount,currency,invoice,status',
      benefit: 'benefits|plan,enrollment,dependents,coverage_level,premium',
      tax_form: 'tax_forms|type,year,employee,status',
    },
  },
  it: {
    sources: [['okta', 'Okta', 'user,group,application,audit_event,role'], ['entra', 'Microsoft Entra ID', 'user,group,application,audit_event,role'], ['google_workspace', 'Google Workspace', 'user,group,device,audit_event'], ['jamf', 'Jamf', 'device'], ['kandji', 'Kandji', 'device'], ['onepassword', '1Password', 'vault_item,group,user']],
    objects: {
      user: 'users|email,status,groups,mfa_factors,last_login,manager,department',
      group: 'groups|name,members,rules,owners,description',
      application: 'applications|name,assignments,sso_settings,provisioning,status',
      device: 'devices|serial_number,os_version,owner,compliance_status,last_check_in,encryption',
      audit_event: 'audit_events|actor,action,target,ip_address,timestamp,outcome',
      role: 'roles|name,permissions,assignees,scope',
      vault_item: 'vault_items|title,vault,username,url,last_used',
    },
  },
  cloud: {
    sources: [['aws', 'AWS'], ['gcp', 'Google Cloud'], ['azure', 'Azure'], ['cloudflare', 'Cloudflare', 'dns_record'], ['vercel', 'Vercel', 'deployment'], ['kubernetes', 'Kubernetes', 'deployment,secret']],
    objects: {
      instance: 'instances|instance_type,state,region,tags,security_groups,launch_time',
      bucket: 'buckets|name,region,policy,encryption,public_access,versioning',
      dns_record: 'dns_records|name,type,content,ttl,proxied',
      deployment: 'deployments|service,version,replicas,status,environment,rollout',
      secret: 'secrets|name,version,rotation,last_accessed,owner',
      iam_policy: 'iam_policies|name,statements,attached_roles,principals',
      cost_report: 'cost_reports|service,amount,period,account,tags',
    },
  },
  docs: {
    sources: [['gdrive', 'Google Drive', 'document,file,folder,spreadsheet,comment'], ['notion', 'Notion', 'document,wiki_page,comment'], ['sharepoint', 'SharePoint', 'document,file,folder'], ['dropbox', 'Dropbox', 'file,folder'], ['box', 'Box', 'file,folder,comment'], ['coda', 'Coda', 'document,spreadsheet']],
    objects: {
      document: 'documents|title,owner,content,sharing_permissions,folder,last_modified',
      file: 'files|name,owner,size,mime_type,folder,shared_with',
      folder: 'folders|name,owner,members,parent,permissions',
      comment: 'comments|author,body,resolved,anchor',
      spreadsheet: 'spreadsheets|title,sheets,owner,cells,formulas',
      wiki_page: 'wiki_pages|title,body,space,owner,verified',
    },
  },
  marketing: {
    sources: [['marketo', 'Marketo', 'campaign,audience,landing_page,email_template'], ['mailchimp', 'Mailchimp', 'campaign,audience,email_template'], ['google_ads', 'Google Ads', 'campaign,audience'], ['linkedin_ads', 'LinkedIn Ads', 'campaign,audience'], ['segment', 'Segment', 'event,audience'], ['amplitude', 'Amplitude', 'event,funnel,cohort'], ['mixpanel', 'Mixpanel', 'event,funnel,cohort'], ['braze', 'Braze', 'campaign,audience,email_template,event']],
    objects: {
      campaign: 'campaigns|name,budget,status,audience,spend,clicks,conversions,start_date',
      audience: 'audiences|name,members,segment,size,consent',
      event: 'events|name,properties,user_id,timestamp,platform',
      funnel: 'funnels|steps,conversion_rate,segment,date_range',
      cohort: 'cohorts|definition,size,retention,created_by',
      landing_page: 'landing_pages|url,title,form,visits,conversion_rate',
      email_template: 'email_templates|name,subject,html,locale',
    },
  },
  commerce: {
    sources: [['shopify', 'Shopify'], ['bigcommerce', 'BigCommerce'], ['shipstation', 'ShipStation', 'shipment,order'], ['woocommerce', 'WooCommerce']],
    objects: {
      order: 'orders|order_number,total,status,shipping_address,line_items,customer,payment_status',
      product: 'products|title,price,inventory,sku,variants,collection',
      shipment: 'shipments|tracking_number,carrier,status,estimated_delivery,warehouse',
      return: 'returns|order,reason,status,refund_amount,items',
      discount: 'discounts|code,value,usage_limit,starts_at,ends_at',
      inventory_level: 'inventory_levels|sku,location,available,reorder_point',
    },
  },
  legal: {
    sources: [['docusign', 'DocuSign', 'envelope,template,contract'], ['ironclad', 'Ironclad', 'contract,template'], ['carta', 'Carta', 'equity_grant'], ['vanta', 'Vanta', 'control']],
    objects: {
      contract: 'contracts|title,counterparty,status,signers,expiry_date,value,renewal_terms',
      envelope: 'envelopes|subject,recipients,status,sent_at,documents',
      template: 'templates|name,clauses,owner,version',
      equity_grant: 'equity_grants|holder,shares,vesting_schedule,strike_price',
      control: 'controls|name,framework,owner,status,evidence',
    },
  },
};

// Which domains an org touches most (first = most intentions).
const DOMAIN_ORDER = ['crm', 'support', 'eng', 'billing', 'comms', 'data', 'hr', 'finance', 'it', 'incident', 'docs', 'marketing', 'recruiting', 'cloud', 'payroll', 'commerce', 'legal'];

const TEAMS = [
  'sales', 'customer success', 'support', 'account management', 'revenue operations', 'finance', 'engineering', 'platform',
  'security', 'it helpdesk', 'people operations', 'recruiting', 'marketing', 'data', 'accounting', 'payroll', 'sre', 'legal',
  'procurement', 'solutions engineering', 'growth', 'product', 'demand generation', 'partnerships', 'compliance', 'treasury',
  'internal audit', 'trust and safety', 'developer relations', 'facilities', 'mobile', 'billing operations', 'executive office',
  'talent acquisition', 'enablement', 'field marketing', 'customer education', 'quality assurance', 'analytics engineering',
];
const REGIONS = ['emea', 'apac', 'amer', 'latam', 'dach', 'nordics', 'uk', 'france', 'japan', 'anz', 'india', 'benelux', 'iberia', 'canada', 'brazil', 'mea'];
const PURPOSES = [
  'customer questions', 'customer call preparation', 'renewal forecasting', 'the quarterly business review',
  'month-end close', 'audit preparation', 'board reporting', 'churn investigation', 'pipeline review', 'incident follow-up',
  'employee onboarding', 'employee offboarding', 'a compliance review', 'territory planning', 'capacity planning',
  'the weekly forecast call', 'escalation handling', 'account handover', 'tax filing', 'budget planning', 'vendor due diligence',
  'the security review', 'release planning', 'hiring plan updates', 'headcount planning', 'collections follow-up',
  'cost optimisation', 'campaign attribution', 'customer health scoring', 'the on-call handover', 'access reviews',
  'SOC 2 evidence collection', 'revenue recognition', 'expansion targeting', 'win-loss analysis', 'product feedback triage',
];
const SITUATIONS = ['a customer call', 'a support escalation', 'a deal review', 'an incident', 'a manager request', 'the weekly sync', 'a renewal discussion', 'an audit request'];
const INSIGHTS = ['churn drivers', 'seasonal patterns', 'regional differences', 'outliers worth a follow-up', 'the main cost drivers', 'leading indicators of expansion', 'bottlenecks', 'trends by segment'];
const CADENCES = ['weekly', 'monthly', 'quarterly', 'daily', 'annual'];
// Org-specific custom fields are pairs of everyday business words (renewal_risk, partner_tier).
const FIELD_WORDS = [
  'renewal', 'risk', 'score', 'partner', 'tier', 'region', 'segment', 'health', 'churn', 'expansion', 'nps', 'arr', 'quota',
  'commission', 'territory', 'priority', 'escalation', 'legacy', 'migration', 'sso', 'seat', 'usage', 'overage', 'credit',
  'contract', 'champion', 'sponsor', 'budget', 'approval', 'fiscal', 'vertical', 'channel', 'referral', 'onboarding', 'trial',
  'sandbox', 'compliance', 'gdpr', 'hipaa', 'residency', 'language', 'timezone', 'csat', 'backlog', 'roadmap', 'launch',
  'beta', 'feature', 'adoption', 'retention', 'lifetime', 'value', 'margin', 'discount', 'invoice', 'billing', 'procurement',
  'security', 'questionnaire', 'rollout', 'cohort', 'persona', 'intent', 'signal', 'enrichment', 'duplicate', 'owner', 'handoff',
];

const CLASS_MIX = zipf(['lookup', 'write', 'reporting', 'analysis', 'export', 'admin', 'other'], 0.9);
const LABEL_VERBS = {
  lookup: ['lookup', 'read', 'view'],
  write: ['update', 'create', 'write', 'manage'],
  export: ['export'],
  admin: ['admin'],
  reporting: ['report', 'reporting'],
  analysis: ['analysis', 'insights'],
  other: ['sync'],
};
// Templates: {src} source name, {obj}/{objs} object, {Obj} capitalised, {f1}..{f3} fields, {team},
// {purpose}, {situation}, {insight}, {cadence}, {Cadence}.
const TEMPLATES = {
  lookup: {
    display: ['Look up {src} {objs}', '{Obj} lookup', 'View {obj} details', 'Find {objs} in {src}', '{Obj} lookup for {team}'],
    first: [
      'Look up a single {obj} in {src} by {f1} or {f2} for {purpose}.',
      'Read one {obj} record from {src}, including its {f1}, {f2} and {f3}, during {situation}.',
      'Retrieve {objs} from {src} by {f1} for {purpose}.',
      'View the {f1} and {f2} of a {obj} in {src} when the {team} team needs them.',
    ],
    extra: ['Read-only access.', 'Personal data such as {f3} must not be copied elsewhere.'],
  },
  write: {
    display: ['Update {src} {objs}', 'Create {obj}', 'Edit {obj} {f1}', 'Manage {objs}', 'Update {obj} records for {team}'],
    first: [
      'Create or update {objs} in {src}: {f1}, {f2} and {f3}.',
      'Edit the {f1} and {f2} of an existing {obj} in {src} after {situation}.',
      'Add a new {obj} to {src} with its {f1} and {f2}.',
      'Change the {f1} of {objs} in {src} for {purpose}.',
    ],
    extra: ['Deleting {objs} is not covered.', 'Changes are logged for the {team} team.', 'Bulk changes need a second reviewer.'],
  },
  export: {
    display: ['Export {src} {objs}', '{Obj} export', 'Bulk {obj} export for {team}', 'Download {objs}'],
    first: [
      'Bulk export of {objs} with {f1} and {f2} from {src} to a CSV file for {purpose}.',
      'Download all {objs} matching a filter on {f1} as a spreadsheet for {purpose}.',
      'Extract {obj} {f1} and {f2} from {src} into the data warehouse for {purpose}.',
    ],
    extra: ['Requires approval from the data owner.', 'Files must stay in the {team} shared drive.'],
  },
  admin: {
    display: ['Administer {src} {objs}', '{src} {obj} administration', 'Manage {obj} settings', '{Obj} admin for {team}'],
    first: [
      'Manage {obj} configuration in {src}: {f1}, {f2}, permissions and settings.',
      'Administer {src} {objs} for the {team} team, including {f1} and access control.',
      'Configure how {objs} work in {src}, such as {f1} and {f2} rules.',
    ],
    extra: ['Only workspace administrators may use it.', 'Changes are reviewed in the {cadence} access review.'],
  },
  reporting: {
    display: ['{src} {obj} report', '{Cadence} {obj} report', '{Obj} dashboard for {team}', '{Obj} {f1} summary'],
    first: [
      'Summarise {objs} by {f1} and {f2} for the {cadence} review.',
      'Build the {cadence} report of {obj} {f1} per {f2} for {team} leadership.',
      'Report on {objs} in {src} grouped by {f1} for {purpose}.',
    ],
    extra: ['Aggregates only.', 'Shared with the {team} team every {cadence} cycle.'],
  },
  analysis: {
    display: ['Analyse {obj} trends', '{Obj} {f1} analysis', '{src} {obj} analytics', '{Obj} insights for {team}'],
    first: [
      'Analyse {obj} {f1} and {f2} over time to find {insight}.',
      'Investigate patterns in {objs} ({f1}, {f2}) to explain {insight}.',
      'Compare {obj} {f1} across {f2} in {src} to spot {insight}.',
    ],
    extra: ['Results feed the {cadence} {team} review.', 'Individual records are not shared outside the team.'],
  },
  other: {
    display: ['Sync {src} {objs}', '{Obj} sync for {team}'],
    first: ['Keep {objs} in {src} in sync with the {team} systems, matching on {f1}.', 'Mirror {obj} {f1} and {f2} from {src} into internal tools.'],
    extra: ['Runs as a scheduled job.'],
  },
};

/**
 * The intention stream: an endless, deterministic sequence of distinct intentions. Each one is a
 * (source, object, class) from the skewed catalogue, written up from templates, with a team,
 * sometimes a region, a project code name or org-specific custom fields. Labels are unique:
 * the first `crm.contacts.lookup` gets the plain label, later variants a team/region suffix.
 */
function* intentionStream(seed) {
  const rand = mulberry32(seed);
  const domainOf = zipf(DOMAIN_ORDER, 0.9);
  const sourceOf = Object.fromEntries(Object.entries(DOMAINS).map(([d, v]) => [d, zipf(v.sources, 1.1)]));
  const objectOf = new Map();
  for (const { sources, objects } of Object.values(DOMAINS)) {
    for (const [id, , own] of sources) objectOf.set(id, zipf(own ? Object.keys(objects).filter((o) => own.split(',').includes(o)) : Object.keys(objects), 0.7));
  }
  const teamOf = zipf(TEAMS, 0.8);
  const fieldWordOf = zipf(FIELD_WORDS, 0.9);
  const purposeOf = zipf(PURPOSES, 0.6);
  const labels = new Set();
  for (let i = 0; ; i++) {
    const domain = domainOf(rand);
    const [sourceId, sourceName] = sourceOf[domain](rand);
    const objKey = objectOf.get(sourceId)(rand);
    const [plural, fieldList] = DOMAINS[domain].objects[objKey].split('|');
    const cls = CLASS_MIX(rand);
    const team = teamOf(rand);
    const region = rand() < 0.3 ? pick(rand, REGIONS) : undefined;
    // Code names: a heavy tail, so new ones keep appearing as the catalogue grows.
    const project = rand() < 0.4 ? coinedWord(powerRank(rand, 0.2), 7) : undefined;
    const fields = fieldList.split(',');
    const custom = [];
    for (let c = rand() < 0.35 ? 1 + Math.floor(rand() * 2) : 0; c > 0; c--) {
      const head = rand() < 0.5 ? coinedWord(powerRank(rand, 0.2), 13) : fieldWordOf(rand);
      custom.push(`${head}_${fieldWordOf(rand)}`);
    }
    const chosen = [];
    const pool = [...fields];
    while (chosen.length < 3 && pool.length) chosen.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
    if (custom.length && rand() < 0.6) chosen[2] = custom[0];

    const vars = {
      src: sourceName,
      obj: words(objKey),
      objs: words(plural),
      Obj: cap(words(objKey)),
      f1: words(chosen[0] ?? 'name'),
      f2: words(chosen[1] ?? chosen[0] ?? 'owner'),
      f3: words(chosen[2] ?? chosen[0] ?? 'status'),
      team: region ? `${region.toUpperCase()} ${team}` : team,
      purpose: purposeOf(rand),
      situation: pick(rand, SITUATIONS),
      insight: pick(rand, INSIGHTS),
      cadence: pick(rand, CADENCES),
    };
    vars.Cadence = cap(vars.cadence);
    const fill = (t) => t.replace(/\{(\w+)\}/g, (_, k) => vars[k]);
    const tpl = TEMPLATES[cls];
    let description = fill(pick(rand, tpl.first));
    const r = rand();
    if (r < 0.35) description += ` ${fill(pick(rand, tpl.extra))}`;
    else if (r < 0.6) description += ` Used by the ${vars.team} team${project ? ` for Project ${cap(project)}` : ''}.`;
    else if (project) description += ` Part of Project ${cap(project)}.`;
    // Key-account intentions name the customer (an org-specific word like the code names).
    if (rand() < 0.12) description += ` Scoped to the ${cap(coinedWord(powerRank(rand, 0.25), 29))} account.`;

    const base = `${domain}.${plural}.${pick(rand, LABEL_VERBS[cls])}`;
    const slug = (s) => s.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
    let label = base;
    for (const suffix of [slug(team), region && `${region}_${slug(team)}`, project && `${project}_${slug(team)}`, `${slug(team)}_${slug(vars.purpose)}`, `${slug(team)}_${i.toString(36)}`]) {
      if (!labels.has(label)) break;
      if (suffix) label = `${base}.${suffix}`;
    }
    if (labels.has(label)) continue;
    labels.add(label);

    const paths = new Set(chosen.map((f) => `${plural}.${f}`));
    while (paths.size < 2 + Math.floor(rand() * 3)) paths.add(`${plural}.${pick(rand, [...fields, ...custom])}`);
    let displayName = fill(pick(rand, tpl.display));
    if (project && rand() < 0.3) displayName += ` (${cap(project)})`;
    yield {
      id: `int_${Math.floor(rand() * 2 ** 52).toString(36).padStart(10, '0')}${i.toString(36)}`,
      label,
      displayName,
      description,
      intentClass: cls,
      dataElements: [...paths].map((path) => ({ dataSourceId: sourceId, path })),
      status: 'active',
    };
  }
}

// ---- the tool calls ------------------------------------------------------------------------

const user = (content) => ({ role: 'user', content });
const assistant = (content) => ({ role: 'assistant', content });

/** A fixed mix of agent tool calls; `ambient: true` where no business intention should match. */
const CALLS = [
  { toolName: 'hubspot.get_contact', arguments: { contactId: '51', properties: ['email', 'phone', 'lifecyclestage'] }, conversationContext: [user("Who's the contact at Acme for the renewal, and what's their phone number?")] },
  { toolName: 'hubspot-search-objects', arguments: { objectType: 'contacts', query: 'jane.doe@initech.com', properties: ['firstname', 'lastname'] } },
  { toolName: 'stripe_list_invoices', arguments: { customer: 'cus_Nf82kd0', status: 'open', limit: 20 }, conversationContext: [user('Does Globex have any unpaid invoices?')] },
  { toolName: 'exportDealsCsv', arguments: { pipeline: 'enterprise', stage: 'closed won', quarter: '2024-Q3' }, conversationContext: [user('Export all closed-won deals this quarter to a CSV for finance.')] },
  { toolName: 'zendesk.search_tickets', arguments: { query: 'refund request', status: 'open', sort_by: 'priority' }, conversationContext: [user('How many open refund tickets do we have?')] },
  { toolName: 'jira_create_issue', arguments: { project_key: 'ENG', summary: 'Checkout page returns 500 on submit', issue_type: 'Bug', priority: 'High' } },
  { toolName: 'github.list_pull_requests', arguments: { owner: 'acme', repo: 'billing-service', state: 'open' }, conversationContext: [user('What PRs are waiting for review on the billing service?')] },
  { toolName: 'mcp__slack__post_message', arguments: { channel: 'C024BE91L', text: 'Deploy finished for billing-service v2.3.1' } },
  { toolName: 'gmail.send_email', arguments: { to: 'jane@example.com', subject: 'Your invoice is overdue', body: 'Hi Jane, a friendly reminder that invoice 1042 is past due.' }, conversationContext: [user('Chase Jane about the overdue invoice.'), assistant('I found invoice 1042, 30 days overdue.')] },
  { toolName: 'snowflake.execute_query', arguments: { sql: 'SELECT region, SUM(arr) FROM revenue GROUP BY 1', warehouse: 'ANALYTICS_WH' }, conversationContext: [user("What's our ARR by region?")] },
  { toolName: 'postgres_query', arguments: { query: 'select id, total from orders where status = $1', params: ['pending'] } },
  { toolName: 'workday.getEmployee', arguments: { employee_id: 'E10442', fields: ['manager', 'department', 'location'] }, conversationContext: [user("Who is Priya's manager?")] },
  { toolName: 'okta.deactivate_user', arguments: { userId: '00u1ab2cd3EfGh4' }, conversationContext: [user('Offboard Tom, his last day was Friday.')] },
  { toolName: 'salesforce_query', arguments: { soql: "SELECT Name, StageName FROM Opportunity WHERE CloseDate = THIS_QUARTER AND Owner.Name = 'Sam'" } },
  { toolName: 'salesforce.update_opportunity', arguments: { opportunity_id: '0065e00000AbCdE', stage: 'Negotiation', amount: 120000 } },
  { toolName: 'intercom.reply_to_conversation', arguments: { conversation_id: '215', body: 'Thanks for reaching out, we are looking into it now.' } },
  { toolName: 'pagerduty.list_incidents', arguments: { statuses: ['triggered', 'acknowledged'], urgency: 'high' }, conversationContext: [user("What's currently on fire?")] },
  { toolName: 'datadog_get_metrics', arguments: { query: 'avg:system.cpu.user{service:api}', from: 'now-1h' } },
  { toolName: 'google_calendar.create_event', arguments: { summary: 'QBR with Initech', start: '2024-10-02T15:00:00Z', attendees: ['ana@initech.com'] } },
  { toolName: 'greenhouse.list_candidates', arguments: { job_id: '4012', stage: 'onsite interview' } },
  { toolName: 'bamboohr_get_time_off_requests', arguments: { start: '2024-12-01', end: '2024-12-31', status: 'approved' }, conversationContext: [user("Who's out over the holidays?")] },
  { toolName: 'netsuite.get_vendor', arguments: { vendor_id: 'V-2231' } },
  { toolName: 'expensify.list_expenses', arguments: { employee_email: 'tom@ourco.com', month: '2024-09', category: 'travel' } },
  { toolName: 'shopify.get_order', arguments: { order_id: '1042' }, conversationContext: [user('Where is my order? It was supposed to arrive yesterday.')] },
  { toolName: 'notion.search', arguments: { query: 'Q4 launch plan' } },
  { toolName: 'confluence_get_page', arguments: { space_key: 'ENG', title: 'On-call runbook' } },
  { toolName: 'docusign.list_envelopes', arguments: { status: 'sent', from_date: '2024-09-01' }, conversationContext: [user('Which contracts are still waiting for a signature?')] },
  { toolName: 'mailchimp.get_campaign_report', arguments: { campaign_id: '42f1a9' } },
  { toolName: 'amplitude.query_funnel', arguments: { events: ['signup', 'activate', 'subscribe'], segment: 'enterprise' } },
  { toolName: 'linear_update_issue', arguments: { issue_id: 'LIN-1423', state: 'In Progress', assignee: 'me' } },
  { toolName: 'sentry.list_issues', arguments: { project: 'web', query: 'is:unresolved level:error' } },
  { toolName: 'gdrive.download_file', arguments: { file_id: '1A2bC3dE4fG5' }, conversationContext: [user('Grab the signed MSA from the legal folder.')] },
  { toolName: 'hubspot-batch-update-objects', arguments: { objectType: 'contacts', inputs: [{ id: '1', properties: { lifecyclestage: 'customer' } }] } },
  { toolName: 'okta.list_group_members', arguments: { groupId: '00g1emaKYZTWRYYRRTSK' } },
  { toolName: 'bigquery.run_query', arguments: { query: 'SELECT country, COUNT(*) FROM events.signups GROUP BY country' } },
  // Ambient: utilities no business intention covers.
  { ambient: true, toolName: 'get_current_time', arguments: { timezone: 'Europe/Berlin' } },
  { ambient: true, toolName: 'weather.get_forecast', arguments: { city: 'Lisbon', days: 3 }, conversationContext: [user('Do I need an umbrella tomorrow?')] },
  { ambient: true, toolName: 'calculator.evaluate', arguments: { expression: '(120000*0.15)/12' } },
  { ambient: true, toolName: 'web_search', arguments: { query: 'best practices for writing release notes' } },
  { ambient: true, toolName: 'translate_text', arguments: { text: 'Thank you for your patience', target_language: 'de' } },
  { ambient: true, toolName: 'fs.read_file', arguments: { path: '/home/agent/notes.txt' } },
  { ambient: true, toolName: 'think', arguments: { thought: 'I should check the customer record before replying.' } },
  { ambient: true, toolName: 'browser.navigate', arguments: { url: 'https://news.ycombinator.com' } },
  { ambient: true, toolName: 'reminders.set_reminder', arguments: { in_minutes: 15, message: 'stand-up' }, conversationContext: [user('Remind me about stand-up in 15 minutes.')] },
];

// ---- measuring -----------------------------------------------------------------------------

function loadGc() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
}

const MB = 1024 * 1024;
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];

function runSize(lib, docs, cfg, gc) {
  const { LexicalIndex, LexicalClassifier, buildQuery, documentFields } = lib;
  const n = docs.length;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const index = new LexicalIndex();
  index.upsertMany(docs);
  const buildMs = performance.now() - t0;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const terms = new Set();
  for (const d of docs) for (const list of Object.values(documentFields(d))) for (const t of list) terms.add(t);

  const classifier = new LexicalClassifier(index);
  // A fixed shuffled order of the mix (same for every N), so no call always follows the same one.
  const rand = mulberry32(cfg.seed ^ 0x5bd1e995);
  const order = Int32Array.from({ length: cfg.calls }, (_, i) => i % CALLS.length);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (let i = 0; i < cfg.warmup; i++) classifier.classify(CALLS[i % CALLS.length]);
  let matched = 0;
  const lat = new Float64Array(cfg.calls);
  const startAll = performance.now();
  for (let i = 0; i < cfg.calls; i++) {
    const call = CALLS[order[i]];
    const s = performance.now();
    const r = classifier.classify(call);
    lat[i] = performance.now() - s;
    if (r.decision.kind === 'intention') matched++;
  }
  const totalMs = performance.now() - startAll;

  // Per-call diagnostics: which calls are slow at this N, and how long their terms' lists are.
  const perCall = CALLS.map(() => []);
  for (let i = 0; i < cfg.calls; i++) perCall[order[i]].push(lat[i]);
  const slowest = perCall
    .map((xs, c) => {
      const sorted = Float64Array.from(xs).sort();
      const q = buildQuery(CALLS[c]);
      const dfs = q.map((t) => index.documentFrequency(t.term)).filter((d) => d > 0);
      return { c, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), postings: dfs.reduce((a, b) => a + b, 0), maxDf: Math.max(0, ...dfs) };
    })
    .sort((a, b) => b.p99 - a.p99)
    .slice(0, 3);
  const ambientOk = CALLS.filter((c) => c.ambient && classifier.classify(c).decision.kind === 'ambient').length;
  const common = ['read', 'write', 'export', 'report', 'customer', 'account']
    .map((t) => `${t}=${index.documentFrequency(t)}`)
    .join(' ');
  log(
    `classification N=${n}: ${terms.size} terms, df ${common}; ambient calls judged ambient ${ambientOk}/${CALLS.filter((c) => c.ambient).length}; ` +
      `slowest p99: ${slowest.map((s) => `${CALLS[s.c].toolName} ${round(s.p99 * 1000)} µs (p50 ${round(s.p50 * 1000)}, postings ${s.postings}, max df ${s.maxDf})`).join('; ')}`,
  );

  const sorted = lat.sort();
  const us = (ms) => round(ms * 1000, 1);
  return {
    scenario: 'classification',
    intentions: n,
    terms: terms.size,
    p50_us: us(percentile(sorted, 0.5)),
    p99_us: us(percentile(sorted, 0.99)),
    p999_us: us(percentile(sorted, 0.999)),
    max_us: us(sorted[sorted.length - 1]),
    ops_per_s: Math.round(cfg.calls / (totalMs / 1000)),
    calls: cfg.calls,
    matched_share: round(matched / cfg.calls, 3),
    build_ms: round(buildMs, 1),
    index_heap_mb: round((heapAfter - heapBefore) / MB, 2),
    note: `in-process LexicalClassifier.classify, one call at a time over ${CALLS.length} tool calls (${CALLS.filter((c) => c.ambient).length} ambient), ${cfg.warmup} warm-up calls; index_heap_mb excludes the intention objects`,
  };
}

function main() {
  let cfg;
  try {
    cfg = settings(process.env);
  } catch (err) {
    log(err.message);
    return 2;
  }
  if (!existsSync(MODULE)) {
    log(`classification: ${MODULE} is missing; run \`npm run build\` first`);
    return 1;
  }
  const lib = createRequire(import.meta.url)(MODULE);
  const gc = loadGc();
  const max = Math.max(...cfg.sizes);
  const stream = intentionStream(cfg.seed);
  const all = Array.from({ length: max }, () => stream.next().value);
  for (const n of cfg.sizes) process.stdout.write(`${JSON.stringify(runSize(lib, all.slice(0, n), cfg, gc))}\n`);
  return 0;
}

process.exitCode = main();
