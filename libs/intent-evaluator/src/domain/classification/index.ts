// The lexical classification layer (DESIGN 6.4): the call's query, the candidates' features and
// the ranker over them, over the shared lexical index (@igw/lexical-index).
export * from './call-query';
export * from './candidate-features';
export * from './lexical-ranker';
export * from './lexical-classifier';
export { LexicalIndex, type QueryTerm } from '@igw/lexical-index';
