// The classification bench's business vocabulary (see classification-corpus.mjs): sources and
// objects per domain, teams, regions, purposes and the words intention texts are made of.

// domain → sources [id, display name, the objects it has (default: all of the domain's)] and
// objects { key: 'plural|field,field,…' } (most common first).
export const DOMAINS = {
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
export const DOMAIN_ORDER = ['crm', 'support', 'eng', 'billing', 'comms', 'data', 'hr', 'finance', 'it', 'incident', 'docs', 'marketing', 'recruiting', 'cloud', 'payroll', 'commerce', 'legal'];

export const TEAMS = [
  'sales', 'customer success', 'support', 'account management', 'revenue operations', 'finance', 'engineering', 'platform',
  'security', 'it helpdesk', 'people operations', 'recruiting', 'marketing', 'data', 'accounting', 'payroll', 'sre', 'legal',
  'procurement', 'solutions engineering', 'growth', 'product', 'demand generation', 'partnerships', 'compliance', 'treasury',
  'internal audit', 'trust and safety', 'developer relations', 'facilities', 'mobile', 'billing operations', 'executive office',
  'talent acquisition', 'enablement', 'field marketing', 'customer education', 'quality assurance', 'analytics engineering',
];
export const REGIONS = ['emea', 'apac', 'amer', 'latam', 'dach', 'nordics', 'uk', 'france', 'japan', 'anz', 'india', 'benelux', 'iberia', 'canada', 'brazil', 'mea'];
export const PURPOSES = [
  'customer questions', 'customer call preparation', 'renewal forecasting', 'the quarterly business review',
  'month-end close', 'audit preparation', 'board reporting', 'churn investigation', 'pipeline review', 'incident follow-up',
  'employee onboarding', 'employee offboarding', 'a compliance review', 'territory planning', 'capacity planning',
  'the weekly forecast call', 'escalation handling', 'account handover', 'tax filing', 'budget planning', 'vendor due diligence',
  'the security review', 'release planning', 'hiring plan updates', 'headcount planning', 'collections follow-up',
  'cost optimisation', 'campaign attribution', 'customer health scoring', 'the on-call handover', 'access reviews',
  'SOC 2 evidence collection', 'revenue recognition', 'expansion targeting', 'win-loss analysis', 'product feedback triage',
];
export const SITUATIONS = ['a customer call', 'a support escalation', 'a deal review', 'an incident', 'a manager request', 'the weekly sync', 'a renewal discussion', 'an audit request'];
export const INSIGHTS = ['churn drivers', 'seasonal patterns', 'regional differences', 'outliers worth a follow-up', 'the main cost drivers', 'leading indicators of expansion', 'bottlenecks', 'trends by segment'];
export const CADENCES = ['weekly', 'monthly', 'quarterly', 'daily', 'annual'];
// Org-specific custom fields are pairs of everyday business words (renewal_risk, partner_tier).
export const FIELD_WORDS = [
  'renewal', 'risk', 'score', 'partner', 'tier', 'region', 'segment', 'health', 'churn', 'expansion', 'nps', 'arr', 'quota',
  'commission', 'territory', 'priority', 'escalation', 'legacy', 'migration', 'sso', 'seat', 'usage', 'overage', 'credit',
  'contract', 'champion', 'sponsor', 'budget', 'approval', 'fiscal', 'vertical', 'channel', 'referral', 'onboarding', 'trial',
  'sandbox', 'compliance', 'gdpr', 'hipaa', 'residency', 'language', 'timezone', 'csat', 'backlog', 'roadmap', 'launch',
  'beta', 'feature', 'adoption', 'retention', 'lifetime', 'value', 'margin', 'discount', 'invoice', 'billing', 'procurement',
  'security', 'questionnaire', 'rollout', 'cohort', 'persona', 'intent', 'signal', 'enrichment', 'duplicate', 'owner', 'handoff',
];
