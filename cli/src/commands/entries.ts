/** `props entries`: every pick'em entry type with its payouts and the per-leg breakeven. */
import type { EntriesResponse, EntryType } from '@propsfeed/contract';
import type { CommandContext } from '../context';
import { cell } from '../output/table';
import { requestCommand } from '../requestCommand';

/** "3/3 2.25× · 2/3 1.25×" on a terminal; "3:2.25,2:1.25" piped. */
function payoutsCell(entry: EntryType) {
  const text = entry.payouts.map((p) => `${p.hits}/${entry.picks} ${p.multiplier}×`).join(' · ');
  const plain = entry.payouts.map((p) => `${p.hits}:${p.multiplier}`).join(',');
  return cell(text, plain);
}

export function renderEntries(data: EntriesResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const rows = data.entries.map((e) => [
    cell(e.name),
    cell(e.id),
    cell(String(e.picks)),
    payoutsCell(e),
    cell(`${(e.breakeven * 100).toFixed(2)}%`, e.breakeven.toFixed(6)),
    cell(e.effectiveFrom),
  ]);
  const table = out.table(
    [
      { header: 'entry', min: 10, only: 'terminal' },
      { header: 'id', only: 'piped' },
      { header: 'picks', align: 'right' },
      { header: 'pays', unit: '× stake', min: 12 },
      { header: 'breakeven', align: 'right' },
      { header: 'since' },
    ],
    rows,
    { drop: ['since', 'picks'] },
  );
  return (
    table +
    out.note(
      `Breakeven: the win probability each leg needs for the entry to return its stake on average (legs independent) · tables of ${data.asOf}`,
    )
  );
}

export const { run: runEntries, register } = requestCommand({
  name: 'entries',
  description: "pick'em entry types: payouts and the per-leg breakeven of each",
  request: (ctx: CommandContext) => ctx.client.entries(),
  render: renderEntries,
});
