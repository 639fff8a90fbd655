/** The start-up's words and log lines as text: the formatter, the status line, the format chosen, a later start's advice. */
import { describe, expect, it } from 'vitest';
import { logFormatOf, textOfLogLine } from '../../src/log/format';
import { terminalOut } from '../../src/log/terminal';
import { addressesOf, addressLines, makeKeyCommand, progressText } from '../../src/startup/banner';

function sink() {
  const written: string[] = [];
  return { written, stream: { write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream };
}

describe('log lines as text', () => {
  it('prints time, level, message and the other fields; a stack on lines of its own', () => {
    const time = new Date(2026, 10, 28, 9, 5, 7).getTime();
    const line = JSON.stringify({
      level: 40,
      time,
      pid: 1,
      hostname: 'h',
      book: 'underdog',
      errors: ['all: timeout'],
      note: 'two words',
      msg: 'book fetch failed',
    });
    expect(textOfLogLine(`${line}\n`)).toBe(
      '09:05:07 warn  book fetch failed book=underdog errors=["all: timeout"] note="two words"',
    );
    const failed = JSON.stringify({
      level: 50,
      time,
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
      msg: 'request failed',
    });
    expect(textOfLogLine(failed)).toBe('09:05:07 error request failed\n    Error: boom\n        at x');
    expect(textOfLogLine('not json\n')).toBe('not json');
  });

  it('is chosen on a terminal, JSON elsewhere, unless PROPS_LOG_FORMAT says', () => {
    expect(logFormatOf('auto', true)).toBe('text');
    expect(logFormatOf('auto', false)).toBe('json');
    expect(logFormatOf('json', true)).toBe('json');
    expect(logFormatOf('text', false)).toBe('text');
  });
});

describe('the terminal status line', () => {
  it('is redrawn in place, cleared for a whole line and drawn again below it', () => {
    const { written, stream } = sink();
    const out = terminalOut(stream, true);
    out.status('step 1');
    out.status('step 1');
    out.line('a log line');
    out.status('step 2');
    out.clearStatus();
    out.line('done');
    expect(written).toEqual(['\r\x1b[Kstep 1', '\r\x1b[Ka log line\nstep 1', '\r\x1b[Kstep 2', '\r\x1b[K', 'done\n']);
  });

  it('is a line of its own where it cannot be redrawn', () => {
    const { written, stream } = sink();
    const out = terminalOut(stream, false);
    out.status('step 1');
    out.line('x');
    out.clearStatus();
    expect(written).toEqual(['step 1\n', 'x\n']);
  });
});

describe('the banner', () => {
  it('names the board page only when the app serves one', () => {
    expect(addressLines(addressesOf('http://h:1', false))).toEqual([
      'propsfeed listening on http://h:1',
      '  API    http://h:1/api/v1',
      '  Docs   http://h:1/docs',
    ]);
    expect(addressLines(addressesOf('http://h:1', true)).at(-1)).toBe('  Board  http://h:1/');
  });

  it("says the backfill's stage", () => {
    expect(progressText({ stage: 'game logs', logs: 298_266 })).toBe('  storing 298,266 past game logs…');
    expect(progressText({ stage: 'replay', step: 3, steps: 16 })).toBe("  replaying today's lines: step 3 of 16…");
    expect(progressText({ stage: 'replay', step: 16, steps: 16 })).toBe(
      "  replayed today's lines (16 steps); opening the API…",
    );
  });

  it("on a later start, makes a key on the server's own store", () => {
    expect(makeKeyCommand('props', {})).toBe('props keys create --tier sharp --label "my laptop"');
    expect(makeKeyCommand('props', { PROPS_DATA_DIR: '/tmp/my data' })).toBe(
      `PROPS_DATA_DIR='/tmp/my data' props keys create --tier sharp --label "my laptop"`,
    );
    expect(makeKeyCommand('props', { PROPS_DATABASE_URL: 'postgres://u:secret@h/db' })).toBe(
      'PROPS_DATABASE_URL=… props keys create --tier sharp --label "my laptop"',
    );
  });
});
