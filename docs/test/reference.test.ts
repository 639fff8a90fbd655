/**
 * Every route is in the API reference's sections, described, with an example request and the
 * recorded answer to it, and listed in the API guide's mirror of the sections (docs/api.md).
 */
import { readFileSync } from 'node:fs';
import { API_TAGS, contract, GamesResponseSchema } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import recorded from '../examples.json';
import type { ResponseExamples } from '../src/openapi';
import { referenceGaps } from './referenceGaps';

const guide = readFileSync(new URL('../api.md', import.meta.url), 'utf8');
const examples = recorded as ResponseExamples;
const ROUTE = 'contract/src/router.ts, route `firehose` (GET /api/v1/firehose)';
const TAG_NAMES = Object.keys(API_TAGS)
  .map((t) => `'${t}'`)
  .join(', ');
const REGENERATE = 'run `npx -y pnpm@10 -s docs:openapi` to record the answer in docs/examples.json';

describe('the API reference', () => {
  it('has a section, summary, description, example request and recorded answer for every route, and the API guide lists each under its section', () => {
    expect(referenceGaps(contract, API_TAGS, guide, examples)).toEqual([]);
  });

  it('says what to add, and where, for a route that lacks them', () => {
    const firehose = { method: 'GET', path: '/api/v1/firehose', responses: {}, metadata: { tier: 'pro' } } as const;
    expect(referenceGaps({ ...contract, firehose }, API_TAGS, guide, examples)).toEqual([
      `${ROUTE}: set \`metadata.tag\` to one of ${TAG_NAMES} (a new section is added to API_TAGS in contract/src/router.ts and as a \`## \` heading in docs/api.md)`,
      `${ROUTE}: add \`summary\`, a few words naming what it answers`,
      `${ROUTE}: add \`description\`, a sentence or two on what it answers`,
      `${ROUTE}: add \`metadata.example\`, the request the reference shows ({ params?, query?, body? }, values as sent), one the seeded simulator answers with success; then ${REGENERATE}`,
    ]);
    const tagged = {
      ...firehose,
      responses: { 200: GamesResponseSchema },
      summary: 'Firehose',
      description: 'Everything at once.',
      metadata: { tag: 'Firehose', example: { query: { sport: 'nba' } } },
    };
    expect(referenceGaps({ firehose: tagged }, { ...API_TAGS, Firehose: 'Everything.' }, guide, {})).toEqual([
      'docs/api.md: list `GET /api/v1/firehose` under "## Firehose"',
      `${ROUTE}: \`metadata.example.query\` is set but the route takes no query`,
      `${ROUTE}: no recorded answer to the example request; ${REGENERATE}`,
      ...Object.keys(API_TAGS).map(
        (tag) =>
          `contract/src/router.ts: API_TAGS has '${tag}' but no route is tagged with it; remove it or tag its routes`,
      ),
      'docs/api.md: add the heading "## Firehose" listing its routes',
    ]);
  });

  it('fails on an example request the route would refuse and on a recorded answer that drifted from its schema', () => {
    const games = contract.games;
    const bad = { ...games, metadata: { ...games.metadata, example: { query: { sport: 'cricket' } } } };
    const answer = examples.games as { status: number; body: { games: object[] } };
    const drifted = { status: 200, body: { ...answer.body, games: [{ ...answer.body.games[0], venue: 'Arena' }] } };
    const gaps = referenceGaps({ games: bad }, API_TAGS, guide, { games: drifted }).filter((g) =>
      g.includes('route `games`'),
    );
    expect(gaps).toHaveLength(2);
    expect(gaps[0]).toMatch(
      /route `games` \(GET \/api\/v1\/games\): `metadata.example.query` is not a valid request: .*sport/s,
    );
    expect(gaps[1]).toContain(
      'the recorded answer has fields the 200 schema does not; run `npx -y pnpm@10 -s docs:openapi`',
    );
    const broken = { status: 200, body: { ...answer.body, count: 'many' } };
    expect(
      referenceGaps({ games }, API_TAGS, guide, { games: broken }).find((g) => g.includes('route `games`')),
    ).toMatch(/the recorded answer no longer fits the 200 schema .*count/s);
  });
});
