// The classification bench's business vocabulary (see classification-corpus.mjs) is data, kept
// as JSON beside this file: domains with their sources and objects, teams, regions, purposes and
// the words intention texts are made of.
import { readFileSync } from 'node:fs';

const vocabulary = JSON.parse(readFileSync(new URL('./classification-vocabulary.json', import.meta.url), 'utf8'));

export const { DOMAINS, DOMAIN_ORDER, TEAMS, REGIONS, PURPOSES, SITUATIONS, INSIGHTS, CADENCES, FIELD_WORDS } = vocabulary;
