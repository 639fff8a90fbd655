/** `props games`: today's games of one sport: live (with the clock), then pre-game, then final. */
import type { GamesResponse, SportId } from '@propsfeed/contract';
import type { CommandContext } from '../context';
import { sportOption, watchOption } from '../options';
import { matchup } from '../output/format';
import { booksOf, showing, sportName, startCell } from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

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

export const { run: runGames, register } = requestCommand({
  name: 'games',
  description: "today's games with props posted: live, then pre-game, then final",
  options: [sportOption(), watchOption()],
  request: (ctx: CommandContext, opts: GamesOptions) => ctx.client.games({ sport: opts.sport }),
  render: renderGames,
  watch: (opts) => {
    if (!opts.watch) return undefined;
    const sport = opts.sport ?? 'nba';
    return { stream: { sport }, answer: (board) => board.games(sport) };
  },
  hint: (opts) => ({ sport: opts.sport ?? 'nba' }),
});
