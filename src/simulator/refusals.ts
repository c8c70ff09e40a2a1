// Why the simulator refuses a request body, in the words a developer can act on: "field: rule", e.g.
// "emailAddress: required", "dateOfBirth: expected YYYY/MM/DD", "narration: must not be empty". The
// answer's `message` keeps the real API's wording; these go in its `reason` field, next to it.
import type * as z from 'zod/mini';

type Issue = z.core.$ZodIssue;

/** Format rules the schemas hold as bare patterns, said the way the spec says them. */
const FORMAT_RULES: Readonly<Record<string, string>> = {
  dateOfBirth: 'expected YYYY/MM/DD',
};

/** One "field: rule" per problem, joined with "; ". `body` is the parsed JSON the issues are about. */
export function describeIssues(issues: readonly Issue[], body: unknown): string {
  return issues.map((issue) => `${issue.path.join('.') || 'body'}: ${ruleOf(issue, body)}`).join('; ');
}

function ruleOf(issue: Issue, body: unknown): string {
  if (issue.path.length > 0 && valueAt(body, issue.path) === undefined) return 'required';
  switch (issue.code) {
    case 'invalid_type':
      return issue.path.length === 0 ? 'expected a JSON object' : `expected ${typeName(issue.expected)}`;
    case 'invalid_union': {
      const expected = issue.errors.flat().flatMap((inner) => (inner.code === 'invalid_type' ? [typeName(inner.expected)] : []));
      return expected.length > 0 ? `expected ${[...new Set(expected)].join(' or ')}` : 'has the wrong form';
    }
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be more than ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    case 'invalid_format':
      return FORMAT_RULES[String(issue.path.at(-1))] ?? `has the wrong format (${issue.format})`;
    case 'invalid_value':
      return `expected ${issue.values.map((value) => String(value)).join(' or ')}`;
    default:
      return issue.message;
  }
}

function typeName(expected: string): string {
  return expected === 'object' || expected === 'array' ? `an ${expected}` : `a ${expected}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
