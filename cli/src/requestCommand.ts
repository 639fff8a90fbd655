/**
 * The common command: it sends one request and shows the answer (the API's JSON under --json,
 * else the rendered text), or with --watch draws the same answer from the live stream's board.
 * A command of that shape is declared (name, help, arguments and options, the request, the
 * rendering) and `requestCommand` makes its `run` and `register`.
 * Commands that do more (stream, login, keys, serve, doctor, ...) write their own `register`.
 */
import type { SportId } from '@propsfeed/contract';
import type { StreamParams } from '@propsfeed/sdk';
import type { Argument, Command, Option } from 'commander';
import type { CliApp, CommandContext } from './context';
import type { ErrorHint } from './errors';
import { toJson } from './output/output';
import type { StreamBoard } from './streamBoard';

/** What --watch follows, and how the answer is drawn from the stream's board after each change. */
export interface WatchSpec<Answer> {
  stream: Omit<StreamParams, 'signal'>;
  /** The answer as the board has it; undefined while it is not on the board, and `waiting` is shown. */
  answer(board: StreamBoard): Answer | undefined;
  waiting?: string;
}

/** A request command; `Params` are its `run`'s parameters after the context. */
export interface RequestCommandSpec<Params extends unknown[], Answer> {
  /** As typed after `props`, or after its parent command. */
  name: string;
  description: string;
  arguments?: readonly Argument[];
  options?: readonly Option[];
  /** Help printed after the options. */
  helpAfter?: string;
  /**
   * `run`'s parameters from the parsed arguments and options (as commander passes them, the
   * options last); without it they are `run`'s parameters as they are. May throw a usage error.
   */
  params?: NoInfer<(...parsed: never[]) => Params>;
  /**
   * Sends the request. Its parameters after the context are `run`'s: annotate them all, the
   * context too, since TypeScript infers `Params` only from a function with no unannotated one.
   */
  request(ctx: CommandContext, ...params: Params): Promise<Answer>;
  render: NoInfer<(answer: Answer, ctx: CommandContext, ...params: Params) => string>;
  /** For a command with --watch: what to follow when it is given, else undefined. */
  watch?: NoInfer<(...params: Params) => WatchSpec<Answer> | undefined>;
  /** What a refusal says was refused (see ErrorHint), or how to tell it from the options. */
  hint?: ErrorHint | ((opts: { sport?: SportId }) => ErrorHint);
}

export interface RequestCommand<Params extends unknown[]> {
  /** Sends the request and shows the answer: what the command runs, and what tests call. */
  run(ctx: CommandContext, ...params: Params): Promise<void>;
  /** Adds the command under `parent`: the program, or a command with subcommands. */
  register(parent: Command, app: CliApp): void;
}

export function requestCommand<Params extends unknown[], Answer>(
  spec: RequestCommandSpec<Params, Answer>,
): RequestCommand<Params> {
  const run = async (ctx: CommandContext, ...params: Params) => {
    // The API's JSON under --json, else the rendered text.
    const frame = (answer: Answer) => (ctx.json ? toJson(answer) : spec.render(answer, ctx, ...params));
    const watch = spec.watch?.(...params);
    if (watch) {
      await ctx.watch(watch.stream, (board) => {
        const answer = watch.answer(board);
        return answer === undefined ? ctx.out.note(watch.waiting ?? '') : frame(answer);
      });
      return;
    }
    await ctx.present(async () => frame(await ctx.load(() => spec.request(ctx, ...params))));
  };
  const register = (parent: Command, app: CliApp) => {
    const command = parent.command(spec.name).description(spec.description);
    for (const argument of spec.arguments ?? []) command.addArgument(argument);
    for (const option of spec.options ?? []) command.addOption(option);
    if (spec.helpAfter) command.addHelpText('after', spec.helpAfter);
    command.action((...parsed: unknown[]) => {
      const cmd = parsed.pop() as Command;
      const opts = parsed.at(-1) as { sport?: SportId };
      const hint = typeof spec.hint === 'function' ? spec.hint(opts) : spec.hint;
      return app.run(
        cmd,
        (ctx) => run(ctx, ...(spec.params ? spec.params(...(parsed as never[])) : (parsed as Params))),
        hint,
      );
    });
  };
  return { run, register };
}
