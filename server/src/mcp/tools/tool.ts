/**
 * One agent tool, written once: its schemas, the PropsApi call it stands on and the text a
 * model reads. The same definition serves both MCP revisions and both transports; only the
 * PropsApi differs (in-process for the caller over HTTP, the SDK over stdio).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { McpToolName, PropsApi } from '@propsfeed/contract';
import type { z } from 'zod';
import { answer, type UnexpectedErrorHandler } from '../result';
import { type McpSchema, mcpSchema } from '../schema';

export interface ToolDef<I extends z.AnyZodObject = z.AnyZodObject, R extends object = object> {
  name: string;
  title: string;
  /** Written for a model: what the tool answers, when to use it, and what the tier changes. */
  description: string;
  input: McpSchema<I>;
  output: McpSchema<z.ZodTypeAny>;
  /** The API call behind the tool; its answer is the structured content. */
  call: (api: PropsApi, args: z.output<I>) => Promise<R>;
  /** The compact text beside it. */
  render: (value: R) => string;
}

export interface ToolSpec<I extends z.AnyZodObject, R extends object> {
  name: McpToolName;
  title: string;
  description: string;
  input: I;
  output: z.ZodTypeAny;
  call: (api: PropsApi, args: z.output<I>) => Promise<R>;
  render: (value: R) => string;
}

export function defineTool<I extends z.AnyZodObject, R extends object>(spec: ToolSpec<I, R>): ToolDef<I, R> {
  return { ...spec, input: mcpSchema(spec.input), output: mcpSchema(spec.output) };
}

/** Every tool reads the board and changes nothing; its world is propsfeed's own data. */
const ANNOTATIONS = { readOnlyHint: true, openWorldHint: false } as const;

export function registerTool<I extends z.AnyZodObject, R extends object>(
  server: McpServer,
  def: ToolDef<I, R>,
  api: PropsApi,
  onUnexpected: UnexpectedErrorHandler,
): void {
  server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: def.input,
      outputSchema: def.output,
      annotations: ANNOTATIONS,
    },
    (args) =>
      answer(
        def.name,
        () => def.call(api, args),
        (value) => def.render(value),
        onUnexpected,
      ),
  );
}
