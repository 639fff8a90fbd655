/** Builds the Fastify app: routes over the board, auth, limits and docs. */
import Fastify, { type FastifyInstance } from 'fastify';

export interface AppOptions {
  logLevel?: string;
}

export async function createApp(opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: opts.logLevel ?? 'info' } });
  app.get('/healthz', async () => ({ ok: true }));
  return app;
}
