// The lexical classification layer (DESIGN 6.4): the classifier, over the shared lexical index
// (@igw/lexical-index: tokenizer, inverted index).
export * from './lexical-classifier';
export { LexicalIndex, type QueryTerm } from '@igw/lexical-index';
