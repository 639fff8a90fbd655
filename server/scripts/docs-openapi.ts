/**
 * `pnpm docs:openapi`: records the seeded simulator's answer to every route's example request
 * in docs/examples.json, then writes docs/openapi.json from the contract with those examples,
 * and llms.txt at the repository's root. Tests fail when any checked-in file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi, repositoryLlmsTxt } from '@propsfeed/docs';
import { captureExamples } from '../test/docs/captureExamples';

const docs = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
const examples = await captureExamples();
for (const [name, doc] of [
  ['examples.json', examples],
  ['openapi.json', buildOpenApi(examples)],
] as const) {
  writeFileSync(docs(name), `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${docs(name)}`);
}
const llms = fileURLToPath(new URL('../../llms.txt', import.meta.url));
writeFileSync(llms, repositoryLlmsTxt());
console.log(`wrote ${llms}`);
