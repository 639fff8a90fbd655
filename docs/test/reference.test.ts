/** Every route is in the API reference's sections, described, and listed in the README's mirror of them. */
import { readFileSync } from 'node:fs';
import { API_TAGS, contract } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { referenceGaps } from './referenceGaps';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the API reference', () => {
  it('has a section, summary and description for every route, and the README lists each route under its section', () => {
    expect(referenceGaps(contract, API_TAGS, readme)).toEqual([]);
  });

  it('says what to add, and where, for a route that lacks them', () => {
    const stream = { method: 'GET', path: '/api/v1/stream', responses: {}, metadata: { tier: 'pro' } } as const;
    const gaps = referenceGaps({ ...contract, stream }, API_TAGS, readme);
    expect(gaps).toEqual([
      "contract/src/router.ts, route `stream` (GET /api/v1/stream): set `metadata.tag` to one of 'Games and props', 'Board', 'Account and keys' (a new section is added to API_TAGS in contract/src/router.ts and as a `### ` heading in the README's \"## API\" section)",
      'contract/src/router.ts, route `stream` (GET /api/v1/stream): add `summary`, a few words naming what it answers',
      'contract/src/router.ts, route `stream` (GET /api/v1/stream): add `description`, a sentence or two on what it answers',
    ]);
    const tagged = {
      ...stream,
      summary: 'Stream',
      description: 'Board changes as they happen.',
      metadata: { tag: 'Stream' },
    };
    expect(referenceGaps({ stream: tagged }, { ...API_TAGS, Stream: 'Changes as they happen.' }, readme)).toEqual([
      'README.md, "## API" section: list `GET /api/v1/stream` under "### Stream"',
      "contract/src/router.ts: API_TAGS has 'Games and props' but no route is tagged with it; remove it or tag its routes",
      "contract/src/router.ts: API_TAGS has 'Board' but no route is tagged with it; remove it or tag its routes",
      "contract/src/router.ts: API_TAGS has 'Account and keys' but no route is tagged with it; remove it or tag its routes",
      'README.md, "## API" section: add the heading "### Stream" listing its routes',
    ]);
  });
});
