/** The Store contract suite, unchanged, against PostgreSQL (each store in a fresh schema). */
import { afterAll, describe, it } from 'vitest';
import { openStore } from '../../src/store/kyselyStore';
import { storeSuite } from '../store/store.suite';
import { createTestSchema, enginesAvailable, type TestSchema } from './engines';

const available = await enginesAvailable({ postgres: true });
const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas.splice(0)) await s.drop();
});

if (available) {
  storeSuite('PostgreSQL', async () => {
    const schema = await createTestSchema('store');
    schemas.push(schema);
    return openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: schema.url });
  });
} else {
  describe.skip('Store contract: PostgreSQL (engine unreachable; see the reason printed above)', () => {
    it('runs when PostgreSQL is reachable', () => {});
  });
}
