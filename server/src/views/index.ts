/** What the rest of the server reads of the views: the registry, a board's views and the prepared answer. */
export { BoardViews, type ViewKind, viewKindOf } from './boardViews';
export { type ContentEncoding, Prepared } from './prepared';
export { ViewRegistry } from './registry';
