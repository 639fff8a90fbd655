/**
 * The Node versions propsfeed supports, said the same way everywhere: the root `engines` is the
 * list; every package's `engines`, the README, the builds' target (the oldest) and the Node
 * versions .ci/run tests on (the oldest and the newest) follow it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const enginesOf = (pkg: string): string | undefined => JSON.parse(read(`${pkg}package.json`)).engines?.node;

const engines = enginesOf('') ?? '';
const majors = engines.split('||').map((range) => Number(/^\s*\^(\d+)\s*$/.exec(range)?.[1]));
const oldest = Math.min(...majors);
const newest = Math.max(...majors);

describe('supported Node versions', () => {
  it('are a list of majors in the root engines', () => {
    expect(majors.length).toBeGreaterThan(1);
    for (const major of majors) expect(Number.isInteger(major), engines).toBe(true);
  });

  it.each(['cli/', 'server/', 'sdk/'])('%spackage.json has the same engines', (pkg) => {
    expect(enginesOf(pkg)).toBe(engines);
  });

  it('are the ones the README names', () => {
    const listed = `${majors.slice(0, -1).join(', ')} and ${newest}`;
    const readme = read('README.md');
    expect(readme).toContain(`## Set-up (Node ${majors.slice(0, -1).join(', ')} or ${newest})`);
    expect(readme).toContain(`Supported: **Node.js ${listed}**`);
    expect(readme).toContain(`target Node ${oldest}`);
    expect(readme).toContain(`CI runs every test on Node ${oldest} and on Node ${newest}`);
  });

  it.each(['cli', 'server'])('%s builds for the oldest', (pkg) => {
    expect(read(`${pkg}/tsup.config.ts`)).toMatch(new RegExp(`target: 'node${oldest}'`));
  });

  it('are tested by CI on the oldest and the newest', () => {
    const ci = read('.ci/run');
    expect(ci).toContain(`\noldest=${oldest}\n`);
    expect(ci).toContain(`\nnewest=${newest}\n`);
    expect(ci).toMatch(/npm i .*"node@\$newest"/);
  });

  it('include the Node this suite runs on (the one .ci/run asked for, when it did)', () => {
    const running = Number(process.versions.node.split('.')[0]);
    expect(majors).toContain(running);
    if (process.env.CI_NODE_MAJOR) expect(running).toBe(Number(process.env.CI_NODE_MAJOR));
  });
});
