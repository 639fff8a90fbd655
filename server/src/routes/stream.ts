/** GET /api/v1/stream: the board's changes as Server-Sent Events (contract key `stream`), beside ts-rest. */
import { isStatKey, SPORT_IDS, type SportId, StreamQuerySchema } from '@propsfeed/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertRoute, assertSport } from '../auth/access';
import { type Caller, callerOf } from '../auth/caller';
import { authenticate, bearerKey, countRequest, type GuardDeps } from '../auth/guard';
import { echo } from '../errors/answer';
import { ApiError } from '../errors/apiError';
import { describeIssues } from '../errors/validation';
import { ALL_SPORTS } from '../limits/policy';
import { playerFilterOf } from '../queries/players';
import { type StreamView, streamViewOf } from '../stream/encode';
import type { StreamHub } from '../stream/hub';
import type { StreamSlots } from '../stream/slots';
import type { StreamTokens } from '../stream/tokens';
import { parseEventId, type StreamPosition } from '../stream/window';

export const STREAM_PATH = '/api/v1/stream';

export interface StreamRouteDeps extends GuardDeps {
  hub: StreamHub;
  slots: StreamSlots;
  tokens: StreamTokens;
}

/**
 * The caller of the bearer key, or of a stream token when no key is sent (EventSource cannot
 * send one). The token is only looked at here: it is used up once the stream opens (`useToken`).
 */
async function callerOfStream(
  deps: StreamRouteDeps,
  request: FastifyRequest,
  token: string | undefined,
): Promise<Caller> {
  if (token === undefined || request.headers.authorization !== undefined) {
    return authenticate(deps.keys, bearerKey(request.headers.authorization));
  }
  const keyId = await deps.tokens.peek(token, deps.now());
  const record = keyId === undefined ? undefined : deps.keys.activeRecord(keyId);
  if (!record) throw tokenRefused();
  return callerOf(record);
}

const tokenRefused = () =>
  new ApiError(
    'invalid_api_key',
    'the stream token is unknown, used or expired; get a new one with POST /api/v1/stream/tokens',
  );

/** The `token` query parameter when the stream is opened with one instead of the key. */
function streamTokenOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

/** The sports a stream shows: those asked for (each allowed, or a 403), else every sport the tier has. */
function sportsOf(caller: Caller, asked: string | undefined): SportId[] {
  if (asked === undefined) {
    const allowed = caller.policy.sports;
    return [...(allowed === 'all' ? ALL_SPORTS : allowed)].sort();
  }
  const sports = [...new Set(asked.split(','))].sort();
  for (const sport of sports) {
    if (!(SPORT_IDS as readonly string[]).includes(sport)) {
      throw new ApiError('invalid_request', `unknown sport '${echo(sport)}' (known: ${SPORT_IDS.join(', ')})`);
    }
    assertSport(caller, sport as SportId);
  }
  return sports as SportId[];
}

function statsOf(sports: readonly SportId[], asked: string | undefined): string[] | null {
  if (asked === undefined) return null;
  const stats = [...new Set(asked.split(','))].sort();
  const unknown = stats.filter((stat) => !sports.some((sport) => isStatKey(sport, stat)));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_request',
      `unknown stat ${echo(unknown.map((s) => `'${s}'`).join(', '))} for ${sports.join(', ')}`,
    );
  }
  return stats;
}

function viewOf(caller: Caller, query: ReturnType<typeof StreamQuerySchema.parse>): StreamView {
  const sports = sportsOf(caller, query.sport);
  // Edges are GET /props/edges's: a tier without that route has none to filter by.
  if (query.minEdge !== undefined) assertRoute(caller, 'pro', `minEdge on ${STREAM_PATH}`);
  return streamViewOf({
    kind: caller.view as StreamView['kind'],
    delayMs: caller.policy.delayMs,
    sports,
    stats: statsOf(sports, query.stats),
    eventId: query.eventId ?? null,
    player: query.player === undefined ? null : playerFilterOf(query.player),
    minEdge: query.minEdge ?? null,
  });
}

/** Where to resume: the Last-Event-ID header, else `lastEventId`; a 400 for an id the stream never gives. */
function resumeOf(request: FastifyRequest, query: { lastEventId?: string | undefined }): StreamPosition | undefined {
  const header = request.headers['last-event-id'];
  const id = (Array.isArray(header) ? header[0] : header) ?? query.lastEventId;
  if (id === undefined || id.trim() === '') return undefined;
  const position = parseEventId(id);
  if (!position) {
    throw new ApiError('invalid_request', 'Last-Event-ID is the board sequence number N or N.k, as the stream sent it');
  }
  return position;
}

export function registerStreamRoute(app: FastifyInstance, deps: StreamRouteDeps): void {
  app.get(STREAM_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const token = streamTokenOf(request);
    const caller = await callerOfStream(deps, request, token);
    // Counted before anything else is checked: a refused open costs a request, as on every keyed route.
    await countRequest(deps, caller, reply);
    const parsed = StreamQuerySchema.safeParse(request.query);
    if (!parsed.success) throw new ApiError('invalid_request', describeIssues([['query', parsed.error]]));
    const query = parsed.data;
    const view = viewOf(caller, query);
    const resumeFrom = resumeOf(request, query);
    // Held before the stream opens: concurrent opens past the cap never both pass.
    const release = await deps.slots.reserve(caller.keyId, caller.policy.maxStreams);
    if (!release) {
      throw new ApiError(
        'too_many_streams',
        `this key already holds ${caller.policy.maxStreams} open stream${caller.policy.maxStreams === 1 ? '' : 's'}, the ${caller.tier} tier's most; close one first`,
      );
    }
    // The token is used up only now, by the stream it opens; one redeemed meanwhile by another opens nothing.
    if (token !== undefined) {
      const redeemed = await deps.tokens.redeem(token, deps.now()).catch((err: unknown) => {
        release();
        throw err;
      });
      if (redeemed !== caller.keyId) {
        release();
        throw tokenRefused();
      }
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      // A stream's connection carries nothing after it: closed with it, never left idle.
      connection: 'close',
    });
    res.write('retry: 2000\n\n');
    res.socket?.setNoDelay(true);
    deps.hub.open(res, view, caller.keyId, resumeFrom, release);
  });
  // An open stream never ends by itself: closing the app ends them before it drains its
  // connections (the hub itself runs on until the runtime closes).
  app.addHook('preClose', async () => deps.hub.endAll());
}
