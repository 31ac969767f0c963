/**
 * Two finance intentions and a call that neither is certain of (DESIGN 6.15): the lexical layer
 * ranks the ledger intention first, under the bar, so the call waits for a human. Shared by the
 * suites that teach from the approval queue (API and console).
 */
export const LEDGER_INTENTION = {
  label: 'finance.ledger_lookup',
  intent_class: 'lookup',
  display_name: 'Look up ledger entries',
  description: 'Read general ledger entries and balances to answer a finance question.',
} as const;

export const PAYOUTS_INTENTION = {
  label: 'finance.payout_review',
  intent_class: 'lookup',
  display_name: 'Review payouts',
  description: 'Read Stripe payouts and their status to reconcile the bank account.',
} as const;

/** The uncertain call, with its arguments. */
export const ledgerCall = (args: Record<string, unknown>) => ({ tool_call: { name: 'erp.fetch_ledger_entry', arguments: args } });
