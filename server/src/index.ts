export { type AppOptions, createApp } from './app';
export type { Board, BoardGame, BoardProp, BoardSource, BookHealth, BookQuote } from './board/types';
export { type Config, ConfigError, loadConfig } from './config';
export {
  type CreatedKeyResult,
  type CreateKeyInput,
  KeyInputError,
  type KeyInputField,
  type KeyRow,
} from './keys/issue';
export { type KeyAdmin, openKeyAdmin } from './keys/keyAdmin';
export { type ServeOptions, serve } from './main';
export { assembleRuntime, type Runtime, type RuntimeParts } from './runtime';
export { Shutdown } from './shutdown';
export { CsvImportError, type CsvImportResult, importGameLogCsv } from './stats/importCsv';
export { describeStore, StoreMissingError } from './store/db';
