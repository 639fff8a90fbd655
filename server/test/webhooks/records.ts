/** An endpoint's stored record for the webhook tests that write the store or the dispatcher directly; each test overrides what it is about. */
import { type EndpointRecord, NEW_ENDPOINT_STATE } from '../../src/webhooks/store';

const T = Date.UTC(2026, 10, 22, 1);

export function endpointRecord(overrides: Partial<EndpointRecord> = {}): EndpointRecord {
  return {
    id: `wh_${Math.random().toString(36).slice(2, 14).padEnd(24, '0')}`,
    keyId: 'key-1',
    url: 'https://hooks.example.com/a',
    description: null,
    events: ['prop.line_moved'],
    filters: { sports: ['nba'] },
    lineThreshold: 0.5,
    oddsThreshold: 10,
    minEdge: null,
    entry: null,
    secret: 'whsec_c2VjcmV0',
    ...NEW_ENDPOINT_STATE,
    createdAt: T,
    updatedAt: T,
    ...overrides,
  };
}
