/** Option parsers shared by commands: a bad value is a usage error (exit 2) that says what is allowed. */
import { SPORT_IDS, type SportId } from '@propsfeed/contract';
import { InvalidArgumentError, Option } from 'commander';

export function parseSport(value: string): SportId {
  const id = value.trim().toLowerCase();
  if (!(SPORT_IDS as readonly string[]).includes(id)) {
    throw new InvalidArgumentError(`unknown sport; one of ${SPORT_IDS.join(', ')}`);
  }
  return id as SportId;
}

/** The shape of an event id (pp_ or ud_ and the book's event number). */
export const EVENT_ID_PATTERN = /^(pp|ud)_[A-Za-z0-9-]{1,64}$/;

export function parseEventId(value: string): string {
  const id = value.trim();
  if (!EVENT_ID_PATTERN.test(id)) throw new InvalidArgumentError('an event id, e.g. pp_8812345 (see `props games`)');
  return id;
}

export function parseStat(value: string): string {
  const stat = value.trim().toLowerCase();
  if (!/^[a-z0-9_]{1,64}$/.test(stat))
    throw new InvalidArgumentError('a stat key is lowercase snake case, e.g. points');
  return stat;
}

export function parseStatList(value: string): string {
  const stats = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (stats.length === 0 || !stats.every((s) => /^[a-z0-9_]{1,64}$/.test(s))) {
    throw new InvalidArgumentError('a comma-separated list of stat keys, e.g. points,pra');
  }
  return stats.join(',');
}

export function intParser(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** An edge floor (`--min-edge`), as the API's minEdge takes it. */
export function parseMinEdge(value: string): number {
  const n = Number(value);
  if (!/^-?\d*\.?\d+$/.test(value.trim()) || n < -1 || n > 1)
    throw new InvalidArgumentError('a probability difference from -1 to 1, e.g. 0.02');
  return n;
}

export function parseIsoTime(value: string): string {
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new InvalidArgumentError('an ISO 8601 time, e.g. 2026-11-22T18:00:00Z');
  }
  return new Date(at).toISOString();
}

/** A UTC day, YYYY-MM-DD, that reads back as itself (no 2026-02-30). */
export function parseDay(value: string): string {
  const day = value.trim();
  const at = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== day) {
    throw new InvalidArgumentError('a UTC day, YYYY-MM-DD, e.g. 2026-11-21');
  }
  return day;
}

/** `--watch`: redraw from the live stream (GET /api/v1/stream) as the board changes. */
export function watchOption(): Option {
  return new Option('-w, --watch', 'redraw as the board changes (a live stream; Ctrl-C to stop)');
}

/** `-s, --sport <id>`: one sport; `help` says what leaving it out means. */
export function sportOption(help = 'sport id (default nba)'): Option {
  return new Option('-s, --sport <id>', help).argParser(parseSport);
}

/** `--stat <key>`: one stat key. */
export function statOption(help = 'only this stat key'): Option {
  return new Option('--stat <key>', help).argParser(parseStat);
}

/** `-l, --limit <n>`: at most `max` rows; `help` says what is counted and the default. */
export function limitOption(max: number, help: string): Option {
  return new Option('-l, --limit <n>', help).argParser(intParser(1, max));
}
