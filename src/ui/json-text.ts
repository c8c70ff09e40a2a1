// A JSON text shown to a person whole, readable and safe: indented two spaces a level, every token exactly as
// it was written (re-indented, never parsed and printed again, so `1000.0` stays `1000.0` and a 20-digit
// number keeps its digits: it shows what came), each line made safe for the terminal (src/common/
// sanitize.ts: a raw control or bidi character inside a string becomes U+FFFD) and folded at the width,
// the rest of a long line continuing under it, so nothing is cut.
import { terminalText } from '../common/sanitize.js';

/**
 * `text` re-indented, or undefined when it is not JSON. Whitespace between tokens is dropped and put back
 * as indentation; strings, numbers and literals are copied as written.
 */
export function indentJson(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  let out = '';
  let depth = 0;
  const newline = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '"') {
      // A string, escapes included, copied whole.
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end;
    } else if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      const next = nextToken(text, i + 1);
      if (text[next] === close) {
        out += `${char}${close}`;
        i = next;
      } else {
        depth += 1;
        out += char + newline();
      }
    } else if (char === '}' || char === ']') {
      depth -= 1;
      out += newline() + char;
    } else if (char === ',') {
      out += `,${newline()}`;
    } else if (char === ':') {
      out += ': ';
    } else if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') {
      out += char;
    }
  }
  return out;
}

function nextToken(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i += 1;
  return i;
}

/**
 * A JSON text (else any text) as terminal lines of at most `width` characters: indented when it is JSON,
 * each line sanitised, a longer line folded with its continuation indented under its start.
 */
export function jsonLines(text: string, width: number): string[] {
  const lines = (indentJson(text) ?? text).split('\n');
  const out: string[] = [];
  for (const raw of lines) {
    const chars = [...terminalText(raw)];
    if (chars.length <= width) {
      out.push(chars.join(''));
      continue;
    }
    // Continuation lines start two further in than the line's own indentation, so they read as one value.
    const indent = Math.min(raw.length - raw.trimStart().length + 2, Math.floor(width / 2));
    out.push(chars.slice(0, width).join(''));
    for (let at = width; at < chars.length; at += width - indent) out.push(' '.repeat(indent) + chars.slice(at, at + width - indent).join(''));
  }
  return out;
}
