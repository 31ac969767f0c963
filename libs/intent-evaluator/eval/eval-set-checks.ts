import { INTENT_CLASSES } from '@igw/contracts';

/** FNV-1a (32 bit) of the UTF-8 bytes; the README's split rule. */
export const fnv1a = (text: string) => {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
};

/** The split a case id hashes to: FNV-1a of `intent-eval:<id>`, `% 10 < 3` is test. */
export const hashedSplit = (id: string) => (fnv1a(`intent-eval:${id}`) % 10 < 3 ? 'test' : 'dev');

interface CheckedIntention {
  label: string;
  intent_class: string;
  status: string;
  description: string;
  data_elements: unknown[];
}

/** Realistic operator intentions: enough active ones, unique valid labels, known classes, real descriptions. */
export function expectRealisticIntentions(intentions: readonly CheckedIntention[], minActive = 25): void {
  expect(intentions.filter((i) => i.status === 'active').length).toBeGreaterThanOrEqual(minActive);
  expect(new Set(intentions.map((i) => i.label)).size).toBe(intentions.length);
  for (const i of intentions) {
    expect(i.label).toMatch(/^[a-z0-9][a-z0-9_.-]{0,62}$/);
    expect(INTENT_CLASSES).toContain(i.intent_class);
    expect(i.description.length).toBeGreaterThan(20);
    expect(i.data_elements.length).toBeGreaterThan(0);
  }
}
