/** `props evaluate-slip <leg>...`: a slip's chances against each entry type of its book (pro). */
import {
  BOOKS,
  type Book,
  MAX_SLIP_LEGS,
  MIN_ENTRY_PICKS,
  type SlipEvaluation,
  type SlipLeg,
  SPORT_IDS,
  type SportId,
} from '@propsfeed/contract';
import { Argument, Option } from 'commander';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import { EVENT_ID_PATTERN, parseEventId, sportOption } from '../options';
import { formatPercent } from '../output/format';
import { printable } from '../output/printable';
import { cell } from '../output/table';
import { requestCommand } from '../requestCommand';

const LEG_FORMAT =
  'player[@team]:stat:over|under[@book], e.g. "Nikola Jokic:points:over@prizepicks" or "Ronnie Washington@Knicks:threes:over"';

const usage = (message: string) => new CliError(message, EXIT.usage);

/** What `@tag` after a player names: a sport id, a game (event id) or else a team. */
function tagOf(tag: string): Pick<SlipLeg, 'team' | 'sport' | 'eventId'> {
  const lower = tag.toLowerCase();
  if ((SPORT_IDS as readonly string[]).includes(lower)) return { sport: lower as SportId };
  if (EVENT_ID_PATTERN.test(tag)) return { eventId: tag };
  return { team: tag };
}

/** Where every leg without its own tag is: the slip's --sport and --game. */
export interface EvaluateSlipOptions {
  sport?: SportId;
  game?: string;
}

/**
 * One leg as written on the command line, `player[@team]:stat:side[@book]` (the tag after the
 * player may also be a sport id or an event id); a usage error (exit 2) saying the format otherwise.
 */
export function parseLeg(value: string, opts: EvaluateSlipOptions = {}): SlipLeg {
  const parts = value.split(':').map((p) => p.trim());
  const [who = '', stat = '', pick = ''] = parts;
  const [player = '', tag, ...moreTags] = who.split('@').map((p) => p.trim());
  const [side, book, ...moreBooks] = pick.split('@').map((p) => p.trim().toLowerCase());
  if (
    parts.length !== 3 ||
    !player ||
    !stat ||
    (side !== 'over' && side !== 'under') ||
    moreTags.length ||
    moreBooks.length
  )
    throw usage(`'${value}' is not a leg: write ${LEG_FORMAT}.`);
  if (tag === '') throw usage(`'${value}': nothing after '@'; write a team, a sport id or an event id there.`);
  if (!/^[a-z0-9_]{1,64}$/.test(stat.toLowerCase()))
    throw usage(`'${value}': a stat key is lowercase snake case, e.g. points.`);
  if (book !== undefined && !(BOOKS as readonly string[]).includes(book))
    throw usage(`'${value}': unknown book '${book}'; one of ${BOOKS.join(', ')}.`);
  const where = tag === undefined ? {} : tagOf(tag);
  return {
    ...(where.eventId === undefined && opts.game !== undefined ? { eventId: opts.game } : {}),
    ...(where.eventId !== undefined ? { eventId: where.eventId } : {}),
    player,
    ...(where.team !== undefined ? { team: where.team } : {}),
    ...(where.sport === undefined && opts.sport !== undefined ? { sport: opts.sport } : {}),
    ...(where.sport !== undefined ? { sport: where.sport } : {}),
    stat: stat.toLowerCase(),
    side,
    ...(book ? { book: book as Book } : {}),
  };
}

export function renderEvaluateSlip(data: SlipEvaluation, ctx: CommandContext): string {
  const { out } = ctx;
  const legs = out.table(
    [
      { header: '#', align: 'right' },
      { header: 'player', min: 10 },
      { header: 'stat' },
      { header: 'pick' },
      { header: 'prob', align: 'right' },
      { header: 'same game as' },
      { header: 'event', only: 'piped' },
    ],
    data.legs.map((l, i) => [
      cell(String(i + 1)),
      cell(l.player),
      cell(l.stat),
      cell(`${l.side} ${l.line}`),
      cell(formatPercent(l.probability), String(l.probability)),
      cell(
        l.correlatedWith.length > 0 ? out.c.yellow(l.correlatedWith.map((j) => `#${j + 1}`).join(' ')) : '',
        l.correlatedWith.map((j) => j + 1).join(','),
      ),
      cell(l.eventId),
    ]),
    { drop: ['same game as', '#'] },
  );
  const entries =
    data.entries.length === 0
      ? out.note(`${data.book} has no entry type with ${data.legs.length} picks.`)
      : out.table(
          [
            { header: 'entry', min: 10 },
            { header: 'wins', align: 'right' },
            { header: 'returns', align: 'right', unit: '× stake' },
            { header: 'chance of k/n hits', min: 12 },
          ],
          data.entries.map((e) => {
            const ret = `${e.expectedReturn.toFixed(3)}×`;
            return [
              cell(printable(e.name), e.entry),
              cell(formatPercent(e.winProbability), String(e.winProbability)),
              cell(e.expectedReturn > 1 ? out.c.green(ret) : ret, String(e.expectedReturn)),
              cell(
                e.hits.map((h) => `${h.hits}/${data.legs.length} ${formatPercent(h.probability)}`).join(' · '),
                e.hits.map((h) => `${h.hits}:${h.probability}`).join(','),
              ),
            ];
          }),
          { drop: ['chance of k/n hits'] },
        );
  return (
    out.heading(`Slip at ${data.book}, ${data.legs.length} legs`) +
    legs +
    (out.terminal ? '\n' : '') +
    entries +
    out.note(data.assumption)
  );
}

export const { run: runEvaluateSlip, register } = requestCommand({
  name: 'evaluate-slip',
  description: `a slip of ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs: win chance and expected return per entry type (pro tier and above)`,
  arguments: [new Argument('<legs...>', `each leg as ${LEG_FORMAT}`)],
  options: [
    sportOption("every leg's sport, unless the leg names its own (player@sport)"),
    new Option(
      '-g, --game <id>',
      'every leg is of this game (an event id), unless the leg names its own (player@eventId)',
    ).argParser(parseEventId),
  ],
  helpAfter:
    '\nThe tag after a player tells players of one name apart: a team (full name, nickname, city or abbreviation), a sport id or an event id. When a name is ambiguous, the error lists each choice as a leg to paste.',
  params: (legs: string[], opts: EvaluateSlipOptions): [SlipLeg[]] => {
    if (legs.length < MIN_ENTRY_PICKS || legs.length > MAX_SLIP_LEGS)
      throw usage(`A slip has ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs; ${legs.length} given.`);
    return [legs.map((leg) => parseLeg(leg, opts))];
  },
  request: (ctx: CommandContext, legs: SlipLeg[]) => ctx.client.evaluateSlip(legs),
  render: renderEvaluateSlip,
  hint: { feature: 'slip evaluation' },
});
