/** `props player-context <name>`: a player's averages, recent form and hit rate against today's line. */
import type { PlayerContextResponse, SportId } from '@propsfeed/contract';
import { Argument } from 'commander';
import type { CommandContext } from '../context';
import { sportOption, statOption } from '../options';
import { numberCell, sportName } from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface PlayerContextOptions {
  sport?: SportId;
  stat?: string;
}

const FORM_GAMES = 5;

export function renderPlayerContext(data: PlayerContextResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const columns: Column[] = [
    { header: 'stat' },
    { header: 'line', align: 'right' },
    { header: 'season', align: 'right' },
    { header: 'l10', align: 'right' },
    { header: 'l5', align: 'right' },
    { header: 'home', align: 'right' },
    { header: 'away', align: 'right' },
    { header: 'hit', align: 'right' },
    { header: 'n', align: 'right' },
    { header: 'proj', align: 'right' },
    { header: 'form', min: 9 },
  ];
  const rows = data.stats.map((s) => {
    const form = s.recentForm.slice(0, FORM_GAMES);
    const formText = form
      .map((g) =>
        g.hit === null ? String(g.value) : g.hit ? out.c.green(String(g.value)) : out.c.red(String(g.value)),
      )
      .join(' ');
    const hit = s.hitRate === null ? null : Math.round(s.hitRate * 100);
    return [
      cell(s.stat),
      numberCell(s.line, out),
      numberCell(s.averages.season, out),
      numberCell(s.averages.last10, out),
      numberCell(s.averages.last5, out),
      numberCell(s.averages.home, out),
      numberCell(s.averages.away, out),
      cell(hit === null ? out.c.dim('–') : `${hit}%`, hit === null ? '' : String(s.hitRate)),
      cell(String(s.sampleN)),
      numberCell(s.propsfeedProjection?.value, out),
      cell(formText || out.c.dim('–'), form.map((g) => g.value).join(',')),
    ];
  });
  const heading = `${data.player}${data.team ? ` · ${data.team}` : ''} · ${sportName(data.sport)}`;
  if (rows.length === 0) return out.heading(heading) + out.note('No recorded games yet.');
  return (
    out.heading(heading) +
    out.table(columns, rows, { drop: ['form', 'proj', 'away', 'home'] }) +
    out.note(`HIT: share of games over today's line · FORM: last ${FORM_GAMES} games, newest first`)
  );
}

export const { run: runPlayerContext, register } = requestCommand({
  name: 'player-context',
  description: "a player's averages, recent form and hit rate against today's line",
  arguments: [new Argument('<name>', 'player name')],
  options: [
    statOption('one stat key (default: every stat)'),
    sportOption('sport id (default: the sport the player plays)'),
  ],
  request: (ctx: CommandContext, name: string, opts: PlayerContextOptions) =>
    ctx.client.playerContext({ name, sport: opts.sport, stat: opts.stat }),
  render: renderPlayerContext,
  hint: (opts) => ({ sport: opts.sport, ambiguous: 'Narrow it with --sport or more of the name.' }),
});
