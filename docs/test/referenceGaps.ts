/**
 * What a route lacks to appear properly in the API reference, as sentences saying what to add
 * and where: the contract entry's tag, summary and description, and its row in the README's
 * "API" section under the heading of its tag.
 */

interface RouteLike {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  metadata?: unknown;
}

const ROUTER = 'contract/src/router.ts';

/** The `### ` headings of the README's "## API" section, each with its text. */
export function readmeApiSections(readme: string): Map<string, string> {
  const api = readme.split(/^## /m).find((s) => s.startsWith('API'));
  const sections = new Map<string, string>();
  for (const part of (api ?? '').split(/^### /m).slice(1)) {
    const newline = part.indexOf('\n');
    sections.set(part.slice(0, newline).trim(), part.slice(newline));
  }
  return sections;
}

export function referenceGaps(
  routes: Record<string, RouteLike>,
  tags: Record<string, string>,
  readme: string,
): string[] {
  const gaps: string[] = [];
  const known = Object.keys(tags);
  const sections = readmeApiSections(readme);
  for (const [key, route] of Object.entries(routes)) {
    const where = `${ROUTER}, route \`${key}\` (${route.method} ${route.path})`;
    const tag = (route.metadata as { tag?: unknown } | undefined)?.tag;
    if (typeof tag !== 'string' || !known.includes(tag)) {
      gaps.push(
        `${where}: set \`metadata.tag\` to one of ${known.map((t) => `'${t}'`).join(', ')}` +
          ` (a new section is added to API_TAGS in ${ROUTER} and as a \`### \` heading in the README's "## API" section)`,
      );
    } else if (!sections.get(tag)?.includes(`\`${route.method} ${route.path}\``)) {
      gaps.push(`README.md, "## API" section: list \`${route.method} ${route.path}\` under "### ${tag}"`);
    }
    if (!route.summary?.trim()) gaps.push(`${where}: add \`summary\`, a few words naming what it answers`);
    if (!route.description?.trim()) gaps.push(`${where}: add \`description\`, a sentence or two on what it answers`);
  }
  for (const tag of known) {
    if (!sections.has(tag)) gaps.push(`README.md, "## API" section: add the heading "### ${tag}" listing its routes`);
    if (!Object.values(routes).some((r) => (r.metadata as { tag?: unknown } | undefined)?.tag === tag)) {
      gaps.push(`${ROUTER}: API_TAGS has '${tag}' but no route is tagged with it; remove it or tag its routes`);
    }
  }
  for (const heading of sections.keys()) {
    if (!known.includes(heading)) {
      gaps.push(
        `README.md, "## API" section: "### ${heading}" is not a tag; add it to API_TAGS in ${ROUTER} or rename it`,
      );
    }
  }
  return gaps;
}
