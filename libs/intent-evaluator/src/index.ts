// The intent evaluator (issue 3) is being built domain-first; its module and routes are not wired yet.
export {};
