// A BM25F inverted index over intention documents, with its tokenizer (DESIGN 6.4).
export * from './tokenize';
export * from './stem';
export * from './document';
export { LexicalIndex } from './lexical-index';
