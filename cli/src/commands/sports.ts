/** `props sports`: the sport catalog and which sports your tier allows. */
import type { SportsResponse } from '@propsfeed/contract';
import type { CommandContext } from '../context';
import { cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export function renderSports(data: SportsResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const rows = data.sports.map((s) => [
    cell(s.id),
    cell(s.name),
    cell(s.enabled ? out.c.green('yes') : out.c.dim('no'), String(s.enabled)),
  ]);
  const table = out.table([{ header: 'id' }, { header: 'name' }, { header: 'in your tier' }], rows);
  const enabled = data.sports.filter((s) => s.enabled).length;
  return table + out.note(`${enabled} of ${data.sports.length} sports are in your tier`);
}

export const { run: runSports, register } = requestCommand({
  name: 'sports',
  description: 'list sports and which ones your tier allows',
  request: (ctx: CommandContext) => ctx.client.sports(),
  render: renderSports,
});
