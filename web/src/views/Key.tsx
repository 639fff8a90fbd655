/** The key: its tier, limits and usage today, and what the next tier adds (from the server's own tier table). */
import { TIERS, type Tier } from '@propsfeed/contract';
import { useEffect } from 'preact/hooks';
import { effectivePolicy, type TierPolicy } from '../../../server/src/limits/policy';
import { session as current, type Session } from '../session';

const sportsText = (p: TierPolicy) => (p.sports === 'all' ? 'every sport' : p.sports.join(', '));
const n = (x: number) => x.toLocaleString('en-US');

/** What `next` gives beyond `now`, one phrase each. */
export function tierGains(now: TierPolicy, next: TierPolicy): string[] {
  const gains: string[] = [];
  if (now.delayMs > 0 && next.delayMs === 0)
    gains.push(`realtime lines (no ${Math.round(now.delayMs / 60_000)}-minute delay)`);
  if (sportsText(now) !== sportsText(next)) gains.push(`sports: ${sportsText(next)}`);
  if (!now.liveLines && next.liveLines) gains.push('live in-game lines');
  if (!now.proRoutes && next.proRoutes) gains.push('edges, fair chances, line history and movers');
  if (next.requestsPerMinute > now.requestsPerMinute) gains.push(`${n(next.requestsPerMinute)} requests a minute`);
  if (next.requestsPerDay > now.requestsPerDay) gains.push(`${n(next.requestsPerDay)} requests a day`);
  if (next.scanLimit > now.scanLimit) gains.push(`${n(next.scanLimit)} rows per scan`);
  if (next.maxStreams > now.maxStreams) gains.push(`${n(next.maxStreams)} open streams`);
  if (next.maxWebhooks > now.maxWebhooks) gains.push(`${n(next.maxWebhooks)} webhook endpoints`);
  if (!now.redistribution && next.redistribution) gains.push('redistribution rights and limits set per key');
  return gains;
}

export function KeyView({ session }: { session: Session }) {
  const { me } = session;
  // Usage moves with every request: read it afresh when the page opens.
  useEffect(() => {
    session.client
      .me()
      .then((fresh) => {
        if (current.peek()?.client === session.client) current.value = { ...session, me: fresh };
      })
      .catch(() => {});
  }, [session.client]);
  const limits = me.limits;
  const next = TIERS[TIERS.indexOf(me.tier) + 1] as Tier | undefined;
  const gains = next ? tierGains(effectivePolicy(me.tier), effectivePolicy(next)) : [];
  return (
    <section aria-labelledby="key-title">
      <h1 id="key-title">Your key</h1>
      <dl class="facts">
        <dt>Key</dt>
        <dd>
          {me.keyPrefix}… ({me.label})
        </dd>
        <dt>Tier</dt>
        <dd>{me.tier}</dd>
        <dt>Requests</dt>
        <dd>
          {n(limits.requestsPerMinute)} a minute, {n(limits.requestsPerDay)} a day
        </dd>
        <dt>Used today (UTC)</dt>
        <dd>
          {n(me.usage.today)} requests; {n(me.usage.dailyRemaining)} left
        </dd>
        <dt>Sports</dt>
        <dd>{limits.sports === 'all' ? 'every sport' : limits.sports.join(', ')}</dd>
        <dt>Lines</dt>
        <dd>
          {limits.realtime ? 'realtime' : `delayed ${Math.round((limits.delaySeconds ?? 0) / 60)} minutes`}
          {limits.liveLines ? ', live in-game lines included' : ', no live in-game lines'}
        </dd>
        <dt>Rows per scan</dt>
        <dd>{n(limits.scanLimit)}</dd>
      </dl>
      <h2>{next ? `What the ${next} tier adds` : 'The highest tier'}</h2>
      {next ? (
        <ul>
          {gains.map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ul>
      ) : (
        <p>Your key has every feature; its numbers are set per key.</p>
      )}
    </section>
  );
}
