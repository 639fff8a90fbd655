/** `props me`: your key, tier, limits and how much of today's quota is used. */
import type { KeyInfo } from '@propsfeed/contract';
import type { CommandContext } from '../context';
import type { Colors } from '../output/color';
import { formatCount, formatDuration } from '../output/format';
import { printable } from '../output/printable';
import { requestCommand } from '../requestCommand';

const BAR_WIDTH = 24;

export function usageBar(used: number, limit: number, c: Colors): string {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const filled = Math.round(share * BAR_WIDTH);
  const paint = share >= 0.9 ? c.red : share >= 0.7 ? c.yellow : c.green;
  return `[${paint('█'.repeat(filled))}${c.dim('░'.repeat(BAR_WIDTH - filled))}]`;
}

export function renderMe(info: KeyInfo, ctx: CommandContext): string {
  const { out } = ctx;
  const { limits, usage } = info;
  const sports = limits.sports === 'all' ? 'all' : limits.sports.join(', ');
  const data = limits.realtime
    ? 'realtime'
    : `delayed${limits.delaySeconds ? ` ${formatDuration(limits.delaySeconds * 1000)}` : ''}`;
  if (!out.terminal) {
    const fields: [string, string][] = [
      ['key_prefix', info.keyPrefix],
      ['label', printable(info.label)],
      ['tier', info.tier],
      ['realtime', String(limits.realtime)],
      ['live_lines', String(limits.liveLines ?? false)],
      ['sports', limits.sports === 'all' ? 'all' : limits.sports.join(',')],
      ['requests_per_minute', String(limits.requestsPerMinute)],
      ['requests_per_day', String(limits.requestsPerDay)],
      ['scan_limit', String(limits.scanLimit)],
      ['used_today', String(usage.today)],
      ['remaining_today', String(usage.dailyRemaining)],
    ];
    return fields.map(([k, v]) => `${k}\t${v}\n`).join('');
  }
  const percent = limits.requestsPerDay > 0 ? (usage.today / limits.requestsPerDay) * 100 : 100;
  const lines: [string, string][] = [
    ['Key', `${info.keyPrefix}…  ${out.c.dim(printable(info.label))}`],
    ['Tier', out.c.bold(info.tier)],
    ['Data', `${data} · live in-game lines: ${limits.liveLines ? 'yes' : 'no'}`],
    ['Sports', sports],
    [
      'Limits',
      `${formatCount(limits.requestsPerMinute)}/min · ${formatCount(limits.requestsPerDay)}/day · scans up to ${formatCount(limits.scanLimit)} rows`,
    ],
    [
      'Today',
      `${usageBar(usage.today, limits.requestsPerDay, out.c)} ${formatCount(usage.today)} of ${formatCount(limits.requestsPerDay)} (${percent.toFixed(1)}%) · ${formatCount(usage.dailyRemaining)} left`,
    ],
  ];
  return lines.map(([k, v]) => `${out.c.bold(k.toUpperCase().padEnd(8))}${v}\n`).join('');
}

export const { run: runMe, register } = requestCommand({
  name: 'me',
  description: 'your key, tier, limits and usage today',
  request: (ctx: CommandContext) => ctx.client.me(),
  render: renderMe,
});
