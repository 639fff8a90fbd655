/** /admin/v1/keys: key administration over HTTP, only when PROPS_ADMIN_TOKEN is set. */
import { KeyLabelSchema, MAX_SCAN_LIMIT, TIERS } from '@propsfeed/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors/apiError';
import type { KeyCache } from '../keys/cache';
import { constantTimeEqual, hashKey } from '../keys/format';
import { describeKey, issueKey } from '../keys/issue';
import type { Limiter } from '../limits/types';
import type { KeyStore } from '../store/types';
import { type AdminFailurePolicy, AdminFailures } from './adminFailures';
import { bearerKey } from './guard';

const CreateBody = z
  .object({
    tier: z.enum(TIERS),
    label: KeyLabelSchema,
    rpm: z.number().int().min(1).optional(),
    rpd: z.number().int().min(1).optional(),
    scanLimit: z.number().int().min(1).max(MAX_SCAN_LIMIT).optional(),
  })
  .strict();

export async function registerAdminRoutes(
  app: FastifyInstance,
  deps: {
    adminToken: string;
    store: KeyStore;
    keys: KeyCache;
    limiter: Limiter;
    now: () => number;
    /** Failed-token ceilings; default ADMIN_FAILURE_POLICY. */
    failurePolicy?: AdminFailurePolicy;
  },
): Promise<void> {
  // Compared as digests: equal lengths, so the time taken tells nothing of the token's length either.
  const tokenDigest = hashKey(deps.adminToken);
  await app.register(
    async (admin) => {
      const failures = new AdminFailures(deps.limiter, deps.failurePolicy);
      admin.addHook('onRequest', async (request) => {
        let refusal: unknown;
        try {
          // The token first: the right one is never refused, whatever the ceilings.
          if (constantTimeEqual(hashKey(bearerKey(request.headers.authorization)), tokenDigest)) return;
          refusal = new ApiError('invalid_api_key', 'admin token is invalid');
        } catch (err) {
          refusal = err;
        }
        const failure = await failures.fail(request.ip, deps.now());
        if (!failure.counted) {
          const { retryAfter, ceiling, policy } = failure;
          const who =
            ceiling === 'network' ? 'from your network (its /24, or /64 for IPv6)' : 'from all addresses together';
          throw new ApiError(
            'rate_limited',
            `too many failed admin-token attempts ${who}: at most ${policy.perMinute} a minute and ${policy.perDay} a day; retry in ${retryAfter} s`,
            { retryAfter },
          );
        }
        // Who tried and how often, never what they sent.
        request.log.warn(
          { ip: request.ip, method: request.method, failuresThisMinute: failure.networkThisMinute },
          'admin token refused',
        );
        throw refusal;
      });
      admin.get('/keys', async () => ({ keys: (await deps.store.listKeys()).map(describeKey) }));
      admin.post('/keys', async (request, reply) => {
        const parsed = CreateBody.safeParse(request.body);
        if (!parsed.success) {
          const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
          throw new ApiError('invalid_request', `invalid key request (${detail})`);
        }
        const { created, record } = await issueKey(deps.store, parsed.data);
        deps.keys.put(record);
        return reply.status(201).send(created);
      });
      admin.delete<{ Params: { prefix: string } }>('/keys/:prefix', async (request) => {
        const revoked = await deps.store.revokeKey(request.params.prefix, Date.now());
        if (!revoked) throw new ApiError('not_found', `no active key with prefix ${request.params.prefix}`);
        await deps.keys.refresh();
        return { revoked: true, keyPrefix: request.params.prefix };
      });
    },
    { prefix: '/admin/v1' },
  );
}
