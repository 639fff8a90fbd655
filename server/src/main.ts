/** config → app → listen. `props serve` calls `serve()`. */
import { createApp } from './app';
import { type Config, loadConfig } from './config';

export interface ServeOptions {
  port?: number;
}

export async function serve(opts: ServeOptions = {}, config: Config = loadConfig()): Promise<void> {
  const app = await createApp({ logLevel: config.PROPS_LOG_LEVEL });
  const port = opts.port ?? config.PROPS_PORT;
  const address = await app.listen({ port, host: config.PROPS_HOST });
  process.stdout.write(`propsfeed listening on ${address}\n`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
