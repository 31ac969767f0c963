// The lexical classification layer (DESIGN 6.4): tokenizer, inverted index, classifier.
export * from './tokenize';
export * from './lexical-index';
export * from './lexical-classifier';
