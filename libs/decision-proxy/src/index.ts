// The decision proxy (issue 5) is being built domain-first; its module and routes are not wired yet.
export {};
