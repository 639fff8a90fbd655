/**
 * The `props` tables at 80, 100 and 160 columns over the seeded simulator's board (seed
 * 20261122 at 2026-11-22T01:00Z), through the CLI's own entry point and one table helper:
 * every line fits, no word is cut (every word printed is a word the same command prints on a
 * terminal wide enough for everything), the column a command sorts by and the pick stay, a
 * column with a unit says it in its header, the sport is named, and "Showing N of M" gives the
 * API's true M. `--why` prints each edge's workings, as the API words them, under its row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EDGE_THRESHOLDS,
  type EdgeRecord,
  type EntryType,
  MAX_MOVERS_LIMIT,
  type ScanRow,
  type TrackRecordResponse,
} from '@propsfeed/contract';
import { PropsFeed } from '@propsfeed/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/src/program';
import { record as recordOfOneEntry } from '../cli/test/data';
import { buildSimApp, SIM_NOW, type SimApp } from '../server/test/board-routes/simSetup';

let sim: SimApp;
let baseUrl = '';
let configHome = '';
let client: PropsFeed;
/** The seeded board has settled nothing yet: the track record is answered from every real entry type. */
let record: TrackRecordResponse;

/** Picks at each threshold of one entry type, a losing one among them (a negative ROI and interval). */
function edgeRecords(entry: EntryType, n: number): EdgeRecord[] {
  return EDGE_THRESHOLDS.map((minEdge, t) => {
    const picks = Math.max(0, 900 - 250 * t - 37 * n);
    const hitRate = picks > 0 ? entry.breakeven + (n % 3 === 0 ? -0.006 : 0.03) + 0.02 * t : null;
    const hits = hitRate === null ? 0 : Math.round(hitRate * picks);
    const roi = hitRate === null ? null : Math.round((hitRate / entry.breakeven - 1) * 10_000) / 10_000;
    const half = picks > 0 ? 1.96 * Math.sqrt(0.25 / picks) : 0;
    return {
      entry: entry.id,
      name: entry.name,
      book: entry.book,
      breakeven: entry.breakeven,
      minEdge,
      picks,
      hits,
      pushes: entry.book === 'underdog' ? Math.round(picks * 0.04) : 0,
      hitRate,
      roi,
      hitRateInterval: hitRate === null ? null : { low: hitRate - half, high: hitRate + half },
      roiInterval:
        roi === null || hitRate === null
          ? null
          : { low: (hitRate - half) / entry.breakeven - 1, high: (hitRate + half) / entry.breakeven - 1 },
    };
  });
}

beforeAll(async () => {
  sim = await buildSimApp();
  baseUrl = (await sim.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  configHome = mkdtempSync(join(tmpdir(), 'props-width-config-'));
  client = new PropsFeed({ apiKey: sim.keys.sharp, baseUrl });
  const { entries } = await client.entries();
  record = { ...recordOfOneEntry, sport: null, edges: entries.flatMap((e, n) => edgeRecords(e, n)) };
});

/** The server's answers, but the track record's from `record`. */
const answer = async (input: string, init: RequestInit): Promise<Response> => {
  const url = new URL(input);
  if (url.pathname === '/api/v1/props/track-record')
    return new Response(JSON.stringify(record), { headers: { 'content-type': 'application/json' } });
  return fetch(input, init);
};

afterAll(async () => {
  await sim?.close();
  if (configHome) rmSync(configHome, { recursive: true, force: true });
});

/** Runs `props ARGS` with stdout a terminal `columns` wide (no colour), as a sharp-tier user. */
async function props(args: string[], columns: number): Promise<string> {
  let text = '';
  let errors = '';
  const code = await runCli(args, {
    stdout: { isTTY: true, columns, write: (chunk: string) => (text += chunk) },
    stderr: { isTTY: false, write: (chunk: string) => (errors += chunk) },
    env: { NO_COLOR: '1', PROPS_BASE_URL: baseUrl, PROPS_API_KEY: sim.keys.sharp, XDG_CONFIG_HOME: configHome },
    now: () => new Date(SIM_NOW),
    timeZone: 'UTC',
    fetch: answer,
  });
  expect(errors).toBe('');
  expect(code).toBe(0);
  return text;
}

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));
/** The tables' header lines (column names in capitals), joined. */
const headerLines = (text: string) =>
  text.split('\n').filter((l) => {
    const names = l.replace(/\([^)]*\)/g, '');
    return names === names.toUpperCase() && /[A-Z]{2}/.test(l) && /\S {2,}\S/.test(l);
  });
const headerOf = (text: string) => headerLines(text).join('\n');

/** A column's name and the unit its header must say with it. */
const UNITS: [RegExp, string][] = [
  [/\bEDGE\b(?! \(% pts\))/, 'EDGE (% pts)'],
  [/\bMIN EDGE\b(?! \(% pts\))/, 'MIN EDGE (% pts)'],
  [/\bODDS MOVE\b(?! \(¢\))/, 'ODDS MOVE (¢)'],
  [/\bRETURNS\b(?! \(× stake\))/, 'RETURNS (× stake)'],
  [/\bPAYS\b(?! \(× stake\))/, 'PAYS (× stake)'],
  [/\bECE\b(?! \(% pts\))/, 'ECE (% pts)'],
];

/** Each command with the headers it must always show, and how the sport it covers reads. */
const COMMANDS: { args: string[]; keep: string[]; scope: string }[] = [
  {
    args: ['scan', '--sort', 'edge', '--limit', '10'],
    keep: ['PLAYER', 'STAT', 'LINE', 'EDGE'],
    scope: 'NBA Basketball',
  },
  {
    args: ['scan', '--limit', '10'],
    keep: ['PLAYER', 'STAT', 'LINE', 'OVER', 'UNDER', 'START'],
    scope: 'NBA Basketball',
  },
  { args: ['scan', '--sort', 'books', '--limit', '10'], keep: ['PLAYER', 'BOOKS'], scope: 'NBA Basketball' },
  { args: ['edges', '--limit', '8'], keep: ['PLAYER', 'STAT', 'BOOK', 'PICK', 'EDGE'], scope: 'NBA Basketball' },
  { args: ['movement', '--limit', '12'], keep: ['PLAYER', 'STAT', 'NOW', 'MOVE'], scope: 'NBA Basketball' },
  { args: ['games'], keep: ['ID', 'MATCHUP', 'START'], scope: 'NBA Basketball' },
  { args: ['entries'], keep: ['ENTRY', 'PAYS', 'BREAKEVEN'], scope: '' },
  { args: ['track-record'], keep: ['BASIS', 'BRIER', 'PREDICTED', 'ENTRY', 'HIT RATE', 'ROI'], scope: 'all sports' },
  { args: ['track-record', '--edges'], keep: ['ENTRY', 'MIN EDGE', 'HIT RATE', 'ROI'], scope: 'all sports' },
];

describe.each([80, 100, 160])('props at %i columns', (columns) => {
  it.each(COMMANDS.map((c) => [c.args.join(' '), c] as const))(
    '%s fits, cuts no word and labels its units',
    async (_, c) => {
      const text = await props(c.args, columns);
      // Wide enough for every column and every sentence on one line: the words as they are.
      const whole = words(await props(c.args, 1000));
      const lines = text.trimEnd().split('\n');
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      for (const word of words(text)) expect(whole, `cut word "${word}"`).toContain(word);
      expect(text).not.toMatch(/\w…\s/);
      const header = headerOf(text);
      for (const name of c.keep) expect(header, `${name} missing`).toContain(name);
      for (const line of headerLines(text)) {
        for (const [unlabelled, labelled] of UNITS)
          expect(line, `${labelled} without its unit`).not.toMatch(unlabelled);
      }
      if (c.scope) expect(text).toContain(c.scope);
    },
  );

  it('scan --sort edge names its side, book and edge in its sort column, and the true total', async () => {
    const text = await props(['scan', '--sort', 'edge', '--limit', '10'], columns);
    const answer = await client.scan({ sort: 'edge', limit: 10 });
    expect(answer.total).toBeGreaterThan(10);
    expect(text).toContain(`Showing 10 of ${answer.total?.toLocaleString('en-US')} props`);
    expect(headerOf(text)).toContain('EDGE (% pts)');
    const top = answer.rows[0] as ScanRow;
    const edge = top.edge;
    if (!edge) throw new Error('the top row of an edge sort has an edge');
    const book = edge.source === 'prizepicks' ? 'pp' : 'ud';
    expect(text).toContain(`${edge.side} ${edge.line} ${book} +${(edge.edge * 100).toFixed(1)}`);
    if (columns >= 100) expect(headerOf(text)).toMatch(/GAME\s+(START\s+)?PROJ/);
  });

  it('track-record names every entry type whole and signs every share with one minus', async () => {
    for (const args of [['track-record'], ['track-record', '--edges']]) {
      const text = await props(args, columns);
      for (const e of new Set(record.edges.map((r) => r.name))) expect(text).toContain(e);
      expect(text).toMatch(/-\d/);
      expect(text).not.toContain('−');
    }
  });

  it('movement says the true number of movers', async () => {
    const text = await props(['movement', '--limit', '12'], columns);
    const all = await client.movement({ limit: MAX_MOVERS_LIMIT });
    expect(all.movers.length).toBeGreaterThan(12);
    expect(all.movers.length).toBeLessThan(MAX_MOVERS_LIMIT);
    expect(text).toContain(`Showing 12 of ${all.movers.length} movers`);
  });

  it('edges --why prints each row’s workings, as the API gives them, under the row', async () => {
    const text = await props(['edges', '--limit', '5', '--why'], columns);
    const answer = await client.edges({ limit: 5 });
    expect(text).toContain(`Showing 5 of ${answer.total?.toLocaleString('en-US')} props`);
    const lines = text.split('\n');
    for (const row of answer.rows) {
      const e = row.edge;
      if (!e) throw new Error('an edges row has an edge');
      const workingsGiven = e.workings;
      const at = lines.findIndex((l) => l.startsWith(row.player) && l.includes(`${e.side} ${e.line}`));
      expect(at, `${row.player} ${row.stat}`).toBeGreaterThan(0);
      // The row (its player may wrap onto a second line), then the workings, indented.
      const after = lines.slice(at + 1);
      const start = after.findIndex((l) => l.startsWith('    '));
      expect(start).toBeLessThanOrEqual(1);
      const rest = after.slice(start);
      const end = rest.findIndex((l) => !l.startsWith('    '));
      const workings = end < 0 ? rest : rest.slice(0, end);
      expect(workings.map((l) => l.trim()).join(' ')).toBe(workingsGiven);
    }
  });
});
