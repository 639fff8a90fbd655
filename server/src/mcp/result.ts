/** Turns a PropsApi answer or error into an MCP tool result. */

import type { CallToolResult } from '@modelcontextprotocol/server';
import { isPropsApiError, type PropsApiErrorShape } from '@propsfeed/contract';

/** Called with errors that are not API answers (bugs, a failed connection), so they get logged. */
export type UnexpectedErrorHandler = (err: unknown, tool: string) => void;

/** Structured content is the API's answer as-is; the text is the compact rendering of it. */
export function toolResult<T extends object>(value: T, text: string): CallToolResult {
  return { structuredContent: value as Record<string, unknown>, content: [{ type: 'text', text }] };
}

/** A tool error a model can act on: what went wrong, and the tier or wait that would fix it. */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

export function apiErrorText(err: PropsApiErrorShape & { candidates?: unknown }): string {
  const parts = [`${err.message} (error: ${err.code})`];
  if (err.requiredTier) parts.push(`This needs the ${err.requiredTier} tier or higher; upgrade the API key to use it.`);
  if (err.status === 429) {
    parts.push(
      err.retryAfter !== undefined
        ? `Retry after ${err.retryAfter} seconds.`
        : 'Retry later; the key is over its request limit.',
    );
  }
  if (Array.isArray(err.candidates) && err.candidates.length > 0) {
    parts.push(`Did you mean: ${err.candidates.join(', ')}?`);
  }
  return parts.join(' ');
}

/**
 * Runs one API call for a tool and renders it. API errors become tool errors (isError) so the
 * model reads them; anything else is a bug: reported to onUnexpected, answered without internals.
 */
export async function answer<T extends object>(
  tool: string,
  call: () => Promise<T>,
  render: (value: T) => string,
  onUnexpected: UnexpectedErrorHandler,
): Promise<CallToolResult> {
  try {
    const value = await call();
    return toolResult(value, render(value));
  } catch (err) {
    if (isPropsApiError(err)) return toolError(apiErrorText(err));
    onUnexpected(err, tool);
    return toolError(`${tool} failed on an internal error (it has been logged); try again later.`);
  }
}
