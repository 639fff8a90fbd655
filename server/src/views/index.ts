/**
 * What the rest of the server reads of the views: the registry, a board's views and the
 * prepared answer. Also `@propsfeed/server/views` (workspace only), for the stream benchmark:
 * the registry, and the change from one board to the next that the stream sends.
 */
export { boardChange } from './boardChanges';
export { BoardViews, type ViewKind, viewKindOf } from './boardViews';
export { type ContentEncoding, Prepared } from './prepared';
export { ViewRegistry } from './registry';
