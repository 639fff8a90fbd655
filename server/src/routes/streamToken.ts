/** POST /api/v1/stream/tokens: a token that opens one stream within minutes, for EventSource (contract key `streamToken`). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';

export const streamToken =
  (deps: RouteDeps): RouteImpl<'streamToken'> =>
  async ({ request }) => {
    const nowMs = (deps.machineNow ?? deps.now)();
    const { token, expiresAtMs } = await deps.streamTokens.issue(callerOfRequest(request).keyId, nowMs);
    return {
      status: 201,
      body: {
        token,
        expiresAt: new Date(expiresAtMs).toISOString(),
        expiresInSeconds: Math.round((expiresAtMs - nowMs) / 1000),
      },
    };
  };
