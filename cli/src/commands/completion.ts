/**
 * `props completion bash|zsh|fish`: a completion script made from the program itself (its
 * commands, options and their choices), so it never falls behind a new command or sport.
 */
import { SPORT_IDS } from '@propsfeed/contract';
import { Argument, type Command, Option } from 'commander';
import type { CliApp } from '../context';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface CommandSpec {
  /** Words from the program name down, e.g. `keys create`; '' for the program itself. */
  path: string;
  description: string;
  subcommands: string[];
  options: { flags: string[]; description: string; takesValue: boolean; choices: string[] }[];
}

/** Every command of the program with its options (the globals under the program itself). */
export function commandSpecs(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (cmd: Command, path: string) => {
    specs.push({
      path,
      description: cmd.description(),
      subcommands: cmd.commands.map((c) => c.name()),
      options: [...cmd.options, new Option('-h, --help', 'show help')].map((o) => ({
        flags: [o.short, o.long].filter((f): f is string => f !== undefined),
        description: o.description,
        takesValue: o.required || o.optional,
        // --sport parses forgivingly (any case), so it has no commander choices: offer the sport ids.
        choices: o.argChoices ?? (o.long === '--sport' ? [...SPORT_IDS] : []),
      })),
    });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return specs;
}

/** A word safe inside single quotes in every shell here (descriptions are ours, but say so). */
const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
const fnName = (name: string) => `_${name.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;

function bashScript(name: string, specs: CommandSpec[]): string {
  const global = specs.find((s) => s.path === '');
  const globalFlags = (global?.options ?? [])
    .flatMap((o) => o.flags)
    .filter((f) => !/^(-h|--help|-V|--version)$/.test(f));
  const cases = specs
    .map((s) => {
      const words = [...s.subcommands, ...s.options.flatMap((o) => o.flags), ...(s.path ? globalFlags : [])];
      return `    ${quoted(s.path)}) words=${quoted(words.join(' '))} ;;`;
    })
    .join('\n');
  const valued = specs.flatMap((s) => s.options.filter((o) => o.takesValue));
  const choiceCases = [...new Map(valued.flatMap((o) => o.flags.map((f) => [f, o.choices] as const))).entries()]
    .map(
      ([flag, choices]) => `    ${flag}) COMPREPLY=($(compgen -W ${quoted(choices.join(' '))} -- "$cur")); return ;;`,
    )
    .join('\n');
  const paths = specs.map((s) => s.path).filter(Boolean);
  return `# ${name} completion for bash. Load it now: eval "$(${name} completion bash)"
# or keep it: ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
${fnName(name)}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path="" word i words=""
  case "$prev" in
${choiceCases}
  esac
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    case " ${paths.map((p) => `|${p}|`).join(' ')} " in
      *" |\${path:+$path }$word| "*) path="\${path:+$path }$word" ;;
    esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F ${fnName(name)} ${name}
`;
}

function zshScript(name: string, specs: CommandSpec[]): string {
  return `# ${name} completion for zsh. Load it now: eval "$(${name} completion zsh)"
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(name, specs)
  .split('\n')
  .filter((line) => !line.startsWith('#'))
  .join('\n')}`;
}

function fishScript(name: string, specs: CommandSpec[]): string {
  const lines = [`# ${name} completion for fish: ${name} completion fish > ~/.config/fish/completions/${name}.fish`];
  lines.push(`complete -c ${name} -f`);
  for (const spec of specs) {
    const words = spec.path.split(' ').filter(Boolean);
    const parent = words.slice(0, -1);
    const own = words.at(-1);
    // The command itself: offered when its parent is the last command typed.
    if (own) {
      const siblings = specs.find((s) => s.path === parent.join(' '))?.subcommands ?? [];
      const condition = parent.length
        ? `__fish_seen_subcommand_from ${parent.at(-1)}; and not __fish_seen_subcommand_from ${siblings.join(' ')}`
        : '__fish_use_subcommand';
      lines.push(`complete -c ${name} -n ${quoted(condition)} -a ${own} -d ${quoted(spec.description)}`);
    }
    for (const option of spec.options) {
      const condition = own ? `-n ${quoted(`__fish_seen_subcommand_from ${own}`)} ` : '';
      const long = option.flags.find((f) => f.startsWith('--'))?.slice(2);
      const short = option.flags.find((f) => !f.startsWith('--'))?.slice(1);
      const value = option.choices.length ? ` -xa ${quoted(option.choices.join(' '))}` : option.takesValue ? ' -r' : '';
      lines.push(
        `complete -c ${name} ${condition}${long ? `-l ${long} ` : ''}${short ? `-s ${short} ` : ''}-d ${quoted(option.description)}${value}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, program: Command): string {
  const specs = commandSpecs(program);
  const name = program.name();
  if (shell === 'bash') return bashScript(name, specs);
  if (shell === 'zsh') return zshScript(name, specs);
  return fishScript(name, specs);
}

export function register(program: Command, app: CliApp): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish); see `props completion --help`')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      '\nLoad it in the current shell:\n  bash, zsh: eval "$(props completion bash)"   (or zsh)\n  fish:      props completion fish | source\n',
    )
    .action((shell: Shell) => {
      app.deps.stdout.write(completionScript(shell, program));
    });
}
