// Identifier splitting: the first step of tokenize (tokenize.ts), also used on its own.

/**
 * Identifier splitting: any non-alphanumeric run separates (covers `_ . - /`, spaces, `__` in
 * MCP names), then camelCase / PascalCase / acronym boundaries (`getHTTPResponse` → get http
 * response) and letter/digit boundaries.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, false, (w) => out.push(w));
  return out;
}

const enum Kind {
  Other,
  Lower,
  Upper,
  Digit,
}

function kindOf(code: number): Kind {
  if (code >= 97 && code <= 122) return Kind.Lower;
  if (code >= 65 && code <= 90) return Kind.Upper;
  if (code >= 48 && code <= 57) return Kind.Digit;
  return Kind.Other;
}

/**
 * `splitWords` as a single pass over the characters, calling `emit` with each lowercased word.
 * With `dropDigitChunks`, a chunk between separators that holds a digit (`Nf82kd0`) is skipped
 * whole, before camelCase splitting would cut it into pseudo-words.
 */
export function forEachWord(text: string, dropDigitChunks: boolean, emit: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && kindOf(text.charCodeAt(i)) === Kind.Other) i++;
    const chunkStart = i;
    let hasDigit = false;
    while (i < n) {
      const k = kindOf(text.charCodeAt(i));
      if (k === Kind.Other) break;
      if (k === Kind.Digit) hasDigit = true;
      i++;
    }
    if (chunkStart === i || (dropDigitChunks && hasDigit)) continue;
    let start = chunkStart;
    for (let j = chunkStart + 1; j < i; j++) {
      const prev = kindOf(text.charCodeAt(j - 1));
      const cur = kindOf(text.charCodeAt(j));
      const boundary =
        (prev === Kind.Lower && cur === Kind.Upper) ||
        (prev === Kind.Upper && cur === Kind.Upper && j + 1 < i && kindOf(text.charCodeAt(j + 1)) === Kind.Lower) ||
        (prev === Kind.Digit) !== (cur === Kind.Digit);
      if (boundary) {
        emit(text.slice(start, j).toLowerCase());
        start = j;
      }
    }
    emit(text.slice(start, i).toLowerCase());
  }
}
