/** llms.txt: the committed copy is current, follows the llmstxt.org format, and links what exists. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GUIDES, repositoryLlmsTxt } from '../src/index';

const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = readFileSync(`${root}llms.txt`, 'utf8');

describe('llms.txt', () => {
  it('is current (regenerate with `pnpm docs:openapi`)', () => {
    expect(committed).toBe(repositoryLlmsTxt());
  });

  it('has an H1, a one-line summary blockquote, then H2 sections of link lists', () => {
    const lines = committed.split('\n');
    expect(lines[0]).toBe('# propsfeed');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S.*\S$/);
    expect(lines[3]).toBe('');
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual([
      '## What to use for what',
      '## API',
      '## Guides',
      '## Optional',
    ]);
    const sections = committed.split(/^## /m).slice(2);
    for (const section of sections) {
      const items = section.split('\n').slice(1).filter(Boolean);
      for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\([^)\s]+\)(: .+)?$/);
    }
  });

  it('links every guide in docs/, each of which exists, the OpenAPI document and the MCP endpoint', () => {
    const links = [...committed.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    const guides = readdirSync(`${root}docs`).filter((f) => f.endsWith('.md'));
    expect(GUIDES.map((g) => g.file).sort()).toEqual(guides.sort());
    for (const g of GUIDES) {
      expect(links).toContain(`docs/${g.file}`);
      expect(existsSync(`${root}docs/${g.file}`)).toBe(true);
    }
    expect(links).toContain('http://127.0.0.1:8787/openapi.json');
    expect(links).toContain('http://127.0.0.1:8787/mcp');
  });
});
