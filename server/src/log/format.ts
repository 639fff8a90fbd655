/**
 * Log lines as a person reads them on a terminal, from pino's JSON: `14:02:07 warn  message
 * key=value`. Where stdout is not a terminal (a file, a collector) they stay JSON, one object a
 * line; PROPS_LOG_FORMAT chooses either way.
 */
import type { DestinationStream } from 'pino';
import type { TerminalOut } from './terminal';

export type LogFormat = 'text' | 'json';

/** `auto` is text on a terminal, JSON otherwise. */
export function logFormatOf(setting: 'auto' | LogFormat, isTerminal: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return isTerminal ? 'text' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Said by the time and the words around them, or by nobody reading a terminal. */
const IMPLIED = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

/** One pino JSON line as text; a line that is not pino's JSON is passed on as it is. */
export function textOfLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch {
    return line.replace(/\n$/, '');
  }
  const at = new Date(typeof record.time === 'number' ? record.time : Date.now());
  const time = `${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}`;
  const level = (LEVELS[Number(record.level)] ?? String(record.level)).padEnd(5);
  const fields: string[] = [];
  let stack = '';
  for (const [key, value] of Object.entries(record)) {
    if (IMPLIED.has(key) || value === undefined) continue;
    const err =
      key === 'err' && typeof value === 'object' && value !== null ? (value as { stack?: unknown }) : undefined;
    if (typeof err?.stack === 'string') {
      stack = `\n${err.stack.replace(/^/gm, '    ')}`;
      continue;
    }
    fields.push(`${key}=${valueText(value)}`);
  }
  const msg = typeof record.msg === 'string' ? record.msg : '';
  return `${time} ${level} ${[msg, ...fields].filter(Boolean).join(' ')}${stack}`;
}

/** A pino destination that writes each line as text through `out`. */
export function textDestination(out: TerminalOut): DestinationStream {
  return { write: (line: string) => out.line(textOfLogLine(line)) };
}
