// The same package through require() (NodeNext picks the `require` condition and index.d.cts).
import sdk = require('@propsfeed/sdk');

const client: sdk.PropsApi = new sdk.PropsFeed({ apiKey: 'pf_x', maxRetries: 0 });

export async function requestIdOf(): Promise<string | undefined> {
  try {
    await client.me();
  } catch (err) {
    if (err instanceof sdk.PropsFeedError) return err.requestId;
  }
  return undefined;
}
