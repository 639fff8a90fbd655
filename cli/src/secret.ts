/** Reads a secret: a hidden prompt on a terminal, else the first line of piped stdin. */
import type { Stream } from './output/output';

export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0] ?? '';
}

export async function readSecret(input: SecretInput, prompt: Stream, label: string): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return firstLine(input);
  prompt.write(label);
  input.setRawMode(true);
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') {
            input.removeListener('data', onData);
            return resolve(value);
          }
          if (ch === '\u0003') {
            input.removeListener('data', onData);
            return reject(new Error('cancelled'));
          }
          if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
          else value += ch;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    prompt.write('\n');
  }
}
