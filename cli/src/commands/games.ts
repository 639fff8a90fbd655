/** `props games`: today's games of one sport: live (with the clock), then pre-game, then final. */
import type { GamesResponse, SportId } from '@propsfeed/contract';
import type { Command } from 'commander';
import { type CliApp, type CommandContext, show } from '../context';
import { sportOption, watchOption } from '../options';
import { matchup } from '../output/format';
import { toJson } from '../output/output';
import { booksOf, showing, sportName, startCell } from '../output/rows';
import { type Column, cell } from '../output/table';

export interface GamesOptions {
  sport?: SportId;
  watch?: boolean;
}

export function renderGames(data: GamesResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const name = sportName(data.sport);
  if (data.games.length === 0) return out.note(`No ${name} games with props posted today.`);
  const columns: Column[] = [
    { header: 'id' },
    { header: 'matchup', min: 16, only: 'terminal' },
    { header: 'away', only: 'piped' },
    { header: 'home', only: 'piped' },
    { header: 'start' },
    { header: 'live', only: 'piped' },
    { header: 'state', only: 'piped' },
    { header: 'books' },
  ];
  // The score (away-home, as the matchup reads), running or final: on a terminal once a book
  // reports one; piped always, so scripts see the same columns whatever the games' state.
  const scored = data.games.some((g) => g.score);
  columns.splice(7, 0, scored ? { header: 'score' } : { header: 'score', only: 'piped' });
  const rows = data.games.map((g) => {
    const row = [
      cell(g.id),
      cell(matchup(g)),
      cell(g.awayTeam),
      cell(g.homeTeam),
      startCell(g, clock, out),
      cell(String(g.live)),
      cell(g.state),
      cell(booksOf(g).join(', '), booksOf(g).join(',')),
    ];
    row.splice(7, 0, cell(g.score ? `${g.score.away}-${g.score.home}` : ''));
    return row;
  });
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  return (
    out.heading(`${name} games`) +
    out.table(columns, rows, { drop: ['books'] }) +
    out.note(showing(data.games.length, data.count, 'games') + delayed)
  );
}

export async function runGames(ctx: CommandContext, opts: GamesOptions): Promise<void> {
  if (opts.watch) {
    const sport = opts.sport ?? 'nba';
    await ctx.watch({ sport }, (board) => {
      const data = board.games(sport);
      return ctx.json ? toJson(data) : renderGames(data, ctx);
    });
    return;
  }
  await show(
    ctx,
    () => ctx.client.games({ sport: opts.sport }),
    (data) => renderGames(data, ctx),
  );
}

export function register(program: Command, app: CliApp): void {
  program
    .command('games')
    .description("today's games with props posted: live, then pre-game, then final")
    .addOption(sportOption())
    .addOption(watchOption())
    .action((opts: GamesOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runGames(ctx, opts), { sport: opts.sport ?? 'nba' }),
    );
}
