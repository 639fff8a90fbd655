export { createApp } from './app';
export { type Config, ConfigError, loadConfig } from './config';
export type { Board, BoardGame, BoardProp, BoardSource, BookHealth, BookQuote } from './feed/types';
export { serve } from './main';
