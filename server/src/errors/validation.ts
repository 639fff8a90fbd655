/** Bad input as one sentence naming each bad parameter: what every entry point answers with a 400. */
import type { z } from 'zod';
import { echo } from './answer';
import { ApiError } from './apiError';

interface Issue {
  path: Array<string | number>;
  message: string;
  code?: string;
  received?: unknown;
}
type Issues = { issues?: Issue[] } | null | undefined;

/** The issue's message, quoting at most ~100 characters of the value it refused (zod quotes it whole). */
function messageOf(issue: Issue): string {
  const { received } = issue;
  if (typeof received !== 'string' || received === echo(received)) return issue.message;
  return issue.message.split(received).join(echo(received));
}

/** `invalid request (name: problem; …)` over zod errors by where they were found (path, query, body…). */
export function describeIssues(groups: readonly [where: string, error: Issues][]): string {
  const parts: string[] = [];
  for (const [where, error] of groups) {
    for (const issue of error?.issues ?? []) {
      parts.push(`${issue.path.length > 0 ? issue.path.join('.') : where}: ${messageOf(issue)}`);
    }
  }
  return parts.length > 0 ? `invalid request (${parts.join('; ')})` : 'invalid request';
}

/** True when the request had no body at all where a JSON one is required. */
export function bodyMissing(error: Issues): boolean {
  return (error?.issues ?? []).some(
    (i) => i.path.length === 0 && i.code === 'invalid_type' && i.received === 'undefined',
  );
}

/** `value` parsed by `schema`, or a 400 invalid_request naming each bad parameter. */
export function parseOrRefuse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError('invalid_request', describeIssues([['params', parsed.error]]));
}
