// The classification domain (DESIGN 6.4, 6.15): the call's query, the lexical layer's candidates,
// features and ranker over the shared lexical index (@igw/lexical-index), bindings, examples and
// the certainty rule.
export * from './call-query';
export * from './candidate-features';
export * from './lexical-ranker';
export * from './lexical-classifier';
export * from './tool-bindings';
export * from './call-signature';
export * from './intention-examples';
export * from './match-verdict';
export { LexicalIndex, type QueryTerm } from '@igw/lexical-index';
