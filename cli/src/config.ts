/**
 * Where the CLI gets the key and the server address: flags, then PROPS_API_KEY /
 * PROPS_BASE_URL, then the config file `props login` writes (mode 0600).
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BASE_URL } from '@propsfeed/sdk';

export interface StoredConfig {
  apiKey?: string;
  baseUrl?: string;
}

export interface Connection {
  apiKey?: string;
  baseUrl: string;
  /** Where the key came from, so a rejected key can be traced to the place to fix it. */
  keySource: 'flag' | 'env' | 'config' | 'none';
  /** Where the address came from (`props doctor` says it). */
  baseUrlSource: 'flag' | 'env' | 'config' | 'default';
}

/** $XDG_CONFIG_HOME/propsfeed, else ~/.config/propsfeed. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'propsfeed');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

export class ConfigFileError extends Error {}

/** The stored config; empty when there is none. A file that is not ours is an error, never silently ignored. */
export async function readStoredConfig(env: NodeJS.ProcessEnv = process.env): Promise<StoredConfig> {
  const path = configPath(env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigFileError(`Could not read ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    const { apiKey, baseUrl } = parsed as Record<string, unknown>;
    return {
      ...(typeof apiKey === 'string' && apiKey ? { apiKey } : {}),
      ...(typeof baseUrl === 'string' && baseUrl ? { baseUrl } : {}),
    };
  } catch {
    throw new ConfigFileError(`${path} is not valid JSON. Fix it or run \`props login\` again.`);
  }
}

/** Writes the config readable by the owner only (the folder 0700, the file 0600), atomically. */
export async function writeStoredConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = configDir(env);
  const path = configPath(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
  return path;
}

/** A server address that is no URL: said as such, rather than as a server that does not answer. */
export class BaseUrlError extends Error {}

const BASE_URL_SOURCE = {
  flag: '--base-url',
  env: 'PROPS_BASE_URL',
  config: 'the base URL stored by `props login`',
  default: 'the default base URL',
} as const;

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export interface ConnectionFlags {
  apiKey?: string;
  baseUrl?: string;
}

export async function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Promise<Connection> {
  const envKey = env.PROPS_API_KEY || undefined;
  const envUrl = env.PROPS_BASE_URL || undefined;
  const needsFile = !(flags.apiKey || envKey) || !(flags.baseUrl || envUrl);
  const stored = needsFile ? await readStoredConfig(env) : {};
  const apiKey = flags.apiKey || envKey || stored.apiKey;
  const keySource = flags.apiKey ? 'flag' : envKey ? 'env' : stored.apiKey ? 'config' : 'none';
  const baseUrl = (flags.baseUrl || envUrl || stored.baseUrl || DEFAULT_BASE_URL).trim().replace(/\/+$/, '');
  const baseUrlSource = flags.baseUrl ? 'flag' : envUrl ? 'env' : stored.baseUrl ? 'config' : 'default';
  if (!isHttpUrl(baseUrl))
    throw new BaseUrlError(
      `${BASE_URL_SOURCE[baseUrlSource]} is '${baseUrl}', which is not an http:// or https:// address (e.g. http://127.0.0.1:8787).`,
    );
  return { ...(apiKey ? { apiKey } : {}), baseUrl, keySource, baseUrlSource };
}
