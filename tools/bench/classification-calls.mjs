// The classification bench's fixed mix of agent tool calls (see classification-scale.mjs).

const user = (content) => ({ role: 'user', content });
const assistant = (content) => ({ role: 'assistant', content });

/** A fixed mix of agent tool calls; `ambient: true` where no business intention should match. */
export const CALLS = [
  {
    toolName: 'hubspot.get_contact',
    arguments: { contactId: '51', properties: ['email', 'phone', 'lifecyclestage'] },
    conversationContext: [user("Who's the contact at Acme for the renewal, and what's their phone number?")],
  },
  { toolName: 'hubspot-search-objects', arguments: { objectType: 'contacts', query: 'jane.doe@initech.com', properties: ['firstname', 'lastname'] } },
  {
    toolName: 'stripe_list_invoices',
    arguments: { customer: 'cus_Nf82kd0', status: 'open', limit: 20 },
    conversationContext: [user('Does Globex have any unpaid invoices?')],
  },
  {
    toolName: 'exportDealsCsv',
    arguments: { pipeline: 'enterprise', stage: 'closed won', quarter: '2024-Q3' },
    conversationContext: [user('Export all closed-won deals this quarter to a CSV for finance.')],
  },
  {
    toolName: 'zendesk.search_tickets',
    arguments: { query: 'refund request', status: 'open', sort_by: 'priority' },
    conversationContext: [user('How many open refund tickets do we have?')],
  },
  { toolName: 'jira_create_issue', arguments: { project_key: 'ENG', summary: 'Checkout page returns 500 on submit', issue_type: 'Bug', priority: 'High' } },
  {
    toolName: 'github.list_pull_requests',
    arguments: { owner: 'acme', repo: 'billing-service', state: 'open' },
    conversationContext: [user('What PRs are waiting for review on the billing service?')],
  },
  { toolName: 'mcp__slack__post_message', arguments: { channel: 'C024BE91L', text: 'Deploy finished for billing-service v2.3.1' } },
  {
    toolName: 'gmail.send_email',
    arguments: { to: 'jane@example.com', subject: 'Your invoice is overdue', body: 'Hi Jane, a friendly reminder that invoice 1042 is past due.' },
    conversationContext: [user('Chase Jane about the overdue invoice.'), assistant('I found invoice 1042, 30 days overdue.')],
  },
  {
    toolName: 'snowflake.execute_query',
    arguments: { sql: 'SELECT region, SUM(arr) FROM revenue GROUP BY 1', warehouse: 'ANALYTICS_WH' },
    conversationContext: [user("What's our ARR by region?")],
  },
  { toolName: 'postgres_query', arguments: { query: 'select id, total from orders where status = $1', params: ['pending'] } },
  {
    toolName: 'workday.getEmployee',
    arguments: { employee_id: 'E10442', fields: ['manager', 'department', 'location'] },
    conversationContext: [user("Who is Priya's manager?")],
  },
  { toolName: 'okta.deactivate_user', arguments: { userId: '00u1ab2cd3EfGh4' }, conversationContext: [user('Offboard Tom, his last day was Friday.')] },
  { toolName: 'salesforce_query', arguments: { soql: "SELECT Name, StageName FROM Opportunity WHERE CloseDate = THIS_QUARTER AND Owner.Name = 'Sam'" } },
  { toolName: 'salesforce.update_opportunity', arguments: { opportunity_id: '0065e00000AbCdE', stage: 'Negotiation', amount: 120000 } },
  { toolName: 'intercom.reply_to_conversation', arguments: { conversation_id: '215', body: 'Thanks for reaching out, we are looking into it now.' } },
  {
    toolName: 'pagerduty.list_incidents',
    arguments: { statuses: ['triggered', 'acknowledged'], urgency: 'high' },
    conversationContext: [user("What's currently on fire?")],
  },
  { toolName: 'datadog_get_metrics', arguments: { query: 'avg:system.cpu.user{service:api}', from: 'now-1h' } },
  { toolName: 'google_calendar.create_event', arguments: { summary: 'QBR with Initech', start: '2024-10-02T15:00:00Z', attendees: ['ana@initech.com'] } },
  { toolName: 'greenhouse.list_candidates', arguments: { job_id: '4012', stage: 'onsite interview' } },
  {
    toolName: 'bamboohr_get_time_off_requests',
    arguments: { start: '2024-12-01', end: '2024-12-31', status: 'approved' },
    conversationContext: [user("Who's out over the holidays?")],
  },
  { toolName: 'netsuite.get_vendor', arguments: { vendor_id: 'V-2231' } },
  { toolName: 'expensify.list_expenses', arguments: { employee_email: 'tom@ourco.com', month: '2024-09', category: 'travel' } },
  { toolName: 'shopify.get_order', arguments: { order_id: '1042' }, conversationContext: [user('Where is my order? It was supposed to arrive yesterday.')] },
  { toolName: 'notion.search', arguments: { query: 'Q4 launch plan' } },
  { toolName: 'confluence_get_page', arguments: { space_key: 'ENG', title: 'On-call runbook' } },
  {
    toolName: 'docusign.list_envelopes',
    arguments: { status: 'sent', from_date: '2024-09-01' },
    conversationContext: [user('Which contracts are still waiting for a signature?')],
  },
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
  {
    ambient: true,
    toolName: 'reminders.set_reminder',
    arguments: { in_minutes: 15, message: 'stand-up' },
    conversationContext: [user('Remind me about stand-up in 15 minutes.')],
  },
];
