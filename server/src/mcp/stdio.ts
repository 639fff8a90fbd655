/**
 * The agent tools over stdio, for `props mcp`: JSON-RPC on stdin/stdout, so everything else
 * (logs, errors) goes to stderr. The SDK's serveStdio serves both revisions (a 2025-11-25
 * `initialize`, or a 2026-07-28 `server/discover` and per-request `_meta`); the transport
 * under it is this file's, for one reason: the end of stdin means the client will send no
 * more, not that it wants no answers. The SDK's own stdio transport closes at once and drops
 * the requests in flight (`printf '<initialize>\n<tools/call>\n' | props mcp` printed one
 * answer, or none); this one answers every request it read, then closes.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ReadBuffer,
  type RequestId,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { PropsApi } from '@propsfeed/contract';
import { createPropsMcpServer } from './server';

/** After stdin ends, the longest the answers still owed are waited for (each API call times out well before). */
export const DRAIN_MS = 60_000;

export interface StdioOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Where diagnostics go; never stdout, which carries the protocol. */
  stderr?: NodeJS.WritableStream;
  /** How long to wait for answers owed when stdin ends (default DRAIN_MS). */
  drainMs?: number;
}

/** Newline-delimited JSON-RPC on two streams; closes when stdin has ended and every request read is answered. */
export class AnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly buffer = new ReadBuffer();
  /** Requests read and not yet answered. */
  private readonly owed = new Set<RequestId>();
  private ended = false;
  private closed = false;
  private deadline: NodeJS.Timeout | undefined;
  private resolveDone: () => void = () => {};
  /** Settles when the transport has closed (the SDK owns onclose). */
  readonly done = new Promise<void>((resolve) => {
    this.resolveDone = resolve;
  });

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly drainMs: number,
    private readonly onTimeout: (owed: number) => void,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    try {
      this.buffer.append(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (err) {
      this.onerror?.(err as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        // A line that is JSON but not JSON-RPC: reported, and the rest still read.
        this.onerror?.(err as Error);
        continue;
      }
      if (message === null) break;
      if (isJSONRPCRequest(message)) this.owed.add(message.id);
      this.onmessage?.(message);
    }
  };

  private readonly onEnd = () => {
    if (this.ended) return;
    this.ended = true;
    if (this.owed.size === 0) {
      void this.close();
      return;
    }
    this.deadline = setTimeout(() => {
      this.onTimeout(this.owed.size);
      void this.close();
    }, this.drainMs);
  };

  private readonly onStreamError = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('props mcp: the stdio transport is closed');
    const written = this.stdout.write(serializeMessage(message));
    if (!written) await new Promise((resolve) => this.stdout.once('drain', resolve));
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.owed.delete(message.id);
      if (this.ended && this.owed.size === 0) void this.close();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.deadline);
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('error', this.onStreamError);
    (this.stdin as NodeJS.ReadableStream & { pause?: () => void }).pause?.();
    this.buffer.clear();
    this.onclose?.();
    this.resolveDone();
  }
}

/** Serves the tools on stdio until the client has closed stdin and had its answers. */
export async function serveMcpOverStdio(api: PropsApi, opts: StdioOptions = {}): Promise<void> {
  const stderr = opts.stderr ?? process.stderr;
  const log = (line: string) => stderr.write(`props mcp: ${line}\n`);
  const transport = new AnsweringStdioTransport(
    opts.stdin ?? process.stdin,
    opts.stdout ?? process.stdout,
    opts.drainMs ?? DRAIN_MS,
    (owed) => log(`stdin ended, and ${owed} request(s) were still unanswered after the wait; exiting`),
  );
  const handle = serveStdio(
    () =>
      createPropsMcpServer(api, {
        onUnexpected: (err, tool) => log(`${tool}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
      }),
    { transport, onerror: (err) => log(`transport: ${err.message}`) },
  );
  await transport.done;
  await handle.close();
}
