import { contract, ERROR_STATUS, type RouteMeta } from '@propsfeed/contract';
import { generateOpenApi } from '@ts-rest/open-api';

const ERROR_MEANING: Record<number, string> = {
  304: 'Not modified: the ETag sent in If-None-Match still matches',
  400: 'Invalid request (error invalid_request)',
  401: 'Missing or invalid API key (missing_api_key, invalid_api_key)',
  403: 'Not permitted on your tier (sport_not_in_tier, route_not_in_tier, live_not_in_tier); requiredTier names the tier that allows it',
  404: 'Not found (event_not_found, not_found)',
  429: 'Rate limit or daily quota exceeded (rate_limited, daily_quota_exceeded); see Retry-After',
  503: 'A backing service is unavailable (upstream_unavailable)',
};

/** The OpenAPI 3 document of the contract: the one the server serves and docs/openapi.json holds. */
export function buildOpenApi(): Record<string, unknown> {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'propsfeed API',
        version: '0.1.0',
        description:
          'Player-prop lines (over/under lines, American odds) from PrizePicks and Underdog, merged into one normalized feed, pre-game and live. ' +
          `Errors are always {error, message}; the codes are: ${Object.keys(ERROR_STATUS).join(', ')}.`,
      },
      servers: [{ url: 'http://127.0.0.1:8787', description: 'Local server (props serve)' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Authorization: Bearer <API_KEY>. Get a free key with POST /api/v1/keys.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => {
        const meta = (route.metadata ?? {}) as RouteMeta;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const meaning = ERROR_MEANING[Number(status)];
          if (meaning) (response as { description: string }).description = meaning;
        }
        return {
          ...operation,
          ...(meta.public ? { security: [] } : {}),
          ...(meta.tier === 'pro' ? { 'x-required-tier': 'pro' } : {}),
        };
      },
    },
  );
  return doc as unknown as Record<string, unknown>;
}
