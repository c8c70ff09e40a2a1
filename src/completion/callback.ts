// `fsapi __complete`: what the shell runs on every Tab. It reads the profiles file and the bank cache
// (never writes, never calls the API), asks the engine, and prints the answer in the format
// src/completion/scripts.ts reads. It must stay fast: no Context, no profile store, no zod.
import type { Command } from 'commander';
import { resolvePaths } from '../common/paths.js';
import { complete, type Completion } from './engine.js';
import { readCachedBanks, readSavedPayees, readSavedProfiles, type SavedProfiles } from './local-state.js';

export interface CompletionRequest {
  /** bash: the command line up to the cursor, program name included. */
  line?: string | undefined;
  /** zsh, fish: the words after the program name, the last being the one under the cursor. */
  words?: readonly string[] | undefined;
}

export function answerCompletion(root: Command, request: CompletionRequest, env: Readonly<Record<string, string | undefined>>): string {
  const words = request.line !== undefined ? splitCommandLine(request.line).slice(1) : [...(request.words ?? [])];
  // Still on the program name itself: nothing to offer.
  if (words.length === 0) return formatCompletion({ files: false, candidates: [] });
  const paths = resolvePaths(env);
  let saved: SavedProfiles | undefined;
  const readSaved = () => (saved ??= readSavedProfiles(paths.configDir));
  const result = complete(root, words, {
    profiles: () => [...new Set(['local', ...readSaved().profiles.map((profile) => profile.name)])].sort(),
    banks: (profile) => readCachedBanks(paths.dataDir, profile ?? (env.FSAPI_PROFILE || readSaved().defaultName || 'local')),
    payees: (profile) => readSavedPayees(paths.dataDir, profile ?? (env.FSAPI_PROFILE || readSaved().defaultName || 'local')),
  });
  return formatCompletion(result);
}

export function formatCompletion(result: Completion): string {
  const lines = [result.files ? ':files' : ':values'];
  for (const candidate of result.candidates) {
    // A tab or newline inside a value would break the line format; no real value has one.
    const value = candidate.value.replace(/[\t\r\n]+/g, ' ');
    const description = candidate.description?.replace(/[\t\r\n]+/g, ' ');
    lines.push(description ? `${value}\t${description}` : value);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Splits a command line the way a POSIX shell would for our purpose: whitespace separates words; single
 * quotes, double quotes and backslashes quote. The last word is the one being typed (unfinished quotes
 * allowed), or '' when the line ends with a space.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += char;
      continue;
    }
    if (char === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    word += char;
    inWord = true;
  }
  words.push(word);
  return words;
}
