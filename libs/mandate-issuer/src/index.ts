// The mandate issuer (issue 4) is being built; see README.md.
export {};
