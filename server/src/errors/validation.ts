/** Bad input as one sentence naming each bad parameter: what every entry point answers with a 400. */
import type { z } from 'zod';
import { ApiError } from './apiError';

type Issues = { issues?: Array<{ path: Array<string | number>; message: string }> } | null | undefined;

/** `invalid request (name: problem; …)` over zod errors by where they were found (path, query, body…). */
export function describeIssues(groups: readonly [where: string, error: Issues][]): string {
  const parts: string[] = [];
  for (const [where, error] of groups) {
    for (const issue of error?.issues ?? []) {
      parts.push(`${issue.path.length > 0 ? issue.path.join('.') : where}: ${issue.message}`);
    }
  }
  return parts.length > 0 ? `invalid request (${parts.join('; ')})` : 'invalid request';
}

/** `value` parsed by `schema`, or a 400 invalid_request naming each bad parameter. */
export function parseOrRefuse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError('invalid_request', describeIssues([['params', parsed.error]]));
}
