/** POST /api/v1/keys: a free key for anyone, under the sign-up ceilings (keys/signupGate.ts). */
import { MAX_KEY_LABEL_LENGTH } from '@propsfeed/contract';
import { type CreateKeyInput, checkKeyInput, issueKey } from '../keys/issue';
import type { RouteDeps, RouteImpl } from './deps';

export const createKey =
  (deps: RouteDeps): RouteImpl<'createKey'> =>
  async ({ body, request }) => {
    const input: CreateKeyInput = { tier: 'free', label: body.label ?? labelOfEmail(body.email), email: body.email };
    // Refused input spends no sign-up.
    checkKeyInput(input);
    await deps.signups.admit(request.ip, (deps.machineNow ?? deps.now)());
    const { created, record } = await issueKey(deps.store, input);
    deps.keys.put(record);
    return { status: 201, body: created };
  };

/** The label of a sign-up that gave none: its email, shortened to a label's length. */
function labelOfEmail(email: string): string {
  return email.length <= MAX_KEY_LABEL_LENGTH ? email : `${email.slice(0, MAX_KEY_LABEL_LENGTH - 1)}…`;
}
