/**
 * What a route lacks to appear properly in the API reference, as sentences saying what to add
 * and where: the contract entry's tag, summary, description and example request (valid for
 * the route), the recorded answer to that request (valid for the route's response schema),
 * and its row in the API guide (docs/api.md) under the heading of its tag.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ResponseExamples } from '../src/openapi';

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } };
}

interface RouteLike {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  metadata?: unknown;
  pathParams?: unknown;
  query?: unknown;
  body?: unknown;
  responses: Record<number, unknown>;
}

const ROUTER = 'contract/src/router.ts';
const REGENERATE = 'run `npx -y pnpm@10 -s docs:openapi` to record the answer in docs/examples.json';

/** The `## ` headings of the API guide (docs/api.md), each with its text. */
export function apiGuideSections(guide: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of guide.split(/^## /m).slice(1)) {
    const newline = part.indexOf('\n');
    sections.set(part.slice(0, newline).trim(), part.slice(newline));
  }
  return sections;
}

const isSchema = (s: unknown): s is Schema => typeof (s as Schema | undefined)?.safeParse === 'function';

/** Problems with the example request and its recorded answer, for a route that has an example. */
function exampleGaps(where: string, route: RouteLike, example: Record<string, unknown>, answer: unknown): string[] {
  const gaps: string[] = [];
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = part === 'params' ? route.pathParams : route[part];
    const value = example[part];
    const field = `\`metadata.example.${part}\``;
    if (isSchema(schema)) {
      const checked = schema.safeParse(value ?? {});
      if (!checked.success) gaps.push(`${where}: ${field} is not a valid request: ${checked.error.message}`);
    } else if (value !== undefined) {
      gaps.push(`${where}: ${field} is set but the route takes no ${part}`);
    }
  }
  const success = Object.keys(route.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  const recorded = answer as ResponseExamples[string] | undefined;
  if (!recorded) return [...gaps, `${where}: no recorded answer to the example request; ${REGENERATE}`];
  const schema = success === undefined ? undefined : route.responses[success];
  if (recorded.status !== success || !isSchema(schema)) {
    return [...gaps, `${where}: the recorded answer has status ${recorded.status}, not ${success}; ${REGENERATE}`];
  }
  const parsed = schema.safeParse(recorded.body);
  if (!parsed.success) {
    gaps.push(
      `${where}: the recorded answer no longer fits the ${success} schema (${parsed.error.message}); ${REGENERATE}`,
    );
  } else if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), recorded.body)) {
    gaps.push(`${where}: the recorded answer has fields the ${success} schema does not; ${REGENERATE}`);
  }
  return gaps;
}

export function referenceGaps(
  routes: Record<string, RouteLike>,
  tags: Record<string, string>,
  guide: string,
  examples: ResponseExamples,
): string[] {
  const gaps: string[] = [];
  const known = Object.keys(tags);
  const sections = apiGuideSections(guide);
  const tagOf = (route: RouteLike) => (route.metadata as { tag?: unknown } | undefined)?.tag;
  for (const [key, route] of Object.entries(routes)) {
    const where = `${ROUTER}, route \`${key}\` (${route.method} ${route.path})`;
    const tag = tagOf(route);
    if (typeof tag !== 'string' || !known.includes(tag)) {
      gaps.push(
        `${where}: set \`metadata.tag\` to one of ${known.map((t) => `'${t}'`).join(', ')}` +
          ` (a new section is added to API_TAGS in ${ROUTER} and as a \`## \` heading in docs/api.md)`,
      );
    } else if (!sections.get(tag)?.includes(`\`${route.method} ${route.path}\``)) {
      gaps.push(`docs/api.md: list \`${route.method} ${route.path}\` under "## ${tag}"`);
    }
    if (!route.summary?.trim()) gaps.push(`${where}: add \`summary\`, a few words naming what it answers`);
    if (!route.description?.trim()) gaps.push(`${where}: add \`description\`, a sentence or two on what it answers`);
    const example = (route.metadata as { example?: unknown } | undefined)?.example;
    if (typeof example !== 'object' || example === null) {
      gaps.push(
        `${where}: add \`metadata.example\`, the request the reference shows ({ params?, query?, body? }, values as sent), ` +
          `one the seeded simulator answers with success; then ${REGENERATE}`,
      );
    } else {
      gaps.push(...exampleGaps(where, route, example as Record<string, unknown>, examples[key]));
    }
  }
  for (const tag of known) {
    if (!Object.values(routes).some((r) => tagOf(r) === tag)) {
      gaps.push(`${ROUTER}: API_TAGS has '${tag}' but no route is tagged with it; remove it or tag its routes`);
    }
    if (!sections.has(tag)) gaps.push(`docs/api.md: add the heading "## ${tag}" listing its routes`);
  }
  for (const heading of sections.keys()) {
    if (!known.includes(heading)) {
      gaps.push(`docs/api.md: "## ${heading}" is not a tag; add it to API_TAGS in ${ROUTER} or rename it`);
    }
  }
  for (const key of Object.keys(examples)) {
    if (!(key in routes)) gaps.push(`docs/examples.json: \`${key}\` is not a route; ${REGENERATE}`);
  }
  return gaps;
}
