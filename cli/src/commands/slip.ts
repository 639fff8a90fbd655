/** `props slip <leg>...`: a slip's chances against each entry type of its book (pro). */
import {
  BOOKS,
  type Book,
  MAX_SLIP_LEGS,
  MIN_ENTRY_PICKS,
  type SlipEvaluation,
  type SlipLeg,
} from '@propsfeed/contract';
import type { Command } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import { toJson } from '../output/output';
import { printable } from '../output/printable';
import { cell } from '../output/table';

const LEG_FORMAT = 'player:stat:over|under[@book], e.g. "Nikola Jokic:points:over@prizepicks"';

const usage = (message: string) => new CliError(message, EXIT.usage);

/** One leg as written on the command line; a usage error (exit 2) saying the format otherwise. */
export function parseLeg(value: string): SlipLeg {
  const at = value.lastIndexOf('@');
  const book =
    at >= 0
      ? value
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : undefined;
  const parts = (at >= 0 ? value.slice(0, at) : value).split(':').map((p) => p.trim());
  const [player, stat, side] = parts;
  if (parts.length !== 3 || !player || !stat || (side !== 'over' && side !== 'under'))
    throw usage(`'${value}' is not a leg: write ${LEG_FORMAT}.`);
  if (!/^[a-z0-9_]{1,64}$/.test(stat.toLowerCase()))
    throw usage(`'${value}': a stat key is lowercase snake case, e.g. points.`);
  if (book !== undefined && !(BOOKS as readonly string[]).includes(book))
    throw usage(`'${value}': unknown book '${book}'; one of ${BOOKS.join(', ')}.`);
  return { player, stat: stat.toLowerCase(), side, ...(book ? { book: book as Book } : {}) };
}

const percent = (p: number) => `${(p * 100).toFixed(1)}%`;

export function renderSlip(data: SlipEvaluation, ctx: CommandContext): string {
  const { out } = ctx;
  const legs = out.table(
    [
      { header: '#', align: 'right' },
      { header: 'player', min: 12 },
      { header: 'stat' },
      { header: 'pick' },
      { header: 'prob', align: 'right' },
      { header: 'same game as', optional: true },
      { header: 'event', only: 'piped' },
    ],
    data.legs.map((l, i) => [
      cell(String(i + 1)),
      cell(l.player),
      cell(l.stat),
      cell(`${l.side} ${l.line}`),
      cell(percent(l.probability), String(l.probability)),
      cell(
        l.correlatedWith.length > 0 ? out.c.yellow(l.correlatedWith.map((j) => `#${j + 1}`).join(' ')) : '',
        l.correlatedWith.map((j) => j + 1).join(','),
      ),
      cell(l.eventId),
    ]),
  );
  const entries =
    data.entries.length === 0
      ? out.note(`${data.book} has no entry type with ${data.legs.length} picks.`)
      : out.table(
          [
            { header: 'entry', min: 12 },
            { header: 'wins', align: 'right' },
            { header: 'returns', align: 'right' },
            { header: 'hits', optional: true },
          ],
          data.entries.map((e) => {
            const ret = `${e.expectedReturn.toFixed(3)}×`;
            return [
              cell(printable(e.name), e.entry),
              cell(percent(e.winProbability), String(e.winProbability)),
              cell(e.expectedReturn > 1 ? out.c.green(ret) : ret, String(e.expectedReturn)),
              cell(
                e.hits.map((h) => `${h.hits}:${percent(h.probability)}`).join(' '),
                e.hits.map((h) => `${h.hits}:${h.probability}`).join(','),
              ),
            ];
          }),
        );
  return (
    out.heading(`Slip at ${data.book}, ${data.legs.length} legs`) +
    legs +
    (out.terminal ? '\n' : '') +
    entries +
    out.note(data.assumption)
  );
}

export async function runSlip(ctx: CommandContext, legs: SlipLeg[]): Promise<void> {
  await ctx.present(async () => {
    const data = await ctx.load(() => ctx.client.evaluateSlip(legs));
    return ctx.json ? toJson(data) : renderSlip(data, ctx);
  });
}

export function register(program: Command, app: CliApp): void {
  program
    .command('slip')
    .description(
      `a slip of ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs: win chance and expected return per entry type (pro tier and above)`,
    )
    .argument('<legs...>', `each leg as ${LEG_FORMAT}`)
    .action((legs: string[], _opts, cmd: Command) =>
      app.run(
        cmd,
        (ctx) => {
          if (legs.length < MIN_ENTRY_PICKS || legs.length > MAX_SLIP_LEGS)
            throw usage(`A slip has ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs; ${legs.length} given.`);
          return runSlip(ctx, legs.map(parseLeg));
        },
        { feature: 'Slip evaluation' },
      ),
    );
}
