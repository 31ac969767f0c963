// A BM25F inverted index over intention documents, with its tokenizer (DESIGN 6.4).
export { splitWords } from './words';
export * from './vocabulary';
export * from './concepts';
export * from './tokenize';
export * from './exclusions';
export * from './stem';
export * from './document';
export { LexicalIndex } from './lexical-index';
