/** Making and describing keys: one path for the CLI, the admin routes, free sign-up and demo keys. */
import { randomUUID } from 'node:crypto';
import type { KeyLimits, Tier } from '@propsfeed/contract';
import { KeyLabelSchema, MAX_SCAN_LIMIT, TIERS } from '@propsfeed/contract';
import { ApiError } from '../errors/apiError';
import { effectivePolicy, keyLimits } from '../limits/policy';
import type { KeyRecord, KeyStore } from '../store/types';
import { generateKey, hashKeyHex, keyPrefixOf } from './format';

export interface CreateKeyInput {
  tier: Tier;
  label: string;
  email?: string | null;
  /** Enterprise only: requests per minute, per day, scan row cap. */
  rpm?: number;
  rpd?: number;
  scanLimit?: number;
}

export interface CreatedKeyResult {
  key: string;
  keyPrefix: string;
  tier: Tier;
  label: string;
  limits: KeyLimits;
}

export interface KeyRow {
  keyPrefix: string;
  tier: Tier;
  label: string;
  createdAt: string;
  revokedAt: string | null;
  limits: KeyLimits;
}

/** The inputs of a key that can be wrong; the CLI names its flag for each. */
export type KeyInputField = 'tier' | 'label' | 'rpm' | 'rpd' | 'scanLimit';

/**
 * A bad request to make a key: which input (`field`) and what to change (`problem`); the
 * message is `field: problem`. Over HTTP a 400.
 */
export class KeyInputError extends ApiError {
  constructor(
    readonly field: KeyInputField,
    readonly problem: string,
  ) {
    super('invalid_request', `${field}: ${problem}`);
  }
}

/** Throws KeyInputError for input no key can be made from (before anything is spent on it). */
export function checkKeyInput(input: CreateKeyInput): void {
  if (!(TIERS as readonly string[]).includes(input.tier)) {
    throw new KeyInputError('tier', `'${input.tier}' is not a tier; one of ${TIERS.join(', ')}`);
  }
  const label = KeyLabelSchema.safeParse(input.label);
  if (!label.success) {
    throw new KeyInputError('label', label.error.issues.map((issue) => issue.message).join('; '));
  }
  const custom = [
    ['rpm', input.rpm],
    ['rpd', input.rpd],
    ['scanLimit', input.scanLimit],
  ] as const;
  for (const [field, value] of custom) {
    if (value === undefined) continue;
    if (input.tier !== 'enterprise') throw new KeyInputError(field, 'can be set only on enterprise keys');
    if (!Number.isSafeInteger(value) || value < 1) throw new KeyInputError(field, 'a whole number of at least 1');
  }
  if (input.scanLimit !== undefined && input.scanLimit > MAX_SCAN_LIMIT) {
    throw new KeyInputError('scanLimit', `at most ${MAX_SCAN_LIMIT}`);
  }
}

export function limitsOf(record: Pick<KeyRecord, 'tier' | 'rpm' | 'rpd' | 'scanLimit'>): KeyLimits {
  return keyLimits(effectivePolicy(record.tier, record));
}

/** Creates a key; the plain key is returned once and never stored. */
export async function issueKey(
  store: KeyStore,
  input: CreateKeyInput,
  nowMs = Date.now(),
): Promise<{ created: CreatedKeyResult; record: KeyRecord }> {
  checkKeyInput(input);
  for (let attempt = 0; ; attempt++) {
    const key = generateKey();
    const record: KeyRecord = {
      id: randomUUID(),
      keyHash: hashKeyHex(key),
      keyPrefix: keyPrefixOf(key),
      tier: input.tier,
      label: input.label.trim(),
      email: input.email ?? null,
      rpm: input.rpm ?? null,
      rpd: input.rpd ?? null,
      scanLimit: input.scanLimit ?? null,
      createdAt: nowMs,
      revokedAt: null,
    };
    try {
      await store.insertKey(record);
    } catch (err) {
      // A prefix collision (62^5 prefixes) is retried with a new key; anything else is real.
      if (attempt < 5 && (await store.listKeys()).some((k) => k.keyPrefix === record.keyPrefix)) continue;
      throw err;
    }
    const created = {
      key,
      keyPrefix: record.keyPrefix,
      tier: record.tier,
      label: record.label,
      limits: limitsOf(record),
    };
    return { created, record };
  }
}

export function describeKey(record: KeyRecord): KeyRow {
  return {
    keyPrefix: record.keyPrefix,
    tier: record.tier,
    label: record.label,
    createdAt: new Date(record.createdAt).toISOString(),
    revokedAt: record.revokedAt === null ? null : new Date(record.revokedAt).toISOString(),
    limits: limitsOf(record),
  };
}
