/** The webhook service of a route's deps, or the 503 on a server started without one. */
import { ApiError } from '../errors/apiError';
import type { WebhookService } from '../webhooks/service';
import type { RouteDeps } from './deps';

export function webhooksOf(deps: RouteDeps): WebhookService {
  if (!deps.webhooks) throw new ApiError('upstream_unavailable', 'webhooks are not available on this server');
  return deps.webhooks;
}
